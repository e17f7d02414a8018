"""Operator views of retention policies, the portal's links and erasure receipts, and the dashboard's daily rows."""

from __future__ import annotations

import json

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from conversations.admin_tenancy import TenantScopedAdmin, tenant_scope
from conversations.models import Tenant
from facts.admin import FactAdmin as BaseFactAdmin
from facts.models import Fact
from policies.feedback import contribution_rate
from policies.lifecycle.selectors import fact_value_parts
from policies.lifecycle.services import lifecycle_run
from policies.models import Feedback, LifecycleRun, PortalLink, RetentionPolicy, SubjectErasure, UsageDaily


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
    actions = ["dry_run"]

    @admin.action(description="Dry run: what the lifecycle would do now under these tenants' policies")
    def dry_run(self, request: HttpRequest, queryset: QuerySet[RetentionPolicy]) -> None:
        for tenant in {p.tenant for p in queryset.select_related("tenant")}:
            run = lifecycle_run(tenant=tenant, dry_run=True, trigger="admin")
            mine = [r for r in run.details if str(r["policy"]).startswith(f"{tenant.name}/")]
            others = sum(int(r["count"]) for r in run.details if r not in mine)
            said = "; ".join(f"{r['policy']}: {r['action']} {r['count']}" for r in mine) or "nothing under its policies"
            self.message_user(
                request, f"{tenant.name} (dry run {run.pk}): {said}; {others} more under the defaults. "
                f"Totals: {json.dumps(run.counts)}", messages.INFO,
            )  # fmt: skip


@admin.register(LifecycleRun)
class LifecycleRunAdmin(TenantScopedAdmin):
    """Runs of the lifecycle jobs, read-only: what each did per policy and action."""

    list_display = ("id", "created_at", "tenant", "trigger", "dry_run", "state", "facts_scanned", "counts", "seconds")
    list_filter = ("state", "dry_run", "trigger", "tenant")
    fields = (
        "tenant", "trigger", "dry_run", "state", "as_of", "counts", "details", "facts_scanned", "error",
        "created_at", "started_at", "finished_at",
    )  # fmt: skip
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Feedback)
class FeedbackAdmin(TenantScopedAdmin):
    list_display = ("created_at", "tenant", "subject", "call_type", "call_id", "fact_id_rated", "useful")
    list_filter = ("tenant", "useful", "call_type")
    raw_id_fields = ("subject", "fact", "api_key")
    readonly_fields = [f.name for f in Feedback._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None):  # type: ignore[no-untyped-def]
        tenant_id = request.GET.get("tenant__id__exact")
        allowed = (
            tenant_id and tenant_id.isdigit() and tenant_scope(Tenant.objects.filter(pk=int(tenant_id)), request, "pk")
        )
        if allowed and tenant_id:
            rate = contribution_rate(tenant_id=int(tenant_id))
            self.message_user(request, f"Contribution rate: {rate['useful']} of {rate['rated']} rated facts helped.")
        return super().changelist_view(request, extra_context)


# The facts admin, with each fact's value score explained (the policies app owns the rules it is computed by).
admin.site.unregister(Fact)


@admin.register(Fact)
class FactAdmin(BaseFactAdmin):
    derived = (*BaseFactAdmin.derived, "value_parts")  # type: ignore[assignment]  # shown read-only, last

    @admin.display(description="value score, explained")
    def value_parts(self, obj: Fact) -> str:
        if obj.pk is None:
            return "-"
        parts = fact_value_parts(fact=obj)
        if parts is None:
            return "-"
        rows = [
            ("stored score", f"{parts['value_score']:.2f}"),
            ("score now", f"{parts['score']:.2f}" + (" (pinned: remembered explicitly)" if parts["pinned"] else "")),
            ("importance (fact and type)", f"{parts['p_importance']:.3f} x {parts['weights']['importance']}"),
            ("mentions", f"{parts['p_mentions']:.3f} x {parts['weights']['mentions']}"),
            ("reads", f"{parts['p_reads']:.3f} x {parts['weights']['reads']}"),
            ("feedback", f"{parts['p_feedback']:.3f} x {parts['weights']['feedback']}"),
            ("time decay", f"{parts['p_decay']:.3f} ({parts['age_days']:.0f} days, half-life "
                           f"{parts['half_life_days']:.0f})"),
            ("policy", str(parts["policy"])),
        ]  # fmt: skip
        return format_html("<table>{}</table>", format_html_join("", "<tr><th>{}</th><td>{}</td></tr>", rows))


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
