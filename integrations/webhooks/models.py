"""Webhook endpoints of a tenant, the per-subject cursor over the facts' change log, and the delivery log."""

from __future__ import annotations

import uuid

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.db.models import Q

from conversations.models import Subject, Tenant
from memory_site.models import TimeStampedModel


class Event(models.TextChoices):
    FACT_CREATED = "fact.created"
    FACT_UPDATED = "fact.updated"
    FACT_SUPERSEDED = "fact.superseded"
    FACT_FORGOTTEN = "fact.forgotten"
    CONFLICT_OPENED = "conflict.opened"
    SUBJECT_ERASED = "subject.erased"


class WebhookEndpoint(TimeStampedModel):
    """A URL of a tenant that receives the events it subscribes to, signed with its secret.

    The secret is kept (it signs every delivery), and shown once when the endpoint is made. Repeated failure
    disables the endpoint, with the reason; enabling it again sends what waited meanwhile.
    """

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.URLField(max_length=2000)
    events = ArrayField(models.CharField(max_length=32, choices=Event.choices))
    secret = models.CharField(max_length=100, editable=False)
    description = models.CharField(max_length=255, blank=True, default="")
    enabled = models.BooleanField(default=True)
    disabled_reason = models.TextField(blank=True, default="")
    disabled_at = models.DateTimeField(null=True, blank=True)
    consecutive_failures = models.PositiveIntegerField(default=0)
    last_success_at = models.DateTimeField(null=True, blank=True)
    last_failure_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tenant", "created_at"]
        indexes = [models.Index(fields=["tenant", "enabled"], name="webhook_endpoint_tenant")]
        constraints = [
            models.CheckConstraint(condition=~Q(events=[]), name="webhook_endpoint_has_events"),
        ]

    def __str__(self) -> str:
        return f"{self.url} ({self.tenant_id})"


class WebhookCursor(models.Model):
    """How far a subject's change log (facts' FactHistory) has been turned into deliveries, and the subject's next
    event sequence number. Locked while collecting, so one collector at a time numbers a subject's events."""

    # Named reverse relations (not "+"): an erasure's one-statement delete of the subject looks for rows pointing at it.
    subject = models.OneToOneField(Subject, on_delete=models.CASCADE, primary_key=True, related_name="webhook_cursor")
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    last_history_id = models.BigIntegerField(default=0)
    next_sequence = models.BigIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"subject {self.subject_id} read to history {self.last_history_id}"


class WebhookDelivery(TimeStampedModel):
    """One event for one endpoint: its payload, and every attempt's outcome (the delivery log).

    A subject's deliveries to an endpoint go out in `sequence` order: one is sent only when none before it is still
    pending or sending. `dedupe_key` names the change it reports, so collecting the same change twice stores it once.
    """

    class State(models.TextChoices):
        PENDING = "pending"
        SENDING = "sending"
        DELIVERED = "delivered"
        FAILED = "failed"  # gave up after the last attempt

    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    subject = models.ForeignKey(
        Subject, on_delete=models.CASCADE, null=True, blank=True, related_name="webhook_deliveries"
    )
    sequence = models.BigIntegerField(default=0)
    event = models.CharField(max_length=32, choices=Event.choices)
    dedupe_key = models.CharField(max_length=100)
    fact_uids = ArrayField(models.UUIDField(), default=list, blank=True)
    payload = models.JSONField()
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    last_response = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "webhook deliveries"
        constraints = [
            models.UniqueConstraint(fields=["endpoint", "dedupe_key"], name="webhook_delivery_once"),
            models.CheckConstraint(
                condition=Q(state__in=["pending", "sending", "delivered", "failed"]), name="webhook_delivery_state"
            ),
        ]
        indexes = [
            # A stream's head: the subject's earliest delivery to the endpoint not settled yet.
            models.Index(
                fields=["endpoint", "subject", "sequence"],
                condition=Q(state__in=["pending", "sending"]),
                name="webhook_delivery_open",
            ),
            GinIndex(fields=["fact_uids"], name="webhook_delivery_fact_uids"),
        ]

    def __str__(self) -> str:
        return f"{self.event} #{self.sequence} to {self.endpoint_id} ({self.state})"
