"""A large subject's vectors held in memory: the same answers as PostgreSQL, and never stale.

These tests commit (transactional_db): the cache serves only searches outside a transaction.
"""

from __future__ import annotations

import datetime as dt
import os
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from facts.embedding import embed_texts
from facts.models import Fact, FactChange
from facts.retrieval import candidates as cand
from facts.retrieval import vector_cache
from tests.conftest import Persona
from tests.facts.test_search import LARGE_SUBJECT, add_fact, first, subject_of, texts

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _small_thresholds(settings: Any) -> Any:
    """A subject of 25 facts counts as large here; every test starts with an empty cache."""
    settings.SEARCH_VECTOR_EXACT_MAX = 5
    settings.SEARCH_VECTOR_PREFILTER_DEPTH = 12
    settings.SEARCH_CANDIDATES = 5
    settings.SEARCH_COUNT_CACHE_SECONDS = 0
    settings.SEARCH_VECTOR_CACHE_LOAD_SECONDS = 0  # a subject found stale is read again at once
    vector_cache.clear()
    yield
    vector_cache.clear()


def _large(persona: Persona, *, held: bool = True) -> Any:
    subject = subject_of(persona)
    for text in LARGE_SUBJECT:
        add_fact(subject, text)
    if held:
        _hold(subject)
    return subject


def _hold(subject: Any) -> None:
    """Have the subject read into memory as a search does (in the background), and wait for it."""
    assert vector_cache.Snapshot().entry(subject.pk) is None  # not held, or stale: a load is asked for
    vector_cache.loads_wait()
    assert vector_cache.Snapshot().entry(subject.pk) is not None


def _flt(subject: Any, **kw: Any) -> cand.FactFilter:
    return cand.FactFilter(subject_id=subject.pk, statuses=["active", "conflicted"], tiers=["active"], **kw)


def _in_postgresql(settings: Any, subject: Any, vector: list[float], *, limit: int) -> list[tuple[int, float]]:
    """vector_facts with the memory budget at zero: PostgreSQL's two-stage scan."""
    budget, settings.SEARCH_VECTOR_CACHE_MB = settings.SEARCH_VECTOR_CACHE_MB, 0
    try:
        return cand.vector_facts(_flt(subject), vector, limit=limit, total=len(LARGE_SUBJECT))
    finally:
        settings.SEARCH_VECTOR_CACHE_MB = budget


def test_memory_gives_the_two_stage_scan_of_postgresql(alice: Persona, settings: Any) -> None:
    """Same ids, same order, same similarities as PostgreSQL's scan (the depth's nearest by sign-bit Hamming
    distance, then cosine), for English and Chinese, at depths that leave facts out: also where the first stage
    has left out one of the exact nearest."""
    subject = _large(alice)
    total = len(LARGE_SUBJECT)
    differs_from_exact = 0
    for depth in (3, 4, 12, 24):
        for query in ["Tell me about my puppy", "what pets do I have", "我对什么过敏", "holiday plans"]:
            vector = embed_texts([query])[0]
            for limit in (3, 8):
                settings.SEARCH_VECTOR_PREFILTER_DEPTH = total
                exact = cand.vector_facts(_flt(subject), vector, limit=limit, total=total)
                settings.SEARCH_VECTOR_PREFILTER_DEPTH = depth
                held = cand.vector_facts(_flt(subject), vector, limit=limit, total=total)
                sql = _in_postgresql(settings, subject, vector, limit=limit)
                assert held and [pk for pk, _ in held] == [pk for pk, _ in sql]
                assert [round(s, 5) for _, s in held] == [round(s, 5) for _, s in sql]
                differs_from_exact += [pk for pk, _ in held] != [pk for pk, _ in exact]
    assert differs_from_exact
    assert subject.pk in vector_cache._entries


