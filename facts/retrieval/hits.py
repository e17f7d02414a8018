"""The shape of one search result (re-exported by facts.selectors)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class SearchHit:
    kind: str  # "fact" | "message"
    id: int
    text: str
    type: str
    score: float
    matched_by: list[str]  # subset of vector, keyword, entity, time, category
    valid_from: Any
    created_at: Any
    sources: list[dict[str, Any]] = field(default_factory=list)
    event_time: Any = None  # when the event happened, if the fact says ("yesterday" resolved at write time)
    relevance: float = 0.0  # calibrated, in [0, 1] (relevance.py, docs/relevance.md)
