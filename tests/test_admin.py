"""The operator console: every model is listed, keys are made through the service and shown once."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from conversations.models import ApiKey, Tenant


@pytest.fixture
def operator(db: None, django_user_model) -> Client:  # type: ignore[no-untyped-def]
    user = django_user_model.objects.create_superuser("op", "op@example.com", "pw-long-enough-123")
    client = Client()
    client.force_login(user)
    return client


def test_every_registered_model_has_a_working_changelist(operator: Client, alice) -> None:  # type: ignore[no-untyped-def]
    alice.ingest("I live in Beijing and I have a corgi named 豆包.")
    for model in admin.site._registry:
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        response = operator.get(url)
        assert response.status_code == 200, url


def test_fact_change_page_hides_the_embedding(operator: Client, alice) -> None:  # type: ignore[no-untyped-def]
    from facts.models import Fact

    alice.ingest("I am allergic to peanuts.")
    fact = Fact.objects.first()
    assert fact is not None and fact.embedding is not None
    response = operator.get(reverse("admin:facts_fact_change", args=[fact.pk]))
    assert response.status_code == 200
    assert b'name="embedding"' not in response.content


def test_adding_a_key_in_admin_shows_it_once_and_stores_only_the_hash(operator: Client) -> None:
    tenant = Tenant.objects.create(name="acme")
    response = operator.post(
        reverse("admin:conversations_apikey_add"), {"tenant": tenant.pk, "name": "ops"}, follow=True
    )
    assert response.status_code == 200
    shown = [str(m) for m in response.context["messages"]]
    raw = next(m.split(": ", 1)[1] for m in shown if "API key" in m)
    key = ApiKey.objects.get(tenant=tenant, name="ops")
    assert raw.startswith("ms_") and raw not in key.key_hash
    client = Client()
    ok = client.post(
        "/api/v1/users/u1/messages", {"messages": [{"role": "user", "content": "hello"}]},
        content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {raw}",
    )  # fmt: skip
    assert ok.status_code == 202
    assert ApiKey.objects.filter(tenant=tenant).count() == 1


def test_revoke_action(operator: Client, alice) -> None:  # type: ignore[no-untyped-def]
    key = ApiKey.objects.get(name="alice")
    operator.post(reverse("admin:conversations_apikey_changelist"), {"action": "revoke", "_selected_action": [key.pk]})
    key.refresh_from_db()
    assert key.revoked_at is not None
    assert alice.search("anything").status_code == 401
