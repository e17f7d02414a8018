"""Re-ranking of the fused candidates: each score times bounded factors of its row and of the query, then the cut
of what is too weak to show."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from facts.retrieval.fusion import Fused
from facts.retrieval.query import QueryAnalysis
from facts.retrieval.scope import Key
from facts.text import keywords

Scored = list[tuple[float, Fused]]


@dataclass(frozen=True)
class RerankTuning:
    recency: float = 0.1  # a brand-new fact: +10 %, halving every `half_life_days`
    half_life_days: float = 90.0
    value: float = 0.2  # value_score 1.0: +10 %, 0.0: -10 %
    access: float = 0.05  # 100 reads or more: +5 %
    type_match: float = 0.15  # "what do I like" and a preference fact
    pinned: float = 0.1  # "remember this" facts
    # A candidate with few content words besides the names the query gives ("Thanks, Priya!") is mostly the name:
    # scaled by info_base + info_per_word per other word, at most 1 (LoCoMo: +0.007 recall@10).
    info_base: float = 0.4
    info_per_word: float = 0.2
    # A name the query gives on the candidate (speaker, entity), too common to select by. 0.3 while the query's
    # vector leaned on the name itself; with the name taken out of it (focus.py) the person is told by this boost
    # alone: 0.5 / 0.8 / 1.2 -> 0.784 / 0.788 / 0.783 recall@10 on LoCoMo (bench/README.md, i-hop2).
    named: float = 0.8
    time_match: float = 1.0  # inside the time the query names: counts double (0.3-2.0 a plateau on LoCoMo)
    # A raw turn against the facts cut from it (include_messages). With 2.2 facts a turn: 1.0 0.792, 1.5-1.7 0.801.
    # The value gate keeps 0.6 facts a turn (2026-12-01): most turns are now found only as themselves, so the turn
    # counts more: 1.5 / 2.0 / 2.5 / 3.0 -> 0.758 / 0.764 / 0.761 / 0.761, 2.0 chosen in all ten 3/2 cross-fits.
    message: float = 2.0
    # Found by the vector alone: at least this similarity, and this share of the best vector match (MiniLM gives
    # 0.2-0.3 to unrelated sentences, which must not pad the answer).
    vector_alone_min_similarity: float = 0.3
    vector_alone_relative: float = 0.5
    min_relative_score: float = 0.15  # a candidate under this share of the strongest one's strength is cut


_LOG_101 = math.log(101)


def _found_by_words(item: Fused, across: Collection[Key]) -> bool:
    """Whether something beside the time found the candidate, a reading across languages alone aside."""
    other = set(item.matched_by) - {"time"}
    return bool(other) and not (other == {"vector"} and item.key in across)


@lru_cache(maxsize=16384)
def turn_keywords(text: str) -> tuple[str, ...]:
    """A raw turn's content words (facts.text.keywords; Chinese segmented, ~0.2 ms a turn) when it has none stored
    (extraction stores them: facts/services/turn_keywords.py): the same turns come back search after search, so
    this process keeps the last ones'."""
    return tuple(keywords(text))


@dataclass(frozen=True)
class Reranker:
    """The factors of one query's candidates: recency decay, value score, access frequency, type match, pinned,
    information (each bounded)."""

    now: dt.datetime
    type_hints: frozenset[str]
    names: frozenset[str]
    tuning: RerankTuning

    def factor(self, row: dict[str, Any], *, turn: bool = False) -> float:
        """The candidate's factor; `row["keywords"]` holds a fact's or a raw turn's content words (both store them),
        NULL for a turn stored before extraction wrote them (`turn`): those of its text, made here."""
        t = self.tuning
        when = row.get("event_time") or row.get("valid_from") or row.get("created_at")
        factor = 1.0
        if when is not None:
            age_days = max((self.now - when).total_seconds() / 86400.0, 0.0)
            factor *= 1.0 + t.recency * math.pow(0.5, age_days / max(t.half_life_days, 1e-6))
        value = row.get("value_score")
        if value is not None:
            factor *= 1.0 + t.value * (float(value) - 0.5)
        access = row.get("access_count") or 0
        factor *= 1.0 + t.access * min(math.log1p(access) / _LOG_101, 1.0)
        if self.type_hints and row.get("type") in self.type_hints:
            factor *= 1.0 + t.type_match
        if row.get("pinned"):
            factor *= 1.0 + t.pinned
        words = row.get("keywords")
        if words is None and turn:
            words = turn_keywords(row["text"])
        if words is not None:
            factor *= self.information(words)
        return factor

    def information(self, words: Sequence[str]) -> float:
        """How much the candidate says besides the names the query gives (1 from three other content words)."""
        other = len({w for w in words if w not in self.names})
        return min(1.0, self.tuning.info_base + self.tuning.info_per_word * other)


def _names_match(row: dict[str, Any], named: set[str]) -> bool:
    if row.get("subject_key") and row["subject_key"] in named:
        return True
    if row.get("name_key") and row["name_key"] in named:
        return True
    return any(k in named for k in (row.get("entity_keys") or []))


def rerank(
    fused: dict[Key, Fused],
    row_of: Callable[[Key], dict[str, Any] | None],
    similarity: dict[Key, float],
    analysis: QueryAnalysis,
    *,
    now: dt.datetime,
    tuning: RerankTuning,
    across: Collection[Key] = (),
) -> Scored:
    """The candidates with a row, scored (fused score times their factors), best first, weak matches cut. `across`:
    the candidates whose similarity is a reading across languages (search.cross_candidates)."""
    reranker = Reranker(now, frozenset(analysis.type_hints), frozenset(analysis.names), tuning)
    best_sim = max(similarity.values(), default=0.0)
    alone_min = max(tuning.vector_alone_min_similarity, best_sim * tuning.vector_alone_relative)
    # Read across languages, an unrelated sentence is as near as a related one (vector.cross_space): no similarity
    # of its own tells noise there, only its standing against the best match (the relevance models say the rest).
    across_min = best_sim * tuning.vector_alone_relative
    named = set(analysis.entities)  # a person the query names is often on most facts: a boost, not a selector
    in_time = analysis.time_range is not None
    scored: Scored = []
    strength: dict[Key, float] = {}
    for key, item in fused.items():
        row = row_of(key)
        if row is None:  # deleted between the candidate query and now
            continue
        if item.matched_by == ["vector"] and similarity.get(key, 0.0) < (across_min if key in across else alone_min):
            continue
        factor = reranker.factor(row, turn=key[0] == "message")
        if named and _names_match(row, named):
            factor *= 1.0 + tuning.named
        if in_time and "time" in item.matched_by:
            factor *= 1.0 + tuning.time_match
        if key[0] == "message":
            factor *= tuning.message
        scored.append((item.score * factor, item))
        strength[key] = item.strength * factor
    # "Recently" beside words that find something ("我的狗最近掉毛厉害怎么办") qualifies them: the last 30 days'
    # other facts are no answer. When nothing else is found ("what happened recently?") they are the answer.
    # A match read across languages alone is no such word: e5 puts an English question near most Chinese sentences.
    vague = analysis.time_range is not None and analysis.time_range.vague
    if vague and any(_found_by_words(item, across) for _, item in scored):
        scored = [x for x in scored if x[1].matched_by != ["time"]]
    scored.sort(key=lambda x: (-x[0], x[1].key[0], x[1].key[1]))
    if not scored:
        return scored
    floor = max(strength[item.key] for _, item in scored) * tuning.min_relative_score
    return [x for x in scored if strength[x[1].key] >= floor]
