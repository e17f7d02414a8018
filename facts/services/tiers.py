"""Writes of the lifecycle jobs: rescoring, dropping vectors and archiving a range of facts in one statement each,
and merging one near-duplicate into the fact it repeats.

Race: the bulk statements lock only the rows they change, for one statement (no subject lock, no long transaction),
and the moves (vector drop, archive) re-check each row's condition as they update it, so a fact read, mentioned or
pinned meanwhile is judged as it is then; scores are stored as the batch's read computed them (facts_factaccess,
never the fact row), a fact read meanwhile gets its new score at the next pass. Every move writes a history event in the same statement, naming the policy (`actor_id`); the fact change
log (facts_factchange, a trigger) tells search's in-memory state of every web process. Each is idempotent: a second
run finds nothing left to do.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, connection, models, transaction
from django.db.models import F
from django.utils import timezone

from conversations.models import Subject
from facts.events import event_emit
from facts.lifecycle import ARCHIVE_DUE, DROP_VECTOR_DUE, Scope, rows_cte
from facts.models import Actor, Conflict, Fact, FactAccess, FactHistory, FactSource
from facts.profile import profile_schedule_rebuild
from facts.services.commands import fact_forget
from facts.services.reconcile import _negated, history_record  # the write-time merge's negation rule
from facts.services.subject_data import OWN_AFTER

logger = logging.getLogger(__name__)

# Retention's deletions: this many subjects' facts in one transaction (their row locks held for its length).
FORGET_SUBJECTS_PER_TRANSACTION = 50
_HISTORY_COLUMNS = (
    "tenant_id, subject_id, fact_id, fact_uid, event, actor, actor_id, before_text, after_text, data, created_at"
)


def facts_rescore(items: Sequence[tuple[int, str, float]]) -> Counter[str]:
    """Store these value scores, (fact id, policy label, score) as the batch's read computed them; policy -> facts
    whose stored score changed.

    One upsert into the narrow facts_factaccess: the fact row is not touched (no rewrite, no index entry, no change
    logged). A row already holding the score (a concurrent pass wrote it) is not counted; a fact read or rated
    since the batch's read keeps a score a moment old until the next pass. A fact deleted meanwhile is skipped (the
    join); one deleted during the statement fails its foreign key, and the statement runs again without it."""
    if not items:
        return Counter()
    table = FactAccess._meta.db_table
    sql = (
        f"INSERT INTO {table} AS a (fact_id, access_count, value_score) SELECT f.id, 0, u.score "
        "FROM unnest(%s::bigint[], %s::float8[]) AS u(id, score) JOIN facts_fact f ON f.id = u.id ORDER BY f.id "
        "ON CONFLICT (fact_id) DO UPDATE SET value_score = EXCLUDED.value_score "
        "WHERE a.value_score IS DISTINCT FROM EXCLUDED.value_score RETURNING a.fact_id"
    )
    labels = {pk: label for pk, label, _ in items}
    params: list[list[int] | list[float]] = [[pk for pk, _, _ in items], [score for _, _, score in items]]
    for attempt in (1, 2, 3):
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(sql, params)
                return Counter(labels[int(r[0])] for r in cursor.fetchall())
        except IntegrityError:
            if attempt == 3:
                raise
    raise AssertionError("not reached")


def _move(scope: Scope, *, set_sql: str, condition: str, event: str, change: str, job: str) -> Counter[str]:
    """Update the batch's rows meeting `condition` and log one history event each; policy label -> facts moved."""
    sql = (
        f"{rows_cte(by_ids=True)}, moved AS (UPDATE facts_fact f SET {set_sql}, updated_at = clock_timestamp() FROM x "
        f"WHERE f.id = x.id AND {condition} AND f.tier = x.tier AND f.pinned = x.pinned "
        "RETURNING f.id, f.uid, f.tenant_id, f.subject_id, f.text, x.label) "
        f"INSERT INTO facts_facthistory ({_HISTORY_COLUMNS}) SELECT m.tenant_id, m.subject_id, m.id, m.uid, "
        f"%(event)s, %(actor)s, 'policy:' || m.label, '', m.text, jsonb_build_object('policy', m.label, "
        "'job', %(job)s, 'change', %(change)s), clock_timestamp() FROM moved m RETURNING subject_id, actor_id"
    )
    params = {**scope.params(), "event": event, "actor": Actor.SYSTEM, "job": job, "change": change}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
        for subject_id in sorted({int(r[0]) for r in rows}):
            event_emit(tenant_id=scope.tenant_id, subject_id=subject_id)
            profile_schedule_rebuild(subject_id=subject_id)
    return Counter(str(r[1]).removeprefix("policy:") for r in rows)


