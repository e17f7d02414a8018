"""Fit the search's relevance calibration on the LoCoMo dev split; write facts/retrieval/relevance.json.

    .venv/bin/python -m bench.fit_relevance            # ingest when needed, fit, write, report
    .venv/bin/python -m bench.fit_relevance --check    # report the committed calibration, write nothing

Every category 1-4 question is asked of its own conversation's subject (a result is relevant when it covers one
of the question's evidence turns) and of every other conversation's subject (no result is relevant), facts only
and with messages, in process through `run_search` with no relevance floor. A logistic regression over the
features of facts/retrieval/relevance.py is fitted on the top 20 results of each search (related and unrelated
questions weighted equally); then the query-level model (facts/retrieval/answerable.py: does the subject answer the
question at all, own questions 1, the others 0) and the exponent `beta` of relevance = answerable * (result / best)
** beta; the default floor is the highest that costs the own questions' recall@10 less than `--max-drop`. The cross-fitted check fits on three conversations and measures on the other two, each way.
Re-run after anything that changes the facts (extraction, distillation) or the signals; docs/relevance.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import math
import os
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from bench.common import BENCH_TENANT, ROOT, Conversation, load_locomo  # noqa: E402
from bench.zh_calibration import load_zh  # noqa: E402

RESULTS = 20
CACHE = ROOT / "var" / "fit_relevance.pickle"
MODES = (("facts", False), ("facts+messages", True))


@dataclass
class Search:
    conv: str  # the subject's conversation
    asker: str  # the conversation the question was written for
    mode: str
    category: int
    evidence: list[str]
    covers: list[set[str]]  # each result's evidence turns
    x: np.ndarray  # features, one row per result
    x_kw: np.ndarray  # the same without the vector's
    vector_ran: bool
    query: Any = None  # answerable.QueryEvidence: what the query-level model reads

    @property
    def related(self) -> bool:
        return self.conv == self.asker


def collect(conversations: list[Conversation], cache: Path = CACHE) -> list[Search]:
    """Every question asked of every subject, in both modes, features and labels of the top results (kept in
    var/fit_relevance.pickle for `--cached`, keyed by nothing: re-collect after any change)."""
    searches = _collect(conversations)
    with open(cache, "wb") as fh:
        pickle.dump(searches, fh)
    return searches


def _collect(conversations: list[Conversation]) -> list[Search]:
    from conversations.models import Subject

    out: list[Search] = []
    questions = [(c.sample_id, q) for c in conversations for q in c.qa if q.category in (1, 2, 3, 4) and q.evidence]
    for conv in conversations:
        subject = Subject.objects.get(tenant__name=BENCH_TENANT, external_id=conv.subject_id)
        print(f"  {conv.sample_id}: {len(questions)} questions x {len(MODES)} modes", flush=True)
        for (asker, q), (mode, with_messages) in itertools.product(questions, MODES):
            if q.generic and asker != conv.sample_id:  # any subject answers it of its own life: not unrelated
                continue
            out.append(search_record(subject.pk, conv.sample_id, asker, q, mode, with_messages))
    return out


def search_record(subject_pk: int, conv: str, asker: str, q: Any, mode: str, with_messages: bool) -> Search:
    """One question asked of one subject with no floor: its results' features, for fitting and measuring."""
    from facts.retrieval.relevance import FEATURES, VECTOR_FEATURES, features
    from facts.retrieval.search import run_search

    outcome = run_search(
        subject_id=subject_pk, query=q.question, limit=RESULTS, include_messages=with_messages, min_relevance=0
    )
    signals = outcome.query_signals
    rank = {item.key: (i, score) for i, (score, item) in enumerate(outcome.scored, start=1)}
    item_of = {item.key: item for _, item in outcome.scored}
    best = outcome.scored[0][0] if outcome.scored else 0.0
    rows = [features(item_of[(h.kind, h.id)], *rank[(h.kind, h.id)], best, signals) for h in outcome.hits]
    kw_names = [n for n in FEATURES if n not in VECTOR_FEATURES]
    return Search(
        conv=conv, asker=asker, mode=mode, category=q.category, evidence=list(q.evidence),
        covers=[{s["external_id"] for s in h.sources if s.get("external_id")} for h in outcome.hits],
        x=np.array([[r[n] for n in FEATURES] for r in rows], dtype=float).reshape(-1, len(FEATURES)),
        x_kw=np.array([[r[n] for n in kw_names] for r in rows], dtype=float).reshape(-1, len(kw_names)),
        vector_ran=signals.vector_ran if signals is not None else False,
        query=signals.evidence if signals is not None else None,
    )  # fmt: skip


def logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, *, l2: float = 1.0, steps: int = 50) -> dict[str, Any]:
    """Weighted L2-regularised logistic regression by Newton's method over standardised features."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    beta = np.zeros(z.shape[1])
    ridge = np.full(z.shape[1], l2)
    ridge[0] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-np.clip(z @ beta, -40, 40)))
        grad = z.T @ (w * (p - y)) + ridge * beta
        hess = (z * (w * p * (1 - p))[:, None]).T @ z + np.diag(ridge)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return {"bias": float(beta[0]), "weights": beta[1:].tolist(), "mean": mean.tolist(), "scale": scale.tolist()}


BETAS = (0.0, 0.1, 0.25, 0.5, 1.0)


def fit(searches: list[Search], *, names: bool = True, max_drop: float = 0.008, target: float = 0.85) -> dict[str, Any]:
    """The per-result models, the query-level ones (answerable.py), and the exponent `beta` of relevance =
    answerable * (result / best result) ** beta, chosen on how much its floor (under `max_drop`) abstains."""
    params = {**fit_results(searches), "answerable": fit_answerable(searches, names=names), "names": names}

    def abstention(beta: float) -> float:
        trial = {**params, "beta": beta}
        figures = measure(trial, searches, choose_floor(trial, searches, max_drop))
        return float(np.mean([v["abstention"] or 0.0 for v in figures.values()]))

    # The largest beta still abstaining on `target` of the unrelated questions (else the best one): the per-result
    # ordering is what keeps small talk under an answerable query's best results (/context's turns).
    scores = {beta: abstention(beta) for beta in BETAS}
    meeting = [b for b in BETAS if scores[b] >= target]
    return {**params, "beta": max(meeting) if meeting else max(BETAS, key=lambda b: scores[b])}


QUERY_FULL = ("missing", "missing_names", "held_words", "best_cover", "agree", "sim_margin", "top_sim", "top_bm25")
QUERY_KW = tuple(n for n in QUERY_FULL if n not in ("sim_margin", "top_sim"))


def query_row(s: Search, *, names: bool = True) -> dict[str, float] | None:
    """The query-level features of one search (None: no words to look up)."""
    from facts.retrieval.answerable import query_features
    from facts.retrieval.relevance import FEATURES

    if s.query is None:
        return None
    first = s.x[0] if len(s.x) else np.zeros(len(FEATURES))
    return {
        **query_features(s.query, use_names=names),
        "top_sim": float(first[FEATURES.index("top_sim")]) if s.vector_ran else 0.0,
        "top_bm25": float(first[FEATURES.index("top_bm25")]),
    }


def fit_answerable(
    searches: list[Search], *, names: bool = True, kinds: tuple[str, ...] = ("full", "keyword_only")
) -> dict[str, Any]:
    """Whether the subject answers the question at all: one row per search with words, own questions 1, the other
    conversations' 0, weighted equally. The full model on searches the vector ran for, the keyword-only on all."""
    out: dict[str, Any] = {}
    for key, cols, keep in (("full", QUERY_FULL, True), ("keyword_only", QUERY_KW, False)):
        if key not in kinds:
            continue
        rows = [(s, r) for s in searches if (s.vector_ran or not keep) and (r := query_row(s, names=names))]
        n_rel = max(1, sum(1 for s, _ in rows if s.related))
        n_unrel = max(1, len(rows) - n_rel)
        x = np.array([[r[c] for c in cols] for _, r in rows], dtype=float)
        y = np.array([1.0 if s.related else 0.0 for s, _ in rows])
        w = np.array([(0.5 / n_rel if s.related else 0.5 / n_unrel) * 1000 for s, _ in rows])
        out[key] = {"names": list(cols), **logistic(x, y, w)}
    return out


def answer_probability(params: dict[str, Any], s: Search) -> float:
    query = params.get("answerable")
    row = query_row(s, names=params.get("names", True)) if query else None
    if row is None or query is None:
        return 1.0
    model = query["full"] if s.vector_ran else query["keyword_only"]
    x = np.array([row[c] for c in model["names"]])
    z = model["bias"] + ((x - np.array(model["mean"])) / np.array(model["scale"])) @ np.array(model["weights"])
    return float(1 / (1 + np.exp(-np.clip(z, -40, 40))))


