"""A large subject's vectors held in memory: the same answers as PostgreSQL, and never stale.

These tests commit (transactional_db): the cache serves only searches outside a transaction.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from facts.embedding import embed_texts
from facts.models import Fact, FactChange
from facts.retrieval import vector_cache
from facts.retrieval.candidates.keyword import keyword_facts
from facts.retrieval.candidates.vector import Unfocused, VectorTuning, in_memory, nearest_facts, two_stage
from facts.retrieval.config import search_config
from facts.retrieval.scope import FactFilter
from tests.conftest import Persona
from tests.facts.test_search import LARGE_SUBJECT, add_fact, first, subject_of, texts, tune

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _small_thresholds(settings: Any) -> Any:
    """A subject of 25 facts counts as large here; every test starts with an empty cache."""
    tune(
        settings,
        {
            "vector.exact_max": 5,
            "vector.prefilter_depth": 12,
            "scope.candidates": 5,
            "scope.count_cache_seconds": 0,
            "cache.load_pause_seconds": 0,  # a subject found stale is read again at once
        },
    )
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


def _current(subject: Any) -> vector_cache.Entry | None:
    """What a search finds: the subject's entry if held and current, else None (and a read is asked for)."""
    return vector_cache.current(subject.pk, search_config().cache)


def _hold(subject: Any) -> vector_cache.Entry:
    """Have the subject read into memory as a search does (in the background), and wait for it."""
    entry = _current(subject)
    if entry is None:  # not held, or stale beyond a refresh: a load is asked for
        vector_cache.loads_wait()
        entry = _current(subject)
    assert entry is not None
    return entry


def _flt(subject: Any, **kw: Any) -> FactFilter:
    return FactFilter(subject_id=subject.pk, statuses=["active", "conflicted"], tiers=["active"], **kw)


def _nearest(subject: Any, vector: list[float], *, limit: int, held: Any, flt: FactFilter | None = None) -> Any:
    """The vector signal's answer, from memory when `held` is an entry, else from PostgreSQL's two-stage scan."""
    tuning = search_config().vector
    return nearest_facts(flt or _flt(subject), vector, limit=limit, total=len(LARGE_SUBJECT), tuning=tuning, held=held)


def test_memory_gives_the_two_stage_scan_of_postgresql(alice: Persona) -> None:
    """Same ids, same order, same similarities as PostgreSQL's scan (the depth's nearest by sign-bit Hamming
    distance, then cosine), for English and Chinese, at depths that leave facts out: also where the first stage
    has left out one of the exact nearest."""
    subject = _large(alice)
    entry = _current(subject)
    total = len(LARGE_SUBJECT)
    differs_from_exact = 0
    for depth in (3, 4, 12, 24):
        staged = VectorTuning(exact_max=5, prefilter_depth=depth)
        for query in ["Tell me about my puppy", "what pets do I have", "我对什么过敏", "holiday plans"]:
            vector = embed_texts([query])[0]
            for limit in (3, 8):
                exact = nearest_facts(_flt(subject), vector, limit=limit, total=total, tuning=VectorTuning())
                assert in_memory(staged, entry)
                held = nearest_facts(_flt(subject), vector, limit=limit, total=total, tuning=staged, held=entry)
                sql = nearest_facts(_flt(subject), vector, limit=limit, total=total, tuning=staged)
                assert held and [pk for pk, _ in held] == [pk for pk, _ in sql]
                assert [round(s, 5) for _, s in held] == [round(s, 5) for _, s in sql]
                differs_from_exact += [pk for pk, _ in held] != [pk for pk, _ in exact]
    assert differs_from_exact
    assert vector_cache.held_subjects() == [subject.pk]


def test_the_rows_found_by_one_vector_carry_their_similarity_to_another(alice: Persona) -> None:
    """With `unfocused`, the rows ranked by one vector (the query's without a name) are the same, and each gets
    its cosine with the other (the query's own), in memory and in PostgreSQL, in one stage and in two."""
    subject = _large(alice)
    entry = _current(subject)
    total = len(LARGE_SUBJECT)
    ranked_by, own = embed_texts(["a small furry animal at home", "Tell me about my puppy"])
    every = VectorTuning(min_similarity=-1.0)
    truth = dict(nearest_facts(_flt(subject), own, limit=total, total=total, tuning=every))
    for tuning in (VectorTuning(exact_max=5, prefilter_depth=12), VectorTuning()):
        for held in (entry, None):
            unfocused = Unfocused(own)
            found = nearest_facts(_flt(subject), ranked_by, limit=8, total=total, tuning=tuning, held=held,
                                  unfocused=unfocused)  # fmt: skip
            assert found == nearest_facts(_flt(subject), ranked_by, limit=8, total=total, tuning=tuning, held=held)
            assert found and unfocused.similarity.keys() == {pk for pk, _ in found}
            assert all(abs(unfocused.similarity[pk] - truth[pk]) < 1e-5 for pk, _ in found)
            assert any(abs(unfocused.similarity[pk] - sim) > 0.01 for pk, sim in found)