def facts_drop_vectors(scope: Scope) -> Counter[str]:
    """Drop the vectors (and the quantised copy, a generated column) of the batch's facts past drop_vector_after_days:
    still active, found by keyword, entity and fields."""
    return _move(
        scope, set_sql="embedding = NULL, embedding_zh = NULL, embedding_model = ''", condition=DROP_VECTOR_DUE,
        event=FactHistory.Event.UPDATED, change="vector_dropped", job="lifecycle.tiering",
    )  # fmt: skip


def facts_archive(scope: Scope) -> Counter[str]:
    """Move the batch's facts unread past archive_after_days, or valued below min_value_to_keep, to the archived
    tier: vector dropped, found only by keyword, entity and fields with include_archived."""
    return _move(
        scope, set_sql="tier = 'archived', embedding = NULL, embedding_zh = NULL, embedding_model = ''",
        condition=ARCHIVE_DUE,
        event=FactHistory.Event.ARCHIVED, change="archived", job="lifecycle.tiering",
    )  # fmt: skip


# --- consolidation ----------------------------------------------------------------------------------------------


def fact_absorb(*, keep_id: int, duplicate_id: int, actor_id: str, data: dict[str, Any]) -> bool:
    """Merge a near-duplicate into the fact it repeats: its sources, mentions, reads and ratings join the kept fact,
    its history is kept (re-attached to the kept fact, marked with where it came from), then its row goes.

    Under the subject's row lock, re-reading both; False (nothing done) when either is gone, no longer current,
    or one negates the other.
    """
    with transaction.atomic():
        facts = {
            f.pk: f for f in Fact.objects.filter(pk__in=[keep_id, duplicate_id]).defer("embedding", "embedding_zh")
        }
        if len(facts) != 2:
            return False
        Subject.objects.select_for_update().get(pk=facts[keep_id].subject_id)
        facts = {
            f.pk: f for f in Fact.objects.filter(pk__in=[keep_id, duplicate_id]).defer("embedding", "embedding_zh")
        }
        keep, dup = facts.get(keep_id), facts.get(duplicate_id)
        if keep is None or dup is None or keep.subject_id != dup.subject_id:
            return False
        if keep.status != Fact.Status.ACTIVE or dup.status != Fact.Status.ACTIVE:
            return False
        if _negated(keep.text) != _negated(dup.text):
            return False
        _absorb_rows(keep, dup)
        Fact.objects.filter(pk=keep.pk).update(
            mention_count=F("mention_count") + dup.mention_count, useful_count=F("useful_count") + dup.useful_count,
            not_useful_count=F("not_useful_count") + dup.not_useful_count, pinned=keep.pinned or dup.pinned,
            importance=max(keep.importance, dup.importance), confidence=max(keep.confidence, dup.confidence),
            updated_at=timezone.now(),
        )  # fmt: skip
        keep.refresh_from_db()
        history_record(
            fact=keep, event=FactHistory.Event.MERGED, actor=Actor.SYSTEM, actor_id=actor_id, before_text=dup.text,
            after_text=keep.text, data={**data, "merged_fact": str(dup.uid), "merged_fact_id": dup.pk,
                                        "mention_count": keep.mention_count},
        )  # fmt: skip
        Fact.objects.filter(pk=dup.pk).delete()
        profile_schedule_rebuild(subject_id=keep.subject_id)
    return True


