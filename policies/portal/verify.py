"""Proof of an erasure: scan every table for the ids a subject's rows had and for its former texts' fingerprints.

Reads the receipts `subject_erase` wrote for (tenant, external id). A remnant is any row that still has one of
those ids (as its primary key, a foreign key, the change log's subject_id, an access log's fact_ids, an admin
log entry's object or a portal session), or that holds a text whose fingerprint is one of the subject's:
checked in rows of no subject (the tenant's own, or shared tables such as the admin log, sessions and the
periodic-task tables) and in the rows of a subject re-created under the same id after the erasure. Other
subjects' rows are not fingerprint-checked: someone else may well have said the same sentence.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.contrib.postgres.fields import ArrayField
from django.contrib.sessions.models import Session as BrowserSession
from django.db import models
from django.db.models import Q
from django.db.models.expressions import RawSQL

from conversations.models import Subject, Tenant
from facts.fingerprints import subject_key, text_fingerprint, text_pieces
from facts.models import Fact, FactChange, ForgottenFingerprint, MessageChange
from memory_site.deletion import ids_in
from policies.models import PortalLink
from policies.portal.erasure import EVIDENCE, SUBJECT_LABEL, receipts_for
from policies.portal.links import SESSION_KEY

_TEXT_FIELDS = (models.CharField, models.TextField, models.JSONField)


@dataclass
class Remnant:
    table: str
    column: str
    rows: int
    kind: str  # "id" | "text"

    def __str__(self) -> str:
        what = "the subject's former ids" if self.kind == "id" else "a former text (by fingerprint)"
        return f"{self.table}.{self.column}: {self.rows} row(s) holding {what}"


@dataclass
class ErasureCheck:
    erasures: int = 0
    tables: int = 0
    ids: int = 0
    fingerprints: int = 0
    recreated: bool = False
    remnants: list[Remnant] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return self.erasures > 0 and not self.remnants


def _scanned_models() -> list[type[models.Model]]:
    return [m for m in apps.get_models() if m not in EVIDENCE]


def _id_remnants(former: dict[str, set[int]]) -> Iterator[Remnant]:
    """Rows that still carry one of the former ids, in any column that can hold one."""
    fact_ids = sorted(former.get(Fact._meta.label_lower, set()))
    for model in _scanned_models():
        table, label = model._meta.db_table, model._meta.label_lower
        for f in model._meta.concrete_fields:
            query: Q | None = None
            if f.primary_key and former.get(label):
                query = Q(pk__in=ids_in(former[label]))
            elif f.is_relation and (target := f.related_model._meta.label_lower) in former:  # type: ignore[union-attr]
                query = Q(**{f"{f.name}__in": ids_in(former[target])})
            elif model in (FactChange, MessageChange) and f.name == "subject_id":
                query = Q(subject_id__in=ids_in(former[SUBJECT_LABEL]))
            elif model is FactChange and f.name == "fact_id" and fact_ids:
                query = Q(fact_id__in=ids_in(fact_ids))
            elif isinstance(f, ArrayField) and f.name == "fact_ids" and fact_ids:
                query = Q(fact_ids__overlap=fact_ids)
            if query is not None and (n := model._default_manager.filter(query).count()):
                yield Remnant(table, str(f.column), n, "id")
    admin = Q()
    for label, ids in former.items():
        app_label, model_name = label.split(".")
        content_type = ContentType.objects.filter(app_label=app_label, model=model_name).first()
        if content_type is not None:
            admin |= Q(
                content_type=content_type, object_id__in=RawSQL("SELECT unnest(%s::text[])", [sorted(map(str, ids))])
            )
    if admin and (n := LogEntry.objects.filter(admin).count()):
        yield Remnant(LogEntry._meta.db_table, "object_id", n, "id")
    links = former.get(PortalLink._meta.label_lower, set())
    sessions = sum(1 for s in BrowserSession.objects.iterator() if s.get_decoded().get(SESSION_KEY) in links)
    if sessions:
        yield Remnant(BrowserSession._meta.db_table, "session_data", sessions, "id")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def _fingerprint_scope(model: type[models.Model], tenant: Tenant, recreated: Subject | None) -> Q | None:
    """Which rows of the model to fingerprint-check: None for none."""
    relations = [f for f in model._meta.concrete_fields if f.is_relation]
    to_subject = [f for f in relations if f.related_model is Subject]
    if model is Subject:
        return None  # ids, not texts: the subject row itself is checked by id
    if to_subject:
        return Q(**{to_subject[0].name: recreated}) if recreated is not None else None
    if any(f.related_model is not Tenant for f in relations if f.related_model._meta.app_label in _APP_LABELS):  # type: ignore[union-attr]
        return None  # a row of another row of the apps (a fact's source): no text of its own
    to_tenant = [f for f in relations if f.related_model is Tenant]
    return Q(**{to_tenant[0].name: tenant}) if to_tenant else Q()


_APP_LABELS = {"conversations", "facts", "policies"}


def _text_remnants(tenant: Tenant, key: str, prints: set[str], recreated: Subject | None) -> Iterator[Remnant]:
    for model in _scanned_models():
        columns = [f for f in model._meta.concrete_fields if isinstance(f, _TEXT_FIELDS)]
        if model is BrowserSession:
            hits = sum(1 for s in BrowserSession.objects.iterator() if _holds(s.get_decoded(), key, prints))
            if hits:
                yield Remnant(model._meta.db_table, "session_data", hits, "text")
            continue
        scope = _fingerprint_scope(model, tenant, recreated)
        if not columns or scope is None:
            continue
        for f in columns:
            rows = model._default_manager.filter(scope).values_list(f.attname, flat=True).iterator(chunk_size=2000)
            hits = sum(1 for value in rows if _holds(value, key, prints))
            if hits:
                yield Remnant(model._meta.db_table, str(f.column), hits, "text")


def _holds(value: Any, key: str, prints: set[str]) -> bool:
    return any(text_fingerprint(key=key, text=piece) in prints for s in _strings(value) for piece in text_pieces(s))


def erasure_verify(*, tenant: Tenant, external_id: str) -> ErasureCheck:
    """Check every table for what the subject's erasures removed; `clean` when erased and nothing remains."""
    receipts = list(receipts_for(tenant_id=tenant.pk, external_id=external_id))
    check = ErasureCheck(erasures=len(receipts))
    if not receipts:
        return check
    key = subject_key(tenant_id=tenant.pk, external_id=external_id)
    former: dict[str, set[int]] = {}
    prints: set[str] = set()
    for receipt in receipts:
        for label, ids in receipt.former_ids.items():
            former.setdefault(label, set()).update(int(i) for i in ids)
        prints.update(receipt.text_fingerprints)
    prints.update(
        ForgottenFingerprint.objects.filter(tenant=tenant, subject_key=key).values_list("fingerprint", flat=True)
    )
    subject = Subject.objects.filter(tenant=tenant, external_id=external_id).first()
    if subject is not None and subject.created_at <= receipts[-1].created_at:
        check.remnants.append(Remnant(Subject._meta.db_table, "external_id", 1, "id"))  # never erased
    check.recreated = subject is not None and subject.created_at > receipts[-1].created_at
    check.ids, check.fingerprints, check.tables = (
        sum(len(v) for v in former.values()),
        len(prints),
        len(_scanned_models()),
    )
    check.remnants += list(_id_remnants(former))
    check.remnants += list(_text_remnants(tenant, key, prints, subject if check.recreated else None))
    return check
