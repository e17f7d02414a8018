"""Tenant-scoped operators: every admin page renders for a superuser and a tenant's operator and is refused to
non-staff; the operator sees and reaches only its tenant's rows (404 by URL), in lists, search and filters."""

from __future__ import annotations

import io

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from conversations.models import ApiKey, OperatorMembership, Tenant
from facts.models import Conflict, Fact
from tests.conftest import Persona

OUR_APPS = {"conversations", "facts", "policies", "integrations"}
PASSWORD = "pw-long-enough-123"


def make_operator(tenant_name: str, username: str) -> tuple[Client, str]:
    """An operator made by the management command, logged in with the password it printed."""
    out, err = io.StringIO(), io.StringIO()
    call_command("create_operator", "--tenant", tenant_name, "--username", username, stdout=out, stderr=err)
    password = out.getvalue().strip().splitlines()[-1]
    client = Client()
    assert client.login(username=username, password=password)
    return client, password


@pytest.fixture
def superuser(db: None, django_user_model) -> Client:  # type: ignore[no-untyped-def]
    user = django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def world(alice: Persona, carol: Persona) -> dict[str, object]:
    """Facts, a conflict and keys in tenant A (alice) and tenant B (carol)."""
    alice.ingest("I live in Beijing and I have a corgi named 豆包.")
    for persona in (alice, carol):
        persona.post("facts", {"text": "User doesn't like coffee."})
        persona.post("facts", {"text": "User loves coffee."})
    carol.post("facts", {"text": "Carol's secret: she keeps a diary in 上海."})
    a, b = alice.tenant, carol.tenant
    return {
        "a": a,
        "b": b,
        "b_fact": Fact.objects.filter(tenant=b).first(),
        "b_conflict": Conflict.objects.get(tenant=b),
        "b_key": ApiKey.objects.get(tenant=b),
        "a_fact": Fact.objects.filter(tenant=a).first(),
    }


def _admin_models() -> list[type[Model]]:
    return [m for m in admin.site._registry if m._meta.app_label in OUR_APPS]


def _url(model: type[Model], view: str, *args: object) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def test_create_operator_prints_the_password_alone_on_its_last_line(db: None, django_user_model) -> None:  # type: ignore[no-untyped-def]
    client, password = make_operator("acme", "ops-acme")
    user = django_user_model.objects.get(username="ops-acme")
    assert user.is_staff and not user.is_superuser and user.check_password(password) and len(password) >= 20
    assert OperatorMembership.objects.get(user=user).tenant.name == "acme"
    assert client.get("/admin/").status_code == 200
    with pytest.raises(Exception, match="exists already"):
        call_command("create_operator", "--tenant", "acme", "--username", "ops-acme", stdout=io.StringIO())


def test_every_page_renders_for_superuser_and_operator_and_is_refused_to_non_staff(
    superuser: Client, world: dict[str, object], django_user_model
) -> None:  # type: ignore[no-untyped-def]
    from policies.console.services import usage_aggregate

    usage_aggregate(days=1)
    operator, _ = make_operator("tenant-a", "ops-a")
    django_user_model.objects.create_user("visitor", password=PASSWORD, is_staff=False)
    visitor = Client()
    visitor.login(username="visitor", password=PASSWORD)
    for model in _admin_models():
        changelist = _url(model, "changelist")
        assert superuser.get(changelist).status_code == 200, changelist
        refused = visitor.get(changelist)
        assert refused.status_code == 302 and "/admin/login/" in refused["Location"], changelist
        if model is OperatorMembership:
            assert operator.get(changelist).status_code == 403  # an operator may not widen its own reach
            continue
        assert operator.get(changelist).status_code == 200, changelist
        own = _own(model, world["a"])  # type: ignore[arg-type]
        if own is not None:
            change = _url(model, "change", own.pk)
            assert superuser.get(change).status_code == 200, change
            assert operator.get(change).status_code == 200, change
            assert visitor.get(change).status_code == 302, change
    for page in ("/admin/dashboard/", reverse("admin:facts_conflict_review")):
        assert superuser.get(page).status_code == 200
        assert operator.get(page).status_code == 200
        assert visitor.get(page).status_code == 302


def _own(model: type[Model], tenant: Tenant) -> Model | None:
    """A row of `model` in `tenant` (the tenant itself for Tenant)."""
    if model is Tenant:
        return tenant
    return model._default_manager.filter(tenant=tenant).first()  # type: ignore[attr-defined]


def test_an_operator_gets_404_for_another_tenants_objects_by_url(world: dict[str, object]) -> None:
    operator, _ = make_operator("tenant-a", "ops-a")
    for obj in (world["b_fact"], world["b_conflict"], world["b_key"]):
        model = type(obj)
        for view in ("change", "delete", "history"):
            url = _url(model, view, obj.pk)  # type: ignore[attr-defined]
            assert operator.get(url).status_code == 404, url
    fact = world["b_fact"]
    response = operator.post(_url(Fact, "delete", fact.pk), {"post": "yes"})  # type: ignore[attr-defined]
    assert response.status_code == 404 and Fact.objects.filter(pk=fact.pk).exists()  # type: ignore[attr-defined]
    conflict = world["b_conflict"]
    review = operator.post(reverse("admin:facts_conflict_review"), {"conflict": conflict.pk, "keep": "both"})  # type: ignore[attr-defined]
    assert review.status_code == 404
    assert Conflict.objects.get(pk=conflict.pk).state == "open"  # type: ignore[attr-defined]


def test_an_operator_sees_none_of_another_tenants_rows_in_lists_search_filters_or_actions(
    world: dict[str, object],
) -> None:
    operator, _ = make_operator("tenant-a", "ops-a")
    facts = operator.get(_url(Fact, "changelist")).content.decode()
    assert "Carol" not in facts and "tenant-b" not in facts and "corgi" in facts
    assert "Carol" not in operator.get(_url(Fact, "changelist") + "?q=diary").content.decode()
    assert "diary" not in operator.get(_url(Fact, "changelist") + "?q=上海").content.decode()
    for model in (Conflict, ApiKey):
        html = operator.get(_url(model, "changelist")).content.decode()
        assert "tenant-b" not in html and "carol" not in html.lower()
    # An action posted with another tenant's id changes nothing: the selection is read through the scoped list.
    fact = world["b_fact"]
    operator.post(_url(Fact, "changelist"), {"action": "pin", "_selected_action": [fact.pk]})  # type: ignore[attr-defined]
    assert not Fact.objects.get(pk=fact.pk).pinned  # type: ignore[attr-defined]
    key = world["b_key"]
    operator.post(_url(ApiKey, "changelist"), {"action": "revoke", "_selected_action": [key.pk]})  # type: ignore[attr-defined]
    assert ApiKey.objects.get(pk=key.pk).revoked_at is None  # type: ignore[attr-defined]


def test_a_staff_user_without_a_membership_sees_no_rows(world: dict[str, object], django_user_model) -> None:  # type: ignore[no-untyped-def]
    from conversations.services import operator_group_sync

    user = django_user_model.objects.create_user("loose", password=PASSWORD, is_staff=True)
    user.groups.add(operator_group_sync())
    client = Client()
    client.force_login(user)
    html = client.get(_url(Fact, "changelist")).content.decode()
    assert "corgi" not in html and "coffee" not in html
