"""Retention policies per tenant and fact type; the privacy portal's links, exports and erasure receipts."""

from __future__ import annotations

import uuid

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q
from django.utils import timezone

from conversations.models import ApiKey, Subject, Tenant
from facts.models import Fact, FactType
from memory_site.models import TimeStampedModel

# Shipped defaults (docs/lifecycle.md has the table), used for a fact type the tenant has no policy for:
# inquiries go cold after 30 days unread; complaints are kept half a year and lose their vector at 90 days;
# what describes the person (preference, profile, relationship, health, legal) is kept while its value stays
# above the threshold; events are archived after a year unread. Pinned facts are never archived or deleted.
DEFAULT_RETENTION: dict[str, dict[str, float | int | None]] = {
    FactType.INQUIRY: {"archive_after_days": 30, "min_value_to_keep": 0.0, "half_life_days": 30.0},
    FactType.COMPLAINT: {
        "drop_vector_after_days": 90,
        "delete_after_days": 180,
        "min_value_to_keep": 0.0,
        "half_life_days": 90.0,
    },  # fmt: skip
    FactType.PREFERENCE: {"min_value_to_keep": 0.1, "half_life_days": 365.0},
    FactType.PROFILE: {"min_value_to_keep": 0.1, "half_life_days": 365.0},
    FactType.RELATIONSHIP: {"min_value_to_keep": 0.1, "half_life_days": 365.0},
    FactType.HEALTH: {"min_value_to_keep": 0.1, "half_life_days": 365.0},
    FactType.LEGAL: {"min_value_to_keep": 0.1, "half_life_days": 365.0},
    FactType.EVENT: {"archive_after_days": 365, "min_value_to_keep": 0.0, "half_life_days": 180.0},
    FactType.COMMITMENT: {"min_value_to_keep": 0.1, "half_life_days": 180.0},
    FactType.DECISION: {"min_value_to_keep": 0.1, "half_life_days": 180.0},
    FactType.OTHER: {"min_value_to_keep": 0.1, "half_life_days": 90.0},
}


class RetentionPolicy(TimeStampedModel):
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="retention_policies")
    fact_type = models.CharField(max_length=16, choices=FactType.choices)
    archive_after_days = models.PositiveIntegerField(
        null=True, blank=True, help_text="Archive when unaccessed this long"
    )
    drop_vector_after_days = models.PositiveIntegerField(null=True, blank=True)
    delete_after_days = models.PositiveIntegerField(null=True, blank=True)
    min_value_to_keep = models.FloatField(default=0.1)
    half_life_days = models.FloatField(default=90.0)

    class Meta:
        ordering = ["tenant", "fact_type"]
        verbose_name_plural = "retention policies"
        constraints = [
            models.UniqueConstraint(fields=["tenant", "fact_type"], name="retention_unique_per_type"),
            models.CheckConstraint(condition=Q(half_life_days__gt=0), name="retention_half_life_positive"),
            models.CheckConstraint(
                condition=Q(min_value_to_keep__gte=0) & Q(min_value_to_keep__lte=1), name="retention_min_value_0_1"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tenant} / {self.fact_type}"


class Feedback(models.Model):
    """One rating of a fact a search or context call returned: it helped (useful) or it did not."""

    class CallType(models.TextChoices):
        SEARCH = "search"
        CONTEXT = "context"

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="feedback")
    call_type = models.CharField(max_length=8, choices=CallType.choices, default=CallType.SEARCH)
    call_id = models.CharField(max_length=64, blank=True, default="")
    # The fact may be forgotten or merged since: the rating stays (contribution rate), its fact id with it.
    fact = models.ForeignKey(Fact, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    fact_id_rated = models.BigIntegerField()
    useful = models.BooleanField()
    api_key = models.ForeignKey(ApiKey, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now, db_index=True, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "feedback"
        constraints = [
            models.CheckConstraint(condition=Q(call_type__in=["search", "context"]), name="feedback_call_type_valid")
        ]
        indexes = [models.Index(fields=["tenant", "created_at"], name="feedback_tenant_time")]

    def __str__(self) -> str:
        return f"fact {self.fact_id_rated} {'useful' if self.useful else 'not useful'}"


class LifecycleRun(models.Model):
    """One pass of the lifecycle jobs (tiering, expiry, consolidation, rescoring), with what it did per action."""

    class State(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    trigger = models.CharField(max_length=32, default="manual")  # nightly | command | admin | turns
    dry_run = models.BooleanField(default=False)
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    as_of = models.DateTimeField()  # the clock the rules were applied at (`--now`)
    counts = models.JSONField(default=dict, blank=True)  # action -> facts
    details = models.JSONField(default=list, blank=True)  # [{"policy", "action", "count"}]
    facts_scanned = models.PositiveBigIntegerField(default=0)
    error = models.CharField(max_length=255, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now, db_index=True, editable=False)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Changes to facts from this time on (the database's clock) were not all seen by this run's consolidation: the
    # next run consolidates only the subjects changed since (facts.lifecycle.consolidation_mark).
    consolidation_mark = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["pending", "running", "done", "failed"]), name="lifecycle_run_state_valid"
            )
        ]

    def __str__(self) -> str:
        return f"lifecycle run {self.pk} ({self.state}{', dry run' if self.dry_run else ''})"

    @property
    def seconds(self) -> float | None:
        if self.started_at is None or self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds()


# --- The privacy portal and the data rights (export, erasure) -------------------------------------------------


class PortalLink(models.Model):
    """One signed way into the privacy portal for one subject: the row behind a link's token (its `jti`).

    Single use: redeeming sets `used_at` under a row lock, so a second opening is refused and counted
    (`refused_count`). The portal session it opened is the Django session `session_key`, valid for
    PORTAL_SESSION_MINUTES from `used_at` until logout (`ended_at`) or the subject's erasure.
    """

    jti = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="portal_links")
    created_by = models.ForeignKey(ApiKey, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now, db_index=True, editable=False)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    refused_count = models.PositiveIntegerField(default=0)
    session_key = models.CharField(max_length=40, blank=True, default="")
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(expires_at__gt=models.F("created_at")), name="portal_link_expires_later")
        ]

    def __str__(self) -> str:
        return f"portal link {str(self.jti)[:8]} for subject {self.subject_id}"


