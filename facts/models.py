"""Facts distilled from messages, their history, conflicts, profile, and who read them."""

from __future__ import annotations

import datetime as dt
import uuid

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Coalesce, Now
from django.utils import timezone
from pgvector.django import HnswIndex, VectorField

from conversations.models import EMBEDDING_DIMENSIONS, ZH_EMBEDDING_DIMENSIONS, ApiKey, Message, Subject, Tenant
from memory_site.models import TimeStampedModel

# A fact's value score before the lifecycle pass first computes it (facts.value): the middle of the scale.
VALUE_SCORE_DEFAULT = 0.5


class FactType(models.TextChoices):
    PROFILE = "profile"
    PREFERENCE = "preference"
    EVENT = "event"
    RELATIONSHIP = "relationship"
    COMPLAINT = "complaint"
    INQUIRY = "inquiry"
    COMMITMENT = "commitment"
    DECISION = "decision"
    HEALTH = "health"
    LEGAL = "legal"
    OTHER = "other"


class Fact(TimeStampedModel):
    """One self-contained sentence about a subject; one current truth per slot."""

    class Tier(models.TextChoices):
        ACTIVE = "active"
        ARCHIVED = "archived"

    class Status(models.TextChoices):
        ACTIVE = "active"
        SUPERSEDED = "superseded"
        CONFLICTED = "conflicted"

    class Extractor(models.TextChoices):
        RULES = "rules"
        LLM = "llm"
        MANUAL = "manual"
        API = "api"

    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="facts")
    # Indexed by fact_subject_newest (subject, created_at, id), which also serves a lookup by subject alone.
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="facts", db_index=False)
    text = models.TextField()
    normalized_text = models.TextField(db_index=True, editable=False, default="")
    type = models.CharField(max_length=16, choices=FactType.choices, default=FactType.OTHER)
    subject_entity = models.CharField(max_length=255, blank=True, default="")
    predicate = models.CharField(max_length=64, blank=True, default="")
    object_value = models.TextField(blank=True, default="")
    entities = models.JSONField(default=list, blank=True)
    entity_keys = ArrayField(models.CharField(max_length=255), default=list, blank=True)
    keywords = ArrayField(models.CharField(max_length=100), default=list, blank=True)
    search_text = models.TextField(blank=True, default="", editable=False)
    search_vector = SearchVectorField(null=True, editable=False)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True, editable=False)
    embedding_model = models.CharField(max_length=100, blank=True, default="")
    # Facts with Chinese text only: the vector a Chinese query is searched by (MiniLM's does not read Chinese).
    embedding_zh = VectorField(dimensions=ZH_EMBEDDING_DIMENSIONS, null=True, blank=True, editable=False)
    language = models.CharField(max_length=8, blank=True, default="")
    confidence = models.FloatField(default=0.8)
    importance = models.FloatField(default=0.5)
    mention_count = models.PositiveIntegerField(default=1)
    useful_count = models.PositiveIntegerField(default=0)
    not_useful_count = models.PositiveIntegerField(default=0)
    valid_from = models.DateTimeField(null=True, blank=True)
    valid_to = models.DateTimeField(null=True, blank=True)
    event_time = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    tier = models.CharField(max_length=16, choices=Tier.choices, default=Tier.ACTIVE)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    pinned = models.BooleanField(default=False)
    extractor = models.CharField(max_length=16, choices=Extractor.choices, default=Extractor.RULES)
    extractor_version = models.CharField(max_length=32, blank=True, default="")
    metadata = models.JSONField(default=dict, blank=True)
    source_messages = models.ManyToManyField(Message, through="FactSource", related_name="facts")

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(confidence__gte=0) & Q(confidence__lte=1), name="fact_confidence_0_1"),
            models.CheckConstraint(condition=Q(importance__gte=0) & Q(importance__lte=1), name="fact_importance_0_1"),
            models.CheckConstraint(condition=Q(tier__in=["active", "archived"]), name="fact_tier_valid"),
            models.CheckConstraint(
                condition=Q(status__in=["active", "superseded", "conflicted"]), name="fact_status_valid"
            ),
            models.CheckConstraint(condition=Q(type__in=FactType.values), name="fact_type_valid"),
            models.CheckConstraint(condition=~Q(text=""), name="fact_text_not_empty"),
            models.CheckConstraint(
                condition=Q(valid_to__isnull=True)
                | Q(valid_from__isnull=True)
                | Q(valid_to__gte=models.F("valid_from")),
                name="fact_valid_range",
            ),
        ]
        indexes = [
            models.Index(fields=["subject", "status", "tier"], name="fact_subject_status_tier"),
            # A subject's facts newest first (the facts API's pages, the MCP and mem0 lists): without it, a subject
            # whose facts are old in a large table was listed by walking the primary key backwards past every newer
            # fact (1.7 s at 1M facts), or all its facts were sorted.
            models.Index(fields=["subject", "created_at", "id"], name="fact_subject_newest"),
            # Pattern ops on the predicate: a slot prefix ("pet:%") is an index range in any collation.
            models.Index(
                F("subject"),
                OpClass(F("predicate"), name="varchar_pattern_ops"),
                F("subject_entity"),
                name="fact_subject_slot",
            ),
            models.Index(fields=["expires_at"], name="fact_expires_at"),
            # A fact's time as search reads it (time signal, since/until filters, a time the query names):
            # a subject's facts of one day are read without visiting its other facts.
            models.Index(
                models.F("subject"), Coalesce("event_time", "valid_from", "created_at"), name="fact_subject_when"
            ),
            # The keyword scan of one subject's searchable facts reads only this index (index-only scan): the
            # heap rows are ~2 kB each (the embedding is inline), so reading them cost ~14 ms for 10k facts
            # against ~3 ms for this index. The filters' columns are included so a filtered search stays on it.
            models.Index(
                fields=["subject"],
                include=["id", "expires_at", "type", "event_time", "valid_from", "created_at", "search_vector"],
                condition=Q(tier="active", status__in=["active", "conflicted"]),
                name="fact_keyword_scan",
            ),
            GinIndex(fields=["search_vector"], name="fact_search_gin"),
            GinIndex(fields=["entity_keys"], name="fact_entity_keys_gin"),
            GinIndex(fields=["keywords"], name="fact_keywords_gin"),
            HnswIndex(
                name="fact_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
        ]

    def __str__(self) -> str:
        return self.text[:80]

    # The read counters live in FactAccess (no row until the fact's first read); load facts with
    # select_related("access") or prefetch it, or each of these is a query.
    @property
    def access_count(self) -> int:
        access: FactAccess | None = getattr(self, "access", None)
        return access.access_count if access is not None else 0

    @property
    def last_accessed_at(self) -> dt.datetime | None:
        access: FactAccess | None = getattr(self, "access", None)
        return access.last_accessed_at if access is not None else None

    @property
    def value_score(self) -> float:
        """The value score the lifecycle pass last stored (facts.value); 0.5 until its first pass."""
        access: FactAccess | None = getattr(self, "access", None)
        return access.value_score if access is not None else VALUE_SCORE_DEFAULT


class FactAccess(models.Model):
    """The often-written, never-indexed side of a fact: how often and when it was last returned by a read, and the
    value score the lifecycle pass stored; no row until its first read or scoring (a fact without one reads as 0
    reads and the default score).

    Kept off facts_fact: bumping a counter or storing a score there rewrote a wide row (inline vector, tsvector)
    and added entries to all of its indexes on every search and every rescoring (a first pass over 200k facts:
    51 s of its 136 s). Here nothing updated is indexed and pages keep free space (fillfactor 70, migration 0006),
    so a bump is a HOT update of a small row, and a score is written without touching the fact's row or its
    change log (search reads the score per candidate, nothing in memory holds it).
    """

    fact = models.OneToOneField(Fact, primary_key=True, on_delete=models.CASCADE, related_name="access")
    access_count = models.PositiveIntegerField(default=0)
    last_accessed_at = models.DateTimeField(null=True, blank=True)
    value_score = models.FloatField(default=VALUE_SCORE_DEFAULT, db_default=VALUE_SCORE_DEFAULT)

    def __str__(self) -> str:
        return f"fact {self.fact_id} read {self.access_count} times"


class FactSource(models.Model):
    """A message a fact came from, with the exact span of its content when known."""

    fact = models.ForeignKey(Fact, on_delete=models.CASCADE, related_name="sources")
    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="fact_sources")
    span_start = models.PositiveIntegerField(null=True, blank=True)
    span_end = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["fact", "message"], name="fact_source_unique")]

    def __str__(self) -> str:
        return f"fact {self.fact_id} from message {self.message_id}"


