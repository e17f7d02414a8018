"""Tenant-scoped admin: an operator tied to one tenant sees and changes only that tenant's rows.

Every ModelAdmin of the apps derives from `TenantScopedAdmin`: its list, search, actions, change, delete and
history pages read through `get_queryset`, which keeps the operator's tenant only, so another tenant's object
by URL is a 404; foreign-key choices and list filters never name another tenant. Superusers see every tenant.
Lists never count a whole table: the total is the planner's estimate (memory_site.paginator).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.db.models import ForeignKey, Model, QuerySet
from django.forms import ModelChoiceField
from django.http import Http404, HttpRequest, HttpResponse

from conversations.models import Tenant
from conversations.selectors import operator_tenant_ids
from memory_site.paginator import EstimatedCountPaginator


def tenant_scope(queryset: QuerySet[Any], request: HttpRequest, tenant_lookup: str = "tenant_id") -> QuerySet[Any]:
    """The rows of `queryset` the request's user may see (`tenant_lookup` leads from a row to its tenant's id)."""
    ids = operator_tenant_ids(user=request.user)
    if ids is None:
        return queryset
    return queryset.filter(**{f"{tenant_lookup}__in": ids})


def is_scoped(request: HttpRequest) -> bool:
    """Whether the request's user sees only some tenants (not a superuser)."""
    return operator_tenant_ids(user=request.user) is not None


class TenantScopedAdmin(admin.ModelAdmin):
    """A ModelAdmin whose every page and action sees only the operator's tenant."""

    tenant_lookup = "tenant_id"
    paginator = EstimatedCountPaginator
    show_full_result_count = False  # "n of N total" would be a second count of the unfiltered table

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return tenant_scope(super().get_queryset(request), request, self.tenant_lookup)

    def get_list_filter(self, request: HttpRequest) -> Any:
        filters = super().get_list_filter(request)
        if not is_scoped(request):
            return filters
        return [f for f in filters if not (isinstance(f, str) and "tenant" in f.split("__"))]

    def formfield_for_foreignkey(self, db_field: ForeignKey, request: HttpRequest, **kwargs: Any) -> ModelChoiceField:
        related: type[Model] = db_field.related_model  # type: ignore[assignment]
        if is_scoped(request):
            if related is Tenant:
                kwargs["queryset"] = tenant_scope(Tenant.objects.all(), request, "pk")
            elif any(f.name == "tenant" for f in related._meta.get_fields()):
                kwargs["queryset"] = tenant_scope(related._default_manager.all(), request)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[return-value]

    def _in_scope_or_404(self, request: HttpRequest, object_id: str | None) -> None:
        if object_id is not None and self.get_object(request, unquote(object_id)) is None:
            raise Http404("No such object.")

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        self._in_scope_or_404(request, object_id)
        return super().change_view(request, object_id, form_url, extra_context)

    def delete_view(self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None) -> Any:
        self._in_scope_or_404(request, object_id)
        return super().delete_view(request, object_id, extra_context)

    def history_view(self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None) -> Any:
        self._in_scope_or_404(request, object_id)
        return super().history_view(request, object_id, extra_context)
