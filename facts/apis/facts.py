"""Direct reads and writes of facts, their history and conflicts (same reconcile logic as extraction)."""

from __future__ import annotations

import base64
import binascii
import datetime as dt

from django.db.models import Q
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from conversations.apis import TenantApi
from conversations.services import subject_get_or_create
from facts import services
from facts.apis.serializers import FactOutputSerializer, facts_payload
from facts.models import Actor, Conflict, Fact, FactType
from facts.selectors import fact_history, fact_list
from facts.text import keywords
from memory_site.api import MetadataField, validate_input
from memory_site.errors import ApiError

PAGE_SIZE = 50
CURSOR_MAX_CHARS = 96  # base64 of "<ISO-8601 time>|<id>"


class EntitySerializer(serializers.Serializer):
    text = serializers.CharField(max_length=255)
    kind = serializers.CharField(max_length=32, default="other")


class HistoryOutputSerializer(serializers.Serializer):
    event = serializers.CharField()
    actor = serializers.CharField()
    actor_id = serializers.CharField()
    before_text = serializers.CharField()
    after_text = serializers.CharField()
    data = serializers.DictField()  # type: ignore[assignment]  # the field, not Serializer.data (DRF pops fields)
    created_at = serializers.DateTimeField()


class ConflictOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    state = serializers.CharField()
    reason = serializers.CharField()
    resolution = serializers.CharField()
    resolved_by = serializers.CharField()
    resolved_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    facts = FactOutputSerializer(many=True)


def _actor_id(api: TenantApi, request: Request) -> str:
    return f"api-key:{api.api_key(request).prefix}"


def _fact_or_404(api: TenantApi, request: Request, user: str, fact_id: int) -> Fact:
    subject = api.subject(request, user)
    fact = Fact.objects.filter(subject=subject, tenant=subject.tenant, pk=fact_id).first()
    if fact is None:
        raise Http404("No such fact.")
    return fact


def _conflict_payload(conflicts: list[Conflict]) -> list[dict]:
    out = []
    for conflict in conflicts:
        facts = [f for f in (conflict.fact_a, conflict.fact_b) if f is not None]
        out.append(
            {
                "id": conflict.pk,
                "kind": conflict.kind,
                "state": conflict.state,
                "reason": conflict.reason,
                "resolution": conflict.resolution,
                "resolved_by": conflict.resolved_by,
                "resolved_at": conflict.resolved_at,
                "created_at": conflict.created_at,
                "facts": facts_payload(facts),
            }
        )
    return out


class AsOfSerializer(serializers.Serializer):
    as_of = serializers.DateTimeField(required=False)
    known_at = serializers.DateTimeField(required=False)


