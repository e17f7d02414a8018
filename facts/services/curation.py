"""Operator curation of facts: embed a fact's text again, merge duplicates an operator picked.

Race: as every command, each holds the subject's row lock and re-reads the facts it changes under it; the
embedding is computed before, outside the transaction, and dropped if the text changed meanwhile.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from facts import embedding as embedding_backend
from facts.exceptions import FactNotFound
from facts.models import Conflict, Fact, FactHistory, FactSource
from facts.profile import profile_schedule_rebuild
from facts.services.commands import conflict_close, embed_one, fact_current, subject_locked
from facts.services.reconcile import history_record
from facts.services.zh_vectors import facts_fill_zh


def fact_reembed(*, fact: Fact, actor: str, actor_id: str = "") -> bool:
    """Embed an active fact's text again with the current embedder; False when not embedded (archived, embedder
    down, text changed meanwhile). Recorded as an `updated` event naming the model."""
    fact = fact_current(fact)
    if fact.tier != Fact.Tier.ACTIVE:
        return False
    embedded_text = fact.text
    vector = embed_one(embedded_text)
    if vector is None:
        return False
    with subject_locked(fact.subject_id):
        fact = fact_current(fact)
        if fact.text != embedded_text or fact.tier != Fact.Tier.ACTIVE:
            return False
        model = embedding_backend.get_embedder().model_name
        Fact.objects.filter(pk=fact.pk).update(embedding=vector, embedding_model=model, updated_at=timezone.now())
        history_record(
            fact=fact, event=FactHistory.Event.UPDATED, actor=actor, actor_id=actor_id, after_text=fact.text,
            data={"reembedded": model},
        )  # fmt: skip
    facts_fill_zh(fact_ids=[fact.pk])
    return True


def _survivor(facts: list[Fact]) -> Fact:
    """The fact the others merge into: a pinned one first, then the most mentioned, then the oldest."""
    return sorted(facts, key=lambda f: (not f.pinned, -f.mention_count, f.created_at, f.pk))[0]


def facts_merge(*, facts: list[Fact], actor: str, actor_id: str = "") -> Fact:
    """Merge facts of one subject that say the same thing into one: it gains their mentions and sources.

    The others are superseded by it (kept in history, out of search), each with a `superseded` event naming the
    survivor; the survivor gets a `merged` event naming them. Open conflicts between merged facts are closed.
    ValueError for fewer than two facts or facts of different subjects.
    """
    if len(facts) < 2:
        raise ValueError("select at least two facts to merge")
    subject_ids = {f.subject_id for f in facts}
    if len(subject_ids) != 1:
        raise ValueError("only facts of the same user can be merged")
    with subject_locked(subject_ids.pop()):
        stored = list(Fact.objects.filter(pk__in=[f.pk for f in facts]))
        if len(stored) != len(facts):
            raise FactNotFound()
        survivor = _survivor(stored)
        others = [f for f in stored if f.pk != survivor.pk]
        now = timezone.now()
        known = set(FactSource.objects.filter(fact=survivor).values_list("message_id", flat=True))
        for source in FactSource.objects.filter(fact__in=others).order_by("pk"):
            if source.message_id not in known:
                known.add(source.message_id)
                FactSource.objects.create(
                    fact=survivor, message_id=source.message_id, span_start=source.span_start, span_end=source.span_end
                )
        ids = [f.pk for f in stored]
        for conflict in Conflict.objects.filter(Q(fact_a_id__in=ids) & Q(fact_b_id__in=ids), state=Conflict.State.OPEN):
            conflict_close(conflict, resolution="merged", resolved_by=f"{actor}:{actor_id}".rstrip(":"))
        survivor.mention_count += sum(f.mention_count for f in others)
        survivor.keywords = sorted(set(survivor.keywords).union(*(f.keywords for f in others)))
        survivor.entity_keys = sorted(set(survivor.entity_keys).union(*(f.entity_keys for f in others)))
        survivor.status = Fact.Status.ACTIVE
        survivor.save(update_fields=["mention_count", "keywords", "entity_keys", "status", "updated_at"])
        for other in others:
            valid_to = max(now, other.valid_from) if other.valid_from else now
            Fact.objects.filter(pk=other.pk).update(status=Fact.Status.SUPERSEDED, valid_to=valid_to, updated_at=now)
            history_record(
                fact=other, event=FactHistory.Event.SUPERSEDED, actor=actor, actor_id=actor_id,
                before_text=other.text, data={"merged_into": str(survivor.uid)},
            )  # fmt: skip
        history_record(
            fact=survivor, event=FactHistory.Event.MERGED, actor=actor, actor_id=actor_id, after_text=survivor.text,
            data={"merged": [str(f.uid) for f in others], "mention_count": survivor.mention_count},
        )  # fmt: skip
        profile_schedule_rebuild(subject_id=survivor.subject_id)
    return survivor
