"""Whether the memory answers a query at all: the query-level half of relevance.

A per-result calibration cannot tell "the best of what this subject has, weakly matched" from "a weak match of the
one thing asked": both score alike. What tells them apart is the query against the whole memory: does the subject
ever mention the query's words (above all its rare ones, and the names it gives), do the signals agree on the top
results, does the best candidate stand out from the rest of the subject's nearest ones. These read the subject's
vocabulary (one bounded statement: how many of its facts and raw turns hold each query word, the first
`VocabularyTuning.max_rows` matches of each table; memory counts the facts and turns it holds, by the same
rows) and numbers the search already computed.

Language-neutral: words are the query analysis's content words (Chinese segmented, matched as substrings, as the
keyword signal matches them); names are the capitalised ones. Pure arithmetic once the counts are read, so the
same data and query give the same probability.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Any

from facts.retrieval import held_messages, vector_cache
from facts.retrieval.candidates.keyword import term_predicates
from facts.retrieval.held_keyword import term_counts
from facts.retrieval.scope import FactFilter, fetch, message_where

_NO_TIME = dt.datetime.min.replace(tzinfo=dt.UTC)  # raw turns do not expire: any time reads them all

QUERY_FEATURES = (
    "missing",  # share of the query's idf mass (rarity within the subject) in words the subject never holds
    "missing_names",  # names the query gives that the subject never mentions (0, 1, 2 or more)
    "held_words",  # log(1 + how many query words the subject holds)
    "best_cover",  # the best keyword match's BM25 over the query's idf mass: how much of the query one row holds
    "agree",  # share of the top 5 results found by more than one signal
    "sim_margin",  # the best cosine similarity over the mean of the vector's pool (the subject's nearest rows)
)
VECTOR_QUERY_FEATURES = frozenset({"sim_margin"})


@dataclass(frozen=True)
class VocabularyTuning:
    max_rows: int = 1000  # matching rows counted per table (bounds a very common word; presence needs one)


@dataclass(frozen=True)
class Vocabulary:
    """How many of the subject's rows (facts and raw turns) hold each query word."""

    words: tuple[str, ...]
    df: tuple[int, ...]
    rows: int  # the subject's facts and raw turns (the N of idf)

    def idf(self, i: int) -> float:
        n, d = max(self.rows, 1), self.df[i]
        return math.log(1 + (n - d + 0.5) / (d + 0.5))


def vocabulary(
    flt: FactFilter,
    words: list[str],
    *,
    total_facts: int,
    indexed: bool,
    tuning: VocabularyTuning | None = None,
    held: vector_cache.Entry | None = None,
    held_turns: held_messages.Held | None = None,
) -> Vocabulary:
    """One statement: per query word, the subject's facts (under the search's filter) and raw turns holding it,
    each table read up to `max_rows` matches, and the count of its raw turns. The facts and turns held in memory
    (`held`, `held_turns`: current, as the keyword signal reads them) answer for their table instead; with both,
    no statement at all."""
    if not words:
        return Vocabulary(words=(), df=(), rows=total_facts)
    max_rows = (tuning or VocabularyTuning()).max_rows
    held_df = _held_df(held, flt, words, total_facts, max_rows) if held is not None else None
    turns_df = _turns_df(held_turns, flt, words, max_rows) if held_turns is not None else None
    df = [0] * len(words)
    turns = held_turns.total if held_turns is not None and turns_df is not None else 0
    if held_df is None or turns_df is None:  # a statement for the table(s) memory does not answer
        df, counted = _counted(flt, words, indexed, max_rows, facts=held_df is None, turns=turns_df is None)
        turns += counted
    for known in (held_df, turns_df):
        df = [d + k for d, k in zip(df, known or [0] * len(words), strict=True)]
    return Vocabulary(words=tuple(words), df=tuple(df), rows=total_facts + turns)


