"""Tenants, API keys, end users (subjects), sessions, messages (the immutable event log) and summaries."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import Q
from django.utils import timezone
from pgvector.django import VectorField

from memory_site.models import TimeStampedModel

EMBEDDING_DIMENSIONS = 384
# A Chinese text's second vector, from an encoder that reads Chinese (facts/extraction/zh_encoder.py: multilingual-e5-small).
ZH_EMBEDDING_DIMENSIONS = 384


class Tenant(TimeStampedModel):
    """An agent application; every other row belongs to exactly one tenant."""

    name = models.CharField(max_length=100, unique=True)
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ApiKey(TimeStampedModel):
    """A bearer key; only its SHA-256 hash is stored, the key itself is shown once."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=100, default="default")
    prefix = models.CharField(max_length=16, db_index=True)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    # A read-only key may search, build context and read; every write answers 403 read_only_key.
    read_only = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.tenant.name}/{self.name})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class Subject(TimeStampedModel):
    """An end user of a tenant's agent, known by the tenant's own id."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="subjects")
    external_id = models.CharField(max_length=255)
    memory_paused = models.BooleanField(default=False)
    last_consolidated_message_count = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["tenant", "external_id"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "external_id"], name="subject_unique_per_tenant"),
            models.CheckConstraint(condition=~Q(external_id=""), name="subject_external_id_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.external_id} ({self.tenant_id})"


class Session(TimeStampedModel):
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="sessions")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="sessions")
    external_id = models.CharField(max_length=255)
    metadata = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["subject", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["subject", "external_id"], name="session_unique_per_subject"),
        ]

    def __str__(self) -> str:
        return self.external_id


class Message(TimeStampedModel):
    """One turn: immutable once stored; extraction state is the only part that changes."""

    class Role(models.TextChoices):
        USER = "user"
        ASSISTANT = "assistant"
        SYSTEM = "system"

    class ExtractionState(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"
        SKIPPED = "skipped"

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="messages")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="messages")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="messages")
    role = models.CharField(max_length=16, choices=Role.choices)
    name = models.CharField(max_length=255, blank=True, default="")
    content = models.TextField()
    external_id = models.CharField(max_length=255, null=True, blank=True)  # noqa: DJ001 (NULL = no idempotency key)
    metadata = models.JSONField(default=dict, blank=True)
    job_id = models.UUIDField(default=uuid.uuid4, db_index=True)
    received_at = models.DateTimeField(default=timezone.now)
    extraction_state = models.CharField(
        max_length=16, choices=ExtractionState.choices, default=ExtractionState.PENDING, db_index=True
    )
    extraction_attempts = models.PositiveIntegerField(default=0)
    extraction_error = models.TextField(blank=True, default="")
    extraction_started_at = models.DateTimeField(null=True, blank=True)
    extraction_finished_at = models.DateTimeField(null=True, blank=True)
    # Who claimed a running message: the Celery task's id ("" inline). A task redelivered after its process was
    # killed finds its own claim still running and takes the message again, instead of waiting for the sweeper.
    extraction_claim = models.CharField(max_length=64, blank=True, default="")
    extractor = models.CharField(max_length=32, blank=True, default="")
    gate_decision = models.CharField(max_length=16, blank=True, default="")
    gate_reason = models.CharField(max_length=255, blank=True, default="")
    # The LLM extractor's tokens spent on this message (its share of the prompt's `usage`); 0 for the rules.
    llm_tokens = models.PositiveIntegerField(default=0)
    # Episodic recall over raw turns (include_messages): full text and vector.
    search_vector = SearchVectorField(null=True, editable=False)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True, editable=False)
    # Chinese turns only: the vector a Chinese query is searched by (MiniLM's does not read Chinese).
    embedding_zh = VectorField(dimensions=ZH_EMBEDDING_DIMENSIONS, null=True, blank=True, editable=False)
    # Its content words as search's re-rank reads them (a fact's `keywords` likewise), written with the vectors by
    # extraction; NULL before (search then cuts them from the content itself, as it did for every turn).
    keywords = ArrayField(models.TextField(), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["subject", "external_id"],
                condition=Q(external_id__isnull=False),
                name="message_external_id_unique_per_subject",
            ),
            models.CheckConstraint(condition=Q(role__in=["user", "assistant", "system"]), name="message_role_valid"),
            models.CheckConstraint(
                condition=Q(extraction_state__in=["pending", "running", "done", "failed", "skipped"]),
                name="message_extraction_state_valid",
            ),
        ]
        indexes = [
            models.Index(fields=["subject", "created_at"], name="message_subject_time"),
            # A session's turns in order, ties by id: a turn's next two (search's reply links) are the index's next
            # two entries (on (session, created_at) every link sorted the rest of the session: 1.55 -> 0.71 ms
            # for 40 linked turns at 10k turns, bench/README.md session 33).
            models.Index(fields=["session", "created_at", "id"], name="message_session_order"),
            models.Index(fields=["extraction_state", "received_at"], name="message_state_received"),
            # The console's daily job counts a day's ingest by arrival time (created_at may be the client's).
            models.Index(fields=["received_at"], name="message_received_at"),
            GinIndex(fields=["search_vector"], name="message_search_gin"),
            # No vector index: a subject's messages are searched by an exact scan (facts/retrieval/candidates/vector.py);
            # an HNSW index over every message was upkeep on each extracted message with no query to use it.
        ]

    def __str__(self) -> str:
        return f"{self.role}: {self.content[:60]}"


class Summary(TimeStampedModel):
    """A rolling summary of a window of a session's turns; whitelisted entities are kept verbatim."""

    class Kind(models.TextChoices):
        MID = "mid", "mid-term"
        FAR = "far", "far"

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="summaries")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="summaries")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="summaries")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    first_message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="+", null=True)
    last_message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="+", null=True)
    message_count = models.PositiveIntegerField(default=0)
    text = models.TextField()
    entities = models.JSONField(default=list, blank=True)
    tokens = models.PositiveIntegerField(default=0)
    rounds = models.PositiveIntegerField(default=1)
    summarizer = models.CharField(max_length=32, default="extractive")
    covers_until = models.DateTimeField(null=True, blank=True)
    # Why the configured (LLM) summariser was not used for this text, when it fell back to the extractive one.
    fallback_reason = models.CharField(max_length=255, blank=True, default="")

    class Meta:
        ordering = ["session", "covers_until"]
        verbose_name_plural = "summaries"
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["mid", "far"]), name="summary_kind_valid"),
            # One mid-term summary per 4-turn window and one far summary per session (tasks may run twice).
            models.UniqueConstraint(
                fields=["session", "first_message"], condition=Q(kind="mid"), name="summary_one_mid_per_window"
            ),
            models.UniqueConstraint(fields=["session"], condition=Q(kind="far"), name="summary_one_far_per_session"),
        ]
        indexes = [models.Index(fields=["session", "kind", "covers_until"], name="summary_session_kind")]

    def __str__(self) -> str:
        return f"{self.kind} summary of {self.session_id}"


class ContextSnapshot(TimeStampedModel):
    """A checkpoint of a session's rebuilt context every N events, so replay cost stays flat."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="context_snapshots")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="snapshots")
    event_count = models.PositiveIntegerField()
    last_message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="+")
    state = models.JSONField(default=dict)

    class Meta:
        ordering = ["session", "event_count"]
        constraints = [
            models.UniqueConstraint(fields=["session", "event_count"], name="snapshot_unique_per_count"),
        ]


# --- Operators: a staff user tied to one tenant ----------------------------------------------------------------


class OperatorMembership(TimeStampedModel):
    """A staff user who operates one tenant: every admin page, action and the dashboard show only its rows.

    A staff user without a membership who is not a superuser sees no tenant's rows at all; superusers see all.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="operator_membership")
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="operators")

    class Meta:
        ordering = ["tenant", "user"]

    def __str__(self) -> str:
        return f"{self.user} operates {self.tenant}"
