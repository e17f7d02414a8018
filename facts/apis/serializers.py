"""Output shapes shared by the facts APIs."""

from __future__ import annotations

from typing import Any

from django.db.models import prefetch_related_objects
from rest_framework import serializers

from facts.models import Fact
from facts.selectors import facts_for_messages, facts_sources
from memory_site.api import SourceSerializer


class FactOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    uid = serializers.UUIDField()
    text = serializers.CharField()
    type = serializers.CharField()
    subject_entity = serializers.CharField()
    predicate = serializers.CharField()
    object_value = serializers.CharField()
    entities = serializers.ListField(child=serializers.DictField())
    keywords = serializers.ListField(child=serializers.CharField())
    confidence = serializers.FloatField()
    importance = serializers.FloatField()
    value_score = serializers.FloatField()
    mention_count = serializers.IntegerField()
    access_count = serializers.IntegerField()
    last_accessed_at = serializers.DateTimeField(allow_null=True)
    valid_from = serializers.DateTimeField(allow_null=True)
    valid_to = serializers.DateTimeField(allow_null=True)
    # When the event happened ("yesterday" said on 8 May -> 7 May), as the time queries read it; null if unsaid.
    event_time = serializers.DateTimeField(allow_null=True)
    expires_at = serializers.DateTimeField(allow_null=True)
    tier = serializers.CharField()
    status = serializers.CharField()
    pinned = serializers.BooleanField()
    extractor = serializers.CharField()
    extractor_version = serializers.CharField()
    metadata = serializers.DictField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    sources = SourceSerializer(many=True)


def facts_payload(facts: list[Fact]) -> list[dict[str, Any]]:
    """Serialize facts with their sources and read counters (one extra query for all sources, and one for
    the counters of facts not loaded with `select_related("access")`)."""
    sources = facts_sources(fact_ids=[f.pk for f in facts])
    prefetch_related_objects(facts, "access")  # skips facts whose access row is already loaded
    names: list[str] = [str(name) for name in FactOutputSerializer().fields if name != "sources"]
    rows = [{**{name: getattr(fact, name) for name in names}, "sources": sources.get(fact.pk, [])} for fact in facts]
    return list(FactOutputSerializer(rows, many=True).data)


def facts_payload_for_messages(*, message_ids: list[int]) -> list[dict[str, Any]]:
    """The facts these messages touched, as the API shows them: what the messages API (conversations) answers
    with, named by the MESSAGES_FACTS_PAYLOAD setting."""
    return facts_payload(facts_for_messages(message_ids=message_ids))