def test_a_small_subject_in_memory_gives_postgresqls_exact_scan(alice: Persona, settings: Any) -> None:
    """At or under `exact_max` facts (one stage in PostgreSQL), memory compares every held fact: the same ids, order
    and similarities as the exact scan, and the same BM25 ranking, also with a fact stored without a vector."""
    tune(settings, {"vector.exact_max": 2000})
    subject = _large(alice, held=False)
    add_fact(subject, "I ate ice-cream with shellfish once, never again.", embed=False)
    entry = _hold(subject)
    total = len(LARGE_SUBJECT) + 1
    tuning = search_config().vector
    assert not two_stage(tuning, limit=8, total=total)[1] and in_memory(tuning, entry)
    for query in ["Tell me about my puppy", "what pets do I have", "我对什么过敏", "holiday plans", "shellfish"]:
        vector = embed_texts([query])[0]
        for limit in (3, 8, 40):
            held = nearest_facts(_flt(subject), vector, limit=limit, total=total, tuning=tuning, held=entry)
            sql = nearest_facts(_flt(subject), vector, limit=limit, total=total, tuning=tuning)
            assert held and [pk for pk, _ in held] == [pk for pk, _ in sql]
            assert [round(s, 5) for _, s in held] == [round(s, 5) for _, s in sql]
    for terms in KEYWORD_QUERIES:
        held_kw, in_sql = _keyword_both_ways(subject, terms)
        assert _same(held_kw, in_sql), terms


def test_a_small_subjects_search_from_memory_answers_as_postgresql(alice: Persona, settings: Any) -> None:
    """Through the API, a subject of 26 facts under the default thresholds: the first search is PostgreSQL's (the
    subject is read into memory meanwhile), the next ones memory's, with no vector or keyword scan in SQL: the
    same results in the same order with the same scores (a Chinese query's vector reads the Chinese vectors, which
    memory does not hold, in SQL). A subject under `min_facts` is never held."""
    from django.test.utils import CaptureQueriesContext

    tune(settings, {"vector.exact_max": 2000, "scope.candidates": 60})
    subject = _large(alice, held=False)
    add_fact(subject, "I ate ice-cream with shellfish once, never again.", embed=False)
    options, found = {"limit": 10, "min_relevance": 0}, 0
    for query in ["Tell me about my puppy dog", "my work and my brother", "我对什么过敏", "shellfish allergy"]:
        vector_cache.clear()
        in_sql = alice.search(query, **options).json()["results"]
        vector_cache.loads_wait()
        with CaptureQueriesContext(connection) as queries:
            held = alice.search(query, **options).json()["results"]
        # Memory holds the MiniLM vectors; a Chinese query's own vectors (embedding_zh) are always scanned in SQL.
        scans = [
            q for q in queries if ("<=>" in q["sql"] and "embedding_zh" not in q["sql"]) or "ts_match_vq" in q["sql"]
        ]
        assert not scans, "memory should answer"
        assert in_sql and held == in_sql, query
        found += len(held)
    assert found >= 8 and vector_cache.held_subjects() == [subject.pk]
    few = subject_of(alice, "few")
    for text in ["I have a dog named Rex.", "I live in Lisbon."]:
        add_fact(few, text)
    assert not vector_cache.serves(_flt(few), total=2, cache=search_config().cache)


def test_small_subjects_are_held_within_the_budget(alice: Persona, bob: Persona, settings: Any) -> None:
    """Every subject searched is held now, not only large ones: the budget still bounds them, the least recently
    searched going first."""
    tune(settings, {"vector.exact_max": 2000})
    a, b = _large(alice), _large(bob)
    entry = _current(a)
    assert entry is not None and set(vector_cache.held_subjects()) == {a.pk, b.pk}
    assert 1500 * len(entry.ids) < entry.nbytes < 4000 * len(entry.ids)  # ~2 kB a fact (the module's doc)
    settings.SEARCH_VECTOR_CACHE_MB = 1.5 * entry.nbytes / 2**20  # one fits, not two
    vector_cache.clear()
    _hold(a)
    _hold(b)
    assert vector_cache.held_subjects() == [b.pk]