class ExportJob(models.Model):
    """An export of everything held about a subject, built by a worker; its file expires (`expires_at`)."""

    class State(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    class Format(models.TextChoices):
        JSON = "json"
        CSV = "csv"

    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="export_jobs")
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.JSON)
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    # Kept in PostgreSQL, not on a disk: the worker that writes it and the web process that serves it may run
    # on different machines. Deleted once expired (policies.portal.tasks.exports_purge_task).
    content = models.BinaryField(null=True, editable=False)
    size = models.PositiveBigIntegerField(default=0)
    error = models.CharField(max_length=255, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now, db_index=True, editable=False)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["pending", "running", "done", "failed"]), name="export_state_valid"
            ),
            models.CheckConstraint(condition=Q(format__in=["json", "csv"]), name="export_format_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.format} export {str(self.uid)[:8]} ({self.state})"

    @property
    def percent(self) -> int:
        if self.state == self.State.DONE:
            return 100
        return min(99, int(100 * self.done / self.total)) if self.total else 0


class SubjectErasure(models.Model):
    """The receipt of one subject's erasure: what was removed, and what `verify_erasure` looks for since.

    Holds no text and no external id: the subject's keyed pseudonym (`subject_key`), the ids its rows had
    (`former_ids`, model label -> ids; ids are never reused), the number of rows deleted per table, and the
    fingerprints of its messages' and summaries' texts and sentences (its facts' are in facts' forgotten set).
    """

    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    subject_key = models.CharField(max_length=64, db_index=True)
    actor = models.CharField(max_length=16)
    actor_id = models.CharField(max_length=255, blank=True, default="")
    counts = models.JSONField(default=dict)
    former_ids = models.JSONField(default=dict)
    text_fingerprints = ArrayField(models.CharField(max_length=64), default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True, editable=False)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"erasure {str(self.uid)[:8]} at {self.created_at:%Y-%m-%d %H:%M}"


# --- The operator's console: daily figures per tenant (policies.console) ---------------------------------------

# Upper bounds (ms) of the search latency histogram's buckets; the last bucket is everything slower. Percentiles
# of a period are read from the summed histograms (a day's exact p50/p95 are kept beside them).
LATENCY_BUCKETS_MS = (2, 4, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 300, 500, 1000, 2000, 5000)


class UsageDaily(models.Model):
    """One tenant's figures of one UTC day, written by the console's periodic job, read by the dashboard.

    The dashboard never scans facts, messages or calls on a page view: it sums these rows. `facts_by_tier_type`
    is a snapshot taken when the row was last aggregated ({tier: {type: n}}).
    """

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    messages = models.PositiveIntegerField(default=0)
    messages_kept = models.PositiveIntegerField(default=0)
    messages_skipped = models.PositiveIntegerField(default=0)
    messages_failed = models.PositiveIntegerField(default=0)
    messages_waiting = models.PositiveIntegerField(default=0)
    extracted_by_rules = models.PositiveIntegerField(default=0)
    extracted_by_llm = models.PositiveIntegerField(default=0)
    gate_reasons = models.JSONField(default=dict, blank=True)
    llm_tokens = models.PositiveBigIntegerField(default=0)
    facts_created = models.PositiveIntegerField(default=0)
    facts_by_tier_type = models.JSONField(default=dict, blank=True)
    searches = models.PositiveIntegerField(default=0)
    search_hits = models.PositiveIntegerField(default=0)
    search_results = models.PositiveBigIntegerField(default=0)
    latency_histogram = models.JSONField(default=list, blank=True)
    latency_p50_ms = models.FloatField(null=True, blank=True)
    latency_p95_ms = models.FloatField(null=True, blank=True)
    context_calls = models.PositiveIntegerField(default=0)
    context_tokens = models.PositiveBigIntegerField(default=0)
    full_history_tokens = models.PositiveBigIntegerField(default=0)
    conflicts_opened = models.PositiveIntegerField(default=0)
    conflicts_resolved = models.PositiveIntegerField(default=0)
    conflicts_auto_resolved = models.PositiveIntegerField(default=0)
    feedback_useful = models.PositiveIntegerField(default=0)
    feedback_total = models.PositiveIntegerField(default=0)
    aggregated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tenant", "day"]
        verbose_name_plural = "usage (daily)"
        constraints = [models.UniqueConstraint(fields=["tenant", "day"], name="usage_daily_unique")]
        indexes = [models.Index(fields=["day", "tenant"], name="usage_daily_day")]

    def __str__(self) -> str:
        return f"{self.tenant_id} on {self.day:%Y-%m-%d}"
