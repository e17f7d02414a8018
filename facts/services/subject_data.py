"""A subject's rights over the facts app's rows: the forgotten set (fingerprints), erasure, the export's log entry.

The privacy portal and the erasure API (policies) call these; the pipeline reads the forgotten set. Race: the
writes run under the subject's row lock, the lock every writer of a subject's facts takes.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import Any

from django.db import connection, transaction

from conversations.models import ApiKey, Subject
from facts.fingerprints import subject_key, text_fingerprint, text_fingerprints
from facts.models import (
    AccessLog,
    Conflict,
    ContextCall,
    Fact,
    FactAccess,
    FactChange,
    FactHistory,
    FactSource,
    ForgottenFingerprint,
    Profile,
    SearchCall,
)
from memory_site.deletion import rows_delete

# History events whose texts are the fact's own (a supersede's or a conflict's name the other fact's text).
OWN_AFTER = (FactHistory.Event.CREATED, FactHistory.Event.MERGED, FactHistory.Event.CORRECTED)


def subject_key_of(subject: Subject) -> str:
    return subject_key(tenant_id=subject.tenant_id, external_id=subject.external_id)


def forgotten_fingerprints(*, subject: Subject) -> frozenset[str]:
    """The fingerprints of every fact the subject forgot (read under the subject's lock for a stable answer)."""
    return frozenset(
        ForgottenFingerprint.objects.filter(tenant_id=subject.tenant_id, subject_key=subject_key_of(subject))
        .values_list("fingerprint", flat=True)
        .iterator(chunk_size=5000)
    )


def is_forgotten(*, subject: Subject, forgotten: AbstractSet[str], text: str) -> bool:
    """Whether `text` is, once normalised, a text the subject forgot."""
    return bool(forgotten) and text_fingerprint(key=subject_key_of(subject), text=text) in forgotten


def fingerprints_record(*, subject: Subject, texts: Iterable[str]) -> int:
    """Add these texts' fingerprints to the subject's forgotten set (idempotent); return how many were given."""
    key = subject_key_of(subject)
    prints = sorted(text_fingerprints(key=key, texts=list(texts)))
    if prints:
        table = ForgottenFingerprint._meta.db_table
        with connection.cursor() as cursor:  # one statement for any number (an erasure brings tens of thousands)
            cursor.execute(
                f"INSERT INTO {table} (tenant_id, subject_key, fingerprint, created_at) "
                "SELECT %s, %s, f, now() FROM unnest(%s::text[]) AS f ON CONFLICT DO NOTHING",
                [subject.tenant_id, key, prints],
            )
    return len(prints)


def fact_own_texts(fact: Fact) -> list[str]:
    """Every wording the fact had: its text, the texts merged into it, and its text before each correction."""
    rows = FactHistory.objects.filter(subject_id=fact.subject_id, fact_uid=fact.uid)
    texts = [fact.text]
    texts += rows.filter(event__in=OWN_AFTER).exclude(after_text="").values_list("after_text", flat=True)
    texts += (
        rows.filter(event=FactHistory.Event.CORRECTED).exclude(before_text="").values_list("before_text", flat=True)
    )
    return list(dict.fromkeys(texts))


def history_texts_forget(*, subject_id: int, texts: list[str]) -> None:
    """Blank these texts wherever the subject's history quotes them (another fact's supersede or conflict event)."""
    if texts:
        FactHistory.objects.filter(subject_id=subject_id, before_text__in=texts).update(before_text="")
        FactHistory.objects.filter(subject_id=subject_id, after_text__in=texts).update(after_text="")


def access_log_record(
    *, subject: Subject, operation: str, actor: str, actor_id: str = "", api_key: ApiKey | None = None,
    fact_ids: list[int] | None = None,
) -> AccessLog:  # fmt: skip
    """Log a read the user should see (an export of everything, say) in the access log at once."""
    return AccessLog.objects.create(
        tenant_id=subject.tenant_id, subject=subject, api_key=api_key, actor=actor, actor_id=actor_id,
        operation=operation, fact_ids=fact_ids or [],
    )  # fmt: skip


def subject_facts_erase(*, subject: Subject) -> dict[str, int]:
    """Erase every row the facts app holds about the subject; return the rows deleted per table.

    Facts and their embeddings, sources, read counters, history (texts included), conflicts, profile, access
    log, search and context call records, and the change-log rows (the facts' own deletion appends some, so they
    go last). The fingerprints of every text its facts had are added to its forgotten set first: they stay.
    """
    with transaction.atomic():
        Subject.objects.select_for_update().get(pk=subject.pk)
        facts = Fact.objects.filter(subject_id=subject.pk)
        history = FactHistory.objects.filter(subject_id=subject.pk)
        texts: list[str] = list(facts.values_list("text", flat=True).iterator(chunk_size=5000))
        for before, after in history.exclude(before_text="", after_text="").values_list("before_text", "after_text"):
            texts += [t for t in (before, after) if t]
        fingerprints_record(subject=subject, texts=texts)
        counts: dict[str, int] = {}
        for queryset in (
            AccessLog.objects.filter(subject_id=subject.pk),
            SearchCall.objects.filter(subject_id=subject.pk),
            ContextCall.objects.filter(subject_id=subject.pk),
            Profile.objects.filter(subject_id=subject.pk),
            Conflict.objects.filter(subject_id=subject.pk),
            history,
            FactSource.objects.filter(fact__subject_id=subject.pk),
            FactAccess.objects.filter(fact__subject_id=subject.pk),
            facts,
        ):
            _add_counts(counts, rows_delete(queryset))
        # Last: deleting the facts appended rows here (a trigger), inside this transaction.
        _add_counts(counts, rows_delete(FactChange.objects.filter(subject_id=subject.pk)))
    return counts


def _add_counts(counts: dict[str, int], deleted: dict[str, Any]) -> None:
    for label, n in deleted.items():
        counts[label] = counts.get(label, 0) + int(n)