def test_a_search_reads_the_change_log_once_for_both_signals(alice: Persona) -> None:
    """The keyword and the vector signal share one check that the subject's memory is current."""
    from django.test.utils import CaptureQueriesContext

    subject = _large(alice)
    with CaptureQueriesContext(connection) as queries:
        response = alice.search("Tell me about my puppy dog")
    top = first(response)
    assert top["text"] == "I have a dog named Rex." and set(top["matched_by"]) >= {"vector", "keyword"}
    assert len([q for q in queries if "facts_factchange" in q["sql"]]) == 1
    assert not [q for q in queries if "embedding_bits" in q["sql"] or "ts_match_vq" in q["sql"]]  # memory answered
    assert vector_cache.held_subjects() == [subject.pk]


def test_every_kind_of_change_is_seen_by_the_next_search(alice: Persona) -> None:
    """Insert, update (vector, status, tier, expiry) and delete: each logs a change row naming the fact in the
    statement's transaction, and the next search reads that fact again: memory still equals the exact scan."""
    subject = _large(alice)
    puppy = embed_texts(["Tell me about my puppy"])[0]
    loaded = _current(subject).loaded  # type: ignore[union-attr]

    def nearest() -> list[int]:
        # The search after the change brings memory current from the facts the change log names.
        in_sql = [pk for pk, _ in _nearest(subject, puppy, limit=3, held=None)]
        entry = _current(subject)
        assert entry is not None and entry.loaded == loaded  # refreshed, not read whole
        held = [pk for pk, _ in _nearest(subject, puppy, limit=3, held=entry)]
        assert held == in_sql
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


def test_a_subject_written_to_often_is_read_again_at_most_once_a_pause(alice: Persona, settings: Any) -> None:
    """Without refreshes (`refresh_max_facts` 0, as for a write of more facts than it), each write makes memory
    stale; PostgreSQL answers meanwhile, and the subject is read again at most once per `load_pause_seconds` (it
    was read moments ago here: not again until the pause is over)."""
    subject = _large(alice)
    tune(settings, {"cache.load_pause_seconds": 60, "cache.refresh_max_facts": 0})
    puppy = embed_texts(["Tell me about my puppy"])[0]
    for text in ["My puppy Bolt chews every shoe.", "Our puppy sleeps in a basket.", "I walk the puppy at six."]:
        fact = add_fact(subject, text)
        assert _current(subject) is None
        assert fact.pk in [pk for pk, _ in _nearest(subject, puppy, limit=3, held=None)]
        vector_cache.loads_wait()
        assert _current(subject) is None  # not read again: still stale
    tune(settings, {"cache.load_pause_seconds": 0})  # the pause is over
    assert _current(subject) is None
    vector_cache.loads_wait()
    entry = _current(subject)
    assert entry is not None and entry.size == len(entry.ids) == len(LARGE_SUBJECT) + 3


def test_a_fact_that_expires_later_leaves_without_a_change(alice: Persona) -> None:
    """Expiry is a time, not a write: memory compares it with the search's now."""
    subject = _large(alice, held=False)
    rex = Fact.objects.get(subject=subject, text="I have a dog named Rex.")
    soon = timezone.now() + dt.timedelta(hours=1)
    Fact.objects.filter(pk=rex.pk).update(expires_at=soon)
    entry = _hold(subject)
    puppy = embed_texts(["Tell me about my puppy"])[0]
    assert _nearest(subject, puppy, limit=3, held=entry)[0][0] == rex.pk
    later = _flt(subject, now=soon + dt.timedelta(seconds=1))
    assert rex.pk not in [pk for pk, _ in _nearest(subject, puppy, limit=3, held=entry, flt=later)]


def _serves(flt: FactFilter) -> bool:
    config = search_config()
    return vector_cache.serves(flt, total=len(LARGE_SUBJECT), cache=config.cache)


def test_filters_memory_does_not_hold_go_to_postgresql(alice: Persona) -> None:
    """Superseded facts asked for, a type or a time filter: PostgreSQL answers (memory holds none of them)."""
    subject = _large(alice)
    assert _serves(_flt(subject))
    with_superseded = FactFilter(
        subject_id=subject.pk, statuses=["active", "conflicted", "superseded"], tiers=["active"]
    )
    for flt in [with_superseded, _flt(subject, types=["preference"]), _flt(subject, since=timezone.now())]:
        assert not _serves(flt)
    rex = Fact.objects.get(subject=subject, text="I have a dog named Rex.")
    Fact.objects.filter(pk=rex.pk).update(status="superseded")
    puppy = embed_texts(["Tell me about my puppy"])[0]
    assert rex.pk in [pk for pk, _ in _nearest(subject, puppy, limit=3, held=None, flt=with_superseded)]
    assert rex.text in texts(alice.search("Tell me about my puppy", include_superseded=True))


