"""The subset of mem0's platform REST API that its MemoryClient calls, on our services: ping, add, get_all, search,
get, update, delete, delete_all, history, an add's event, users and delete_users (erasure).

A request names its user in `user_id` (top level) or in `filters`; a user this tenant does not have (another
tenant's included) has no memories: lists and searches are empty, as mem0 answers for a new user. A memory id
names a fact of the caller's tenant or nothing (404).
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from django.conf import settings
from django.db.models import Count, Q
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from conversations.apis import TenantApi
from conversations.models import Message, Subject
from conversations.selectors import job_messages, job_state, subject_find
from conversations.services import MessageInput, message_ingest, subject_get_or_create
from facts import services as fact_services
from facts.models import Actor, Fact, FactHistory, FactType
from facts.selectors import fact_list, fact_search, facts_for_messages, facts_for_payload
from integrations.mem0 import memories
from integrations.mem0.auth import Mem0TokenAuthentication
from memory_site.api import MetadataField, external_id_problem, validate_input
from memory_site.errors import ApiError, PayloadTooLarge, api_exception_handler
from policies.portal.erasure import subject_erase

ADD_EVENTS = {"created": "ADD", "superseded": "ADD", "conflicted": "ADD", "merged": "NONE"}
MAX_PAGE_SIZE = 200
MAX_TIMESTAMP = 253_402_300_799  # 9999-12-31T23:59:59Z


def mem0_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Our error shape, plus the `detail` mem0's client reads."""
    response = api_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "error" in response.data:
        response.data["detail"] = response.data["error"]["message"]
    return response


def user_id_valid(user_id: str) -> str:
    """The user id as given; 400 invalid_user for one no user can have (too long, a NUL), as the REST API's URLs."""
    problem = external_id_problem(str(user_id))
    if problem:
        raise ApiError(problem, code="invalid_user", details={"length": len(str(user_id))})
    return user_id


@extend_schema(exclude=True)  # mem0's API, documented by mem0; ours is under /api/v1/
class Mem0Api(TenantApi):
    authentication_classes = [Mem0TokenAuthentication]

    def get_exception_handler(self) -> Any:
        return mem0_exception_handler

    def actor_id(self, request: Request) -> str:
        return f"api-key:{self.api_key(request).prefix}"

    def user(self, request: Request, user_id: str | None) -> Subject | None:
        """The tenant's user by id; None for a user it does not have."""
        if not user_id:
            raise ApiError("Give the user: user_id, or filters={'user_id': ...}.", code="user_required")
        return subject_find(tenant=self.tenant(request), external_id=user_id_valid(user_id))

    def fact(self, request: Request, memory_id: str) -> Fact:
        fact = memories.fact_by_memory_id(tenant=self.tenant(request), memory_id=memory_id)
        if fact is None:
            raise Http404("Memory not found!")
        return fact


class PingApi(Mem0Api):
    def get(self, request: Request) -> Response:
        # mem0's client needs an org and a project: both are the caller's tenant here.
        tenant_id = str(self.tenant(request).pk)
        return Response({"status": "ok", "org_id": tenant_id, "project_id": tenant_id, "user_email": None})


