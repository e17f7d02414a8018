"""The keyword signal's BM25 over a held entry (vector_cache's facts, held_messages' turns), and the vocabulary's
counts of a word's rows: the same rows, df, N, lengths and formula as candidates/keyword.py computes in PostgreSQL.
A query term's lexemes are those of plainto_tsquery, asked of PostgreSQL once per term and process."""

from __future__ import annotations

import datetime as dt
import re

import numpy as np

from facts.retrieval.held import Entry
from facts.text import has_cjk
from memory_site.db import fetch_prepared


def keyword_ranked(
    entry: Entry, now: dt.datetime, terms: list[str], *, total: int, limit: int, k1: float, b: float, max_rows: int
) -> list[tuple[int, float]] | None:
    """The keyword signal's BM25 over the held facts not expired at `now`: the rows matching any term, the first
    `max_rows` of them by id, scored with the same df, N, lengths and formula as in PostgreSQL, best `limit` first
    (ties by id). None when a term's query is one this index cannot evaluate (PostgreSQL then answers)."""
    scored = _bm25(entry, now, terms, total=total, k1=k1, b=b, max_rows=max_rows)
    if scored is None:
        return None
    matched, score = scored
    keep = np.flatnonzero(score > 0)
    order = keep[np.lexsort((entry.ids[matched[keep]], -score[keep]))][:limit]
    return [(int(entry.ids[matched[i]]), float(score[i])) for i in order]


def keyword_count(
    entry: Entry, now: dt.datetime, terms: list[str], *, total: int, limit: int, k1: float, b: float, max_rows: int
) -> int | None:
    """How many rows `keyword_ranked` would return with these arguments (its length), without ranking them or
    making the list: the vocabulary counts a word's facts this way (answerable.py)."""
    scored = _bm25(entry, now, terms, total=total, k1=k1, b=b, max_rows=max_rows)
    if scored is None:
        return None
    return min(int(np.count_nonzero(scored[1] > 0)), limit)


def _bm25(
    entry: Entry, now: dt.datetime, terms: list[str], *, total: int, k1: float, b: float, max_rows: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """keyword_ranked's matching rows and their BM25 scores, unsorted; None when memory cannot evaluate a term."""
    matching = _matching(entry, now, terms, max_rows)
    if matching is None:
        return None
    matched, flags = matching
    if not len(matched):
        return matched, np.zeros(0, dtype=np.float64)
    docs = float(max(total, len(matched)))
    lengths = entry.lengths[matched]
    score = np.zeros(len(matched), dtype=np.float64)
    for flag in flags:
        hit = flag[matched]
        df = float(hit.sum())
        score += np.where(hit, np.log(1 + (docs - df + 0.5) / (df + 0.5)), 0.0)
    score *= (k1 + 1) / (1 + k1 * (1 - b + b * lengths / float(lengths.mean())))
    return matched, score


def term_counts(entry: Entry, now: dt.datetime, terms: list[str], *, max_rows: int) -> list[int] | None:
    """Per term, how many of the first `max_rows` rows (by id) matching any term hold it: the vocabulary's count
    of a word's raw turns (answerable.py), as its statement counts them (a LIMIT over the rows matching any word,
    which PostgreSQL reads in no set order: the counts can differ only where more than `max_rows` rows match).
    None when a term's query is one this index cannot evaluate."""
    matching = _matching(entry, now, terms, max_rows)
    if matching is None:
        return None
    matched, flags = matching
    return [int(np.count_nonzero(flag[matched])) for flag in flags]


def _matching(
    entry: Entry, now: dt.datetime, terms: list[str], max_rows: int
) -> tuple[np.ndarray, list[np.ndarray]] | None:
    """The first `max_rows` live rows (by id) not expired at `now` matching any term, and per term one bool a row
    (whether the row matches it); None when memory cannot evaluate a term."""
    queries = _term_queries(terms)
    if queries is None:
        return None
    n = len(entry.ids)
    flags = []
    for query in queries:
        if isinstance(query, str):  # a Chinese term: strpos(text, term) > 0
            flags.append(entry.rows_containing(query))
        else:  # plainto_tsquery('english') || plainto_tsquery('simple'): either's lexemes all present
            flag = np.zeros(n, dtype=bool)
            for lexemes in query:
                if lexemes:
                    flag[_rows_with_all(entry, lexemes)] = True
            flags.append(flag)
    alive = entry.expires > now.timestamp()
    return entry.live_rows(alive & np.logical_or.reduce(flags))[:max_rows], flags


def _rows_with_all(entry: Entry, lexemes: tuple[str, ...]) -> np.ndarray:
    rows: np.ndarray | None = None
    for lexeme in lexemes:
        posting = entry.posting(lexeme)
        if posting is None:
            return np.empty(0, dtype=np.int32)
        rows = posting if rows is None else np.intersect1d(rows, posting, assume_unique=True)
    return rows if rows is not None else np.empty(0, dtype=np.int32)


# A term's query: its Chinese text (a substring match), or the lexemes plainto_tsquery gives it in the english
# and in the simple configuration (each an AND; empty for a stop word). Cached per process, by term.
TermQuery = str | tuple[tuple[str, ...], tuple[str, ...]]
_term_cache: dict[str, tuple[tuple[str, ...], tuple[str, ...]] | None] = {}
_TERM_CACHE_MAX = 50_000
_LEXEME = r"'(?:[^'\\]|''|\\.)*'"
_AND_QUERY = re.compile(rf"{_LEXEME}(?: & {_LEXEME})*")
_ESCAPE = re.compile(r"''|\\(.)")


def _term_queries(terms: list[str]) -> list[TermQuery] | None:
    missing = sorted({t for t in terms if not has_cjk(t) and t not in _term_cache})
    if missing:
        rows = fetch_prepared(
            "SELECT t, plainto_tsquery('english', t)::text, plainto_tsquery('simple', t)::text "
            "FROM unnest(%s::text[]) t",
            [missing],
        )
        parsed = {t: (_and_lexemes(english), _and_lexemes(simple)) for t, english, simple in rows}
        if len(_term_cache) + len(parsed) > _TERM_CACHE_MAX:
            _term_cache.clear()
        for term, (english, simple) in parsed.items():
            _term_cache[term] = None if english is None or simple is None else (english, simple)
    queries: list[TermQuery] = []
    for term in terms:
        if has_cjk(term):
            queries.append(term)
            continue
        query = _term_cache.get(term)
        if query is None:
            return None
        queries.append(query)
    return queries


def _and_lexemes(text: str) -> tuple[str, ...] | None:
    """The lexemes of a tsquery printed as 'a' & 'b' & ... (plainto_tsquery's form); () for an empty query,
    None for any other form."""
    if not text:
        return ()
    if not _AND_QUERY.fullmatch(text):
        return None
    return tuple(
        _ESCAPE.sub(lambda m: "'" if m.group(0) == "''" else m.group(1), lexeme[1:-1])
        for lexeme in re.findall(_LEXEME, text)
    )
