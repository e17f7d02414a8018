"""Operators make webhook endpoints in the admin (the secret shown once), switch them off and on, and read the log."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from integrations.webhooks.models import WebhookDelivery, WebhookEndpoint
from tests.conftest import Persona


@pytest.fixture
def operator(db: None, django_user_model: Any, settings: Any) -> Client:
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = True
    user = django_user_model.objects.create_superuser("op", "op@example.com", "pw-long-enough-123")
    client = Client()
    client.force_login(user)
    return client


def test_an_endpoint_made_in_the_admin_shows_its_secret_once(operator: Client, alice: Persona) -> None:
    add = reverse("admin:integrations_webhookendpoint_add")
    form = {"tenant": alice.tenant.pk, "url": "http://127.0.0.1:8123/hook", "events": ["fact.created"], "enabled": "on"}
    response = operator.post(add, form, follow=True)
    assert response.status_code == 200
    shown = next(str(m) for m in response.context["messages"] if "secret" in str(m))
    endpoint = WebhookEndpoint.objects.get()
    assert shown.endswith(endpoint.secret) and endpoint.events == ["fact.created"]
    page = operator.get(reverse("admin:integrations_webhookendpoint_change", args=[endpoint.pk]))
    assert endpoint.secret.encode() not in page.content  # never again
    refused = operator.post(add, {**form, "url": "ftp://127.0.0.1/hook"})
    assert refused.status_code == 200 and b"http or https" in refused.content
    assert WebhookEndpoint.objects.count() == 1


def test_operators_switch_an_endpoint_and_read_the_delivery_log(operator: Client, alice: Persona) -> None:
    alice.client.post("/api/v1/webhooks", {"url": "http://127.0.0.1:9/h", "events": ["fact.created"]}, format="json")
    endpoint = WebhookEndpoint.objects.get()
    changelist = reverse("admin:integrations_webhookendpoint_changelist")
    operator.post(changelist, {"action": "disable", "_selected_action": [endpoint.pk]})
    endpoint.refresh_from_db()
    assert not endpoint.enabled and "in the admin" in endpoint.disabled_reason
    operator.post(changelist, {"action": "enable", "_selected_action": [endpoint.pk]})
    endpoint.refresh_from_db()
    assert endpoint.enabled and endpoint.disabled_reason == ""
    delivery = WebhookDelivery.objects.create(
        tenant=alice.tenant, endpoint=endpoint, event="fact.created", dedupe_key="history:1",
        payload={"type": "fact.created", "data": {"fact": {"text": "用户喜欢喝茶。"}}}, last_status_code=500,
        last_error="HTTP 500",
    )  # fmt: skip
    log = operator.get(reverse("admin:integrations_webhookdelivery_change", args=[delivery.pk]))
    assert log.status_code == 200 and "用户喜欢喝茶。" in log.content.decode() and b"HTTP 500" in log.content
