"""Erasure of a subject that can be proven: every app's rows go in one transaction, and a receipt keeps what a
later check (`verify_erasure`) needs to look for: the ids those rows had and the fingerprints of their texts.

Each app erases its own rows (facts, then conversations, whose subject row goes last); this module orchestrates,
and removes the portal's own rows, the portal's browser sessions and the admin's log entries about them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.apps import apps
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction
from django.db.models import Q, QuerySet
from django.db.models.expressions import RawSQL

from conversations import services as conversations_services
from conversations.models import Message, Subject, Summary
from facts.fingerprints import subject_key, text_fingerprints
from facts.models import FactChange, ForgottenFingerprint, MessageChange, Profile
from facts.services import subject_data as facts_rights
from memory_site.deletion import rows_delete
from policies.events import subject_erased_emit
from policies.models import ExportJob, PortalLink, SubjectErasure
from policies.portal.links import portal_sessions_delete

# Tables that hold no row of a subject by design: the evidence itself.
EVIDENCE = (SubjectErasure, ForgottenFingerprint)
SUBJECT_LABEL = Subject._meta.label_lower


def _relations(model: type[models.Model]) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if f.is_relation and (f.many_to_one or f.one_to_one)]


def subject_row_ids(*, subject_id: int) -> dict[str, list[int]]:
    """Every row, in every app's tables, that belongs to the subject: model label -> ids.

    A row belongs when it names the subject (a foreign key to it, or the change log's plain subject_id), or names
    a row that belongs (a fact's source, read counter...), followed to a fixed point, so a table another app adds
    later is found without being listed here. The rows are selected by nested subqueries, read once at the end.
    """
    owned: dict[str, QuerySet[Any]] = {SUBJECT_LABEL: Subject.objects.filter(pk=subject_id).values("pk")}
    via: dict[str, set[str]] = {}  # label -> the labels its rows were found through
    models_ = [m for m in apps.get_models() if m not in EVIDENCE]
    changed = True
    while changed:
        changed = False
        for model in models_:
            label = model._meta.label_lower
            targets = {
                f.name: f.related_model._meta.label_lower  # type: ignore[union-attr]
                for f in _relations(model)
                if f.related_model._meta.label_lower in owned and f.related_model._meta.label_lower != label  # type: ignore[union-attr]
            }
            if model is FactChange or model is MessageChange:
                targets["subject_id"] = SUBJECT_LABEL
            if not targets or set(targets.values()) <= via.get(label, set()):
                continue
            query = Q()
            for name, target in targets.items():
                query |= Q(**{f"{name}__in": owned[target]})
            owned[label] = model._default_manager.filter(query).values("pk")
            via[label] = set(targets.values())
            changed = True
    ids = {label: sorted(queryset.values_list("pk", flat=True)) for label, queryset in owned.items()}
    return {label: found for label, found in ids.items() if found}


def subject_text_fingerprints(*, subject: Subject, key: str) -> set[str]:
    """Fingerprints of the subject's messages, summaries and profile, whole and sentence by sentence."""
    texts: list[str] = list(Message.objects.filter(subject=subject).values_list("content", flat=True).iterator(2000))
    texts += Summary.objects.filter(subject=subject).values_list("text", flat=True)
    texts += Profile.objects.filter(subject=subject).values_list("text", flat=True)
    return text_fingerprints(key=key, texts=texts, pieces=True)


def _admin_log_delete(former: dict[str, list[int]]) -> int:
    """Delete the admin's log entries about the subject's rows (their object_repr quotes a fact or a message)."""
    query = Q()
    for label, ids in former.items():
        app_label, model_name = label.split(".")
        content_type = ContentType.objects.filter(app_label=app_label, model=model_name).first()
        if content_type is not None and ids:
            as_text = RawSQL("SELECT unnest(%s::bigint[])::text", [ids])
            query |= Q(content_type=content_type, object_id__in=as_text)
    return LogEntry.objects.filter(query).delete()[0] if query else 0


def _add(counts: dict[str, int], more: dict[str, int]) -> None:
    for label, n in more.items():
        if n:
            counts[label.lower()] = counts.get(label.lower(), 0) + n


def subject_erase(*, subject: Subject, actor: str, actor_id: str = "") -> SubjectErasure:
    """Erase the subject from every table, in one transaction under its row lock; return the receipt.

    Removes facts, embeddings, history texts, conflicts, profile, access log, call records, change-log rows
    (facts), snapshots, summaries, messages, sessions and the subject (conversations), its portal links,
    portal sessions and exports (here) and the admin's log entries about any of them. What stays: the
    fingerprints of its texts (a keyed hash, no text) and the receipt. Pending tasks carry ids only: run later,
    they find nothing.
    """
    with transaction.atomic():
        subject = Subject.objects.select_for_update().get(pk=subject.pk)
        key = subject_key(tenant_id=subject.tenant_id, external_id=subject.external_id)
        former = subject_row_ids(subject_id=subject.pk)
        prints = subject_text_fingerprints(subject=subject, key=key)
        counts: dict[str, int] = {}
        _add(counts, {"django.contrib.sessions": portal_sessions_delete(subject=subject)})
        _add(counts, {"admin.logentry": _admin_log_delete(former)})
        _add(counts, facts_rights.subject_facts_erase(subject=subject))
        for queryset in (ExportJob.objects.filter(subject=subject), PortalLink.objects.filter(subject=subject)):
            _add(counts, rows_delete(queryset))
        _add(counts, conversations_services.subject_erase(subject=subject))
        receipt = SubjectErasure.objects.create(
            tenant_id=subject.tenant_id, subject_key=key, actor=actor, actor_id=actor_id[:255], counts=counts,
            former_ids=former, text_fingerprints=sorted(prints),
        )  # fmt: skip
        subject_erased_emit(tenant_id=subject.tenant_id, external_id=subject.external_id, erasure_id=receipt.pk)
        return receipt


def receipts_for(*, tenant_id: int, external_id: str) -> Iterable[SubjectErasure]:
    key = subject_key(tenant_id=tenant_id, external_id=external_id)
    return SubjectErasure.objects.filter(tenant_id=tenant_id, subject_key=key).order_by("created_at")


def receipt_summary(receipt: SubjectErasure) -> dict[str, Any]:
    return {"uid": str(receipt.uid), "at": receipt.created_at.isoformat(), "rows": sum(receipt.counts.values())}