class FactListCreateApi(TenantApi):
    class InputSerializer(serializers.Serializer):
        text = serializers.CharField(max_length=2000, trim_whitespace=True)
        type = serializers.ChoiceField(choices=FactType.choices, required=False)
        entities = EntitySerializer(many=True, required=False)
        confidence = serializers.FloatField(min_value=0, max_value=1, required=False)
        importance = serializers.FloatField(min_value=0, max_value=1, required=False)
        expires_at = serializers.DateTimeField(required=False, allow_null=True)
        valid_from = serializers.DateTimeField(required=False, allow_null=True)
        metadata = MetadataField(required=False)

    class ListOutputSerializer(serializers.Serializer):
        results = FactOutputSerializer(many=True)
        next_cursor = serializers.CharField(allow_null=True)

    @extend_schema(
        request=InputSerializer,
        responses={201: FactOutputSerializer},
        operation_id="fact_create",
        description="Write a fact directly; it is merged, supersedes the same slot, or opens a conflict.",
    )
    def post(self, request: Request, user: str) -> Response:
        data = validate_input(self.InputSerializer, request.data)
        subject = subject_get_or_create(tenant=self.tenant(request), external_id=user)
        entities = [dict(e) for e in data["entities"]] if "entities" in data else None
        result = services.fact_create(
            subject=subject,
            text=data["text"],
            actor=Actor.AGENT,
            actor_id=_actor_id(self, request),
            metadata=data.get("metadata"),
            type=data.get("type"),
            entities=entities,
            confidence=data.get("confidence"),
            importance=data.get("importance"),
            expires_at=data.get("expires_at"),
            valid_from=data.get("valid_from"),
        )
        body = facts_payload([result.fact])[0]
        body["action"] = result.action
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        responses={200: ListOutputSerializer},
        operation_id="fact_list",
        parameters=[
            OpenApiParameter("type", str, enum=list(FactType.values)),
            OpenApiParameter("tier", str, enum=list(Fact.Tier.values)),
            OpenApiParameter("status", str, enum=list(Fact.Status.values)),
            OpenApiParameter("q", str, description="Words the fact contains"),
            OpenApiParameter("cursor", str, description="next_cursor of the previous page"),
            OpenApiParameter("as_of", OpenApiTypes.DATETIME, description="The facts true at this moment (valid time)"),
            OpenApiParameter(
                "known_at", OpenApiTypes.DATETIME, description="What the memory held at this moment (transaction time)"
            ),
        ],
    )
    def get(self, request: Request, user: str) -> Response:
        params = request.query_params
        when = validate_input(AsOfSerializer, {k: params[k] for k in ("as_of", "known_at") if params.get(k)})
        subject = self.subject(request, user)
        qs = fact_list(subject=subject, as_of=when.get("as_of"), known_at=when.get("known_at"))
        for name, choices in (("type", FactType.values), ("tier", Fact.Tier.values), ("status", Fact.Status.values)):
            value = params.get(name)
            if value:
                if value not in choices:
                    raise ApiError(f"Unknown {name}.", details={name: value, "allowed": list(choices)})
                qs = qs.filter(**{name: value})
        q = (params.get("q") or "").strip()
        if q:
            words = keywords(q)
            qs = qs.filter(Q(text__icontains=q) | Q(keywords__overlap=words) if words else Q(text__icontains=q))
        cursor = params.get("cursor")
        if cursor:
            created_at, last_id = _cursor_position(cursor)
            # The bound on created_at alone lets the index start its range there; the rest breaks the ties by id.
            qs = qs.filter(
                Q(created_at__lt=created_at) | Q(created_at=created_at, pk__lt=last_id), created_at__lte=created_at
            )
        page = list(qs[: PAGE_SIZE + 1])
        next_cursor = None
        if len(page) > PAGE_SIZE:
            page = page[:PAGE_SIZE]
            last = page[-1]
            next_cursor = base64.urlsafe_b64encode(f"{last.created_at.isoformat()}|{last.pk}".encode()).decode()
        return Response({"results": facts_payload(page), "next_cursor": next_cursor})


def _cursor_position(cursor: str) -> tuple[dt.datetime, int]:
    """The (created_at, id) of the last fact of the page a cursor we gave out ends; ApiError for anything else."""
    try:
        when, _, last = base64.urlsafe_b64decode(cursor[:CURSOR_MAX_CHARS].encode()).decode().partition("|")
        created_at, last_id = dt.datetime.fromisoformat(when), int(last)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        created_at, last_id = None, 0
    if len(cursor) > CURSOR_MAX_CHARS or created_at is None or created_at.tzinfo is None or not 0 < last_id < 2**63:
        raise ApiError("Invalid cursor.", details={"cursor": cursor[:64]})
    return created_at, last_id


