"""Operator views of facts, history, conflicts, profiles and usage logs; every write goes through the services.

Editing a fact is `fact_correct` (re-embedded, in the history), deleting it is `fact_forget` (history text
dropped, vector gone); the actions archive, restore, pin, unpin, re-embed and merge call their services. Each
page sees only the operator's tenant (conversations.admin_tenancy).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, path
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from conversations.admin_tenancy import TenantScopedAdmin
from facts import selectors, services
from facts.admin_review import conflict_review_view
from facts.models import AccessLog, Actor, Conflict, ContextCall, Fact, FactHistory, Profile, SearchCall
from facts.text import normalize

# Never read for a list or a change page: the vector alone is 1.5 KB a row.
FACT_DEFERRED = ("embedding", "search_vector", "search_text", "normalized_text")


def operator_id(request: HttpRequest) -> str:
    return str(request.user.get_username())


class _ReadOnlyAdmin(TenantScopedAdmin):
    """Rows written only by services (logs, history): listed and shown, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Fact)
class FactAdmin(TenantScopedAdmin):
    list_display = (
        "id", "short_text", "subject", "type", "status", "tier", "mention_count", "value_score", "pinned",
        "extractor", "created_at",
    )  # fmt: skip
    list_filter = ("tenant", "tier", "status", "type", "pinned", "extractor")
    list_select_related = ("subject", "access")
    search_fields = ("text", "subject__external_id", "object_value")
    search_help_text = "Text, object value or user id; an entity (name, place) matches exactly."
    raw_id_fields = ("subject",)
    actions = ["archive", "restore", "pin", "unpin", "reembed", "merge"]
    # A correction may change these; everything else is derived by the services and shown read-only.
    correctable = ("text", "type", "expires_at", "pinned", "metadata")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Fact]:
        return super().get_queryset(request).defer(*FACT_DEFERRED).select_related("access")

    derived = (
        "tenant", "status", "tier", "subject_entity", "predicate", "object_value", "entities", "keywords", "language",
        "confidence", "importance", "value_score", "mention_count", "access_count", "last_accessed_at",
        "useful_count", "not_useful_count", "valid_from", "valid_to", "event_time", "embedding_model", "extractor",
        "extractor_version", "created_at", "updated_at",
    )  # fmt: skip

    def get_fields(self, request: HttpRequest, obj: Fact | None = None) -> list[str]:  # type: ignore[override]
        if obj is None:
            return ["subject", "text", "type", "expires_at"]
        return ["uid", "subject", *self.correctable, "said_in", "history_events", *self.derived]

    def get_readonly_fields(self, request: HttpRequest, obj: Fact | None = None) -> list[str]:  # type: ignore[override]
        return [] if obj is None else ["uid", "subject", "said_in", "history_events", *self.derived]

    # Sources and history are shown, never edited: plain lists, not inline formsets (nothing to post back).
    @admin.display(description="said in")
    def said_in(self, obj: Fact) -> str:
        sources, _ = selectors.conflict_sides(fact_ids=[obj.pk])
        items = [
            format_html("<li>{} · message #{}: {}</li>", s.message.created_at.strftime("%Y-%m-%d %H:%M"),
                        s.message.pk, s.message.content[:300])
            for s in sources.get(obj.pk, [])
        ]  # fmt: skip
        return format_html("<ul>{}</ul>", mark_safe("".join(items))) if items else "written directly"  # noqa: S308

    @admin.display(description="history")
    def history_events(self, obj: Fact) -> str:
        rows = FactHistory.objects.filter(fact_uid=obj.uid).order_by("created_at", "id")
        items = [
            format_html("<li>{} · {} by {} {} {}</li>", h.created_at.strftime("%Y-%m-%d %H:%M"), h.event,
                        h.get_actor_display(), h.actor_id, f"({h.before_text} → {h.after_text})"
                        if h.before_text or h.after_text else "")
            for h in rows
        ]  # fmt: skip
        return format_html("<ul>{}</ul>", mark_safe("".join(items)))  # noqa: S308 (each item escaped above)

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Fact], search_term: str) -> Any:
        results, duplicates = super().get_search_results(request, queryset, search_term)
        key = normalize(search_term.strip())[:255]
        if key:  # entities are matched whole through their GIN index, not by substring
            results = results | queryset.filter(entity_keys__contains=[key])
        return results, duplicates

    @admin.display(description="text")
    def short_text(self, obj: Fact) -> str:
        return obj.text[:90]

    # --- writes through the services ---------------------------------------------------------------------------

    def save_model(self, request: HttpRequest, obj: Fact, form: Any, change: bool) -> None:
        data = form.cleaned_data
        if not change:
            result = services.fact_create(
                subject=obj.subject, text=data["text"], type=data.get("type") or None,
                expires_at=data.get("expires_at"), actor=Actor.OPERATOR, actor_id=operator_id(request),
            )  # fmt: skip
            obj.pk = result.fact.pk
            obj.__dict__.update(result.fact.__dict__)
            return
        stored = Fact.objects.get(pk=obj.pk)  # the form already changed `obj`: the service compares with the row
        changed = set(form.changed_data)
        services.fact_correct(
            fact=stored, actor=Actor.OPERATOR, actor_id=operator_id(request),
            text=data["text"] if "text" in changed else None, type=data["type"] if "type" in changed else None,
            expires_at=data["expires_at"] if "expires_at" in changed else ...,
            pinned=data["pinned"] if "pinned" in changed else None,
            metadata=data["metadata"] if "metadata" in changed else None,
        )  # fmt: skip

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        return None  # sources and history are written by the services, never by the form

    def delete_model(self, request: HttpRequest, obj: Fact) -> None:
        services.fact_forget(fact=obj, actor=Actor.OPERATOR, actor_id=operator_id(request), reason="deleted in admin")

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Fact]) -> None:
        for fact in queryset:
            self.delete_model(request, fact)

    # --- actions ------------------------------------------------------------------------------------------------

    def _each(self, request: HttpRequest, queryset: QuerySet[Fact], verb: str, call: Any) -> None:
        done = sum(1 for fact in queryset if call(fact) is not False)
        self.message_user(request, f"{verb} {done} fact(s).")

    @admin.action(description="Archive selected facts (drop their vectors)", permissions=["change"])
    def archive(self, request: HttpRequest, queryset: QuerySet[Fact]) -> None:
        op = operator_id(request)
        self._each(request, queryset.filter(tier=Fact.Tier.ACTIVE), "Archived", lambda f: services.fact_archive(
            fact=f, actor=Actor.OPERATOR, actor_id=op, reason="archived in admin"))  # fmt: skip

    @admin.action(description="Restore selected facts to the active tier", permissions=["change"])
    def restore(self, request: HttpRequest, queryset: QuerySet[Fact]) -> None:
        op = operator_id(request)
        self._each(request, queryset.filter(tier=Fact.Tier.ARCHIVED), "Restored", lambda f: services.fact_restore(
            fact=f, actor=Actor.OPERATOR, actor_id=op))  # fmt: skip

    @admin.action(description="Pin selected facts", permissions=["change"])
    def pin(self, request: HttpRequest, queryset: QuerySet[Fact]) -> None:
        op = operator_id(request)
        self._each(request, queryset.filter(pinned=False), "Pinned", lambda f: services.fact_pin(
            fact=f, actor=Actor.OPERATOR, actor_id=op))  # fmt: skip

    @admin.action(description="Unpin selected facts", permissions=["change"])
    def unpin(self, request: HttpRequest, queryset: QuerySet[Fact]) -> None:
        op = operator_id(request)
        self._each(request, queryset.filter(pinned=True), "Unpinned", lambda f: services.fact_unpin(
            fact=f, actor=Actor.OPERATOR, actor_id=op))  # fmt: skip

    @admin.action(description="Re-embed selected facts", permissions=["change"])
    def reembed(self, request: HttpRequest, queryset: QuerySet[Fact]) -> None:
        op = operator_id(request)
        self._each(request, queryset, "Re-embedded", lambda f: services.fact_reembed(
            fact=f, actor=Actor.OPERATOR, actor_id=op))  # fmt: skip

    @admin.action(description="Merge selected facts (same user) into one", permissions=["change"])
    def merge(self, request: HttpRequest, queryset: QuerySet[Fact]) -> None:
        try:
            survivor = services.facts_merge(facts=list(queryset), actor=Actor.OPERATOR, actor_id=operator_id(request))
        except ValueError as exc:
            self.message_user(request, str(exc), messages.ERROR)
            return
        self.message_user(request, f"Merged {queryset.count()} facts into #{survivor.pk}: {survivor.text[:80]}")


