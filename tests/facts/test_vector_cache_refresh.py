"""A held subject brought current by reading only the facts a write changed: PostgreSQL's answers, exactly.

These tests commit (transactional_db): the cache serves only searches outside a transaction. Every write goes
through a service (create with its supersede logic, correct, forget, erase) or a plain statement on the fact
row, in English and Chinese; after each, the next search's check reads the changed facts and memory answers
as PostgreSQL does (the vector signal in two stages and exact, BM25), without reading the subject whole.
"""

from __future__ import annotations

import datetime as dt
import threading
from typing import Any

import numpy as np
import pytest
from django.db import connections
from django.utils import timezone

from facts.embedding import embed_texts
from facts.models import FACT_CHANGE_IDS_MAX, Fact, FactChange
from facts.retrieval import vector_cache
from facts.retrieval.candidates.keyword import keyword_facts
from facts.retrieval.candidates.vector import VectorTuning, nearest_facts
from facts.retrieval.config import search_config
from facts.retrieval.scope import FactFilter
from facts.services.commands import fact_correct, fact_create, fact_forget
from tests.conftest import Persona
from tests.facts.test_search import LARGE_SUBJECT, add_fact, subject_of, tune

pytestmark = pytest.mark.django_db(transaction=True)

QUERIES = ["Tell me about my puppy", "which city do I live in", "我对什么过敏", "我住在哪个城市", "music I practise"]
TERMS = [["dog"], ["live", "city"], ["saxophone"], ["lisbon"], ["porto"], ["过敏"], ["上海"], ["杭州", "tea"], ["my"]]
TUNINGS = [
    VectorTuning(exact_max=5, prefilter_depth=4),  # the sign-bit stage leaves facts out
    VectorTuning(exact_max=5, prefilter_depth=12),
    VectorTuning(exact_max=2000),  # PostgreSQL's exact scan
]


@pytest.fixture(autouse=True)
def _small_thresholds(settings: Any) -> Any:
    """A subject of 25 facts counts as large; a subject found stale is not read again for a minute here, so a
    search that did not refresh shows as None."""
    tune(settings, {"scope.count_cache_seconds": 0, "cache.load_pause_seconds": 60})
    vector_cache.clear()
    yield
    vector_cache.clear()
    vector_cache.close_loader_connection()


def _current(subject: Any) -> vector_cache.Entry | None:
    return vector_cache.current(subject.pk, search_config().cache)


def _held(subject: Any) -> vector_cache.Entry:
    """The subject read whole into memory, as a search has it read."""
    assert _current(subject) is None
    vector_cache.loads_wait()
    entry = _current(subject)
    assert entry is not None
    return entry


def _flt(subject: Any) -> FactFilter:
    return FactFilter(subject_id=subject.pk, statuses=["active", "conflicted"], tiers=["active"])


def _agrees(subject: Any, loaded: float) -> vector_cache.Entry:
    """The next search's entry was refreshed (not read whole: same `loaded`) and answers as PostgreSQL."""
    entry = _current(subject)
    assert entry is not None and entry.loaded == loaded
    total = Fact.objects.filter(subject=subject, tier="active", status__in=["active", "conflicted"]).count()
    assert entry.size == total
    for query in QUERIES:
        vector = embed_texts([query])[0]
        for tuning in TUNINGS:
            held = nearest_facts(_flt(subject), vector, limit=6, total=total, tuning=tuning, held=entry)
            in_sql = nearest_facts(_flt(subject), vector, limit=6, total=total, tuning=tuning)
            assert [pk for pk, _ in held] == [pk for pk, _ in in_sql], (query, tuning)
            assert [round(s, 5) for _, s in held] == [round(s, 5) for _, s in in_sql]
    keyword = search_config().keyword
    for terms in TERMS:
        held = keyword_facts(_flt(subject), terms, limit=8, total=total, tuning=keyword, held=entry)
        in_sql = keyword_facts(_flt(subject), terms, limit=8, total=total, tuning=keyword)
        assert [pk for pk, _ in held] == [pk for pk, _ in in_sql], terms
        assert [s for _, s in held] == pytest.approx([s for _, s in in_sql], rel=1e-12), terms
    return entry