def _absorb_rows(keep: Fact, dup: Fact) -> None:
    """The duplicate's sources, reads, history and conflicts now belong to the kept fact."""
    have = set(FactSource.objects.filter(fact=keep).values_list("message_id", flat=True))
    FactSource.objects.filter(fact=dup).exclude(message_id__in=have).update(fact=keep)
    dup_access = FactAccess.objects.filter(fact=dup).first()
    if dup_access is not None:
        access, _ = FactAccess.objects.get_or_create(fact=keep)
        access.access_count += dup_access.access_count
        if dup_access.last_accessed_at and (
            access.last_accessed_at is None or dup_access.last_accessed_at > access.last_accessed_at
        ):
            access.last_accessed_at = dup_access.last_accessed_at
        access.save()
    for row in FactHistory.objects.filter(fact_uid=dup.uid):
        row.data = {**row.data, "merged_from": str(dup.uid)}
        row.fact_id, row.fact_uid = keep.pk, keep.uid
        row.save(update_fields=["fact", "fact_uid", "data"])
    Conflict.objects.filter(fact_a=dup).update(fact_a=keep)
    Conflict.objects.filter(fact_b=dup).update(fact_b=keep)


# --- feedback ---------------------------------------------------------------------------------------------------


def facts_rate(*, subject_id: int, useful_ids: list[int], not_useful_ids: list[int]) -> int:
    """Count ratings on the subject's facts (useful_count / not_useful_count, which the value score reads); the
    number of facts rated. Only the subject's own facts are touched."""
    rated = 0
    for ids, column in ((useful_ids, "useful_count"), (not_useful_ids, "not_useful_count")):
        if ids:
            rated += Fact.objects.filter(subject_id=subject_id, pk__in=ids).update(**{column: F(column) + 1})
    return rated


# --- retention's deletions --------------------------------------------------------------------------------------


def facts_forget_many(*, fact_ids: list[int], actor_ids: dict[int, str], reason: str) -> int:
    """Delete facts as `fact_forget(fingerprint=False)` does, many at a time: one transaction per
    FORGET_SUBJECTS_PER_TRANSACTION subjects holding their row locks, a few statements for all of their facts (ids
    bound as arrays). The history keeps each event and loses every wording of the fact (wherever the subject's
    history quotes it); a FORGOTTEN event names the policy (`actor_ids`). A fact in an open conflict goes through
    fact_forget itself (the conflict is closed). Returns the facts deleted."""
    facts = _facts_by_id(fact_ids)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT fact_a_id, fact_b_id FROM facts_conflict WHERE state = %s "
            "AND (fact_a_id = ANY(%s) OR fact_b_id = ANY(%s))",
            [Conflict.State.OPEN, [f.pk for f in facts], [f.pk for f in facts]],
        )
        in_conflict = cursor.fetchall()
    conflicted = {pk for pair in in_conflict for pk in pair if pk is not None}
    done = 0
    by_subject: dict[int, list[int]] = {}
    for fact in facts:
        if fact.pk in conflicted:
            fact_forget(fact=fact, actor=Actor.SYSTEM, actor_id=actor_ids[fact.pk], reason=reason, fingerprint=False)
            done += 1
        else:
            by_subject.setdefault(fact.subject_id, []).append(fact.pk)
    subjects = sorted(by_subject)
    for i in range(0, len(subjects), FORGET_SUBJECTS_PER_TRANSACTION):
        chunk = subjects[i : i + FORGET_SUBJECTS_PER_TRANSACTION]
        done += _subjects_forget_many(chunk, [pk for s in chunk for pk in by_subject[s]], actor_ids, reason)
    return done


