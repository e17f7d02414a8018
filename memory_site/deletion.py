"""Bulk deletion that reads no rows when it need not: for erasing a subject's tens of thousands of rows."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import connections, transaction
from django.db.models import Model, QuerySet
from django.db.models.expressions import RawSQL


def ids_in(ids: Iterable[int]) -> RawSQL:
    """A right-hand side for `field__in` holding many ids as one array parameter (not one parameter per id)."""
    return RawSQL("SELECT unnest(%s::bigint[])", [sorted(set(ids))])


def rows_delete(queryset: QuerySet[Any]) -> dict[str, int]:
    """Delete the queryset's rows; return the rows deleted per model label.

    One DELETE when no row of any table still points at them (the caller emptied those first); otherwise
    Django's collector, which reads the ids and cascades or nulls what points at them. No signals are sent on
    the one-statement path (nothing here listens to deletions).
    """
    model: type[Model] = queryset.model
    pks = queryset.values("pk")
    for rel in model._meta.related_objects:
        pointing = rel.related_model._default_manager.filter(**{f"{rel.field.name}__in": pks})  # type: ignore[union-attr]
        if pointing.exists():
            return {label: n for label, n in queryset.only("pk").delete()[1].items() if n}
    db = queryset.db
    ops = connections[db].ops
    with transaction.atomic(using=db), connections[db].cursor() as cursor:
        sql, params = pks.query.sql_with_params()
        pk_column = str(model._meta.pk.column)  # type: ignore[union-attr]
        cursor.execute(
            f"DELETE FROM {ops.quote_name(model._meta.db_table)} WHERE {ops.quote_name(pk_column)} IN ({sql})", params
        )
        return {model._meta.label: cursor.rowcount} if cursor.rowcount else {}