def test_through_the_api_and_the_budget(alice: Persona, carol: Persona, settings: Any) -> None:
    """The API's vector-only answer comes from memory; a subject larger than the budget is not held."""
    subject = _large(alice, held=False)
    for _ in range(2):  # PostgreSQL answers the first search and the subject is read meanwhile; memory the next
        top = first(alice.search("Tell me about my puppy"))
        assert top["text"] == "I have a dog named Rex." and top["matched_by"] == ["vector"]
        vector_cache.loads_wait()
        assert vector_cache.held_subjects() == [subject.pk]
    # Another tenant's subject of the same name is another subject: 404, nothing read into memory.
    assert carol.search("Tell me about my puppy").status_code == 404
    assert vector_cache.held_subjects() == [subject.pk]
    vector_cache.clear()
    settings.SEARCH_VECTOR_CACHE_MB = 0.01  # 10 kB: 25 vectors of 1.5 kB do not fit, PostgreSQL answers
    assert not _serves(_flt(subject))
    assert "I have a dog named Rex." in texts(alice.search("Tell me about my puppy"))
    vector_cache.loads_wait()
    assert vector_cache.held_subjects() == []


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
    assert a.pk in vector_cache.held_subjects()
    Subject.objects.filter(pk=a.pk).delete()
    settings.SEARCH_VECTOR_CACHE_SECONDS = 0  # every entry is past its age at the next search, of anyone
    _current(b)  # another subject's search
    assert a.pk not in vector_cache.held_subjects()
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


def _keyword_both_ways(subject: Any, terms: list[str], **kw: Any) -> tuple[list[Any], list[Any]]:
    from django.test.utils import CaptureQueriesContext

    total = Fact.objects.filter(subject=subject, tier="active").count()
    tuning = search_config().keyword
    in_sql = keyword_facts(_flt(subject, **kw), terms, limit=8, total=total, tuning=tuning)
    entry = _current(subject)
    if entry is None:  # changed since it was read: read it again
        vector_cache.loads_wait()
        entry = _current(subject)
    assert entry is not None
    with CaptureQueriesContext(connection) as queries:
        held = keyword_facts(_flt(subject, **kw), terms, limit=8, total=total, tuning=tuning, held=entry)
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
        held, in_sql = _keyword_both_ways(subject, terms)
        assert _same(held, in_sql), terms
    held, _ = _keyword_both_ways(subject, ["ice-cream"])
    assert [Fact.objects.get(pk=pk).text for pk, _ in held] == ["I ate ice-cream with shellfish once, never again."]
    assert len(_keyword_both_ways(subject, ["tennis"])[0]) == 1
    assert len(_keyword_both_ways(subject, ["my"])[0]) > 5


def test_keyword_memory_sees_every_change(alice: Persona, settings: Any) -> None:
    """A new fact, one superseded, archived, expired or deleted: the next keyword search agrees with SQL."""
    subject = _large(alice)

    def found(word: str) -> list[int]:
        held, in_sql = _keyword_both_ways(subject, [word])
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
    held, in_sql = _keyword_both_ways(subject, ["saxophone"], now=later + dt.timedelta(seconds=1))
    assert held == in_sql == []
    Fact.objects.filter(pk=sax.pk).delete()
    assert found("saxophone") == []


def test_keyword_filters_memory_does_not_hold_go_to_postgresql(alice: Persona) -> None:
    """Archived facts asked for (keyword only), or a type filter: PostgreSQL answers, archived facts included."""
    subject = _large(alice)
    rex = Fact.objects.get(subject=subject, text="I have a dog named Rex.")
    Fact.objects.filter(pk=rex.pk).update(tier="archived")
    entry, tuning = _hold(subject), search_config().keyword
    both = FactFilter(subject_id=subject.pk, statuses=["active", "conflicted"], tiers=["active", "archived"])
    assert [pk for pk, _ in keyword_facts(both, ["dog"], limit=3, total=25, tuning=tuning, held=entry)] == [rex.pk]
    assert keyword_facts(_flt(subject), ["dog"], limit=3, total=25, tuning=tuning, held=entry) == []
    assert not _serves(_flt(subject, types=["preference"]))
    assert keyword_facts(_flt(subject, types=["preference"]), ["tea"], limit=3, total=25, tuning=tuning) == []
    assert rex.text in texts(alice.search("dog", include_archived=True))


