"""Operator views of facts, history, conflicts, profiles and usage logs."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from facts.models import (
    AccessLog,
    Conflict,
    ContextCall,
    Fact,
    FactHistory,
    FactSource,
    Profile,
    SearchCall,
)


class FactSourceInline(admin.TabularInline):
    model = FactSource
    extra = 0
    raw_id_fields = ("message",)
    readonly_fields = ("message", "span_start", "span_end", "created_at")


class FactHistoryInline(admin.TabularInline):
    model = FactHistory
    extra = 0
    fk_name = "fact"
    fields = ("created_at", "event", "actor", "actor_id", "before_text", "after_text")
    readonly_fields = fields
    can_delete = False


@admin.register(Fact)
class FactAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "short_text",
        "subject",
        "type",
        "status",
        "tier",
        "mention_count",
        "value_score",
        "pinned",
        "created_at",
    )
    list_filter = ("tenant", "type", "status", "tier", "pinned", "extractor")
    search_fields = ("text", "subject__external_id", "object_value")
    raw_id_fields = ("subject",)
    exclude = ("embedding", "search_vector", "search_text", "normalized_text")
    readonly_fields = (
        "uid", "tenant", "embedding_model", "mention_count", "access_count", "useful_count", "not_useful_count",
        "last_accessed_at", "extractor", "extractor_version", "created_at", "updated_at",
    )  # fmt: skip
    inlines = [FactSourceInline, FactHistoryInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Fact]:
        return super().get_queryset(request).select_related("access")

    @admin.display(description="text")
    def short_text(self, obj: Fact) -> str:
        return obj.text[:90]


@admin.register(FactHistory)
class FactHistoryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "event", "fact_uid", "actor", "actor_id", "subject")
    list_filter = ("event", "actor")
    search_fields = ("fact_uid", "before_text", "after_text")
    readonly_fields = [f.name for f in FactHistory._meta.fields]

    def has_add_permission(self, request) -> bool:  # type: ignore[no-untyped-def]
        return False  # append-only, written by services


@admin.register(Conflict)
class ConflictAdmin(admin.ModelAdmin):
    list_display = ("id", "subject", "kind", "state", "fact_a", "fact_b", "created_at", "resolved_at")
    list_filter = ("state", "kind", "tenant")
    raw_id_fields = ("subject", "fact_a", "fact_b")
    readonly_fields = ("created_at", "updated_at", "resolved_at", "resolved_by")


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("subject", "tokens", "built_at", "stale")
    raw_id_fields = ("subject",)
    readonly_fields = ("created_at", "updated_at", "built_at")


@admin.register(AccessLog)
class AccessLogAdmin(admin.ModelAdmin):
    list_display = ("created_at", "subject", "operation", "actor", "api_key")
    list_filter = ("operation", "actor")
    readonly_fields = [f.name for f in AccessLog._meta.fields] + ["fact_ids"]


@admin.register(ContextCall)
class ContextCallAdmin(admin.ModelAdmin):
    list_display = ("created_at", "subject", "tokens", "full_history_tokens", "token_budget", "took_ms")
    readonly_fields = [f.name for f in ContextCall._meta.fields]


@admin.register(SearchCall)
class SearchCallAdmin(admin.ModelAdmin):
    list_display = ("created_at", "subject", "result_count", "took_ms")
    readonly_fields = [f.name for f in SearchCall._meta.fields]
