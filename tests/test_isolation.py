"""Nobody let in: every URL of the URLconf (and every operation of the OpenAPI schema), tried by everyone who does
not belong, answers 401/403/404 (or acts on the caller's own tenant or subject only), shows none of alice's data and
changes none of it.

The routes are enumerated from the URLconf: a route without a declared expectation in ROUTES fails the first test, so
a new endpoint cannot go untried. Each route is tried with every method by each intruder:
- anonymous (no credentials), a revoked key of alice's tenant, carol's key (another tenant);
- bob's portal session (another subject of alice's tenant), and the operator of another tenant (made by
  `create_operator`, with the operators' group's permissions: it sees its own tenant's rows, never alice's).
alice herself (her key, her portal session) must get past the door on at least one method, so a route whose filler
values are wrong cannot pass by answering 404 to everyone.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern

from conversations.models import ApiKey, Message, Subject
from conversations.services import api_key_create, api_key_revoke
from facts.models import Conflict, Fact
from integrations.webhooks.models import WebhookEndpoint
from policies.models import ExportJob
from tests.conftest import Persona, _persona
from tests.policies.conftest import portal_client
from tests.test_admin_tenancy import make_operator

MARK = "QX7731"  # in every piece of alice's data: no intruder's answer may contain it
METHODS = ("get", "post", "put", "patch", "delete")


@dataclass(frozen=True)
class Route:
    """What a route is: `api` (an API key: REST, mem0, MCP), `portal` (a portal session), `admin` (staff), `public`.

    own_tenant: the route acts inside the caller's own tenant (creating its own user "alice", listing its own
    webhooks), so another tenant's key may succeed there, seeing and changing nothing of tenant A.
    """

    kind: str
    own_tenant: bool = False
    body: dict[str, Any] = field(default_factory=dict)
    query: str = ""
    accept: str = "*/*"


_TURN = {"messages": [{"role": "user", "content": "hello there"}]}
_MCP = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
_MCP_ACCEPT = "application/json, text/event-stream"
ROUTES: dict[str, Route] = {
    "healthz": Route("public"),
    "": Route("public"),
    "i18n/setlang/": Route("public"),
    "api/v1/schema/": Route("public"),
    "api/v1/docs/": Route("public"),
    "me/link/<str:token>": Route("public"),  # a link is its own credential: a wrong one opens nothing
    # REST API
    "api/v1/users/<str:user>/messages": Route("api", own_tenant=True, body=_TURN),
    "api/v1/jobs/<uuid:job_id>": Route("api"),
    "api/v1/users/<str:user>/search": Route("api", body={"query": "coffee"}),
    "api/v1/tools": Route("api", own_tenant=True),
    "api/v1/users/<str:user>/facts": Route("api", own_tenant=True, body={"text": "I like green tea."}),
    "api/v1/users/<str:user>/facts/<int:fact_id>": Route("api", body={"pinned": True}),
    "api/v1/users/<str:user>/facts/<int:fact_id>/history": Route("api"),
    "api/v1/users/<str:user>/conflicts": Route("api"),
    "api/v1/conflicts/<int:conflict_id>/resolve": Route("api", body={"keep": "both"}),
    "api/v1/users/<str:user>/context": Route("api", body={"query": "coffee"}),
    "api/v1/users/<str:user>": Route("api"),
    "api/v1/users/<str:user>/export": Route("api"),
    "api/v1/users/<str:user>/portal-link": Route("api"),
    "api/v1/users/<str:user>/feedback": Route("api", body={"helped": ["<fact_id>"]}),  # alice's fact, by id
    "api/v1/webhooks": Route("api", own_tenant=True),
    "api/v1/webhooks/<int:webhook_id>": Route("api", body={"description": "x"}),
    # mem0's paths: the same keys (Token or Bearer); a user of tenant A does not exist for tenant B
    "v1/ping/": Route("api", own_tenant=True),
    "v3/memories/add/": Route("api", own_tenant=True, body={**_TURN, "user_id": "alice"}),
    "v3/memories/": Route("api", own_tenant=True, body={"user_id": "alice"}),
    "v3/memories/search/": Route("api", own_tenant=True, body={"query": "coffee", "user_id": "alice"}),
    "v1/memories/": Route("api", own_tenant=True, query="?user_id=alice"),
    "v1/memories/<str:memory_id>/": Route("api", body={"text": "changed"}),
    "v1/memories/<str:memory_id>/history/": Route("api"),
    "v1/event/<str:event_id>/": Route("api"),
    "v1/entities/": Route("api", own_tenant=True),
    "v2/entities/<str:entity_type>/<str:entity_id>/": Route("api", own_tenant=True),
    "mcp/": Route("api", own_tenant=True, body=_MCP, accept=_MCP_ACCEPT),
    "mcp": Route("api", own_tenant=True, body=_MCP, accept=_MCP_ACCEPT),
    # the privacy portal
    "me/": Route("portal", own_tenant=True),
    "me/logout/": Route("public"),  # ends the caller's own portal session, if any: nothing to see
    "admin/login/": Route("public"),
    "me/facts/<int:fact_id>/": Route("portal"),
    "me/facts/<int:fact_id>/correct/": Route("portal", body={"text": "I hate tea."}),
    "me/facts/<int:fact_id>/forget/": Route("portal"),
    "me/forget-everything/": Route("portal", own_tenant=True),
    "me/pause/": Route("portal", own_tenant=True),
    "me/conflicts/<int:conflict_id>/resolve/": Route("portal", body={"keep": "both"}),
    "me/export/": Route("portal", own_tenant=True, body={"format": "json"}),
    "me/exports/<uuid:uid>/": Route("portal"),
    "me/exports/<uuid:uid>/download/": Route("portal"),
}
# Every route under admin/ is the Django admin's (or an operator page of ours): staff only, per model permission.
ADMIN_PREFIX = "admin/"


def _walk(patterns: list[URLPattern | URLResolver], prefix: str = "") -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    for pattern in patterns:
        route = prefix + _route_text(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found += _walk(pattern.url_patterns, route)
        else:
            found.append((route, pattern.callback))
    return found


def _route_text(pattern: Any) -> str:
    text = str(pattern)
    if isinstance(pattern, RegexPattern):
        text = text.removeprefix("^").removesuffix("$").removesuffix("\\Z")
    return text


def all_routes() -> list[str]:
    return sorted({route for route, _ in _walk(get_resolver().url_patterns)})


def test_every_route_has_a_declared_expectation() -> None:
    routes = all_routes()
    undeclared = [r for r in routes if r not in ROUTES and not r.startswith(ADMIN_PREFIX)]
    assert not undeclared, f"declare who may reach these new routes in ROUTES: {undeclared}"
    stale = [r for r in ROUTES if r not in routes]
    assert not stale, f"ROUTES names routes that no longer exist: {stale}"


def test_every_operation_of_the_openapi_schema_is_a_declared_route() -> None:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    declared = [re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", r) for r in ROUTES]
    missing = [p for p in schema["paths"] if p.lstrip("/") not in declared]
    assert not missing and len(schema["paths"]) >= 15, missing


# --- the world: alice's data in tenant A, and the intruders ------------------------------------------------------


@dataclass
class World:
    alice: Persona
    values: dict[str, str]
    clients: dict[str, Client]


def _bearer(key: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {key}")


def _world() -> World:
    alice, bob, carol = _persona("alice", "tenant-a"), _persona("bob", "tenant-a"), _persona("carol", "tenant-b")
    bob.post("facts", {"text": "I ride a red bike."})  # bob exists, so his portal opens
    fact = alice.post("facts", {"text": f"I live in Lisbon near {MARK} street."}).json()
    alice.post("facts", {"text": f"I don't like coffee {MARK}."})
    alice.post("facts", {"text": f"I love coffee {MARK}."})
    conflict = Conflict.objects.filter(tenant=alice.tenant).first()
    assert conflict is not None, "the world needs an open conflict"
    job = alice.ingest(f"My locker code is {MARK}.", wait=False).json()
    subject = Subject.objects.get(tenant=alice.tenant, external_id="alice")
    export = ExportJob.objects.create(tenant_id=alice.tenant.pk, subject=subject, format="json", total=1)
    webhook = WebhookEndpoint.objects.create(
        tenant=alice.tenant, url=f"https://hooks.example.com/{MARK}", events=["fact.created"], secret="s" * 32
    )
    revoked_key, revoked_raw = api_key_create(tenant=alice.tenant, name="old")
    api_key_revoke(api_key=revoked_key)
    staff_client, _ = make_operator("tenant-b", "operator-b")  # carol's tenant's operator, by the command
    owner_admin = get_user_model().objects.create_superuser("root", password="x-long-password-2")
    owner_admin_client = Client()
    owner_admin_client.force_login(owner_admin)
    values = {
        "user": "alice",
        "fact_id": str(fact["id"]),
        "memory_id": str(fact["id"]),
        "conflict_id": str(conflict.pk),
        "job_id": job["job_id"],
        "webhook_id": str(webhook.pk),
        "uid": str(export.uid),
        "token": "not-a-real-portal-token",
        "event_id": job["job_id"],
        "entity_type": "user",
        "entity_id": "alice",
        "content_type_id": str(ContentType.objects.get_for_model(Fact).pk),
        "object_id": str(fact["id"]),
        "app_label": "facts",
        "url": "no-such-page/",
        "id": str(owner_admin.pk),  # the admin's user password page
    }
    clients = {
        "anonymous": Client(),
        "revoked key": _bearer(revoked_raw),
        "other tenant's key": _bearer(carol.key),
        "other subject's portal session": portal_client(bob),
        "staff of another tenant": staff_client,
        # the owners, for the sanity check
        "alice's key": _bearer(alice.key),
        "alice's portal session": portal_client(alice),
        "superuser": owner_admin_client,
    }
    return World(alice=alice, values=values, clients=clients)


def _path(route: str, values: dict[str, str]) -> str:
    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        assert name in values, f"give _world a value for the URL argument {name!r} of {route}"
        return values[name]

    path = re.sub(r"<(?:\w+:)?(\w+)>", fill, route)
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", fill, path)
    return "/" + path


def _alice_state(alice: Persona) -> tuple[Any, ...]:
    """Everything of alice's that an intruder could change."""
    return (
        list(Fact.objects.filter(tenant=alice.tenant, subject__external_id="alice").order_by("pk").values_list(
            "pk", "text", "status", "tier", "pinned", "valid_to", "expires_at")),
        list(Message.objects.filter(tenant=alice.tenant, subject__external_id="alice").order_by("pk").values_list(
            "pk", "content", "extraction_state")),
        list(Conflict.objects.filter(tenant=alice.tenant).order_by("pk").values_list("pk", "state", "resolution")),
        list(Subject.objects.filter(tenant=alice.tenant).order_by("pk").values_list("pk", "memory_paused")),
        list(WebhookEndpoint.objects.filter(tenant=alice.tenant).order_by("pk").values_list(
            "pk", "url", "description", "enabled")),
        list(ExportJob.objects.filter(tenant_id=alice.tenant.pk).order_by("pk").values_list("pk", "state")),
        list(ApiKey.objects.filter(tenant=alice.tenant).order_by("pk").values_list("pk", "revoked_at")),
    )  # fmt: skip