def _subjects_forget_many(subject_ids: list[int], fact_ids: list[int], actor_ids: dict[int, str], reason: str) -> int:
    """A few subjects' facts in one transaction holding their row locks (taken in id order): a few statements for
    all of them, whatever their number (arrays bound as one parameter each, not one per fact)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT id FROM conversations_subject WHERE id = ANY(%s) ORDER BY id FOR UPDATE", [subject_ids])
        group = _facts_by_id(fact_ids)
        if not group:
            return 0
        subjects = sorted({f.subject_id for f in group})
        uids = [f.uid for f in group]
        mine = "h.subject_id = ANY(%(subjects)s) AND h.fact_uid = ANY(%(uids)s::uuid[])"
        params: dict[str, Any] = {
            "subjects": subjects,
            "uids": uids,
            "own": list(OWN_AFTER),
            "corrected": FactHistory.Event.CORRECTED,
        }
        cursor.execute(
            f"SELECT h.subject_id, h.after_text FROM facts_facthistory h WHERE {mine} AND h.event = ANY(%(own)s) "
            f"AND h.after_text <> '' UNION SELECT h.subject_id, h.before_text FROM facts_facthistory h WHERE {mine} "
            "AND h.event = %(corrected)s AND h.before_text <> ''",
            params,
        )
        texts = {(f.subject_id, f.text) for f in group} | {(int(r[0]), str(r[1])) for r in cursor.fetchall()}
        cursor.execute(f"UPDATE facts_facthistory h SET before_text = '', after_text = '' WHERE {mine}", params)
        corrected = FactHistory.objects.filter(
            subject_id__in=subjects, fact_uid__in=uids, event=FactHistory.Event.CORRECTED,
            data__changed__has_key="text",
        )  # fmt: skip
        for row in corrected:
            row.data["changed"]["text"] = ""
            row.save(update_fields=["data"])
        _history_texts_forget(sorted(texts))
        cursor.execute(f"UPDATE facts_facthistory h SET fact_id = NULL WHERE {mine}", params)
        cursor.execute(
            f"INSERT INTO facts_facthistory ({_HISTORY_COLUMNS}) SELECT u.tenant_id, u.subject_id, NULL, u.uid, "
            "%s, %s, u.actor_id, '', '', jsonb_build_object('reason', u.reason, 'fact_id', u.id), clock_timestamp() "
            "FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[], %s::uuid[], %s::text[], %s::text[]) "
            "AS u(id, tenant_id, subject_id, uid, actor_id, reason)",
            [
                FactHistory.Event.FORGOTTEN, Actor.SYSTEM, [f.pk for f in group], [f.tenant_id for f in group],
                [f.subject_id for f in group], uids, [actor_ids[f.pk] for f in group],
                [f"{reason} ({actor_ids[f.pk].removeprefix('policy:')})" for f in group],
            ],
        )  # fmt: skip
        _facts_delete(cursor, [f.pk for f in group])
        tenant_of = {f.subject_id: f.tenant_id for f in group}
        for subject_id in subjects:
            event_emit(tenant_id=tenant_of[subject_id], subject_id=subject_id)
            profile_schedule_rebuild(subject_id=subject_id)
    return len(group)


def _facts_by_id(ids: list[int]) -> list[Fact]:
    """The facts (only what a deletion needs loaded), their ids bound as one array."""
    sql = "SELECT id, uid, tenant_id, subject_id, text FROM facts_fact WHERE id = ANY(%s) ORDER BY id"
    return list(Fact.objects.raw(sql, [ids]))


def _reverse_relations(model: type[models.Model]) -> list[Any]:
    return [
        r for r in model._meta.get_fields(include_hidden=True)
        if r.auto_created and not r.concrete and (r.one_to_many or r.one_to_one)
    ]  # fmt: skip


def _facts_delete(cursor: Any, ids: list[int]) -> None:
    """Delete fact rows and do what each relation's on_delete says to the rows pointing at them, a statement per
    relation with the ids bound as one array. Django's collector loads every wide row and binds a parameter per id
    (most of a retention pass's deletion time); it is still used for a relation this does not cover (a cascade
    into a table with dependents of its own, or another on_delete)."""
    statements = []
    for rel in _reverse_relations(Fact):
        table, column = rel.related_model._meta.db_table, rel.field.column
        if rel.on_delete is models.CASCADE and not _reverse_relations(rel.related_model):
            statements.append(f"DELETE FROM {table} WHERE {column} = ANY(%s)")
        elif rel.on_delete is models.SET_NULL:
            statements.append(f"UPDATE {table} SET {column} = NULL WHERE {column} = ANY(%s)")
        else:
            Fact.objects.filter(pk__in=ids).only("id").delete()
            return
    for sql in [*statements, f"DELETE FROM {Fact._meta.db_table} WHERE id = ANY(%s)"]:
        cursor.execute(sql, [ids])


def _history_texts_forget(texts: list[tuple[int, str]]) -> None:
    """Blank each (subject, text) wherever that subject's history quotes it (as history_texts_forget, for many
    subjects in two statements)."""
    if not texts:
        return
    params: list[list[int] | list[str]] = [[s for s, _ in texts], [t for _, t in texts]]
    with connection.cursor() as cursor:
        for column in ("before_text", "after_text"):
            cursor.execute(
                f"UPDATE facts_facthistory h SET {column} = '' FROM unnest(%s::bigint[], %s::text[]) AS t(s, text) "
                f"WHERE h.subject_id = t.s AND h.{column} = t.text",
                params,
            )