class AddApi(Mem0Api):
    class InputSerializer(serializers.Serializer):
        messages = serializers.ListField(child=serializers.DictField(), allow_empty=False, max_length=500)
        user_id = serializers.CharField(max_length=255, required=False)
        run_id = serializers.CharField(max_length=255, required=False, allow_null=True)
        filters = serializers.DictField(required=False, allow_null=True)
        metadata = MetadataField(required=False, allow_null=True)  # no NUL, bounded depth and size, as ours
        infer = serializers.BooleanField(required=False, default=True)
        # Unix seconds, up to the last second of year 9999 (a datetime's range: past it, 400, not a 500).
        timestamp = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_TIMESTAMP)
        expiration_date = serializers.CharField(required=False, allow_null=True)

    class MessageSerializer(serializers.Serializer):
        role = serializers.ChoiceField(choices=Message.Role.choices)
        content = serializers.CharField()

    def post(self, request: Request) -> Response:
        data = validate_input(self.InputSerializer, request.data)
        turns = [validate_input(self.MessageSerializer, m) for m in data["messages"]]
        for index, turn in enumerate(turns):
            if len(turn["content"]) > settings.MAX_MESSAGE_CHARS:
                raise PayloadTooLarge(
                    f"Message content is over {settings.MAX_MESSAGE_CHARS} characters.", {"index": index}
                )
        user_id = memories.scope_of(data, filters=data.get("filters")).user_id
        if not user_id:
            raise ApiError("Memories belong to a user here: give user_id.", code="user_required")
        user_id_valid(user_id)
        if not data["infer"]:
            return self._verbatim(request, user_id, turns, data)
        stamp = data.get("timestamp")
        created_at = dt.datetime.fromtimestamp(stamp, tz=dt.UTC) if stamp is not None else None
        result = message_ingest(
            tenant=self.tenant(request),
            subject_external_id=user_id,
            session_external_id=data.get("run_id") or "mem0",
            messages=[
                MessageInput(
                    role=t["role"], content=t["content"], created_at=created_at, metadata=data.get("metadata") or {}
                )
                for t in turns
            ],
        )
        return Response(
            {
                "status": "PENDING",
                "event_id": str(result.job_id),
                "message": "Memory processing has been queued for background execution",
            }
        )

    def _verbatim(self, request: Request, user_id: str, turns: list[dict[str, Any]], data: dict[str, Any]) -> Response:
        """infer=false: each message is stored as a fact as it is (merge, supersede and conflict still apply)."""
        subject = subject_get_or_create(tenant=self.tenant(request), external_id=user_id)
        expires_at = memories.expiry_of(data.get("expiration_date"))
        results = []
        for turn in turns:
            result = fact_services.fact_create(
                subject=subject, text=turn["content"][:2000], actor=Actor.AGENT, actor_id=self.actor_id(request),
                metadata=data.get("metadata") or None, expires_at=expires_at,
            )  # fmt: skip
            results.append(
                {"id": str(result.fact.uid), "data": {"memory": result.fact.text}, "event": ADD_EVENTS[result.action]}
            )
        return Response({"results": results, "status": "SUCCEEDED", "message": "Memories stored as given."})


class MemoriesListApi(Mem0Api):
    """get_all: the user's current memories, newest first, a page at a time."""

    reads_only = True  # a POST that only reads: a read-only key may use it

    def post(self, request: Request) -> Response:
        body = request.data if isinstance(request.data, dict) else {}
        scope = memories.scope_of(body, filters=body.get("filters"))
        try:
            page = max(1, int(request.query_params.get("page") or body.get("page") or 1))
            size = max(
                1, min(MAX_PAGE_SIZE, int(request.query_params.get("page_size") or body.get("page_size") or 100))
            )
        except (TypeError, ValueError):
            raise ApiError("page and page_size are numbers.") from None
        subject = self.user(request, scope.user_id)
        if subject is None:
            return Response({"count": 0, "next": None, "previous": None, "results": []})
        qs = memories.scoped_facts(fact_list(subject=subject), scope, show_expired=bool(body.get("show_expired")))
        count = qs.count()
        facts = list(qs[(page - 1) * size : page * size])
        base = request.build_absolute_uri(request.path)
        return Response(
            {
                "count": count,
                "next": f"{base}?page={page + 1}&page_size={size}" if page * size < count else None,
                "previous": f"{base}?page={page - 1}&page_size={size}" if page > 1 else None,
                "results": [memories.memory_of(f, user_id=subject.external_id) for f in facts],
            }
        )


