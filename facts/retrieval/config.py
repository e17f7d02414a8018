"""The search's configuration: what an operator sets in settings, and each stage's tuning, built once.

The tuning constants live beside the stage that uses them (`ScopeTuning` in scope.py, `FusionTuning` in fusion.py,
...), each with its reason; bench/README.md holds the measurements behind them. SEARCH_TUNING (a JSON object,
say `{"fusion.rrf_k": 14, "links.reply_factor": 0.8}`) overrides some of them for an experiment; a name that is
no stage's field, or a value of the wrong kind, is refused when the configuration is built (the web process's
start-up builds it). The configuration is built again when a test overrides a setting.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.dispatch import receiver

from facts.retrieval.candidates.category import CategoryTuning
from facts.retrieval.candidates.entity import EntityTuning
from facts.retrieval.candidates.keyword import KeywordTuning
from facts.retrieval.candidates.links import LinkTuning
from facts.retrieval.candidates.vector import VectorTuning
from facts.retrieval.collapse import CollapseTuning
from facts.retrieval.fusion import FusionTuning
from facts.retrieval.rerank import RerankTuning
from facts.retrieval.scope import ScopeTuning
from facts.retrieval.vector_cache import CacheSettings

# Fields that come from an operator's setting, not from SEARCH_TUNING.
_OPERATOR_FIELDS = {
    "vector.mode": "SEARCH_VECTOR_MODE",
    "cache.budget_mb": "SEARCH_VECTOR_CACHE_MB",
    "cache.max_age_seconds": "SEARCH_VECTOR_CACHE_SECONDS",
}
_CHOICES = {"vector.mode": ("exact", "hnsw"), "fusion.mode": ("rrf", "score")}


@dataclass(frozen=True)
class SearchConfig:
    embed_in_thread: bool = True  # SEARCH_EMBED_IN_THREAD
    # The default relevance floor (SEARCH_MIN_RELEVANCE, else the fitted one) and the memory it applies to: a subject
    # holding at least `min_relevance_rows` facts and raw turns (SEARCH_MIN_RELEVANCE_ROWS; _default_floor).
    min_relevance: float = 0.0
    min_relevance_rows: int = 0
    min_relevance_chosen: bool = False  # the floor is the operator's (SEARCH_MIN_RELEVANCE), not the fitted one
    scope: ScopeTuning = field(default_factory=ScopeTuning)
    vector: VectorTuning = field(default_factory=VectorTuning)
    cache: CacheSettings = field(default_factory=CacheSettings)
    keyword: KeywordTuning = field(default_factory=KeywordTuning)
    entity: EntityTuning = field(default_factory=EntityTuning)
    links: LinkTuning = field(default_factory=LinkTuning)
    category: CategoryTuning = field(default_factory=CategoryTuning)
    fusion: FusionTuning = field(default_factory=FusionTuning)
    rerank: RerankTuning = field(default_factory=RerankTuning)
    collapse: CollapseTuning = field(default_factory=CollapseTuning)

    @classmethod
    def from_settings(cls) -> SearchConfig:
        """The operator's settings over the code's defaults, then SEARCH_TUNING over those (validated)."""
        values: dict[str, Any] = {
            "vector.mode": settings.SEARCH_VECTOR_MODE,
            "cache.budget_mb": settings.SEARCH_VECTOR_CACHE_MB,
            "cache.max_age_seconds": settings.SEARCH_VECTOR_CACHE_SECONDS,
        }
        tuning = settings.SEARCH_TUNING
        if not isinstance(tuning, dict):
            raise ImproperlyConfigured("SEARCH_TUNING must be a JSON object of stage.field names and values")
        for name, value in tuning.items():
            if name in _OPERATOR_FIELDS:
                raise ImproperlyConfigured(f"SEARCH_TUNING: set {_OPERATOR_FIELDS[name]} instead of {name!r}")
            values[name] = value
        stages: dict[str, Any] = {}
        for stage in dataclasses.fields(cls):
            if stage.name in ("embed_in_thread", "min_relevance", "min_relevance_rows", "min_relevance_chosen"):
                continue
            default = getattr(cls(), stage.name)
            given = {name.split(".", 1)[1]: v for name, v in values.items() if name.split(".", 1)[0] == stage.name}
            stages[stage.name] = dataclasses.replace(default, **_checked(stage.name, default, given))
        unknown = sorted(set(values) - {f"{s}.{f.name}" for s, d in stages.items() for f in dataclasses.fields(d)})
        if unknown:
            raise ImproperlyConfigured(f"SEARCH_TUNING: no such search setting {unknown}; see SearchConfig")
        floor, rows = _default_floor()
        return cls(
            embed_in_thread=bool(settings.SEARCH_EMBED_IN_THREAD), min_relevance=floor, min_relevance_rows=rows,
            min_relevance_chosen=settings.SEARCH_MIN_RELEVANCE is not None, **stages,
        )  # fmt: skip

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


# The memory (facts and raw turns, as the search counts them) from which the fitted floor applies by default. In
# smaller ones its calibration does not hold: a word the memory never holds says little among a few dozen rows, and
# a related question sharing no word with its fact falls under it. Chosen on LoCoMo's conversations cut to their
# first sessions (bench.abstain_size, bench/README.md "Abstention by default, by memory size").
DEFAULT_FLOOR_ROWS = 300


def _default_floor() -> tuple[float, int]:
    """The default floor and the memory size it applies from: the operator's SEARCH_MIN_RELEVANCE (from any size,
    as before, unless SEARCH_MIN_RELEVANCE_ROWS says otherwise), else the fitted floor from DEFAULT_FLOOR_ROWS."""
    from facts.retrieval.relevance import calibration

    floor, rows = settings.SEARCH_MIN_RELEVANCE, settings.SEARCH_MIN_RELEVANCE_ROWS
    if floor is None:
        floor, default_rows = calibration().min_relevance, DEFAULT_FLOOR_ROWS
    else:
        default_rows = 0
    if not 0.0 <= float(floor) <= 1.0:
        raise ImproperlyConfigured(f"SEARCH_MIN_RELEVANCE must be within [0, 1], got {floor!r}")
    rows = default_rows if rows is None else rows
    if isinstance(rows, bool) or not isinstance(rows, int) or rows < 0:
        raise ImproperlyConfigured(f"SEARCH_MIN_RELEVANCE_ROWS must be a whole number >= 0, got {rows!r}")
    return float(floor), rows


def _checked(stage: str, default: Any, given: dict[str, Any]) -> dict[str, Any]:
    """`given` values for the stage's fields, each of its default's kind (an int is a number too)."""
    kinds = {f.name: type(getattr(default, f.name)) for f in dataclasses.fields(default)}
    out: dict[str, Any] = {}
    for name, value in given.items():
        kind = kinds.get(name)
        if kind is None:
            continue  # reported as unknown by the caller, with every other unknown name
        ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            raise ImproperlyConfigured(f"SEARCH_TUNING: {stage}.{name} must be a {kind.__name__}, got {value!r}")
        if f"{stage}.{name}" in _CHOICES and value not in _CHOICES[f"{stage}.{name}"]:
            raise ImproperlyConfigured(f"{stage}.{name} must be one of {_CHOICES[f'{stage}.{name}']}, got {value!r}")
        out[name] = value
    return out


@functools.cache
def search_config() -> SearchConfig:
    """This process's search configuration (built on first use, again after a test changes a setting)."""
    return SearchConfig.from_settings()


@receiver(setting_changed)
def _settings_changed(*, setting: str, **kwargs: Any) -> None:
    if setting.startswith("SEARCH_"):
        search_config.cache_clear()