def _large(persona: Persona) -> Any:
    subject = subject_of(persona)
    for text in LARGE_SUBJECT:
        add_fact(subject, text)
    return subject


def _found(subject: Any, terms: list[str]) -> list[str]:
    entry = _current(subject)
    assert entry is not None
    found = keyword_facts(_flt(subject), terms, limit=8, total=entry.size, tuning=search_config().keyword, held=entry)
    return [Fact.objects.get(pk=pk).text for pk, _ in found]


def test_inserts_and_supersedes_are_read_alone(alice: Persona) -> None:
    """New facts in both languages, and a move that supersedes the old address (an insert and a status change in
    one transaction): the next search reads just those facts."""
    subject = _large(alice)
    loaded = _held(subject).loaded
    for text in ["I live in Lisbon near the river.", "我住在上海。", "I practise the saxophone after dinner."]:
        fact_create(subject=subject, text=text, actor="test")
        _agrees(subject, loaded)
    assert _found(subject, ["saxophone"]) == ["I practise the saxophone after dinner."]
    fact_create(subject=subject, text="I live in Porto now.", actor="test")
    fact_create(subject=subject, text="我住在杭州。", actor="test")
    entry = _agrees(subject, loaded)
    superseded = set(Fact.objects.filter(subject=subject, status="superseded").values_list("text", flat=True))
    assert superseded >= {"I live in Lisbon near the river.", "I live in Porto now."}
    assert entry.dead and not superseded & set(entry.texts)  # their rows died, and their text went
    assert _found(subject, ["lisbon"]) == [] and _found(subject, ["杭州"]) == ["我住在杭州。"]


def test_text_changes_expiry_forgetting_and_deletes(alice: Persona) -> None:
    """A corrected text (new vector, new lexemes), an expiry set in the past and in the future, a fact forgotten,
    a row deleted, a write that changes nothing search reads: each answers as PostgreSQL at once."""
    subject = _large(alice)
    loaded = _held(subject).loaded
    rex = Fact.objects.get(subject=subject, text="I have a dog named Rex.")
    fact_correct(fact=rex, actor="test", text="I have a saxophone named Rex.")
    _agrees(subject, loaded)
    assert _found(subject, ["saxophone"]) == ["I have a saxophone named Rex."]
    allergy = Fact.objects.get(subject=subject, text="I am allergic to shellfish.")
    fact_correct(fact=allergy, actor="test", text="我对芒果和猫毛过敏。")
    _agrees(subject, loaded)
    fact_correct(fact=Fact.objects.get(pk=rex.pk), actor="test", expires_at=timezone.now() - dt.timedelta(seconds=1))
    _agrees(subject, loaded)
    assert _found(subject, ["saxophone"]) == []
    fact_correct(fact=Fact.objects.get(pk=rex.pk), actor="test", expires_at=timezone.now() + dt.timedelta(hours=1))
    _agrees(subject, loaded)
    before = _current(subject)
    Fact.objects.filter(pk=rex.pk).update(mention_count=7, pinned=True)  # nothing search reads
    same = _agrees(subject, loaded)
    assert same is not None and before is not None and same.dead == before.dead and same.ids is before.ids
    fact_forget(fact=Fact.objects.get(pk=allergy.pk), actor="test")
    entry = _agrees(subject, loaded)
    assert "我对芒果和猫毛过敏。" not in entry.texts  # the forgotten text left memory with the refresh
    Fact.objects.filter(subject=subject, text="I grow tomatoes on my balcony.").delete()
    _agrees(subject, loaded)