def _send(client: Client, method: str, path: str, route: Route) -> Any:
    if method in ("get", "delete"):
        return getattr(client, method)(path + route.query, HTTP_ACCEPT=route.accept)
    return getattr(client, method)(
        path + route.query, route.body, content_type="application/json", HTTP_ACCEPT=route.accept
    )


def _content(response: Any) -> bytes:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content)
    return bytes(response.content)


def _allowed(route: Route, intruder: str) -> set[int]:
    """The statuses an intruder may get on a route (405 everywhere: a method the route does not have)."""
    if route.kind == "public":  # (503: /healthz while the test has no worker)
        return {200, 204, 301, 302, 400, 403, 404, 405, 406, 410, 503}
    if route.kind == "admin":  # a staff user sees the admin's index and the service's health, no tenant's data
        staff = intruder == "staff of another tenant"
        return {302, 403, 404, 405} | ({200, 503} if staff else set())
    if route.kind == "api":
        if intruder == "other tenant's key":
            return {404, 405} | ({200, 201, 202, 204, 400} if route.own_tenant else set())
        return {401, 405}
    # portal: without a portal session the signed-out page (403); bob's session reaches only bob's own things
    if intruder == "other subject's portal session":
        return {404, 405} | ({200, 302, 400} if route.own_tenant else set())
    return {403, 405}