def test_a_search_checks_the_change_log_once_for_both_signals(
    alice: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The keyword signal (request's thread) and the vector signal (embedding thread) read one snapshot."""
    from facts.retrieval import search as search_module

    subject = _large(alice)
    settings.SEARCH_EMBED_IN_THREAD = True
    search_module._embedder_warm_pid = os.getpid()  # the model is loaded: the vector scan runs on the thread
    assert alice.search("Tell me about my puppy").status_code == 200  # loads the subject
    checks: list[int] = []
    real = vector_cache._version
    monkeypatch.setattr(vector_cache, "_version", lambda subject_id: checks.append(subject_id) or real(subject_id))
    response = alice.search("Tell me about my puppy dog")
    assert response.status_code == 200, response.content
    top = first(response)
    assert top["text"] == "I have a dog named Rex." and set(top["matched_by"]) >= {"vector", "keyword"}
    assert checks == [subject.pk]


def test_every_kind_of_change_is_seen_by_the_next_search(alice: Persona, settings: Any) -> None:
    """Insert, update (vector, status, tier, expiry) and delete: each logs a change row in the statement's
    transaction, and the next search reads the subject's vectors again: memory still equals the exact scan."""
    subject = _large(alice)
    total = len(LARGE_SUBJECT)
    puppy = embed_texts(["Tell me about my puppy"])[0]

    def nearest() -> list[int]:
        # The search after the change finds memory stale: PostgreSQL answers it, and the subject is read again.
        stale = _flt(subject)
        assert not cand.vector_facts_in_memory(stale, limit=3, total=total)
        in_sql = [pk for pk, _ in cand.vector_facts(stale, puppy, limit=3, total=total)]
        vector_cache.loads_wait()
        flt = _flt(subject)
        assert cand.vector_facts_in_memory(flt, limit=3, total=total)
        held = [pk for pk, _ in cand.vector_facts(flt, puppy, limit=3, total=total)]
        assert held == in_sql == [pk for pk, _ in _in_postgresql(settings, subject, puppy, limit=3)]
        return held

    rex = Fact.objects.get(subject=subject, text="I have a dog named Rex.")
    Fact.objects.filter(pk=rex.pk).update(pinned=True)
    assert nearest()[0] == rex.pk
    changes = FactChange.objects.filter(subject_id=subject.pk).count()

    bolt = add_fact(subject, "My puppy Bolt chews every shoe in the house.")
    assert bolt.pk in nearest()
    Fact.objects.filter(pk=bolt.pk).update(status="superseded")
    assert bolt.pk not in nearest()
    Fact.objects.filter(pk=rex.pk).update(tier="archived")
    assert rex.pk not in nearest()
    Fact.objects.filter(pk=rex.pk).update(tier="active", expires_at=timezone.now() - dt.timedelta(minutes=1))
    assert rex.pk not in nearest()
    Fact.objects.filter(pk=rex.pk).update(expires_at=None)
    assert nearest()[0] == rex.pk
    # A vector rewritten in place.
    Fact.objects.filter(pk=rex.pk).update(embedding=embed_texts(["I bought a new laptop for work."])[0])
    assert rex.pk not in nearest()
    Fact.objects.filter(pk=rex.pk).update(embedding=puppy)
    assert nearest()[0] == rex.pk
    Fact.objects.filter(pk=rex.pk).delete()
    assert rex.pk not in nearest()
    assert FactChange.objects.filter(subject_id=subject.pk).count() >= changes + 8


def test_a_subject_written_to_often_is_read_again_at_most_once_a_pause(
    alice: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each write makes memory stale; PostgreSQL answers meanwhile, and the subject is read again at most once
    per SEARCH_VECTOR_CACHE_LOAD_SECONDS (it was read moments ago here: not again until the pause is over)."""
    subject = _large(alice)
    total = len(LARGE_SUBJECT)
    reads: list[int] = []
    real = vector_cache._load
    monkeypatch.setattr(vector_cache, "_load", lambda subject_id: reads.append(subject_id) or real(subject_id))
    settings.SEARCH_VECTOR_CACHE_LOAD_SECONDS = 60
    puppy = embed_texts(["Tell me about my puppy"])[0]
    for text in ["My puppy Bolt chews every shoe.", "Our puppy sleeps in a basket.", "I walk the puppy at six."]:
        fact = add_fact(subject, text)
        assert not cand.vector_facts_in_memory(_flt(subject), limit=3, total=total)
        assert fact.pk in [pk for pk, _ in cand.vector_facts(_flt(subject), puppy, limit=3, total=total)]
        vector_cache.loads_wait()
    assert reads == []
    settings.SEARCH_VECTOR_CACHE_LOAD_SECONDS = 0  # the pause is over
    assert not cand.vector_facts_in_memory(_flt(subject), limit=3, total=total)
    vector_cache.loads_wait()
    assert reads == [subject.pk] and cand.vector_facts_in_memory(_flt(subject), limit=3, total=total)


def test_a_fact_that_expires_later_leaves_without_a_change(alice: Persona) -> None:
    """Expiry is a time, not a write: memory compares it with the search's now."""
    subject = _large(alice)
    rex = Fact.objects.get(subject=subject, text="I have a dog named Rex.")
    soon = timezone.now() + dt.timedelta(hours=1)
    Fact.objects.filter(pk=rex.pk).update(expires_at=soon)
    _hold(subject)
    puppy = embed_texts(["Tell me about my puppy"])[0]
    assert cand.vector_facts(_flt(subject), puppy, limit=3, total=len(LARGE_SUBJECT))[0][0] == rex.pk
    later = _flt(subject, now=soon + dt.timedelta(seconds=1))
    assert rex.pk not in [pk for pk, _ in cand.vector_facts(later, puppy, limit=3, total=len(LARGE_SUBJECT))]


def test_filters_memory_does_not_hold_go_to_postgresql(alice: Persona) -> None:
    """Superseded facts asked for, a type or a time filter: PostgreSQL answers (memory holds none of them)."""
    subject = _large(alice)
    assert vector_cache.serves(_flt(subject), total=25)
    for flt in [
        cand.FactFilter(subject_id=subject.pk, statuses=["active", "conflicted", "superseded"], tiers=["active"]),
        _flt(subject, types=["preference"]),
        _flt(subject, since=timezone.now() - dt.timedelta(days=1)),
    ]:
        assert not vector_cache.serves(flt, total=25)
    rex = Fact.objects.get(subject=subject, text="I have a dog named Rex.")
    Fact.objects.filter(pk=rex.pk).update(status="superseded")
    puppy = embed_texts(["Tell me about my puppy"])[0]
    with_superseded = cand.FactFilter(
        subject_id=subject.pk, statuses=["active", "conflicted", "superseded"], tiers=["active"]
    )
    assert rex.pk in [pk for pk, _ in cand.vector_facts(with_superseded, puppy, limit=3, total=len(LARGE_SUBJECT))]


def test_through_the_api_and_the_budget(alice: Persona, carol: Persona, settings: Any) -> None:
    """The API's vector-only answer comes from memory; a subject larger than the budget is not held."""
    _large(alice, held=False)
    for _ in range(2):  # PostgreSQL answers the first search and the subject is read meanwhile; memory the next
        top = first(alice.search("Tell me about my puppy"))
        assert top["text"] == "I have a dog named Rex." and top["matched_by"] == ["vector"]
        vector_cache.loads_wait()
        assert len(vector_cache._entries) == 1
    # Another tenant's subject of the same name is another subject: 404, nothing read into memory.
    assert carol.search("Tell me about my puppy").status_code == 404
    assert len(vector_cache._entries) == 1
    vector_cache.clear()
    settings.SEARCH_VECTOR_CACHE_MB = 0.01  # 10 kB: 25 vectors of 1.5 kB do not fit, PostgreSQL answers
    assert not vector_cache.serves(_flt(subject_of(alice)), total=len(LARGE_SUBJECT))
    assert "I have a dog named Rex." in texts(alice.search("Tell me about my puppy"))
    assert not vector_cache._entries


def test_prune_keeps_each_subjects_newest_change(alice: Persona, bob: Persona) -> None:
    a, b = subject_of(alice), subject_of(bob)
    for subject in (a, b):
        for text in ["I have a dog named Rex.", "I live in Lisbon."]:
            add_fact(subject, text)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE facts_factchange SET created_at = now() - interval '2 hours'")
    newest = {s.pk: FactChange.objects.filter(subject_id=s.pk).order_by("-id").first().pk for s in (a, b)}
    before = FactChange.objects.count()
    assert before > 2
    assert vector_cache.facts_change_prune() == before - 2
    assert {c.subject_id: c.pk for c in FactChange.objects.all()} == newest
    add_fact(a, "I play tennis every Saturday morning.")
    young = set(FactChange.objects.filter(subject_id=a.pk).exclude(pk=newest[a.pk]).values_list("pk", flat=True))
    assert young
    assert vector_cache.facts_change_prune() == 1  # a's old newest row; rows younger than an hour stay
    assert set(FactChange.objects.filter(subject_id=a.pk).values_list("pk", flat=True)) == young


def test_a_deleted_subjects_vectors_and_change_rows_go(alice: Persona, bob: Persona, settings: Any) -> None:
    """Deleting a subject deletes its facts (the trigger logs it); the memory entry goes at its age, searched or
    not, and the prune drops a deleted subject's rows, the newest too."""
    from conversations.models import Subject

    a = _large(alice)
    b = subject_of(bob)
    add_fact(b, "I live in Lisbon.")
    puppy = embed_texts(["Tell me about my puppy"])[0]
    assert cand.vector_facts(_flt(a), puppy, limit=3, total=len(LARGE_SUBJECT))
    assert a.pk in vector_cache._entries
    Subject.objects.filter(pk=a.pk).delete()
    settings.SEARCH_VECTOR_CACHE_SECONDS = 0  # every entry is past its age at the next search, of anyone
    cand.vector_facts(_flt(b), puppy, limit=3, total=len(LARGE_SUBJECT))  # another subject's search
    assert a.pk not in vector_cache._entries
    with connection.cursor() as cursor:
        cursor.execute("UPDATE facts_factchange SET created_at = now() - interval '2 hours'")
    assert FactChange.objects.filter(subject_id=a.pk).exists()
    vector_cache.facts_change_prune()
    assert not FactChange.objects.filter(subject_id=a.pk).exists()
    assert FactChange.objects.filter(subject_id=b.pk).count() == 1


KEYWORD_QUERIES = [
    ["dog"],
    ["tennis", "saturday", "morning"],
    ["work", "my"],
    ["running", "marathons"],  # stems: run, marathon
    ["the", "zzzqx"],  # a stop word (its simple-configuration lexeme still matches) and a word no fact has
    ["ice-cream", "shellfish"],  # a hyphenated word is three lexemes, all required
    ["过敏"],
    ["北京", "咖啡", "tea"],
]


def _keyword_both_ways(subject: Any, terms: list[str], settings: Any, **kw: Any) -> tuple[list[Any], list[Any]]:
    from django.test.utils import CaptureQueriesContext

    total = Fact.objects.filter(subject=subject, tier="active").count()
    settings.SEARCH_VECTOR_EXACT_MAX = 10_000
    in_sql = cand.keyword_facts(_flt(subject, **kw), terms, limit=8, total=total)
    settings.SEARCH_VECTOR_EXACT_MAX = 5
    if vector_cache.Snapshot().entry(subject.pk) is None:  # changed since it was read: read it again
        vector_cache.loads_wait()
    with CaptureQueriesContext(connection) as queries:
        held = cand.keyword_facts(_flt(subject, **kw), terms, limit=8, total=total)
    assert not any("ln(1 +" in q["sql"] for q in queries), "memory should have answered"
    return held, in_sql


def _same(held: list[tuple[int, float]], in_sql: list[tuple[int, float]]) -> bool:
    """Same ids in the same order, same scores up to float rounding (SQL computes part of BM25 in numeric)."""
    return [pk for pk, _ in held] == [pk for pk, _ in in_sql] and [s for _, s in held] == pytest.approx(
        [s for _, s in in_sql], rel=1e-12
    )


def test_keyword_memory_gives_the_bm25_of_postgresql(alice: Persona, settings: Any) -> None:
    """Same ids in the same order and the same scores as the BM25 computed in SQL, for English words (stemmed,
    stop words, hyphenated, unknown) and Chinese substrings, also for a fact stored without a vector."""
    subject = _large(alice)
    add_fact(subject, "I ate ice-cream with shellfish once, never again.", embed=False)
    for terms in KEYWORD_QUERIES:
        held, in_sql = _keyword_both_ways(subject, terms, settings)
        assert _same(held, in_sql), terms
    held, _ = _keyword_both_ways(subject, ["ice-cream"], settings)
    assert [Fact.objects.get(pk=pk).text for pk, _ in held] == ["I ate ice-cream with shellfish once, never again."]
    assert len(_keyword_both_ways(subject, ["tennis"], settings)[0]) == 1
    assert len(_keyword_both_ways(subject, ["my"], settings)[0]) > 5


def test_keyword_memory_sees_every_change(alice: Persona, settings: Any) -> None:
    """A new fact, one superseded, archived, expired or deleted: the next keyword search agrees with SQL."""
    subject = _large(alice)

    def found(word: str) -> list[int]:
        held, in_sql = _keyword_both_ways(subject, [word], settings)
        assert _same(held, in_sql)
        return [pk for pk, _ in held]

    assert found("saxophone") == []
    sax = add_fact(subject, "I practise the saxophone after dinner.", embed=False)
    assert found("saxophone") == [sax.pk]
    for change in [{"status": "superseded"}, {"tier": "archived"}, {"expires_at": timezone.now()}]:
        Fact.objects.filter(pk=sax.pk).update(**change)
        assert found("saxophone") == []
        Fact.objects.filter(pk=sax.pk).update(status="active", tier="active", expires_at=None)
        assert found("saxophone") == [sax.pk]
    later = timezone.now() + dt.timedelta(hours=1)
    Fact.objects.filter(pk=sax.pk).update(expires_at=later)
    assert found("saxophone") == [sax.pk]
    held, in_sql = _keyword_both_ways(subject, ["saxophone"], settings, now=later + dt.timedelta(seconds=1))
    assert held == in_sql == []
    Fact.objects.filter(pk=sax.pk).delete()
    assert found("saxophone") == []


def test_keyword_filters_memory_does_not_hold_go_to_postgresql(alice: Persona) -> None:
    """Archived facts asked for (keyword only), or a type filter: PostgreSQL answers, archived facts included."""
    subject = _large(alice)
    rex = Fact.objects.get(subject=subject, text="I have a dog named Rex.")
    Fact.objects.filter(pk=rex.pk).update(tier="archived")
    both = cand.FactFilter(subject_id=subject.pk, statuses=["active", "conflicted"], tiers=["active", "archived"])
    assert [pk for pk, _ in cand.keyword_facts(both, ["dog"], limit=3, total=25)] == [rex.pk]
    assert cand.keyword_facts(_flt(subject), ["dog"], limit=3, total=25) == []
    assert cand.keyword_facts(_flt(subject, types=["preference"]), ["tea"], limit=3, total=25) == []


def test_counting_picks_what_sorting_picks() -> None:
    """The sign-bit stage's selection by counting (`_first_counted`) equals `_first`'s (ORDER BY distance, id
    LIMIT n) for rows in id order, with the many ties small integer distances have, at every cut."""
    import numpy as np

    rng = np.random.default_rng(7)
    for size, top in [(50, 49), (400, 12), (1000, 400), (3000, 1)]:
        for _ in range(20):
            keys = rng.integers(0, rng.integers(2, 40), size=size).astype(np.int32)
            ids = np.sort(rng.choice(10 * size, size=size, replace=False)).astype(np.int64)
            assert vector_cache._first_counted(keys, top).tolist() == vector_cache._first(keys, ids, top).tolist()
