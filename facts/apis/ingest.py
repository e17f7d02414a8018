"""Ingest turns and follow their extraction jobs."""

from __future__ import annotations

import uuid

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from conversations.models import Message
from conversations.selectors import job_messages, job_state
from conversations.services import MessageInput, message_ingest
from facts import services as fact_services
from facts.apis.serializers import FactOutputSerializer, facts_payload
from facts.selectors import facts_for_messages
from memory_site.api import TenantApi, validate_input
from memory_site.errors import PayloadTooLarge


class MessagesIngestApi(TenantApi):
    class MessageSerializer(serializers.Serializer):
        role = serializers.ChoiceField(choices=Message.Role.choices)
        content = serializers.CharField(allow_blank=False, trim_whitespace=False)
        name = serializers.CharField(required=False, allow_blank=True, max_length=255, default="")
        created_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
        external_id = serializers.CharField(required=False, allow_null=True, max_length=255, default=None)
        metadata = serializers.DictField(required=False, default=dict)

    class InputSerializer(serializers.Serializer):
        session_id = serializers.CharField(max_length=255, required=False, default="default")
        messages = serializers.ListField(child=serializers.DictField(), allow_empty=False)

    class OutputSerializer(serializers.Serializer):
        class MessageRefSerializer(serializers.Serializer):
            id = serializers.IntegerField()
            external_id = serializers.CharField(allow_null=True)

        messages = MessageRefSerializer(many=True)
        job_id = serializers.UUIDField()
        facts = FactOutputSerializer(many=True, required=False)

    @extend_schema(
        request=InputSerializer,
        responses={202: OutputSerializer, 200: OutputSerializer},
        parameters=[OpenApiParameter("wait", bool, description="Run extraction before answering")],
        operation_id="messages_ingest",
    )
    def post(self, request: Request, user: str) -> Response:
        data = validate_input(self.InputSerializer, request.data)
        raw_messages = data["messages"]
        if len(raw_messages) > settings.MAX_MESSAGES_PER_REQUEST:
            raise PayloadTooLarge(
                f"At most {settings.MAX_MESSAGES_PER_REQUEST} messages per request.",
                {"count": len(raw_messages)},
            )
        for index, raw in enumerate(raw_messages):
            content = raw.get("content")
            if isinstance(content, str) and len(content) > settings.MAX_MESSAGE_CHARS:
                raise PayloadTooLarge(
                    f"Message content is over {settings.MAX_MESSAGE_CHARS} characters.",
                    {"index": index, "length": len(content)},
                )
        items = [
            MessageInput(**validate_input(self.MessageSerializer, raw))  # errors say which field
            for raw in raw_messages
        ]
        result = message_ingest(
            tenant=self.tenant(request),
            subject_external_id=user,
            session_external_id=data["session_id"],
            messages=items,
        )
        body: dict = {
            "messages": [{"id": m.pk, "external_id": m.external_id} for m in result.messages],
            "job_id": str(result.job_id),
        }
        if request.query_params.get("wait", "").lower() in {"1", "true", "yes"}:
            fact_services.messages_extract_now(message_ids=[m.pk for m in result.messages])
            body["facts"] = facts_payload(facts_for_messages(message_ids=[m.pk for m in result.messages]))
            return Response(body, status=status.HTTP_200_OK)
        return Response(body, status=status.HTTP_202_ACCEPTED)


class JobDetailApi(TenantApi):
    class OutputSerializer(serializers.Serializer):
        job_id = serializers.UUIDField()
        state = serializers.ChoiceField(choices=["pending", "running", "done", "failed"])
        facts = FactOutputSerializer(many=True)
        error = serializers.CharField(required=False)

    @extend_schema(responses={200: OutputSerializer}, operation_id="job_detail")
    def get(self, request: Request, job_id: uuid.UUID) -> Response:
        messages = list(job_messages(tenant=self.tenant(request), job_id=job_id))
        if not messages:
            from django.http import Http404

            raise Http404("No such job.")
        state = job_state(messages=messages)
        body: dict = {
            "job_id": str(job_id),
            "state": state,
            "facts": facts_payload(facts_for_messages(message_ids=[m.pk for m in messages])),
        }
        # A fallback from the LLM to the rules is recorded on the message but is not a job error.
        errors = [
            m.extraction_error
            for m in messages
            if m.extraction_error and not m.extraction_error.startswith("llm fallback")
        ]
        if errors:
            body["error"] = errors[0]
        return Response(body)