class SearchApi(Mem0Api):
    reads_only = True  # a POST that only reads: a read-only key may use it

    class InputSerializer(serializers.Serializer):
        query = serializers.CharField(max_length=2000)
        filters = serializers.DictField(required=False, allow_null=True)
        top_k = serializers.IntegerField(required=False, default=10, min_value=1, max_value=1000)
        categories = serializers.ListField(child=serializers.CharField(), required=False)
        show_expired = serializers.BooleanField(required=False, default=False)

    def post(self, request: Request) -> Response:
        data = validate_input(self.InputSerializer, request.data)
        scope = memories.scope_of(data, filters=data.get("filters"))
        subject = self.user(request, scope.user_id)
        types = [t for t in scope.types if t in FactType.values]
        if subject is None or (scope.types and not types):
            return Response({"results": []})  # a user or categories this tenant does not have
        hits, _ = fact_search(
            subject=subject,
            query=data["query"],
            limit=min(50, data["top_k"]),
            types=types or None,
            api_key=self.api_key(request),
        )
        facts = facts_for_payload().in_bulk([h.id for h in hits if h.kind == "fact"])
        results = [
            {**memories.memory_of(facts[h.id], user_id=subject.external_id), "score": h.score}
            for h in hits
            if h.id in facts
        ]
        return Response({"results": results})


class MemoryDetailApi(Mem0Api):
    class UpdateSerializer(serializers.Serializer):
        text = serializers.CharField(max_length=2000, required=False)
        metadata = MetadataField(required=False, allow_null=True)  # no NUL, bounded depth and size, as ours
        expiration_date = serializers.CharField(required=False, allow_null=True)
        timestamp = serializers.JSONField(required=False)  # accepted, not kept: a fact's time is when it was said

    def get(self, request: Request, memory_id: str) -> Response:
        fact = self.fact(request, memory_id)
        return Response(
            memories.memory_of(fact, user_id=fact.subject.external_id, replaced_by=memories.replaced_by(fact))
        )

    def put(self, request: Request, memory_id: str) -> Response:
        fact = self.fact(request, memory_id)
        data = validate_input(self.UpdateSerializer, request.data)
        fact = fact_services.fact_correct(
            fact=fact,
            actor=Actor.AGENT,
            actor_id=self.actor_id(request),
            text=data.get("text"),
            metadata=(data["metadata"] or {}) if "metadata" in data else None,
            expires_at=memories.expiry_of(data["expiration_date"]) if "expiration_date" in data else ...,
        )
        return Response(memories.memory_of(fact, user_id=fact.subject.external_id))

    def delete(self, request: Request, memory_id: str) -> Response:
        fact = self.fact(request, memory_id)
        linked: list[Fact] = []
        if request.query_params.get("delete_linked", "").lower() in {"1", "true"}:
            linked = _superseded_chain(fact)
        for one in [fact, *linked]:
            fact_services.fact_delete(fact=one, actor=Actor.AGENT, actor_id=self.actor_id(request))
        body: dict[str, Any] = {"message": "Memory deleted successfully!"}
        if request.query_params.get("delete_linked") is not None:
            body["cascade_count"] = len(linked)
        return Response(body)


def _superseded_chain(fact: Fact) -> list[Fact]:
    """The facts this one superseded, and those they superseded, still held."""
    found: list[Fact] = []
    frontier = [str(fact.uid)]
    while frontier:
        rows = FactHistory.objects.filter(
            subject_id=fact.subject_id, event=FactHistory.Event.SUPERSEDED, data__by__in=frontier
        ).values_list("fact_uid", flat=True)
        older = list(
            Fact.objects.filter(subject_id=fact.subject_id, uid__in=list(rows)).exclude(pk__in=[f.pk for f in found])
        )
        found.extend(older)
        frontier = [str(f.uid) for f in older]
    return found


