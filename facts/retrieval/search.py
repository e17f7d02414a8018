"""The read path as plain stages over one state: analyse -> candidates -> fuse -> re-rank -> collapse.

No LLM anywhere. The query embeds while the other signals' candidates are read (query_vector.py); while it does,
the rows, sources and links of those candidates are read too, so that what follows the vector reads only what the
vector alone found.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from facts.embedding import vector_speaks
from facts.retrieval import held_messages, vector_cache
from facts.retrieval.answerable import QueryEvidence, Vocabulary, vocabulary
from facts.retrieval.candidates import vector
from facts.retrieval.candidates.category import category_ranking
from facts.retrieval.candidates.entity import entity_ranking
from facts.retrieval.candidates.keyword import keyword_facts, keyword_messages
from facts.retrieval.candidates.links import Links, follow_links
from facts.retrieval.candidates.time import mark_in_range, time_facts, time_ranking
from facts.retrieval.collapse import collapse
from facts.retrieval.config import SearchConfig, search_config
from facts.retrieval.focus import without_common_names
from facts.retrieval.fusion import SIGNALS, Fused, fuse
from facts.retrieval.hits import SearchHit
from facts.retrieval.query import MAX_QUERY_WORDS, QueryAnalysis, analyze
from facts.retrieval.query_vector import QueryVector, cross_vector_for, query_vector_for
from facts.retrieval.relevance import QuerySignals, calibration, relevance_of
from facts.retrieval.rerank import Scored, rerank
from facts.retrieval.rows import Rows
from facts.retrieval.scope import (
    SEARCHED_STATUSES,
    SEARCHED_TIERS,
    FactFilter,
    Key,
    Ranking,
    keyed,
    merged,
    subject_counts_cached,
)


@dataclass
class SearchOutcome:
    hits: list[SearchHit]
    analysis: QueryAnalysis
    signals: list[str] = field(default_factory=list)  # the signals that found candidates
    vector_available: bool = True  # False: the vector was wanted and the embedder is down
    cold_start: bool = False
    # Every re-ranked candidate (best first) and what the relevance features read, for bench.fit_relevance.
    scored: Scored = field(default_factory=list)
    query_signals: QuerySignals | None = None


@dataclass
class SearchState:
    """One search on its way through the stages; each stage reads what the ones before it left here."""

    config: SearchConfig
    flt: FactFilter
    analysis: QueryAnalysis
    limit: int
    include_messages: bool
    total: int  # the subject's searchable facts (a count up to a few seconds old)
    chinese: int  # how many of them are Chinese (read for a query of another language too: cross_candidates)
    pool: int  # candidates per signal
    held: vector_cache.Entry | None = None  # the subject's facts in this process's memory, when current
    held_messages: held_messages.Held | None = None  # its messages there, when current (gather_candidates)
    query_vector: QueryVector | None = None
    cross_vector: QueryVector | None = None  # a non-Chinese query's multilingual-e5 vector, for the Chinese facts
    cross_keys: set[Key] = field(default_factory=set)  # the candidates whose similarity is that vector's
    rankings: dict[str, Ranking] = field(default_factory=lambda: {signal: [] for signal in SIGNALS})
    similarity: dict[Key, float] = field(default_factory=dict)  # the vector's candidates
    # Their similarity to the query's own vector, which the relevance features read (vector.Unfocused).
    raw_similarity: dict[Key, float] = field(default_factory=dict)
    fused: dict[Key, Fused] = field(default_factory=dict)
    rows: Rows = field(default_factory=Rows)
    links: Links = field(default_factory=Links)
    scored: Scored = field(default_factory=list)

    @property
    def cold_start(self) -> bool:
        return self.total < self.config.scope.cold_start_min_facts

    @property
    def wants_vector(self) -> bool:
        """Whether the vector signal can find anything: a query with words or names (a time alone is nothing the
        vector could match). Also at cold start: one matching fact among few must be found by meaning ("what
        snacks are safe for me?" and "对花生过敏"); the vector-alone cut and the relevance floor keep the others out."""
        return self.analysis.vector_matchable


def run_search(
    *,
    subject_id: int,
    query: str,
    limit: int = 5,
    types: list[str] | None = None,
    include_archived: bool = False,
    include_messages: bool = False,
    include_superseded: bool = False,
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
    now: dt.datetime | None = None,
    min_relevance: float | None = None,
    as_of: dt.datetime | None = None,
    known_at: dt.datetime | None = None,
    early_vector: QueryVector | None = None,
    whole_query_floor: bool = False,
) -> SearchOutcome:
    """Search one subject's memory; the caller has already checked the subject belongs to the tenant.

    Results under `min_relevance` (default: the operator's SEARCH_MIN_RELEVANCE, else the fitted floor, in a memory
    large enough: `answer`) are left out, so an unrelated question gets nothing. With `as_of` or `known_at`, the
    facts of that moment (asof.py), superseded ones included, and the messages said by then. `early_vector`: the query's embedding already under way
    (started before the request was authenticated), used when it is of the same text. `whole_query_floor`: the floor
    says only whether the memory answers the query at all (its best result's relevance); an answered query keeps
    every candidate (/context, which packs by its token budget).
    """
    config = search_config()
    timed = as_of is not None or known_at is not None
    flt = FactFilter(
        subject_id=subject_id,
        statuses=[*SEARCHED_STATUSES, *(["superseded"] if include_superseded or timed else [])],
        tiers=[*SEARCHED_TIERS, *(["archived"] if include_archived else [])],
        types=types or None,
        since=since,
        until=messages_until(until, as_of, known_at) if timed else until,
        now=now or dt.datetime.now(dt.UTC),
        as_of=as_of,
        known_at=known_at,
    )
    analysis = analyze(query, now=flt.now)
    outcome = SearchOutcome(hits=[], analysis=analysis)
    if analysis.is_empty or limit <= 0:
        return outcome
    counts = subject_counts_cached(flt, config.scope)
    state = SearchState(
        config=config,
        flt=flt,
        analysis=analysis,
        limit=limit,
        include_messages=include_messages,
        total=counts.total,
        chinese=counts.chinese,
        pool=max(config.scope.candidates, limit * 3),
    )
    outcome.cold_start = state.cold_start
    if state.wants_vector:
        state.query_vector = query_vector_for(query, in_thread=config.embed_in_thread, started=early_vector)
        if state.query_vector.space != "zh" and state.chinese and config.vector.cross_lingual:
            state.cross_vector = cross_vector_for(query, in_thread=config.embed_in_thread)
    gather_candidates(state)
    vocab = subject_vocabulary(state)  # while the query embeds
    vector_read = False
    if state.query_vector is not None and state.query_vector.threaded:
        vector_read = read_ahead(state, vocab)
    if not vector_read:
        gather_vector_candidates(state, vocab)
    outcome.vector_available = state.query_vector is None or state.query_vector.result() is not None
    outcome.signals = [signal for signal, ranking in state.rankings.items() if ranking]
    fuse_candidates(state)
    if not state.fused:
        return outcome
    state.scored = rerank(
        state.fused, state.rows.row, state.similarity, analysis, now=flt.now, tuning=config.rerank,
        across=state.cross_keys,
    )  # fmt: skip
    outcome.scored, outcome.query_signals = state.scored, query_signals(state, vocab)
    outcome.hits = answer(state, outcome.query_signals, min_relevance, whole_query=whole_query_floor)
    return outcome


def answer(
    state: SearchState, signals: QuerySignals, min_relevance: float | None, *, whole_query: bool = False
) -> list[SearchHit]:
    """The re-ranked candidates at or over the relevance floor, collapsed to the answer, each with its relevance.

    An operator's floor (SEARCH_MIN_RELEVANCE) cuts what models fitted on the query's kind scored: the English full
    model, the ones fitted on Chinese (Calibration.calibrated_for); the fitted default floor the same, but the Chinese
    full models' only once adopted (Calibration.default_floor_for). An English query with the embedder down reads the
    keyword-only model, and there only an explicit `min_relevance` applies, as before (docs/relevance.md). Either
    applies to a memory of at least `min_relevance_rows` facts and raw turns (config._default_floor), counted as the
    search already counts them (memory_rows): no statement of its own.
    """
    config, cal = state.config, calibration()
    floor = 0.0
    applies = cal.calibrated_for(signals) if config.min_relevance_chosen else cal.default_floor_for(signals)
    if applies and memory_rows(state, signals) >= config.min_relevance_rows:
        floor = config.min_relevance
    if min_relevance is not None:
        floor = min_relevance
    if floor > 0.0:
        relevance = relevance_of(state.scored, signals)
        if whole_query:  # the query answered or not, by its best result (the query-level `answerable`)
            kept = state.scored if max(relevance.values(), default=0.0) >= floor else []
        else:
            kept = [x for x in state.scored if relevance[x[1].key] >= floor]
    else:  # a relevance is never under 0: nothing to cut, and only the answer's relevance is needed
        kept = state.scored
    hits = collapse(kept, state.rows, limit=state.limit, tuning=config.collapse)
    if floor <= 0.0:
        relevance = relevance_of(state.scored, signals, only={(hit.kind, hit.id) for hit in hits})
    for hit in hits:
        hit.relevance = relevance[(hit.kind, hit.id)]
    return hits


def memory_rows(state: SearchState, signals: QuerySignals) -> int:
    """The subject's facts and raw turns as this search counted them: the vocabulary's N (answerable.py), or its
    searchable facts alone when the query had no word to look up (a time or a slot alone)."""
    if signals.evidence is not None:
        return signals.evidence.vocabulary.rows
    return state.total


def messages_until(
    until: dt.datetime | None, as_of: dt.datetime | None, known_at: dt.datetime | None
) -> dt.datetime | None:
    """The end of the time an as-of search reads: the raw turns said by `as_of` and `known_at` (inclusive)."""
    ends = [t + dt.timedelta(microseconds=1) for t in (as_of, known_at) if t is not None]
    return min([*ends, *([until] if until is not None else [])])


def subject_vocabulary(state: SearchState) -> Vocabulary | None:
    """How many of the subject's facts and raw turns hold each query word and name (answerable.py)."""
    analysis = state.analysis
    words = list(dict.fromkeys([*analysis.words, *(p for name in analysis.names for p in name.split())]))
    if not words:
        return None
    indexed = state.total > state.config.keyword.scan_max
    return vocabulary(
        state.flt, words[:MAX_QUERY_WORDS], total_facts=state.total, indexed=indexed, held=state.held,
        held_turns=state.held_messages,
    )  # fmt: skip


def query_signals(state: SearchState, vocab: Vocabulary | None = None) -> QuerySignals:
    """What the relevance features read of the candidate signals."""
    space = state.query_vector.space if state.query_vector is not None else "base"
    vector_ran = state.query_vector is not None and state.query_vector.result() is not None
    if state.cross_keys and max(state.raw_similarity, key=state.raw_similarity.__getitem__) in state.cross_keys:
        space = "cross"  # its best match is a Chinese row read by its e5 vector: models fitted on that read it
    # A Chinese query's e5 vector reads Chinese, where the subject's rows have e5 vectors (none before the backfill);
    # MiniLM's does not (vector_speaks).
    speaks = bool(state.raw_similarity) if space == "zh" else vector_speaks(state.analysis.language)
    vector_ran = vector_ran and speaks
    # Read at 4 decimals: memory (float32) and PostgreSQL compute a cosine ~1e-7 apart, which must not move a
    # result's relevance from one path to the other.
    sims = {key: round(value, 4) for key, value in state.raw_similarity.items()}
    floor = min(sims.values(), default=state.config.vector.min_similarity) if vector_ran else 0.0
    return QuerySignals(
        similarity=sims,
        sim_floor=min(floor, state.config.vector.min_similarity) if len(state.similarity) < state.pool else floor,
        bm25=dict(state.rankings["keyword"]),
        vector_ran=vector_ran,
        language=state.analysis.language,
        vector_space=space,
        time_only=state.analysis.time_range is not None and not state.analysis.vector_matchable,
        evidence=None if vocab is None else query_evidence(state, vocab, vector_ran),
    )


def query_evidence(state: SearchState, vocab: Vocabulary, vector_ran: bool) -> QueryEvidence:
    top = state.scored[:5]
    return QueryEvidence(
        vocabulary=vocab,
        names=tuple(state.analysis.names),
        top_bm25=max((s for _, s in state.rankings["keyword"]), default=0.0),
        agree=sum(1 for _, item in top if len(set(item.matched_by)) > 1) / len(top) if top else 0.0,
        sims=tuple(round(value, 4) for value in state.raw_similarity.values()) if vector_ran else (),
    )


def gather_candidates(state: SearchState) -> None:
    """The keyword, entity and time signals (and the keyword signal over messages): everything but the vector."""
    config, flt, analysis = state.config, state.flt, state.analysis
    memory = vector_cache.serves(flt, total=state.total, cache=config.cache)
    facts = memory and bool(analysis.words or state.wants_vector)  # one read of the log, shared by both signals
    # The turns too when messages are searched, and for the vocabulary's counts of the subject's turns, which every
    # search with words reads (answerable.py): counted in memory, not by a statement over the turns (30-40 ms at
    # 10k turns, longer than the query's embedding, on the request's thread).
    vocab = bool(analysis.words or analysis.names)
    turns = memory and (state.include_messages or vocab) and config.cache.hold_messages
    if facts and turns:  # both logs read in one round trip
        state.held, state.held_messages = held_messages.current_with_facts(flt.subject_id, config.cache)
    elif facts:
        state.held = vector_cache.current(flt.subject_id, config.cache)
    elif turns:
        state.held_messages = held_messages.current(flt.subject_id, config.cache)
    state.rows.held_messages = state.held_messages
    fact_kw = keyed(
        "fact",
        keyword_facts(flt, analysis.words, limit=state.pool, total=state.total, tuning=config.keyword, held=state.held),
    )
    msg_kw: Ranking = []
    if state.include_messages:
        msg_kw = keyed(
            "message",
            keyword_messages(
                flt.subject_id, analysis.words, limit=state.pool, since=flt.since, until=flt.until,
                tuning=config.keyword, held=state.held_messages,
            ),
        )  # fmt: skip
    state.rankings["keyword"] = merged(fact_kw, msg_kw)
    state.rankings["entity"] = entity_ranking(
        flt, analysis.entities, analysis.slots, limit=state.pool, total=state.total, tuning=config.entity
    )
    if analysis.time_range is not None:
        tr = analysis.time_range
        state.rankings["time"] = keyed("fact", time_facts(flt, tr.since, tr.until, limit=state.pool))


def read_ahead(state: SearchState, vocab: Vocabulary | None = None) -> bool:
    """While the query embeds: the links of the candidates found so far, then the rows (with sources) of those
    candidates and of what their links lead to, one statement per kind (the request's thread would wait idle
    otherwise). When the vector is there by the time the rows are read (the request's thread came late: the
    embedding started before authentication), the vector's candidates are gathered first and their rows read in
    the same statements, instead of one more round trip after them. Returns whether it gathered them."""
    found = [key for ranking in state.rankings.values() for key, _ in ranking]
    state.links.fetch(found, state.flt)
    vector_read = state.query_vector is not None and state.query_vector.done()
    vector_read = vector_read and (state.cross_vector is None or state.cross_vector.done())
    if vector_read:
        gather_vector_candidates(state, vocab)
        found = [key for ranking in state.rankings.values() for key, _ in ranking]
    linked_facts, linked_messages = state.links.targets()
    state.rows.read_facts([*(pk for kind, pk in found if kind == "fact"), *linked_facts])
    state.rows.read_messages(
        [*(pk for kind, pk in found if kind == "message"), *(linked_messages if state.include_messages else [])]
    )
    return vector_read


def gather_vector_candidates(state: SearchState, vocab: Vocabulary | None = None) -> None:
    """The vector signal, once the query's embedding is there: the nearest facts and messages, and with a time in the
    query, the nearest inside it, which then lead the time signal's list; with a list question's cue, the category
    signal (candidates/category.py), which reads the same embedding. The vector leaves out the names common in the
    subject's `vocab` (focus.py)."""
    query_vector = state.query_vector.result() if state.query_vector is not None else None
    if query_vector is None:
        return
    config, flt = state.config, state.flt
    # A Chinese query's vector reads the Chinese rows' own column (vector.ZH); names are taken out of MiniLM's only.
    space = vector.ZH if state.query_vector is not None and state.query_vector.space == "zh" else vector.BASE
    own = query_vector
    if space is vector.BASE:
        query_vector = without_common_names(own, state.analysis.names, vocab, tuning=config.vector)
    # The relevance features read the similarity to the query's own vector (vector.Unfocused).
    raw_f, raw_m = (vector.Unfocused(own), vector.Unfocused(own)) if query_vector is not own else (None, None)
    facts = keyed(
        "fact",
        vector.nearest_facts(
            flt,
            query_vector,
            limit=state.pool,
            total=state.total,
            tuning=config.vector,
            held=state.held,
            rows=state.rows,
            unfocused=raw_f,
            space=space,
        ),
    )
    messages: Ranking = []
    if state.include_messages:
        messages = keyed(
            "message",
            vector.nearest_messages(
                flt.subject_id,
                query_vector,
                limit=state.pool,
                since=flt.since,
                until=flt.until,
                tuning=config.vector,
                rows=state.rows,
                unfocused=raw_m,
                held=state.held_messages,
                space=space,
            ),  # fmt: skip
        )
    state.rankings["vector"] = merged(facts, messages)
    state.similarity = dict(facts + messages)
    state.raw_similarity = state.similarity
    if raw_f is not None and raw_m is not None:
        own_sims = keyed("fact", [*raw_f.similarity.items()]) + keyed("message", [*raw_m.similarity.items()])
        state.raw_similarity = {**state.similarity, **dict(own_sims)}
    across = cross_candidates(state)
    if across:
        state.similarity, state.raw_similarity = dict(state.similarity), dict(state.raw_similarity)
        for key, sim in across:
            if sim > state.similarity.get(key, -1.0):
                state.similarity[key] = state.raw_similarity[key] = sim
                state.cross_keys.add(key)
        state.rankings["vector"] = merged(list(state.similarity.items()))
    if config.fusion.weight_category > 0:  # at cold start a handful of facts are all in the pool already
        state.rankings["category"] = category_ranking(
            flt, state.analysis, query_vector, messages=state.include_messages, facts=not state.cold_start,
            tuning=config.category,
        )  # fmt: skip
    tr = state.analysis.time_range
    if tr is not None:
        nearest = vector.nearest_in_range(
            flt, query_vector, tr.since, tr.until, limit=state.pool, facts=True,
            messages=state.include_messages, tuning=config.vector, space=space,
        )  # fmt: skip
        state.rankings["time"] = time_ranking(nearest, state.rankings["time"])


def cross_candidates(state: SearchState) -> Ranking:
    """A query in another language than the subject's Chinese facts: those facts (and turns) nearest to its
    multilingual-e5 vector, on MiniLM's scale (vector.cross_space); each row keeps the better of its two similarities.
    MiniLM puts an English question at ~0.0-0.2 of any Chinese sentence, under its cut: without these, nothing."""
    cross = state.cross_vector.result() if state.cross_vector is not None else None
    if cross is None:
        return []
    config, flt = state.config, state.flt
    space = vector.cross_space(config.vector)
    found = keyed(
        "fact",
        vector.nearest_facts(
            flt, cross, limit=state.pool, total=state.total, tuning=config.vector, rows=state.rows, space=space
        ),
    )
    if state.include_messages:
        near = vector.nearest_messages(
            flt.subject_id, cross, limit=state.pool, since=flt.since, until=flt.until, tuning=config.vector,
            rows=state.rows, space=space,
        )  # fmt: skip
        found += keyed("message", near)
    return found


def fuse_candidates(state: SearchState) -> None:
    """One item per candidate from the signals' rankings, then what the reply and continuation links add, the rows
    of them all, and, with a time in the query, every candidate inside it counted as a time match."""
    state.fused = fuse(state.rankings, state.config.fusion)
    if not state.fused:
        return
    follow_links(
        state.fused, state.flt, state.links, include_messages=state.include_messages, tuning=state.config.links
    )
    state.rows.read(state.fused)
    tr = state.analysis.time_range
    if tr is not None:
        mark_in_range(
            state.fused, state.rows.row, tr.since, tr.until, time_list_len=len(state.rankings["time"]),
            tuning=state.config.fusion,
        )  # fmt: skip