@admin.register(FactHistory)
class FactHistoryAdmin(_ReadOnlyAdmin):
    list_display = ("created_at", "event", "fact_uid", "actor", "actor_id", "subject")
    list_filter = ("event", "actor", "tenant")
    list_select_related = ("subject",)
    search_fields = ("=fact_uid", "before_text", "after_text", "subject__external_id")
    readonly_fields = [f.name for f in FactHistory._meta.fields]


@admin.register(Conflict)
class ConflictAdmin(TenantScopedAdmin):
    list_display = ("id", "subject", "kind", "state", "fact_a", "fact_b", "created_at", "resolved_at", "resolved_by")
    list_filter = ("state", "kind", "tenant")
    list_select_related = ("subject", "fact_a", "fact_b")
    search_fields = ("subject__external_id", "fact_a__text", "fact_b__text")
    fields = ("subject", "kind", "state", "reason", "fact_a", "fact_b", "resolution", "resolved_by", "resolved_at")
    readonly_fields = fields
    actions = ["keep_both", "keep_neither"]
    change_list_template = "admin/facts/conflict/change_list.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Conflict]:
        deferred = [f"{side}__{column}" for side in ("fact_a", "fact_b") for column in FACT_DEFERRED]
        return super().get_queryset(request).select_related("subject", "fact_a", "fact_b").defer(*deferred)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # conflicts are found by the services

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # resolved, never deleted: the record of who settled what

    def get_urls(self) -> list[URLPattern]:
        review = path("review/", self.admin_site.admin_view(self.review_view), name="facts_conflict_review")
        return [review, *super().get_urls()]

    def review_view(self, request: HttpRequest) -> HttpResponse:
        return conflict_review_view(self, request)

    def _resolve_all(self, request: HttpRequest, queryset: QuerySet[Conflict], keep: str) -> None:
        done = 0
        for conflict in queryset.filter(state=Conflict.State.OPEN):
            services.conflict_resolve(conflict=conflict, keep=keep, actor=Actor.OPERATOR, actor_id=operator_id(request))
            done += 1
        self.message_user(request, f"Resolved {done} conflict(s): kept {keep}.")

    @admin.action(description="Resolve selected: keep both facts", permissions=["change"])
    def keep_both(self, request: HttpRequest, queryset: QuerySet[Conflict]) -> None:
        self._resolve_all(request, queryset, "both")

    @admin.action(description="Resolve selected: keep neither fact", permissions=["change"])
    def keep_neither(self, request: HttpRequest, queryset: QuerySet[Conflict]) -> None:
        self._resolve_all(request, queryset, "neither")