class MemoriesDeleteAllApi(Mem0Api):
    """delete_all: forget every memory of one user (`?user_id=`); the user stays (delete_users erases it)."""

    def delete(self, request: Request) -> Response:
        params = request.query_params
        scope = memories.scope_of({"user_id": params.get("user_id")}, filters=params.get("filters"))
        if scope.user_id is None and any(params.get(k) for k in memories.IGNORED_SCOPES):
            raise memories.unsupported("Memories belong to users here: delete_all needs a user_id.")
        subject = self.user(request, scope.user_id)
        if subject is not None:
            for fact in Fact.objects.filter(subject=subject, tenant=subject.tenant).order_by("id"):
                fact_services.fact_delete(fact=fact, actor=Actor.AGENT, actor_id=self.actor_id(request))
        return Response({"message": "Memories deleted successfully!"})


class MemoryHistoryApi(Mem0Api):
    def get(self, request: Request, memory_id: str) -> Response:
        tenant = self.tenant(request)
        fact = memories.fact_by_memory_id(tenant=tenant, memory_id=memory_id)
        qs = FactHistory.objects.filter(tenant=tenant).select_related("subject").order_by("created_at", "id")
        rows = []
        if fact is not None:
            rows = list(qs.filter(fact_uid=fact.uid))
        elif not (memory_id.isascii() and memory_id.isdigit()):
            try:  # a forgotten memory keeps its history, without texts
                rows = list(qs.filter(fact_uid=uuid.UUID(memory_id)))
            except ValueError:
                rows = []
        if not rows:
            raise Http404("Memory not found!")
        return Response(memories.history_of(rows, user_id=rows[0].subject.external_id))


class EventApi(Mem0Api):
    """The state of an add (its event id is our ingest job)."""

    STATES = {"pending": "PENDING", "running": "RUNNING", "done": "SUCCEEDED", "failed": "FAILED"}

    def get(self, request: Request, event_id: str) -> Response:
        try:
            job_id = uuid.UUID(event_id)
        except ValueError:
            raise Http404("Event not found!") from None
        rows = list(job_messages(tenant=self.tenant(request), job_id=job_id))
        if not rows:
            raise Http404("Event not found!")
        facts = facts_for_messages(message_ids=[m.pk for m in rows])
        subject_ids = {f.subject_id for f in facts}
        users = dict(Subject.objects.filter(pk__in=subject_ids).values_list("pk", "external_id"))
        return Response(
            {
                "id": event_id,
                "event_type": "ADD",
                "status": self.STATES[job_state(messages=rows)],
                "results": [
                    {**memories.memory_of(f, user_id=users.get(f.subject_id, "")), "event": "ADD"} for f in facts
                ],
            }
        )


class EntitiesApi(Mem0Api):
    """users(): the tenant's users (first 1000) with how many current memories each has."""

    def get(self, request: Request) -> Response:
        tenant = self.tenant(request)
        rows = (
            Subject.objects.filter(tenant=tenant)
            .annotate(total=Count("facts", filter=Q(facts__status__in=["active", "conflicted"])))
            .order_by("external_id")[:1000]
        )
        results = [
            {
                "id": str(s.pk),
                "name": s.external_id,
                "type": "user",
                "owner": tenant.name,
                "metadata": None,
                "total_memories": s.total,
                "created_at": memories.iso(s.created_at),
                "updated_at": memories.iso(s.updated_at),
            }
            for s in rows
        ]
        return Response(
            {"count": len(results), "next": None, "previous": None, "results": results, "total_users": len(results)}
        )


class EntityDeleteApi(Mem0Api):
    """delete_users(user_id=...): erase the user, as DELETE /api/v1/users/{user} does."""

    def delete(self, request: Request, entity_type: str, entity_id: str) -> Response:
        if entity_type != "user":
            raise memories.unsupported("Only users are kept here: agents, apps and runs are not entities.")
        subject = subject_find(tenant=self.tenant(request), external_id=user_id_valid(entity_id))
        if subject is None:
            raise Http404("Entity not found!")
        subject_erase(subject=subject, actor=Actor.AGENT, actor_id=self.actor_id(request))
        return Response({"message": "Entity deleted successfully."})
