"""The tenant-scoped API base view, and the endpoints of the event log: ingest turns, follow their jobs."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import Http404
from django.utils.module_loading import import_string
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations.auth import ApiClient, request_api_key, request_tenant
from conversations.joberrors import job_error
from conversations.models import ApiKey, Message, Subject, Tenant
from conversations.selectors import job_messages, job_state, messages_any_running, messages_pending, subject_get
from conversations.services import MessageInput, message_ingest, messages_enqueue_extraction
from memory_site.api import MetadataField, external_id_problem, validate_input
from memory_site.errors import ApiError, PayloadTooLarge


class TenantApi(APIView):
    """An API view that always works inside the caller's tenant."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """Authenticate, check permissions and throttle (DRF), then refuse a URL's user id no user can have."""
        super().initial(request, *args, **kwargs)
        user = kwargs.get("user")
        problem = external_id_problem(user) if isinstance(user, str) else None
        if problem:
            raise ApiError(problem, code="invalid_user", details={"length": len(str(user))})

    def tenant(self, request: Request) -> Tenant:
        return request_tenant(request)

    def api_key(self, request: Request) -> ApiKey:
        return request_api_key(request)

    def subject(self, request: Request, user: str) -> Subject:
        """The tenant's subject by external id; 404 for unknown ids and for other tenants' subjects. The URL's
        user was looked up with the API key (ApiKeyAuthentication), in the same statement."""
        looked_up, subject = self._url_subject(request, user)
        if not looked_up:
            return subject_get(tenant=self.tenant(request), external_id=user)
        if subject is None:
            raise Http404("No such user.")
        return subject

    def _url_subject(self, request: Request, user: str) -> tuple[bool, Subject | None]:
        client = request.user
        if isinstance(client, ApiClient) and client.url_subject is not None and client.url_subject[0] == user:
            return True, client.url_subject[1]
        return False, None


@functools.cache
def _facts_callable(dotted_path: str) -> Callable[..., Any]:
    """The facts app's function a setting names (imported once): conversations never imports facts."""
    return import_string(dotted_path)


def messages_extract_now(*, message_ids: list[int]) -> None:
    """Extract these messages in this process (`?wait=true`), with the function MESSAGES_EXTRACT_NOW names."""
    _facts_callable(settings.MESSAGES_EXTRACT_NOW)(message_ids=message_ids)


def messages_facts_payload(*, message_ids: list[int]) -> list[dict[str, Any]]:
    """The facts these messages touched, as the API shows a fact (MESSAGES_FACTS_PAYLOAD names the function)."""
    return list(_facts_callable(settings.MESSAGES_FACTS_PAYLOAD)(message_ids=message_ids))


# The facts app's fact output component, by reference: its serializer lives above conversations.
@extend_schema_field({"type": "array", "items": {"$ref": "#/components/schemas/FactOutput"}})
class FactsField(serializers.ListField):
    child = serializers.DictField()


class MessagesIngestApi(TenantApi):
    class MessageSerializer(serializers.Serializer):
        role = serializers.ChoiceField(choices=Message.Role.choices)
        content = serializers.CharField(allow_blank=False, trim_whitespace=False)
        name = serializers.CharField(required=False, allow_blank=True, max_length=255, default="")
        created_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
        external_id = serializers.CharField(required=False, allow_null=True, max_length=255, default=None)
        metadata = MetadataField(required=False, default=dict)

    class InputSerializer(serializers.Serializer):
        session_id = serializers.CharField(max_length=255, required=False, default="default")
        messages = serializers.ListField(child=serializers.DictField(), allow_empty=False)

    class OutputSerializer(serializers.Serializer):
        class MessageRefSerializer(serializers.Serializer):
            id = serializers.IntegerField()
            external_id = serializers.CharField(allow_null=True)

        messages = MessageRefSerializer(many=True)
        job_id = serializers.UUIDField()
        facts = FactsField(required=False)

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
        wait = request.query_params.get("wait", "").lower() in {"1", "true", "yes"}
        # Waiting, this request extracts its own turns: a worker given them too would race it for the claim, and
        # the request would wait on that worker (its queue, a cold process) instead of on its own extraction.
        result = message_ingest(
            tenant=self.tenant(request),
            subject_external_id=user,
            session_external_id=data["session_id"],
            messages=items,
            enqueue=not wait,
        )
        body: dict[str, Any] = {
            "messages": [{"id": m.pk, "external_id": m.external_id} for m in result.messages],
            "job_id": str(result.job_id),
        }
        if wait:
            message_ids = [m.pk for m in result.messages]
            messages_extract_now(message_ids=message_ids)
            # Left pending (a failed attempt, the wait's deadline, a claim skipped): to the workers, as without wait.
            left = messages_pending(message_ids=message_ids)
            messages_enqueue_extraction(message_ids=left)
            body["facts"] = messages_facts_payload(message_ids=message_ids)
            done = not left and not messages_any_running(message_ids=message_ids)
            # 200 with the facts; 202 when extraction did not finish in time: the job is to be followed.
            return Response(body, status=status.HTTP_200_OK if done else status.HTTP_202_ACCEPTED)
        return Response(body, status=status.HTTP_202_ACCEPTED)


class JobDetailApi(TenantApi):
    class OutputSerializer(serializers.Serializer):
        job_id = serializers.UUIDField()
        state = serializers.ChoiceField(choices=["pending", "running", "done", "failed"])
        facts = FactsField()
        error = inline_serializer(
            "JobError", {"code": serializers.CharField(), "message": serializers.CharField()}, required=False
        )

    @extend_schema(responses={200: OutputSerializer}, operation_id="job_detail")
    def get(self, request: Request, job_id: uuid.UUID) -> Response:
        messages = list(job_messages(tenant=self.tenant(request), job_id=job_id))
        if not messages:
            raise Http404("No such job.")
        body: dict[str, Any] = {
            "job_id": str(job_id),
            "state": job_state(messages=messages),
            "facts": messages_facts_payload(message_ids=[m.pk for m in messages]),
        }
        # A fallback from the LLM to the rules is recorded on the message but is not a job error; an error is a
        # stable code and message (the detail stays in the admin).
        errors = [e for e in (job_error(m.extraction_error) for m in messages) if e]
        if errors:
            body["error"] = errors[0]
        return Response(body)