def test_counting_picks_what_sorting_picks() -> None:
    """The sign-bit stage's selection by counting (`first_n_counted`) equals `first_n`'s (ORDER BY distance, id
    LIMIT n) for rows in id order, with the many ties small integer distances have, at every cut."""
    import numpy as np

    rng = np.random.default_rng(7)
    for size, top in [(50, 49), (400, 12), (1000, 400), (3000, 1)]:
        for _ in range(20):
            keys = rng.integers(0, rng.integers(2, 40), size=size).astype(np.int32)
            ids = np.sort(rng.choice(10 * size, size=size, replace=False)).astype(np.int64)
            assert vector_cache.first_n_counted(keys, top).tolist() == vector_cache.first_n(keys, ids, top).tolist()


def test_keyword_count_is_the_length_of_the_ranking(alice: Persona, settings: Any) -> None:
    """The vocabulary's count of a word's held facts (`keyword_count`) is what `keyword_ranked` returns, counted:
    English and Chinese terms, a stop word, a word no fact holds, an expired fact, and a cut at `limit`."""
    subject = _large(alice)
    add_fact(subject, "I ate ice-cream with shellfish once, never again.", embed=False)
    entry, now = _hold(subject), timezone.now()
    total = Fact.objects.filter(subject=subject, tier="active").count()
    for terms in [*KEYWORD_QUERIES, ["my"], ["i"]]:
        for limit in (1, 3, 1000):
            kw = {"total": total, "limit": limit, "k1": 1.2, "b": 0.75, "max_rows": 1000}
            ranked = vector_cache.keyword_ranked(entry, now, terms, **kw)
            assert ranked is not None
            assert vector_cache.keyword_count(entry, now, terms, **kw) == len(ranked), (terms, limit)
    many = vector_cache.keyword_ranked(entry, now, ["my"], total=total, limit=1000, k1=1.2, b=0.75, max_rows=1000)
    assert many is not None and len(many) > 3
    later = now + dt.timedelta(days=1)
    Fact.objects.filter(pk=many[0][0]).update(expires_at=now + dt.timedelta(hours=1))
    entry = _hold(subject)
    kw = {"total": total, "limit": 1000, "k1": 1.2, "b": 0.75, "max_rows": 1000}
    assert vector_cache.keyword_count(entry, later, ["my"], **kw) == len(many) - 1
    assert vector_cache.keyword_count(entry, later, ["my"], **kw) == len(
        vector_cache.keyword_ranked(entry, later, ["my"], **kw) or []
    )


def _fact_row_reads(queries: Any) -> int:
    return sum(1 for q in queries if "LEFT JOIN facts_factaccess" in q["sql"])


def test_a_vector_there_in_time_has_its_candidates_rows_read_with_the_others(alice: Persona, settings: Any) -> None:
    """A held subject's search whose query vector is there by the time the other signals' candidates are read
    (over HTTP it embeds from before authentication) reads every candidate's row in one statement, and answers as
    a search whose vector came later (rows read after it) and as one embedded inline. (The subject holds Chinese
    facts: the second embedding an English query gets for them starts with the search, not before authentication,
    and its statement reads its rows itself. Turned off here, where the early vector is what is tested.)"""
    from django.test.utils import CaptureQueriesContext

    settings.SEARCH_TUNING = {**settings.SEARCH_TUNING, "vector.cross_lingual": False}

    from facts.retrieval import query_vector
    from facts.retrieval.search import run_search

    subject = _large(alice)
    query = "the cat and the canine companion"  # "cat" finds a fact by keyword; only the vector finds the dog
    now = timezone.now()
    inline = run_search(subject_id=subject.pk, query=query, limit=5, now=now)  # also warms the embedder
    assert "I have a dog named Rex." in [hit.text for hit in inline.hits]
    ready = query_vector.query_vector_early(query)
    assert ready is not None
    ready.result()
    with CaptureQueriesContext(connection) as queries:
        early = run_search(subject_id=subject.pk, query=query, limit=5, now=now, early_vector=ready)
    assert _fact_row_reads(queries) == 1
    assert [(h.kind, h.id, h.score, h.relevance) for h in early.hits] == [
        (h.kind, h.id, h.score, h.relevance) for h in inline.hits
    ]