def test_a_refresh_leaves_the_entry_a_search_holds_unchanged(alice: Persona) -> None:
    """Searches still reading the entry from before a write see it as it was: a refresh writes past its rows."""
    subject = _large(alice)
    loaded = _held(subject).loaded
    old = _current(subject)
    assert old is not None
    copies = {name: np.copy(getattr(old, name)) for name in ("ids", "vectors", "codes", "expires", "lengths")}
    texts = list(old.texts)
    for i in range(6):
        fact_create(subject=subject, text=f"My neighbour's parrot learned word number {i} today.", actor="test")
        fact_correct(
            fact=Fact.objects.get(subject=subject, text=LARGE_SUBJECT[-1 - i]), actor="test", text=f"我第{i}次去杭州。"
        )
        _agrees(subject, loaded)
    for name, copy in copies.items():
        assert np.array_equal(getattr(old, name), copy), name
    assert old.texts == texts and old.size == len(LARGE_SUBJECT)


def test_concurrent_searches_after_a_write_agree(alice: Persona) -> None:
    """Threads checking the same subject after each write all get an entry with the write in it (or None, when
    another refreshed first and moved on); what is held in the end answers as PostgreSQL."""
    subject = _large(alice)
    loaded = _held(subject).loaded
    for i in range(3):
        fact = add_fact(subject, f"I bought a kite in colour number {i}.")
        got: list[Any] = []

        def check(got: list[Any] = got) -> None:
            try:
                got.append(_current(subject))
            finally:
                connections.close_all()

        threads = [threading.Thread(target=check) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(e is None or fact.pk in e.ids[e.live_rows(np.ones(len(e.ids), dtype=bool))] for e in got)
        _agrees(subject, loaded)


def test_other_subjects_writes_leave_the_entry_alone(alice: Persona, carol: Persona) -> None:
    """Writes to another subject of the tenant, or to another tenant's subject of the same name, change nothing
    held for this one: the same entry object answers."""
    subject = _large(alice)
    entry = _held(subject)
    other, elsewhere = subject_of(alice, "alice-second"), subject_of(carol, "alice")
    assert elsewhere.pk != subject.pk
    add_fact(other, "I live in Lisbon near the river.")
    add_fact(elsewhere, "我住在上海。")
    Fact.objects.filter(subject__in=[other, elsewhere]).update(status="superseded")
    assert _current(subject) is entry


def test_bulk_statements_log_one_row_and_read_the_subject_whole(alice: Persona, settings: Any) -> None:
    """A statement changing more than FACT_CHANGE_IDS_MAX of a subject's facts (tiering, an erasure) logs one row
    naming no fact: the search goes to PostgreSQL and the subject is read whole."""
    subject = _large(alice)
    for i in range(FACT_CHANGE_IDS_MAX + 1 - len(LARGE_SUBJECT)):
        add_fact(subject, f"I planted tree number {i} in the orchard.")
    entry = _held(subject)
    rows = FactChange.objects.filter(subject_id=subject.pk).count()
    Fact.objects.filter(subject=subject).update(mention_count=3)
    assert list(FactChange.objects.filter(subject_id=subject.pk, pk__gt=entry.last_change).values_list("fact_id")) == [
        (None,)
    ]
    assert FactChange.objects.filter(subject_id=subject.pk).count() == rows + 1
    assert _current(subject) is None
    tune(settings, {"cache.load_pause_seconds": 0})  # the pause since the first read is over: read it whole
    assert _current(subject) is None
    vector_cache.loads_wait()
    fresh = _current(subject)
    assert fresh is not None and fresh.loaded > entry.loaded
    _agrees(subject, fresh.loaded)


def test_erasure_takes_the_subject_out_of_memory(alice: Persona, settings: Any) -> None:
    """Erasing the subject deletes its facts and its change rows: no refresh can account for that, PostgreSQL
    answers, memory lets go of the entry at once, and the subject read again holds nothing of what was erased."""
    subject = _large(alice)
    entry = _held(subject)
    assert "I have a dog named Rex." in entry.texts
    assert alice.client.delete("/api/v1/users/alice").status_code in (200, 202, 204)
    assert _current(subject) is None
    # The erased vectors leave memory at once, not when a load (after the pause, a minute here) replaces them.
    assert subject.pk not in vector_cache.held_subjects()
    tune(settings, {"cache.load_pause_seconds": 0})
    assert _current(subject) is None
    vector_cache.loads_wait()
    after = _current(subject)
    assert after is None or (after.size == 0 and not any(after.texts))
