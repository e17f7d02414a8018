"""The Chinese relevance models (`python -m bench.fit_relevance --zh`), fitted on bench/zh_calibration.json.

A Chinese query is searched by multilingual-e5's vector; these models read its similarities as the English full
models read MiniLM's ("full"), and keyword-only ones answer where e5 cannot load. Labels: each subject's own
questions (a result covering an evidence turn is relevant; the query is answerable) against the set's `unrelated`
questions asked of every subject (nothing is relevant), weighted equally. The other subjects' questions are asked
for a figure only: in the first person most of them are answered by another subject's memory of its own life too.

Search reads the full models for every Chinese query e5 embedded: their relevance is a probability fitted on Chinese
(the English keyword-only models it read before under-rate right Chinese matches). The default search floor applies
to them only once `full_adopted` (at the shared floor they abstain on ZH_ABSTENTION of the unrelated questions at a
recall cost under `--max-drop`, as the English fit does); /context's relevant earlier turns clear `context_floor`,
the shared floor raised until ZH_ABSTENTION of the unrelated questions find no turn, as the English one is chosen.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import itertools
import json
import pickle
from pathlib import Path
from typing import Any

from bench.common import BENCH_TENANT, QA, ROOT, Conversation
from bench.fit_relevance import (
    MODES,
    Search,
    _model_json,
    choose_floor,
    context_floor,
    cross_summary,
    fit_answerable,
    fit_results,
    measure,
    search_record,
)
from bench.zh_calibration import load_zh_unrelated

CACHE_ZH = ROOT / "var" / "fit_relevance_zh.pickle"
CACHE_XL = ROOT / "var" / "fit_relevance_xl.pickle"
ENGLISH = ROOT / "bench" / "zh_calibration_en.json"
ZH_ABSTENTION = 0.8  # the target: at the shared floor, the unrelated questions abstaining
UNRELATED = "unrelated:"  # the asker of an unrelated question: UNRELATED + its index in the set


def in_english(conversations: list[Conversation]) -> tuple[list[Conversation], list[str]]:
    """The same subjects asked the English questions written for them (bench/zh_calibration_en.json: the same
    evidence, phrased as an agent asks in English), and the English unrelated questions."""
    english = json.loads(ENGLISH.read_text(encoding="utf-8"))
    out = []
    for conv in conversations:
        asked = english["subjects"][conv.sample_id]
        qa = [dataclasses.replace(q, question=text) for q, text in zip(conv.qa, asked, strict=True)]
        out.append(dataclasses.replace(conv, qa=qa))
    return out, list(english["unrelated"])


def collect_zh(
    conversations: list[Conversation], cache: Path = CACHE_ZH, unrelated_questions: list[str] | None = None
) -> list[Search]:
    """Each subject's own questions, the other subjects' (not generic ones) and every unrelated question, both modes,
    in process with no floor (kept in var/ for `--cached`)."""
    from conversations.models import Subject

    texts = load_zh_unrelated() if unrelated_questions is None else unrelated_questions
    unrelated = [QA(question=q, answer="", category=1, evidence=[]) for q in texts]
    out: list[Search] = []
    for conv in conversations:
        subject = Subject.objects.get(tenant__name=BENCH_TENANT, external_id=conv.subject_id)
        asked = [(other.sample_id, q) for other in conversations for q in other.qa if other is conv or not q.generic]
        asked += [(f"{UNRELATED}{i}", q) for i, q in enumerate(unrelated)]
        print(f"  {conv.sample_id}: {len(asked)} questions x {len(MODES)} modes", flush=True)
        for (asker, q), (mode, with_messages) in itertools.product(asked, MODES):
            out.append(search_record(subject.pk, conv.sample_id, asker, q, mode, with_messages))
    with open(cache, "wb") as fh:
        pickle.dump(out, fh)
    return out


def labelled(searches: list[Search], *, half: int | None = None) -> list[Search]:
    """The own and unrelated questions (with `half`, the unrelated ones of that parity only)."""
    return [s for s in searches if s.related or (s.asker.startswith(UNRELATED) and _in_half(s, half))]


def _in_half(s: Search, half: int | None) -> bool:
    return half is None or int(s.asker.removeprefix(UNRELATED)) % 2 == half


def others(searches: list[Search]) -> list[Search]:
    """The own questions and the other subjects' (the reference figure)."""
    return [s for s in searches if not s.asker.startswith(UNRELATED)]


def without_vector(searches: list[Search]) -> list[Search]:
    """The same searches read by the keyword-only models (where e5 cannot load)."""
    out = []
    for s in searches:
        c = copy.copy(s)
        c.vector_ran = False
        out.append(c)
    return out


def fit_zh(searches: list[Search]) -> dict[str, Any]:
    """The four Chinese models on own and unrelated searches: per result and query-level, full and keyword-only."""
    on = labelled(searches)
    results, query = fit_results(on), fit_answerable(on)
    return {
        "full": _model_json(results["full"]),
        "answerable_full": _model_json(query["full"]),
        "keyword_only": _model_json(results["keyword_only"]),
        "answerable_keyword_only": _model_json(query["keyword_only"]),
    }