class FactDetailApi(TenantApi):
    class PatchSerializer(serializers.Serializer):
        text = serializers.CharField(max_length=2000, required=False, trim_whitespace=True)
        type = serializers.ChoiceField(choices=FactType.choices, required=False)
        expires_at = serializers.DateTimeField(required=False, allow_null=True)
        pinned = serializers.BooleanField(required=False)

    @extend_schema(responses={200: FactOutputSerializer}, operation_id="fact_detail")
    def get(self, request: Request, user: str, fact_id: int) -> Response:
        fact = _fact_or_404(self, request, user, fact_id)
        return Response(facts_payload([fact])[0])

    @extend_schema(
        request=PatchSerializer,
        responses={200: FactOutputSerializer},
        operation_id="fact_correct",
        description="A correction: every change is recorded in the fact's history.",
    )
    def patch(self, request: Request, user: str, fact_id: int) -> Response:
        fact = _fact_or_404(self, request, user, fact_id)
        data = validate_input(self.PatchSerializer, request.data)
        if not data:
            raise ApiError("Nothing to change: give text, type, expires_at or pinned.")
        fact = services.fact_correct(
            fact=fact,
            actor=Actor.AGENT,
            actor_id=_actor_id(self, request),
            text=data.get("text"),
            type=data.get("type"),
            expires_at=data.get("expires_at", ...),
            pinned=data.get("pinned"),
        )
        return Response(facts_payload([fact])[0])

    @extend_schema(responses={204: None}, operation_id="fact_forget")
    def delete(self, request: Request, user: str, fact_id: int) -> Response:
        fact = _fact_or_404(self, request, user, fact_id)
        services.fact_delete(fact=fact, actor=Actor.AGENT, actor_id=_actor_id(self, request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class FactHistoryApi(TenantApi):
    class OutputSerializer(serializers.Serializer):
        results = HistoryOutputSerializer(many=True)

    @extend_schema(responses={200: OutputSerializer}, operation_id="fact_history")
    def get(self, request: Request, user: str, fact_id: int) -> Response:
        fact = _fact_or_404(self, request, user, fact_id)
        rows = fact_history(subject=fact.subject, fact=fact)
        return Response({"results": HistoryOutputSerializer(rows, many=True).data})


class ConflictListApi(TenantApi):
    class OutputSerializer(serializers.Serializer):
        results = ConflictOutputSerializer(many=True)

    @extend_schema(
        responses={200: OutputSerializer},
        operation_id="conflict_list",
        parameters=[OpenApiParameter("state", str, enum=[*Conflict.State.values, "all"], description="default open")],
    )
    def get(self, request: Request, user: str) -> Response:
        subject = self.subject(request, user)
        state = request.query_params.get("state", "open")
        qs = Conflict.objects.filter(subject=subject, tenant=subject.tenant).select_related(
            "fact_a__access", "fact_b__access"
        )
        if state != "all":
            if state not in Conflict.State.values:
                raise ApiError("Unknown state.", details={"state": state})
            qs = qs.filter(state=state)
        return Response({"results": _conflict_payload(list(qs.order_by("-created_at", "-id")[:200]))})


class ConflictResolveApi(TenantApi):
    class InputSerializer(serializers.Serializer):
        keep = serializers.JSONField(help_text='a fact id of the conflict, "both" or "neither"')

        def validate_keep(self, value: object) -> object:
            if value in ("both", "neither"):
                return value
            if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**63:
                return value
            if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 18:
                return int(value)
            raise serializers.ValidationError('keep must be a fact id, "both" or "neither".')

    @extend_schema(request=InputSerializer, responses={200: ConflictOutputSerializer}, operation_id="conflict_resolve")
    def post(self, request: Request, conflict_id: int) -> Response:
        data = validate_input(self.InputSerializer, request.data)
        conflict = Conflict.objects.filter(pk=conflict_id, tenant=self.tenant(request)).first()
        if conflict is None:
            raise Http404("No such conflict.")
        conflict = services.conflict_resolve(
            conflict=conflict, keep=data["keep"], actor=Actor.AGENT, actor_id=_actor_id(self, request)
        )
        conflict = Conflict.objects.select_related("fact_a__access", "fact_b__access").get(pk=conflict.pk)
        return Response(_conflict_payload([conflict])[0])
