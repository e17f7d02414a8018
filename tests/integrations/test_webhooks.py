"""Webhooks end to end: a real worker delivers to a local receiving server; signature, payloads, retries, order,
disabling, forgotten and erased data; the endpoints API and its tenant isolation."""

from __future__ import annotations

import hashlib
import hmac
import time
from typing import Any

import pytest
from celery.signals import before_task_publish

from integrations.webhooks.models import WebhookDelivery, WebhookEndpoint
from integrations.webhooks.signing import signature_verify
from tests.conftest import Persona, wait_until
from tests.integrations.conftest import Receiver

ALL_EVENTS = ["fact.created", "fact.updated", "fact.superseded", "fact.forgotten", "conflict.opened", "subject.erased"]
worker = pytest.mark.usefixtures("celery_worker_process")


@pytest.fixture
def private_targets(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = True  # the receiver is on 127.0.0.1 (the worker has it too)


def subscribe(persona: Persona, url: str, events: list[str] | None = None) -> dict[str, Any]:
    response = persona.client.post("/api/v1/webhooks", {"url": url, "events": events or ALL_EVENTS}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def received_types(receiver: Receiver) -> list[str]:
    return [e["type"] for e in receiver.events()]


@worker
@pytest.mark.django_db(transaction=True)
def test_a_delivery_is_signed_and_says_what_changed(alice: Persona, receiver: Receiver, private_targets: None) -> None:
    hook = subscribe(alice, receiver.url)
    created = alice.post("facts", {"text": "User lives in Chaoyang District."}).json()
    alice.client.patch(f"/api/v1/users/alice/facts/{created['id']}", {"pinned": True}, format="json")
    moved = alice.post("facts", {"text": "User lives in Haidian District."}).json()
    assert moved["action"] == "superseded"
    assert wait_until(lambda: len(receiver.events()) >= 4), receiver.received
    first = receiver.received[0]
    # The signature: HMAC-SHA256 with the secret over "<t>.<raw body>", as docs/integrations.md tells a receiver to check it.
    header = first.headers["memory-site-signature"]
    t, v1 = (part.split("=", 1)[1] for part in header.split(","))
    expected = hmac.new(hook["secret"].encode(), f"{t}.".encode() + first.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(v1, expected) and abs(time.time() - int(t)) < 60
    assert signature_verify(secret=hook["secret"], header=header, body=first.body)
    assert not signature_verify(secret=hook["secret"], header=header, body=first.body.replace(b"Chaoyang", b"Xicheng"))
    assert not signature_verify(secret="whsec_other", header=header, body=first.body)
    assert not signature_verify(secret=hook["secret"], header=header, body=first.body, now=int(t) + 3600)  # replayed
    events = receiver.events()
    assert [e["type"] for e in events] == ["fact.created", "fact.updated", "fact.superseded", "fact.created"]
    assert events[0]["user"] == "alice" and events[0]["data"]["fact"]["id"] == created["id"]
    assert events[0]["data"]["fact"]["text"] == "User lives in Chaoyang District."
    assert events[1]["data"]["change"] == "corrected" and events[1]["data"]["changed"] == ["pinned"]
    superseded = events[2]["data"]
    assert superseded["fact"]["id"] == created["id"] and superseded["superseded_by"]["id"] == moved["id"]
    assert superseded["superseded_by"]["text"] == "User lives in Haidian District."
    assert [e["sequence"] for e in events] == sorted(e["sequence"] for e in events)
    assert first.headers["memory-site-event"] == "fact.created" and first.headers["content-type"] == "application/json"


@worker
@pytest.mark.django_db(transaction=True)
def test_a_failed_delivery_is_retried_and_the_log_shows_each_attempt(
    alice: Persona, receiver: Receiver, private_targets: None
) -> None:
    receiver.script = [500]
    subscribe(alice, receiver.url, ["fact.created"])
    alice.post("facts", {"text": "User's favourite tea is oolong."})
    assert wait_until(lambda: len(receiver.events()) == 1)
    assert [r.status for r in receiver.received] == [500, 200]
    assert receiver.received[0].body == receiver.received[1].body  # the same event, sent again
    assert [r.headers["memory-site-attempt"] for r in receiver.received] == ["1", "2"]
    delivery = WebhookDelivery.objects.get()
    assert wait_until(lambda: WebhookDelivery.objects.get().state == "delivered")
    delivery.refresh_from_db()
    assert delivery.attempts == 2 and delivery.last_status_code == 200
    assert WebhookEndpoint.objects.get().consecutive_failures == 0


@worker
@pytest.mark.django_db(transaction=True)
def test_a_users_events_arrive_in_order_each_waiting_for_the_one_before(
    alice: Persona, bob: Persona, receiver: Receiver, private_targets: None
) -> None:
    receiver.script, receiver.scripted_user = [500, 500], "alice"  # her first event fails twice: the rest wait
    subscribe(alice, receiver.url, ["fact.created"])
    texts = ["User has a cat named Miso.", "User plays the cello.", "User is allergic to peanuts.", "用户喜欢吃饺子。"]
    for text in texts:
        alice.post("facts", {"text": text})
    bob.post("facts", {"text": "User collects stamps."})  # another stream: not held back by alice's failures
    assert wait_until(lambda: len(receiver.events()) == 5)
    alices = [e for e in receiver.events() if e["user"] == "alice"]
    assert [e["data"]["fact"]["text"] for e in alices] == texts
    assert [e["sequence"] for e in alices] == sorted(e["sequence"] for e in alices)
    statuses = [(r.json["data"]["fact"]["text"], r.status) for r in receiver.received if r.json["user"] == "alice"]
    assert statuses[:3] == [(texts[0], 500), (texts[0], 500), (texts[0], 200)]
    assert [r.status for r in receiver.received if r.json["user"] == "bob"] == [200]


@worker
@pytest.mark.django_db(transaction=True)
def test_an_endpoint_that_keeps_failing_is_disabled_with_the_reason(
    alice: Persona, receiver: Receiver, private_targets: None
) -> None:
    receiver.default = 500
    hook = subscribe(alice, receiver.url, ["fact.created"])
    alice.post("facts", {"text": "User drives a blue bicycle."})
    assert wait_until(lambda: not WebhookEndpoint.objects.get().enabled)
    endpoint = WebhookEndpoint.objects.get()
    assert "3 failed delivery attempts in a row" in endpoint.disabled_reason and "HTTP 500" in endpoint.disabled_reason
    assert len(receiver.received) == 3
    delivery = WebhookDelivery.objects.get()
    assert delivery.state == "pending" and delivery.last_status_code == 500  # kept for when it is enabled again
    listed = alice.client.get("/api/v1/webhooks").json()["results"]
    assert listed[0]["id"] == hook["id"] and listed[0]["enabled"] is False and listed[0]["disabled_reason"]
    # Once the receiver is fixed and the operator enables the endpoint, what waited is sent.
    receiver.default = 200
    from integrations.webhooks import services
    from integrations.webhooks.tasks import deliveries_send

    deliveries_send(services.webhook_endpoint_enable(endpoint=endpoint))
    assert wait_until(lambda: len(receiver.events()) == 1)
    assert receiver.events()[0]["data"]["fact"]["text"] == "User drives a blue bicycle."


@worker
@pytest.mark.django_db(transaction=True)
def test_forgotten_and_erased_data_is_announced_without_its_text(
    alice: Persona, receiver: Receiver, private_targets: None
) -> None:
    subscribe(alice, receiver.url)
    fact = alice.post("facts", {"text": "User's locker code is 7731."}).json()
    assert wait_until(lambda: len(receiver.events()) == 1)
    assert alice.client.delete(f"/api/v1/users/alice/facts/{fact['id']}").status_code == 204
    assert wait_until(lambda: len(receiver.events()) == 2)
    forgotten = receiver.events()[1]
    assert forgotten["type"] == "fact.forgotten" and forgotten["data"]["fact"]["id"] == fact["id"]
    assert "7731" not in receiver.received[1].body.decode()
    # The log no longer quotes the forgotten fact either.
    assert wait_until(lambda: all("7731" not in str(d.payload) for d in WebhookDelivery.objects.all()))
    assert alice.client.delete("/api/v1/users/alice").status_code == 204
    assert wait_until(lambda: len(receiver.events()) == 3)
    erased = receiver.events()[2]
    assert erased["type"] == "subject.erased" and erased["user"] == "alice" and erased["data"]["erasure_id"]
    # The erasure removed alice's deliveries; the erased event's log entry keeps no id of her once sent.
    assert wait_until(lambda: WebhookDelivery.objects.get().payload["user"] is None)


@worker
@pytest.mark.django_db(transaction=True)
def test_a_conflict_is_announced_once_with_both_facts(
    alice: Persona, receiver: Receiver, private_targets: None
) -> None:
    subscribe(alice, receiver.url, ["conflict.opened"])
    alice.post("facts", {"text": "User likes spicy food."})
    answer = alice.post("facts", {"text": "User doesn't like spicy food."}).json()
    assert answer["action"] == "conflicted"
    assert wait_until(lambda: len(receiver.events()) == 1)
    opened = receiver.events()[0]["data"]
    assert {f["text"] for f in opened["facts"]} == {"User likes spicy food.", "User doesn't like spicy food."}
    conflicts = alice.get("conflicts").json()["results"]
    assert opened["conflict"]["id"] == conflicts[0]["id"]


@pytest.mark.django_db(transaction=True)
def test_only_a_tenant_with_a_listening_endpoint_pays_for_webhooks(
    alice: Persona, carol: Persona, private_targets: None
) -> None:
    published: list[tuple[str, Any]] = []

    def capture(sender: str | None = None, body: Any = None, **_: Any) -> None:
        published.append((str(sender), body))

    before_task_publish.connect(capture, weak=False)
    try:
        alice.post("facts", {"text": "User's locker code is 4242."})
        assert not [name for name, _ in published if name.startswith("integrations.")]
        subscribe(carol, "http://127.0.0.1:9/hooks", ["subject.erased"])  # carol listens, but not to facts
        carol.post("facts", {"text": "User's locker code is 4242."})
        assert not [name for name, _ in published if name.startswith("integrations.")]
        subscribe(alice, "http://127.0.0.1:9/hooks", ["fact.created"])
        alice.post("facts", {"text": "User's bike lock code is 4242."})
    finally:
        before_task_publish.disconnect(capture)
    collects = [body for name, body in published if name == "integrations.webhooks.tasks.subject_events_collect_task"]
    assert len(collects) == 1  # once for the whole transaction, with the subject's id only
    assert "4242" not in repr(collects) and "lock" not in repr(collects)


# --- the API ------------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_webhooks_api_shows_the_secret_once_and_keeps_tenants_apart(
    alice: Persona, bob: Persona, carol: Persona, anon_client: Any, private_targets: None
) -> None:
    hook = subscribe(alice, "http://127.0.0.1:8123/hook", ["fact.created", "subject.erased"])
    assert hook["secret"].startswith("whsec_") and hook["events"] == ["fact.created", "subject.erased"]
    listed = alice.client.get("/api/v1/webhooks").json()["results"]
    assert [h["id"] for h in listed] == [hook["id"]] and "secret" not in listed[0]
    assert [h["id"] for h in bob.client.get("/api/v1/webhooks").json()["results"]] == [hook["id"]]  # same tenant
    assert carol.client.get("/api/v1/webhooks").json()["results"] == []
    assert carol.client.delete(f"/api/v1/webhooks/{hook['id']}").status_code == 404
    assert anon_client.get("/api/v1/webhooks").status_code == 401
    assert anon_client.post("/api/v1/webhooks", {"url": "http://x", "events": ["fact.created"]}).status_code == 401
    assert anon_client.delete(f"/api/v1/webhooks/{hook['id']}").status_code == 401
    assert alice.client.delete(f"/api/v1/webhooks/{hook['id']}").status_code == 204
    assert alice.client.get("/api/v1/webhooks").json()["results"] == []


@pytest.mark.django_db
def test_the_webhooks_api_refuses_what_it_cannot_deliver(alice: Persona, settings: Any) -> None:
    def create(url: str, events: list[str]) -> Any:
        return alice.client.post("/api/v1/webhooks", {"url": url, "events": events}, format="json")

    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = True
    assert create("ftp://127.0.0.1/hook", ["fact.created"]).json()["error"]["code"] == "invalid_target"
    assert create("http://127.0.0.1:8000/hook", ["fact.exploded"]).json()["error"]["code"] == "invalid_events"
    assert create("http://127.0.0.1:8000/hook", []).status_code == 400
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = False
    for url in ("http://127.0.0.1:8000/hook", "http://localhost/hook", "http://10.1.2.3/hook", "http://[::1]/h"):
        refused = create(url, ["fact.created"])
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid_target", url
    assert (
        "WEBHOOKS_ALLOW_PRIVATE_TARGETS" in create("http://192.168.1.5/h", ["fact.created"]).json()["error"]["message"]
    )
