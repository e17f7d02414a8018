"""Operator views of tenants, keys, subjects, sessions, messages and summaries."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from conversations import services
from conversations.admin_tenancy import TenantScopedAdmin, is_scoped
from conversations.models import ApiKey, ContextSnapshot, Message, OperatorMembership, Session, Subject, Summary, Tenant


class _NoDelete:
    """Rows removed only by a service (erasure, revocation), never by the admin's generic delete."""

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Tenant)
class TenantAdmin(TenantScopedAdmin):
    tenant_lookup = "pk"
    list_display = ("name", "is_active", "created_at")
    list_filter = ("is_active",)
    search_fields = ("name",)
    readonly_fields = ("created_at", "updated_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return super().has_add_permission(request) and not is_scoped(request)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return super().has_delete_permission(request, obj) and not is_scoped(request)


@admin.register(ApiKey)
class ApiKeyAdmin(_NoDelete, TenantScopedAdmin):
    list_display = ("prefix", "tenant", "name", "read_only", "created_at", "last_used_at", "revoked_at")
    list_filter = ("tenant", "read_only", "revoked_at")
    list_select_related = ("tenant",)
    search_fields = ("prefix", "name", "tenant__name")
    readonly_fields = ("prefix", "key_hash", "created_at", "updated_at", "last_used_at", "revoked_at")
    fields = ("tenant", "name", "read_only", "prefix", "created_at", "last_used_at", "revoked_at")
    actions = ["revoke"]

    def save_model(self, request: HttpRequest, obj: ApiKey, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        key, raw = services.api_key_create(tenant=obj.tenant, name=obj.name, read_only=obj.read_only)
        obj.pk = key.pk
        obj.__dict__.update(key.__dict__)
        self.message_user(request, f"New API key (shown once, copy it now): {raw}", messages.WARNING)

    @admin.action(description="Revoke selected keys")
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiKey]) -> None:
        for key in queryset:
            services.api_key_revoke(api_key=key)
        self.message_user(request, f"Revoked {queryset.count()} key(s).")


@admin.register(Subject)
class SubjectAdmin(_NoDelete, TenantScopedAdmin):
    list_display = ("external_id", "tenant", "memory_paused", "created_at")
    list_select_related = ("tenant",)
    list_filter = ("tenant", "memory_paused")
    search_fields = ("external_id",)
    readonly_fields = ("created_at", "updated_at", "last_consolidated_message_count")


@admin.register(Session)
class SessionAdmin(_NoDelete, TenantScopedAdmin):
    list_display = ("external_id", "subject", "tenant", "created_at")
    list_select_related = ("subject", "tenant")
    list_filter = ("tenant",)
    search_fields = ("external_id", "subject__external_id")
    raw_id_fields = ("subject",)
    readonly_fields = ("created_at", "updated_at")


@admin.register(Message)
class MessageAdmin(_NoDelete, TenantScopedAdmin):
    list_display = ("id", "subject", "role", "name", "short_content", "created_at", "extraction_state", "gate_decision")
    list_filter = ("tenant", "role", "extraction_state", "gate_decision", "extractor")
    list_select_related = ("subject",)
    search_fields = ("content", "external_id", "subject__external_id")
    raw_id_fields = ("subject", "session")
    exclude = ("embedding", "search_vector")
    readonly_fields = (
        "tenant", "subject", "session", "role", "name", "content", "external_id", "metadata", "job_id",
        "created_at", "received_at", "updated_at", "extraction_state", "extraction_attempts", "extraction_error",
        "extraction_started_at", "extraction_finished_at", "extractor", "gate_decision", "gate_reason",
    )  # fmt: skip

    @admin.display(description="content")
    def short_content(self, obj: Message) -> str:
        return obj.content[:80]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Message]:
        return super().get_queryset(request).defer("embedding", "embedding_zh", "search_vector")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # messages enter through the API: the event log is immutable


@admin.register(Summary)
class SummaryAdmin(_NoDelete, TenantScopedAdmin):
    list_display = ("session", "kind", "message_count", "tokens", "rounds", "covers_until")
    list_select_related = ("session",)
    list_filter = ("kind", "tenant")
    raw_id_fields = ("subject", "session", "first_message", "last_message")
    readonly_fields = ("created_at", "updated_at")


@admin.register(ContextSnapshot)
class ContextSnapshotAdmin(_NoDelete, TenantScopedAdmin):
    list_display = ("session", "event_count", "created_at")
    list_select_related = ("session",)
    raw_id_fields = ("subject", "session", "last_message")
    readonly_fields = ("created_at", "updated_at")


@admin.register(OperatorMembership)
class OperatorMembershipAdmin(admin.ModelAdmin):
    """Who operates which tenant: superusers only (an operator may not widen its own reach)."""

    list_display = ("user", "tenant", "created_at")
    list_filter = ("tenant",)
    list_select_related = ("user", "tenant")
    search_fields = ("user__username", "tenant__name")
    raw_id_fields = ("user",)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return bool(request.user.is_superuser)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return bool(request.user.is_superuser)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return bool(request.user.is_superuser)
