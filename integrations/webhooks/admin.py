"""Operators manage a tenant's webhook endpoints (the secret is shown once, on creation) and read the delivery log."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html

from conversations.admin_tenancy import TenantScopedAdmin
from integrations.webhooks import services
from integrations.webhooks.models import Event, WebhookDelivery, WebhookEndpoint
from integrations.webhooks.targets import TargetRefused, url_check
from integrations.webhooks.tasks import deliveries_send


class EndpointForm(forms.ModelForm):
    url = forms.URLField(max_length=2000, assume_scheme="https")
    events = forms.MultipleChoiceField(choices=Event.choices, widget=forms.CheckboxSelectMultiple)

    class Meta:
        model = WebhookEndpoint
        fields = ("tenant", "url", "events", "description", "enabled")

    def clean_url(self) -> str:
        url = self.cleaned_data["url"]
        try:
            url_check(url)
        except TargetRefused as exc:
            raise forms.ValidationError(exc.message) from exc
        return url


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(TenantScopedAdmin):
    form = EndpointForm
    list_display = ("url", "tenant", "event_list", "enabled", "consecutive_failures", "last_success_at", "created_at")
    list_filter = ("enabled", "tenant")
    list_select_related = ("tenant",)
    search_fields = ("url", "description", "tenant__name")
    readonly_fields = (
        "disabled_reason", "disabled_at", "consecutive_failures", "last_success_at", "last_failure_at", "created_at",
        "updated_at",
    )  # fmt: skip
    actions = ["enable", "disable"]

    @admin.display(description="events")
    def event_list(self, obj: WebhookEndpoint) -> str:
        return ", ".join(obj.events)

    def get_readonly_fields(self, request: HttpRequest, obj: WebhookEndpoint | None = None) -> Any:
        # The tenant and the switch are fixed once made: the switch moves by the actions, which also resume sending.
        return (*self.readonly_fields, "tenant", "enabled") if obj is not None else self.readonly_fields

    def save_model(self, request: HttpRequest, obj: WebhookEndpoint, form: Any, change: bool) -> None:
        if change:
            services.webhook_endpoint_update(endpoint=obj, url=obj.url, events=list(obj.events))
            return
        endpoint, secret = services.webhook_endpoint_create(
            tenant=obj.tenant, url=obj.url, events=list(obj.events), description=obj.description
        )
        obj.pk = endpoint.pk
        obj.__dict__.update(endpoint.__dict__)
        self.message_user(
            request, f"Signing secret of this endpoint (shown once, copy it now): {secret}", messages.WARNING
        )

    def delete_model(self, request: HttpRequest, obj: WebhookEndpoint) -> None:
        services.webhook_endpoint_delete(endpoint=obj)

    @admin.action(description="Enable selected endpoints (and send what waited)")
    def enable(self, request: HttpRequest, queryset: QuerySet[WebhookEndpoint]) -> None:
        for endpoint in queryset:
            deliveries_send(services.webhook_endpoint_enable(endpoint=endpoint))
        self.message_user(request, f"Enabled {queryset.count()} endpoint(s).")

    @admin.action(description="Disable selected endpoints")
    def disable(self, request: HttpRequest, queryset: QuerySet[WebhookEndpoint]) -> None:
        for endpoint in queryset:
            services.webhook_endpoint_disable(endpoint=endpoint, reason=f"Disabled by {request.user} in the admin.")
        self.message_user(request, f"Disabled {queryset.count()} endpoint(s).")


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(TenantScopedAdmin):
    """The delivery log: what was sent where, each attempt's outcome. Read-only (written by the workers)."""

    list_display = (
        "created_at", "event", "endpoint", "subject", "sequence", "state", "attempts", "last_status_code",
        "delivered_at",
    )  # fmt: skip
    list_filter = ("state", "event", "endpoint__tenant")
    search_fields = ("uid", "endpoint__url", "subject__external_id", "last_error")
    list_select_related = ("endpoint", "subject")
    fields = (
        "uid", "endpoint", "subject", "sequence", "event", "state", "attempts", "next_attempt_at", "last_attempt_at",
        "delivered_at", "last_status_code", "last_error", "last_response", "payload_pretty", "created_at",
    )  # fmt: skip
    readonly_fields = fields

    @admin.display(description="payload")
    def payload_pretty(self, obj: WebhookDelivery) -> str:
        return format_html("<pre>{}</pre>", json.dumps(obj.payload, ensure_ascii=False, indent=2))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
