"""Operator views of tenants, keys, subjects, sessions, messages and summaries."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from conversations import services
from conversations.models import ApiKey, ContextSnapshot, Message, Session, Subject, Summary, Tenant


@admin.register(Tenant)
class TenantAdmin(admin.ModelAdmin):
    list_display = ("name", "is_active", "created_at")
    list_filter = ("is_active",)
    search_fields = ("name",)
    readonly_fields = ("created_at", "updated_at")


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    list_display = ("prefix", "tenant", "name", "read_only", "created_at", "last_used_at", "revoked_at")
    list_filter = ("tenant", "read_only", "revoked_at")
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
class SubjectAdmin(admin.ModelAdmin):
    list_display = ("external_id", "tenant", "memory_paused", "created_at")
    list_filter = ("tenant", "memory_paused")
    search_fields = ("external_id",)
    readonly_fields = ("created_at", "updated_at", "last_consolidated_message_count")


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ("external_id", "subject", "tenant", "created_at")
    list_filter = ("tenant",)
    search_fields = ("external_id", "subject__external_id")
    raw_id_fields = ("subject",)
    readonly_fields = ("created_at", "updated_at")


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("id", "subject", "role", "name", "short_content", "created_at", "extraction_state", "gate_decision")
    list_filter = ("tenant", "role", "extraction_state", "gate_decision")
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

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # messages enter through the API: the event log is immutable


@admin.register(Summary)
class SummaryAdmin(admin.ModelAdmin):
    list_display = ("session", "kind", "message_count", "tokens", "rounds", "covers_until")
    list_filter = ("kind", "tenant")
    raw_id_fields = ("subject", "session", "first_message", "last_message")
    readonly_fields = ("created_at", "updated_at")


@admin.register(ContextSnapshot)
class ContextSnapshotAdmin(admin.ModelAdmin):
    list_display = ("session", "event_count", "created_at")
    raw_id_fields = ("subject", "session", "last_message")
    readonly_fields = ("created_at", "updated_at")
