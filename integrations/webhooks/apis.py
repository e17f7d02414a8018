"""The tenant's webhook endpoints through the API: create (the secret is shown once), list, delete."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from conversations.apis import TenantApi
from integrations.webhooks import services
from integrations.webhooks.models import Event, WebhookEndpoint
from integrations.webhooks.selectors import endpoint_get, endpoint_list
from memory_site.api import validate_input


class EndpointOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    events = serializers.ListField(child=serializers.ChoiceField(choices=Event.choices))
    description = serializers.CharField()
    enabled = serializers.BooleanField()
    disabled_reason = serializers.CharField()
    created_at = serializers.DateTimeField()


def endpoint_payload(endpoint: WebhookEndpoint) -> dict[str, Any]:
    return dict(EndpointOutputSerializer(endpoint).data)


class WebhookListCreateApi(TenantApi):
    class InputSerializer(serializers.Serializer):
        url = serializers.URLField(max_length=2000)
        events = serializers.ListField(child=serializers.CharField(max_length=32), allow_empty=False, max_length=20)
        description = serializers.CharField(max_length=255, required=False, allow_blank=True, default="")

    class CreatedSerializer(EndpointOutputSerializer):
        secret = serializers.CharField(help_text="Shown once: keep it to verify the Memory-Site-Signature header.")

    class ListOutputSerializer(serializers.Serializer):
        results = EndpointOutputSerializer(many=True)

    @extend_schema(
        request=InputSerializer,
        responses={201: CreatedSerializer},
        operation_id="webhook_create",
        description=(
            "Subscribe a URL to events: fact.created, fact.updated, fact.superseded, fact.forgotten, conflict.opened, "
            "subject.erased. Each delivery is a JSON POST signed with `Memory-Site-Signature: t=<unix seconds>,"
            "v1=<hex>`, the hex being HMAC-SHA256 keyed with the secret over `<t>.<raw body>`. Only http(s) URLs; "
            "private addresses only when the server allows them (WEBHOOKS_ALLOW_PRIVATE_TARGETS)."
        ),
    )
    def post(self, request: Request) -> Response:
        data = validate_input(self.InputSerializer, request.data)
        endpoint, secret = services.webhook_endpoint_create(
            tenant=self.tenant(request), url=data["url"], events=data["events"], description=data["description"]
        )
        return Response({**endpoint_payload(endpoint), "secret": secret}, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: ListOutputSerializer}, operation_id="webhook_list")
    def get(self, request: Request) -> Response:
        endpoints = endpoint_list(tenant=self.tenant(request))
        return Response({"results": [endpoint_payload(e) for e in endpoints]})


class WebhookDetailApi(TenantApi):
    @extend_schema(responses={204: None}, operation_id="webhook_delete")
    def delete(self, request: Request, webhook_id: int) -> Response:
        services.webhook_endpoint_delete(endpoint=endpoint_get(tenant=self.tenant(request), endpoint_id=webhook_id))
        return Response(status=status.HTTP_204_NO_CONTENT)