def zh_params(base: dict[str, Any], zh: dict[str, Any]) -> dict[str, Any]:
    """The calibration a Chinese query reads: the Chinese models, the English floor and beta."""
    return {
        **base,
        "full": zh["full"],
        "keyword_only": zh["keyword_only"],
        "answerable": {"full": zh["answerable_full"], "keyword_only": zh["answerable_keyword_only"]},
    }


def adopted(figures: dict[str, Any], max_drop: float) -> bool:
    """Whether the default floor should apply: ZH_ABSTENTION of the unrelated questions abstain at a recall cost
    under `max_drop`, in every mode, as the English fit does."""
    return all((v["abstention"] or 0.0) >= ZH_ABSTENTION and v["recall_drop"] < max_drop for v in figures.values())


def cross_fitted_zh(searches: list[Search], base: dict[str, Any], floor: float) -> list[dict[str, Any]]:
    """Fitted on all subjects but two and on half the unrelated questions, measured on those two subjects with the
    other half: every pair, both halves."""
    subjects = sorted({s.conv for s in searches})
    splits = []
    for test, half in itertools.product(itertools.combinations(subjects, 2), (0, 1)):
        on = [s for s in labelled(searches, half=1 - half) if s.conv not in test]
        held = [s for s in labelled(searches, half=half) if s.conv in test]
        splits.append(
            {"test": [*test, f"half {half}"], "test_figures": measure(zh_params(base, fit_zh(on)), held, floor)}
        )
    return splits


def zh_report(searches: list[Search], base: dict[str, Any], zh: dict[str, Any], max_drop: float) -> dict[str, Any]:
    floor = float(base["min_relevance"])
    params = zh_params(base, zh)
    on = labelled(searches)
    full = [s for s in on if s.vector_ran]
    return {
        "floor": floor,
        "figures": measure(params, full, floor),
        "figures_keyword_only": measure(params, without_vector(on), floor),
        "figures_other_subjects": measure(params, [s for s in others(searches) if s.vector_ran], floor),
        "english_keyword_only": measure(base, without_vector(on), floor),
        "own_floor": choose_floor(params, full, max_drop),
        "context_floor": context_floor(params, full, floor, target=ZH_ABSTENTION),
        "trade_off": {
            str(f): {m: (v["abstention"], v["recall_drop"]) for m, v in measure(params, full, f).items()}
            for f in (0.05, 0.1, floor, 0.2, 0.3, 0.5)
        },
        "cross_summary": cross_summary(cross_fitted_zh(searches, base, floor)),
    }


def zh_fit_and_write(searches: list[Search], max_drop: float, *, write: bool = True, key: str = "zh") -> dict[str, Any]:
    """Fit the Chinese models (or, without `write`, read the committed ones), report, and write them under `key` in
    relevance.json ("xl": the same fit on the English questions about the Chinese subjects); the English calibration
    is read, never changed."""
    from facts.retrieval.relevance import PARAMS_PATH

    raw = json.loads(PARAMS_PATH.read_text(encoding="utf-8"))
    base = {k: raw[k] for k in ("full", "keyword_only", "answerable", "beta", "min_relevance")}
    zh = fit_zh(searches) if write else {k: raw[key][k] for k in ZH_MODELS}
    report = zh_report(searches, base, zh, max_drop)
    report["full_adopted"] = adopted(report["figures"], max_drop)
    report["adopted"] = adopted(report["figures_keyword_only"], max_drop)
    if write:
        stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")
        subjects = sorted({s.conv for s in searches})
        asked = "English questions of bench/zh_calibration_en.json" if key == "xl" else "its questions"
        raw[key] = {
            "fitted_on": f"bench/zh_calibration.json ({len(subjects)} subjects, {asked}), {stamp}, "
            f"bench.fit_relevance --{key}",
            "adopted": report["adopted"],
            "full_adopted": report["full_adopted"],
            "context_floor": report["context_floor"],
            **zh,
            "figures": report["figures"],
            "cross_summary": report["cross_summary"],
        }
        PARAMS_PATH.write_text(json.dumps(raw, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(
            f"wrote {PARAMS_PATH} ({key}; default floor: {report['full_adopted']} with e5, {report['adopted']} without)"
        )
    return report


ZH_MODELS = ("full", "answerable_full", "keyword_only", "answerable_keyword_only")


def zh_main(
    conversations: list[Conversation], *, cached: bool, max_drop: float, check: bool, english: bool = False
) -> dict[str, Any]:
    """`--zh`: collect (or read the last run's searches), fit and write (or, with `check`, measure the committed
    models), print the report. `--xl` (`english`): the same subjects asked in English, written under "xl"."""
    cache = CACHE_XL if english else CACHE_ZH
    if cached:
        with open(cache, "rb") as fh:
            searches = pickle.load(fh)  # noqa: S301 (this program's own file)
    elif english:
        asked, unrelated = in_english(conversations)
        searches = collect_zh(asked, cache, unrelated)
    else:
        searches = collect_zh(conversations)
    report = zh_fit_and_write(searches, max_drop, write=not check, key="xl" if english else "zh")
    print(json.dumps(report, indent=1))
    return report
