"""Operator views of retention policies, the portal's links and erasure receipts, and the dashboard's daily rows."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from conversations.admin_tenancy import TenantScopedAdmin
from policies.models import PortalLink, RetentionPolicy, SubjectErasure, UsageDaily


@admin.register(RetentionPolicy)
class RetentionPolicyAdmin(TenantScopedAdmin):
    list_display = (
        "tenant", "fact_type", "archive_after_days", "drop_vector_after_days", "delete_after_days",
        "min_value_to_keep", "half_life_days",
    )  # fmt: skip
    list_filter = ("tenant", "fact_type")
    list_select_related = ("tenant",)
    list_editable = (
        "archive_after_days",
        "drop_vector_after_days",
        "delete_after_days",
        "min_value_to_keep",
        "half_life_days",
    )
    readonly_fields = ("created_at", "updated_at")
    # Plug point (issue 21, lifecycle): the "dry run" action calls the lifecycle's dry-run service here and shows
    # its result with message_user; it belongs to the lifecycle branch, which owns those services.


# --- The privacy portal: read-only views for operators (links are made by agents, receipts by erasures) --------


class _ReadOnly(TenantScopedAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(PortalLink)
class PortalLinkAdmin(_ReadOnly):
    list_display = ("jti", "tenant", "subject", "created_at", "expires_at", "used_at", "refused_count", "ended_at")
    list_filter = ("tenant",)
    list_select_related = ("tenant", "subject")
    fields = list_display
    raw_id_fields = ("subject",)


@admin.register(SubjectErasure)
class SubjectErasureAdmin(_ReadOnly):
    """Receipts hold no text: a pseudonym, who asked, and the rows deleted per table."""

    list_display = ("uid", "tenant", "actor", "actor_id", "created_at")
    list_filter = ("tenant", "actor")
    list_select_related = ("tenant",)
    fields = ("uid", "tenant", "subject_key", "actor", "actor_id", "counts", "created_at")

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # the proof of an erasure is kept


# --- The operator's console: the dashboard's daily figures (counted by policies.console.services) -------------


@admin.register(UsageDaily)
class UsageDailyAdmin(_ReadOnly):
    list_display = (
        "day", "tenant", "messages", "messages_kept", "messages_skipped", "facts_created", "searches", "search_hits",
        "latency_p50_ms", "latency_p95_ms", "context_calls", "conflicts_opened", "aggregated_at",
    )  # fmt: skip
    list_filter = ("tenant",)
    list_select_related = ("tenant",)
    date_hierarchy = "day"

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # recounted by the job; deleting a row only hides a day until the next run
