"""Retention policies per tenant and fact type."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from conversations.models import Tenant
from facts.models import FactType
from memory_site.models import TimeStampedModel

# Shipped defaults, following field practice: inquiries go cold fast, complaints stay half a year.
DEFAULT_RETENTION: dict[str, dict[str, float | int | None]] = {
    FactType.INQUIRY: {"archive_after_days": 30, "drop_vector_after_days": 60, "delete_after_days": 180},
    FactType.COMPLAINT: {"archive_after_days": 120, "drop_vector_after_days": 90, "delete_after_days": 180},
    FactType.EVENT: {"archive_after_days": 180, "drop_vector_after_days": 365, "delete_after_days": None},
    FactType.OTHER: {"archive_after_days": 90, "drop_vector_after_days": 180, "delete_after_days": 365},
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