INTRUDERS = (
    "anonymous",
    "revoked key",
    "other tenant's key",
    "other subject's portal session",
    "staff of another tenant",
)
OWNER = {"api": "alice's key", "portal": "alice's portal session"}


def _route_of(route: str) -> Route:
    return ROUTES.get(route) or Route("admin") if route.startswith(ADMIN_PREFIX) else ROUTES[route]


def _try_route(world: World, route_text: str) -> list[str]:
    """Each intruder's request, with each method, answers as declared and leaves alice's data as it was."""
    route = _route_of(route_text)
    path = _path(route_text, world.values)
    if '"<fact_id>"' in json.dumps(route.body):  # a body naming alice's fact
        body = json.loads(json.dumps(route.body).replace('"<fact_id>"', world.values["fact_id"]))
        route = dataclasses.replace(route, body=body)
    before = _alice_state(world.alice)
    failures: list[str] = []
    methods = METHODS if route.kind != "admin" else ("get", "post")  # the admin's views serve both alike
    # Without a staff session, the admin treats a key, a portal session and nobody alike: one of them stands for all.
    intruders = INTRUDERS if route.kind != "admin" else ("anonymous", "staff of another tenant")
    for intruder in intruders:
        allowed = _allowed(route, intruder)
        for method in methods:
            response = _send(world.clients[intruder], method, path, route)
            body = _content(response)
            where = f"{method.upper()} {path} as {intruder}: {response.status_code}"
            if response.status_code not in allowed:
                failures.append(f"{where} (expected one of {sorted(allowed)}) {body[:200]!r}")
            if MARK.encode() in body:
                failures.append(f"{where} shows alice's data")
            if _alice_state(world.alice) != before:
                failures.append(f"{where} changed alice's data")
                before = _alice_state(world.alice)
    owner = OWNER.get(route.kind)
    if owner is not None and route_text != "me/logout/":
        statuses = [_send(world.clients[owner], m, path, route).status_code for m in METHODS]
        if all(s in {401, 403, 404, 405} for s in statuses):
            failures.append(f"{path}: even {owner} gets {statuses}; are its filler values right?")
    return failures


@pytest.mark.timeout(1500)  # about 1,500 requests: 5 minutes on a busy two-core machine
@pytest.mark.django_db
def test_nobody_else_reaches_alice_through_any_route(settings: Any) -> None:
    """One world; each route tried inside a savepoint rolled back after it, so what one route's request did (bob
    forgot himself, alice's owner check resolved the conflict) does not change what the next one finds."""
    settings.AUTH_FAILURE_RATE = None  # this test fails authentication a thousand times on purpose
    world = _world()
    failures: list[str] = []
    routes = all_routes()
    for route_text in routes:
        savepoint = transaction.savepoint()
        cookies = {name: copy.deepcopy(client.cookies) for name, client in world.clients.items()}
        try:
            failures += _try_route(world, route_text)
        finally:
            transaction.savepoint_rollback(savepoint)
            for name, client in world.clients.items():  # a logout gave the browser a new, empty session
                client.cookies = cookies[name]
    assert len(routes) > 60
    assert not failures, "\n".join(failures)