@admin.register(Profile)
class ProfileAdmin(_ReadOnlyAdmin):
    list_display = ("subject", "tokens", "built_at", "stale")
    list_filter = ("stale", "tenant")
    list_select_related = ("subject",)
    search_fields = ("subject__external_id",)
    readonly_fields = ("subject", "text", "sections", "tokens", "built_at", "stale", "created_at", "updated_at")
    fields = readonly_fields


@admin.register(AccessLog)
class AccessLogAdmin(_ReadOnlyAdmin):
    list_display = ("created_at", "subject", "operation", "actor", "actor_id", "api_key")
    list_filter = ("operation", "actor", "tenant")
    list_select_related = ("subject", "api_key")
    search_fields = ("subject__external_id", "actor_id")
    readonly_fields = [f.name for f in AccessLog._meta.fields] + ["fact_ids"]


@admin.register(ContextCall)
class ContextCallAdmin(_ReadOnlyAdmin):
    list_display = ("created_at", "subject", "tokens", "full_history_tokens", "token_budget", "fact_count", "took_ms")
    list_filter = ("tenant",)
    list_select_related = ("subject",)
    search_fields = ("subject__external_id",)
    readonly_fields = [f.name for f in ContextCall._meta.fields]


@admin.register(SearchCall)
class SearchCallAdmin(_ReadOnlyAdmin):
    list_display = ("created_at", "subject", "result_count", "took_ms", "matched_by")
    list_filter = ("tenant",)
    list_select_related = ("subject",)
    search_fields = ("subject__external_id",)
    readonly_fields = [f.name for f in SearchCall._meta.fields]