def _counted(
    flt: FactFilter, words: list[str], indexed: bool, max_rows: int, *, facts: bool, turns: bool
) -> tuple[list[int], int]:
    """Per word, the facts (when `facts`) plus the raw turns (when `turns`) holding it, and the subject's turns:
    one statement, each table read up to `max_rows` matches."""
    where_f, params_f = flt.sql() if facts else ("false", [])
    where_m, params_m = message_where(flt.subject_id, flt.since, flt.until) if turns else ("false", [])
    parts: list[str] = []
    params: list[Any] = []
    for name, table, column, where, wparams, idx in (
        ("f", "facts_fact", "text", where_f, params_f, indexed or not facts),
        ("m", "conversations_message", "content", where_m, params_m, True),
    ):
        tq, tq_params, preds, pred_params = term_predicates(words, text_column=column, indexed=idx)
        flags = ", ".join(f"{p} AS p{i}" for i, p in enumerate(preds))
        parts.append(
            f"{name} AS MATERIALIZED (SELECT {flags} FROM {table}, {tq} WHERE {where} AND ({' OR '.join(preds)}) "
            "LIMIT %s)"
        )
        params += [*pred_params, *tq_params, *wparams, *pred_params, max_rows]
    sums = ", ".join(
        f"(SELECT count(*) FILTER (WHERE p{i}) FROM f) + (SELECT count(*) FILTER (WHERE p{i}) FROM m)"
        for i in range(len(words))
    )
    sql = f"WITH {', '.join(parts)} SELECT (SELECT count(*) FROM conversations_message WHERE {where_m}), {sums}"
    row = fetch(sql, [*params, *params_m])[0]
    return [int(x) for x in row[1:]], int(row[0])


def _turns_df(held: held_messages.Held, flt: FactFilter, words: list[str], max_rows: int) -> list[int] | None:
    """Per word, the held raw turns holding it, or None where memory cannot say (a time bound, a term the
    index cannot evaluate)."""
    if flt.since is not None or flt.until is not None:
        return None
    return term_counts(held.entry, _NO_TIME, words, max_rows=max_rows)


def _held_df(
    held: vector_cache.Entry, flt: FactFilter, words: list[str], total: int, max_rows: int
) -> list[int] | None:
    """Per word, the held facts holding it (the keyword signal's in-memory index), or None where memory cannot say."""
    if flt.tiers != ["active"]:
        return None
    out = []
    for word in words:
        found = vector_cache.keyword_count(
            held, flt.now, [word], total=total, limit=max_rows, k1=1.2, b=0.75, max_rows=max_rows
        )
        if found is None:
            return None
        out.append(found)
    return out


@dataclass(frozen=True)
class QueryEvidence:
    """What the query-level features read: the vocabulary, the names, and the search's own numbers."""

    vocabulary: Vocabulary
    names: tuple[str, ...]  # normalised capitalised names (each also among the words, lower-cased, when a word)
    top_bm25: float  # the best keyword match's raw BM25 score
    agree: float  # share of the top 5 results found by more than one signal
    sims: tuple[float, ...]  # the vector pool's similarities (empty when the vector did not run)


def query_features(ev: QueryEvidence, *, use_names: bool = True) -> dict[str, float]:
    """The query-level features (QUERY_FEATURES). `use_names=False` reads the names as plain words (an ablation
    of bench.fit_relevance: what holds for queries that name nobody)."""
    voc = ev.vocabulary
    n = len(voc.words)
    idf = [voc.idf(i) for i in range(n)]
    mass = sum(idf)
    missing = sum(w for w, d in zip(idf, voc.df, strict=True) if d == 0)
    held = sum(1 for d in voc.df if d > 0)
    names_missing = 0
    if use_names:
        known = {w for w, d in zip(voc.words, voc.df, strict=True) if d > 0}
        for name in ev.names:
            parts = name.split()
            if parts and not all(p in known for p in parts) and name not in known:
                names_missing += 1
    sims = ev.sims
    return {
        "missing": missing / mass if mass > 0 else 0.0,
        "missing_names": float(min(names_missing, 2)),
        "held_words": math.log1p(held),
        "best_cover": min(ev.top_bm25 / mass, 2.0) if mass > 0 else 0.0,
        "agree": ev.agree,
        "sim_margin": (max(sims) - sum(sims) / len(sims)) if sims else 0.0,
    }
