from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from policies.models import PortalLink, RetentionPolicy, SubjectErasure


@admin.register(RetentionPolicy)
class RetentionPolicyAdmin(admin.ModelAdmin):
    list_display = (
        "tenant", "fact_type", "archive_after_days", "drop_vector_after_days", "delete_after_days",
        "min_value_to_keep", "half_life_days",
    )  # fmt: skip
    list_filter = ("tenant", "fact_type")
    list_editable = (
        "archive_after_days",
        "drop_vector_after_days",
        "delete_after_days",
        "min_value_to_keep",
        "half_life_days",
    )
    readonly_fields = ("created_at", "updated_at")


# --- The privacy portal: read-only views for operators (links are made by agents, receipts by erasures) --------


class _ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(PortalLink)
class PortalLinkAdmin(_ReadOnly):
    list_display = ("jti", "tenant", "subject", "created_at", "expires_at", "used_at", "refused_count", "ended_at")
    list_filter = ("tenant",)
    fields = list_display
    raw_id_fields = ("subject",)


@admin.register(SubjectErasure)
class SubjectErasureAdmin(_ReadOnly):
    """Receipts hold no text: a pseudonym, who asked, and the rows deleted per table."""

    list_display = ("uid", "tenant", "actor", "actor_id", "created_at")
    list_filter = ("tenant", "actor")
    fields = ("uid", "tenant", "subject_key", "actor", "actor_id", "counts", "created_at")