class Actor(models.TextChoices):
    AGENT = "agent", "agent (API key)"
    OPERATOR = "operator"
    END_USER = "end_user", "end user"
    SYSTEM = "system", "system job"


class FactHistory(models.Model):
    """Append-only change event; a forgotten fact keeps the event and loses the text."""

    class Event(models.TextChoices):
        CREATED = "created"
        MERGED = "merged"
        UPDATED = "updated"
        SUPERSEDED = "superseded"
        CONFLICTED = "conflicted"
        CORRECTED = "corrected"
        ARCHIVED = "archived"
        RESTORED = "restored"
        FORGOTTEN = "forgotten"
        PINNED = "pinned"
        RESOLVED = "resolved"

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="fact_history")
    fact = models.ForeignKey(Fact, on_delete=models.SET_NULL, null=True, blank=True, related_name="history")
    fact_uid = models.UUIDField(db_index=True)
    event = models.CharField(max_length=16, choices=Event.choices)
    actor = models.CharField(max_length=16, choices=Actor.choices)
    actor_id = models.CharField(max_length=255, blank=True, default="")
    before_text = models.TextField(blank=True, default="")
    after_text = models.TextField(blank=True, default="")
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = "fact history"

    def __str__(self) -> str:
        return f"{self.event} {self.fact_uid}"