def fit_results(searches: list[Search]) -> dict[str, Any]:
    """Both models, related and unrelated questions weighted equally (each question's results share its weight)."""
    from facts.retrieval.relevance import FEATURES, VECTOR_FEATURES

    n_related = sum(1 for s in searches if s.related and len(s.covers))
    n_unrelated = sum(1 for s in searches if not s.related and len(s.covers))
    xs, xk, ys, ws = [], [], [], []
    for s in searches:
        if not s.covers:
            continue
        share = (0.5 / n_related if s.related else 0.5 / n_unrelated) * 1000
        for i, cov in enumerate(s.covers):
            xs.append(s.x[i])
            xk.append(s.x_kw[i])
            ys.append(1.0 if s.related and cov & set(s.evidence) else 0.0)
            ws.append(share)
    y, w = np.array(ys), np.array(ws)
    full = logistic(np.array(xs), y, w)
    keyword_only = logistic(np.array(xk), y, w)
    return {
        "full": {"names": list(FEATURES), **full},
        "keyword_only": {"names": [n for n in FEATURES if n not in VECTOR_FEATURES], **keyword_only},
    }


def relevances(params: dict[str, Any], s: Search) -> np.ndarray:
    model, x = (params["full"], s.x) if s.vector_ran else (params["keyword_only"], s.x_kw)
    if not len(x):
        return np.zeros(0)
    z = model["bias"] + ((x - np.array(model["mean"])) / np.array(model["scale"])) @ np.array(model["weights"])
    p = 1 / (1 + np.exp(-np.clip(z, -40, 40)))
    if not params.get("answerable") or s.query is None:
        return np.round(p, 4)
    return np.round(answer_probability(params, s) * (p / p.max()) ** params.get("beta", 0.0), 4)


def measure(params: dict[str, Any], searches: list[Search], floor: float) -> dict[str, Any]:
    """Per mode: own questions' recall@10 with and without the floor, per category; unrelated ones abstaining."""
    return _measure({id(s): relevances(params, s) for s in searches}, searches, floor)