class Conflict(TimeStampedModel):
    class Kind(models.TextChoices):
        CONTRADICTION = "contradiction"
        UPDATE = "update"

    class State(models.TextChoices):
        OPEN = "open"
        AUTO_RESOLVED = "auto_resolved"
        RESOLVED = "resolved"

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="conflicts")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="conflicts")
    fact_a = models.ForeignKey(Fact, on_delete=models.SET_NULL, null=True, related_name="+")
    fact_b = models.ForeignKey(Fact, on_delete=models.SET_NULL, null=True, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.CONTRADICTION)
    state = models.CharField(max_length=16, choices=State.choices, default=State.OPEN)
    reason = models.CharField(max_length=255, blank=True, default="")
    resolution = models.CharField(max_length=64, blank=True, default="")
    resolved_by = models.CharField(max_length=255, blank=True, default="")
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["open", "auto_resolved", "resolved"]), name="conflict_state_valid"
            ),
            models.CheckConstraint(condition=Q(kind__in=["contradiction", "update"]), name="conflict_kind_valid"),
        ]


class Profile(TimeStampedModel):
    """A short structured view of a subject's current facts (about 500 tokens)."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    subject = models.OneToOneField(Subject, on_delete=models.CASCADE, related_name="profile")
    text = models.TextField(blank=True, default="")
    sections = models.JSONField(default=dict, blank=True)
    tokens = models.PositiveIntegerField(default=0)
    built_at = models.DateTimeField(null=True, blank=True)
    stale = models.BooleanField(default=True)


class AccessLog(models.Model):
    """Who read which facts of a subject, and when (the user sees this in the portal)."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="access_logs")
    api_key = models.ForeignKey(ApiKey, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    actor = models.CharField(max_length=16, choices=Actor.choices, default=Actor.AGENT)
    actor_id = models.CharField(max_length=255, blank=True, default="")
    operation = models.CharField(max_length=32)
    fact_ids = ArrayField(models.BigIntegerField(), default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True, editable=False)  # the read's time

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.operation} by {self.actor} at {self.created_at:%Y-%m-%d %H:%M}"


class ContextCall(models.Model):
    """Cost accounting for one context request: tokens sent versus the full history."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="context_calls")
    api_key = models.ForeignKey(ApiKey, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    tokens = models.PositiveIntegerField()
    full_history_tokens = models.PositiveIntegerField()
    token_budget = models.PositiveIntegerField()
    fact_count = models.PositiveIntegerField(default=0)
    took_ms = models.FloatField(default=0)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"context {self.tokens}/{self.full_history_tokens} tokens"


class SearchCall(models.Model):
    """One search request: for hit rate and latency in the operator console."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="search_calls")
    result_count = models.PositiveIntegerField()
    took_ms = models.FloatField()
    matched_by = ArrayField(models.CharField(max_length=16), default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True, editable=False)  # the read's time

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"search {self.result_count} results in {self.took_ms:.1f} ms"


# Kept in step with the trigger of migration 0013 (FACT_IDS_MAX there).
FACT_CHANGE_IDS_MAX = 32


class FactChange(models.Model):
    """One statement that changed a subject's facts, appended by a trigger on facts_fact (migration 0010).

    Search's in-memory vectors of a large subject (facts.retrieval.vector_cache) are valid while the subject's
    rows here read the same (count, sum of ids) as when the vectors were read; the rows added since name the
    facts to read again (`fact_id`, migration 0013: one row per fact the statement changed, or one row without a
    fact when it changed more than FACT_CHANGE_IDS_MAX of the subject's). Append-only, so writers never
    wait on each other here; rows older than the subject's newest are pruned hourly. No foreign key: a
    subject's erasure deletes its facts, whose trigger appends rows here within the erasing statement.
    """

    subject_id = models.BigIntegerField()
    fact_id = models.BigIntegerField(null=True)  # None: more than FACT_CHANGE_IDS_MAX facts (read the subject whole)
    created_at = models.DateTimeField(db_default=Now())  # the trigger inserts only subject_id

    class Meta:
        indexes = [models.Index(fields=["subject_id", "id"], name="fact_change_subject_id")]

    def __str__(self) -> str:
        return f"facts of subject {self.subject_id} changed at {self.created_at:%Y-%m-%d %H:%M:%S}"


# A statement that changes more of a subject's messages than this logs one row without a message (a bulk import,
# an erasure): readers read the subject's messages whole then.
MESSAGE_CHANGE_IDS_MAX = 32


class MessageChange(models.Model):
    """One message a statement changed, as search reads it (inserted, deleted, or its content, vectors, session,
    speaker or time updated), appended by a trigger on conversations_message (migration 0014); one row without a
    message when a statement changed more than MESSAGE_CHANGE_IDS_MAX of a subject's. Search's in-memory copy of
    a subject's messages (facts.retrieval.held_messages) is current while the subject's rows here read the same
    (count, sum of ids), and reads again just the messages the newer rows name. Extraction's claim and state
    updates log nothing. Ids only, no text; the subject's deletion deletes its rows (after its messages' deletion
    appended some); rows older than the subject's newest are pruned hourly.
    """

    # A foreign key in the database only (ON DELETE CASCADE, migration 0014): the subject's deletion takes the rows
    # its messages' deletion appended in the same transaction, whatever deletes it (Django's collector would
    # delete the rows before the messages whose deletion appends them).
    subject_id = models.BigIntegerField()
    message_id = models.BigIntegerField(null=True)  # None: more than MESSAGE_CHANGE_IDS_MAX messages
    created_at = models.DateTimeField(db_default=Now())  # the trigger inserts only subject_id and message_id

    class Meta:
        indexes = [models.Index(fields=["subject_id", "id"], name="message_change_subject_id")]

    def __str__(self) -> str:
        return f"messages of subject {self.subject_id} changed at {self.created_at:%Y-%m-%d %H:%M:%S}"


class ForgottenFingerprint(models.Model):
    """A fact a subject forgot, as a keyed hash of its normalised text (never the text itself).

    The extraction pipeline skips a candidate whose fingerprint is in its subject's set, so re-extracting the
    same source (a retried task, a re-sent conversation) never brings a forgotten fact back. Keyed by
    `subject_key` (a keyed hash of the tenant and the subject's external id), not by a foreign key: the set
    outlives the subject's erasure, which removes every row holding the subject's id.
    """

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    subject_key = models.CharField(max_length=64)
    fingerprint = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "subject_key", "fingerprint"], name="forgotten_fingerprint_unique"
            )
        ]

    def __str__(self) -> str:
        return f"forgotten {self.fingerprint[:12]}…"