def _measure(rels: dict[int, np.ndarray], searches: list[Search], floor: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for mode, _ in MODES:
        own = [s for s in searches if s.mode == mode and s.related]
        other = [s for s in searches if s.mode == mode and not s.related]
        rec, rec0 = [], []
        by_cat: dict[int, list[float]] = {}
        for s in own:
            rel = rels[id(s)]
            ev = set(s.evidence)
            kept = [c for c, r in zip(s.covers, rel, strict=True) if r >= floor][:10]
            r_floor = len(ev & set().union(*kept)) / len(ev) if kept else 0.0
            r_all = len(ev & set().union(*s.covers[:10])) / len(ev) if s.covers else 0.0
            rec.append(r_floor)
            rec0.append(r_all)
            by_cat.setdefault(s.category, []).append(r_floor)
        abstain = [not (rels[id(s)] >= floor).any() for s in other]
        out[mode] = {
            "recall@10": round(float(np.mean(rec)), 4),
            "recall@10_no_floor": round(float(np.mean(rec0)), 4),
            "recall_drop": round(float(np.mean(rec0) - np.mean(rec)), 4),
            "recall@10_by_category": {str(c): round(float(np.mean(v)), 4) for c, v in sorted(by_cat.items())},
            "abstention": round(float(np.mean(abstain)), 4) if abstain else None,
            "related_questions": len(own),
            "unrelated_questions": len(other),
        }
    return out


def choose_floor(params: dict[str, Any], searches: list[Search], max_drop: float) -> float:
    """The highest floor (a multiple of 0.0025) whose recall drop stays under `max_drop` in every mode."""
    best = 0.0
    rels = {id(s): relevances(params, s) for s in searches}
    for floor in np.arange(0.0025, 0.8, 0.0025):
        figures = _measure(rels, searches, float(floor))
        if all(v["recall_drop"] < max_drop for v in figures.values()):
            best = round(float(floor), 3)
        else:
            break
    return best


def cross_fitted(
    searches: list[Search], convs: list[str], max_drop: float, *, names: bool = True
) -> list[dict[str, Any]]:
    """Fit (and choose the floor) on all but two conversations, measure on the other two; every such split."""
    out = []
    for train in itertools.combinations(convs, len(convs) - 2):
        test = [c for c in convs if c not in train]
        on = [s for s in searches if s.conv in train and s.asker in train]
        held = [s for s in searches if s.conv in test and s.asker in test]
        params = fit(on, names=names, max_drop=max_drop)
        floor = choose_floor(params, on, max_drop)
        out.append({"train": list(train), "test": test, "floor": floor, "test_figures": measure(params, held, floor)})
    return out


def cross_summary(splits: list[dict[str, Any]]) -> dict[str, Any]:
    """Per mode, the held-out abstention and recall drop over the splits: mean and worst."""
    out: dict[str, Any] = {}
    for mode, _ in MODES:
        ab = [x["test_figures"][mode]["abstention"] for x in splits]
        drop = [x["test_figures"][mode]["recall_drop"] for x in splits]
        out[mode] = {
            "abstention_mean": round(float(np.mean(ab)), 4), "abstention_worst": round(float(min(ab)), 4),
            "drop_mean": round(float(np.mean(drop)), 4), "drop_worst": round(float(max(drop)), 4),
        }  # fmt: skip
    return out


def context_floor(params: dict[str, Any], searches: list[Search], floor: float, target: float = 0.8) -> float:
    """/context's floor for its relevant earlier turns: the search's floor, raised until at least `target` of the
    unrelated questions find no turn with messages included (small talk is never the answer to them)."""
    rels = {id(s): relevances(params, s) for s in searches if s.mode == "facts+messages" and not s.related}
    other = [s for s in searches if id(s) in rels]
    for c in np.arange(floor, 0.8, 0.0025):
        if np.mean([not (rels[id(s)] >= c).any() for s in other]) >= target:
            return round(float(max(c, floor)), 4)
    return round(floor, 4)


def bench_report(conversations: list[Conversation], max_drop: float = 0.008) -> dict[str, Any]:
    """`make bench`'s figures: the committed calibration's abstention and recall per category at its floor, and the
    cross-fitted check (run inside a bench service's Django setup)."""
    from facts.retrieval.relevance import PARAMS_PATH, calibration

    searches = collect(conversations)
    params = json.loads(PARAMS_PATH.read_text(encoding="utf-8"))
    floor = calibration().min_relevance
    convs = [c.sample_id for c in conversations]
    return {
        "floor": floor,
        "fitted_on": calibration().fitted_on,
        "figures": measure(params, searches, floor),
        "cross_fitted": cross_fitted(searches, convs, max_drop) if len(convs) >= 4 else [],
    }


def markdown(report: dict[str, Any]) -> list[str]:
    """The relevance section of bench/results/latest.md."""
    lines = [
        "## Relevance and abstention (bench.fit_relevance)",
        "",
        f"Floor {report['floor']} ({report.get('fitted_on', '')}). Abstention: share of the other conversations' "
        "questions with no result; recall@10 of the own questions with and without the floor.",
        "",
        "| mode | abstention | recall@10 | without floor | drop | cat 1 | cat 2 | cat 3 | cat 4 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for mode, v in report["figures"].items():
        cats = [v["recall@10_by_category"].get(c, "–") for c in ("1", "2", "3", "4")]
        lines.append(
            f"| {mode} | {v['abstention']} | {v['recall@10']} | {v['recall@10_no_floor']} | {v['recall_drop']} | "
            + " | ".join(str(c) for c in cats)
            + " |"
        )
    if report.get("cross_fitted"):
        lines += ["", "Cross-fitted (fit and floor on 3 conversations, measured on the other 2):", ""]
        lines += ["| test | floor | mode | abstention | recall drop |", "|---|---:|---|---:|---:|"]
        for split in report["cross_fitted"]:
            for mode, v in split["test_figures"].items():
                lines.append(
                    f"| {'+'.join(split['test'])} | {split['floor']} | {mode} | {v['abstention']} | {v['recall_drop']} |"
                )
    return lines + [""]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="measure the committed calibration; write nothing")
    parser.add_argument("--max-drop", type=float, default=0.008, help="recall@10 the floor may cost (target < 0.01)")
    parser.add_argument("--no-ingest", action="store_true", help="use the bench database as it is")
    parser.add_argument("--cached", action="store_true", help="re-fit on the searches the last run collected")
    parser.add_argument("--conversations", nargs="*", default=None, help="sample ids (default: all five)")
    parser.add_argument(
        "--no-names", action="store_true", help="ablation: names read as plain words (reported, nothing written)"
    )
    parser.add_argument(
        "--zh", action="store_true", help="the Chinese models, on bench/zh_calibration.json (only those)"
    )
    parser.add_argument(
        "--xl", action="store_true", help="the cross-language models: English questions about the --zh subjects"
    )
    args = parser.parse_args(argv)
    conversations = load_zh() if args.zh or args.xl else load_locomo()
    if args.conversations:
        conversations = [c for c in conversations if c.sample_id in set(args.conversations)]
    from bench.common import ingest_locomo, running_service

    if args.no_ingest or args.cached:
        from bench.common import BENCH_DB, database_url_for, django_setup

        django_setup(database_url_for(BENCH_DB))
    else:
        with running_service(conversations=conversations) as ctx:
            ingest_locomo(ctx)
    from facts.retrieval.relevance import PARAMS_PATH, calibration

    if args.zh or args.xl:  # (it imports this module's fitting)
        from bench.fit_relevance_zh import zh_main

        return zh_main(conversations, cached=args.cached, max_drop=args.max_drop, check=args.check, english=args.xl)
    if args.cached:
        with open(CACHE, "rb") as fh:
            searches = pickle.load(fh)  # noqa: S301 (this program's own file)
    else:
        searches = collect(conversations, CACHE)
    if args.check:
        params = json.loads(PARAMS_PATH.read_text(encoding="utf-8"))
        report = {
            "floor": calibration().min_relevance,
            "figures": measure(params, searches, calibration().min_relevance),
        }
    else:
        report = fit_and_write(searches, [c.sample_id for c in conversations], args.max_drop, names=not args.no_names,
                               write=not args.no_names)  # fmt: skip
    print(json.dumps(report, indent=1))
    return report


def fit_and_write(
    searches: list[Search], convs: list[str], max_drop: float, *, names: bool = True, write: bool = True
) -> dict[str, Any]:
    """Fit both halves on every search, choose the floors, cross-fit, and write relevance.json (unless `write` is
    off); the report holds the trade-off of other floors on the same searches."""
    from facts.retrieval.relevance import PARAMS_PATH

    params = fit(searches, names=names, max_drop=max_drop)
    floor = choose_floor(params, searches, max_drop)
    splits = cross_fitted(searches, convs, max_drop, names=names) if len(convs) >= 4 else []
    report = {
        "floor": floor,
        "beta": params["beta"],
        "context_floor": context_floor(params, searches, floor),
        "figures": measure(params, searches, floor),
        "trade_off": {
            str(f): {m: (v["abstention"], v["recall_drop"]) for m, v in measure(params, searches, f).items()}
            for f in (0.01, 0.02, 0.03, 0.05, 0.1)
        },
        "cross_fitted": splits,
        "cross_summary": cross_summary(splits) if splits else {},
    }
    if write:
        stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")
        kept = json.loads(PARAMS_PATH.read_text(encoding="utf-8")) if PARAMS_PATH.exists() else {}
        payload = {
            "fitted_on": f"LoCoMo dev ({', '.join(convs)}), {stamp}, bench.fit_relevance",
            "min_relevance": floor,
            "context_floor": report["context_floor"],
            "beta": params["beta"],
            **{k: _model_json(params[k]) for k in ("full", "keyword_only")},
            "answerable": {k: _model_json(m) for k, m in params["answerable"].items()},
            "figures": report["figures"],
            # The Chinese and cross-language models (--zh, --xl) stay as they were fitted.
            **{key: kept[key] for key in ("zh", "xl") if key in kept},
        }
        PARAMS_PATH.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {PARAMS_PATH}")
    return report


def _model_json(m: dict[str, Any]) -> dict[str, Any]:
    return {n: (_rounded(v) if n != "names" else v) for n, v in m.items()}


def _rounded(v: Any) -> Any:
    if isinstance(v, list):
        return [round(float(x), 6) for x in v]
    return round(float(v), 6) if isinstance(v, float) and math.isfinite(v) else v


if __name__ == "__main__":
    main()
