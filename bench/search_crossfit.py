"""Search settings checked the held-out way: chosen on three LoCoMo dev conversations, measured on the other two.

    .venv/bin/python -m bench.search_crossfit --grid rerank.message=1.5,2,2.5,3
    .venv/bin/python -m bench.search_crossfit --grid links.next_factor=0.5,0.7 --grid rerank.message=1.5,2.5
    .venv/bin/python -m bench.search_crossfit --base '{"rerank.message": 2.5}' --grid fusion.weight_entity=0.5,1

In process over the bench database (`make bench` or `bench.run` ingests it), as `bench.fit_relevance` does: every
category 1-4 question with evidence is asked of its conversation's subject through `run_search` (limit 20, no
relevance floor), facts only and with messages, under each setting of the grid (SEARCH_TUNING names; the
settings of several `--grid` options are crossed, over `--base`). Recall@10 is scored from the results' source
turns as `bench.locomo_recall` does. For every split of the conversations into three and two (10 splits), the
setting with the best recall@10 on the three (facts+messages, or `--mode`) is taken and measured on the two,
against the defaults (`--base`) on the same two. Per-question results are kept in var/search_crossfit.json, keyed
by the setting and the mode, so a setting is searched once (delete the file after any change to the data or code).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

from bench.common import BENCH_DB, BENCH_TENANT, ROOT, database_url_for, django_setup, load_locomo  # noqa: E402
from bench.locomo_recall import score_ranking  # noqa: E402

CACHE = ROOT / "var" / "search_crossfit.json"
MODES = {"facts": False, "facts+messages": True}
LIMIT = 20


def _key(tuning: dict[str, Any], mode: str) -> str:
    return json.dumps({"tuning": tuning, "mode": mode}, sort_keys=True)


def searched(tuning: dict[str, Any], mode: str, conversations: list[Any], cache: dict[str, Any]) -> list[dict]:
    """Per question: conversation, category, recall@10 and recall@20 under `tuning` (from the cache when there)."""
    key = _key(tuning, mode)
    if key in cache:
        return cache[key]
    from django.test import override_settings

    from conversations.models import Subject
    from facts.retrieval.search import run_search

    rows = []
    with override_settings(SEARCH_TUNING=tuning, SEARCH_MIN_RELEVANCE=None):
        for conv in conversations:
            subject = Subject.objects.get(tenant__name=BENCH_TENANT, external_id=conv.subject_id)
            for q in conv.qa:
                if q.category not in (1, 2, 3, 4) or not q.evidence:
                    continue
                outcome = run_search(
                    subject_id=subject.pk, query=q.question, limit=LIMIT, include_messages=MODES[mode], min_relevance=0
                )
                ranked = [[s["external_id"] for s in h.sources if s.get("external_id")] for h in outcome.hits]
                m = score_ranking(ranked, q.evidence)
                rows.append({"conv": conv.sample_id, "cat": q.category, "r10": m["recall@10"], "r20": m["recall@20"]})
    cache[key] = rows
    CACHE.write_text(json.dumps(cache), encoding="utf-8")
    return rows


def mean(rows: list[dict], convs: set[str] | None = None, metric: str = "r10") -> float:
    values = [r[metric] for r in rows if convs is None or r["conv"] in convs]
    return statistics.fmean(values) if values else 0.0


def summary(rows: list[dict]) -> dict[str, Any]:
    cats = sorted({r["cat"] for r in rows})
    return {
        "recall@10": round(mean(rows), 4),
        "recall@20": round(mean(rows, metric="r20"), 4),
        "by_category": {c: round(statistics.fmean(r["r10"] for r in rows if r["cat"] == c), 4) for c in cats},
        "by_conversation": {c: round(mean(rows, {c}), 4) for c in sorted({r["conv"] for r in rows})},
    }


def cross_fit(variants: dict[str, list[dict]], base: str, convs: list[str]) -> dict[str, Any]:
    """Every 3/2 split: the variant best on the three, its recall@10 on the two against the base's."""
    splits = []
    for train in itertools.combinations(convs, 3):
        test = set(convs) - set(train)
        chosen = max(variants, key=lambda name: (round(mean(variants[name], set(train)), 6), name == base))
        splits.append(
            {
                "train": list(train),
                "test": sorted(test),
                "chosen": chosen,
                "test_base": round(mean(variants[base], test), 4),
                "test_chosen": round(mean(variants[chosen], test), 4),
            }
        )
    gains = [s["test_chosen"] - s["test_base"] for s in splits]
    return {
        "splits": splits,
        "mean_test_gain": round(statistics.fmean(gains), 4),
        "splits_better": sum(g > 0 for g in gains),
        "splits_worse": sum(g < 0 for g in gains),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", action="append", default=[], help="NAME=V1,V2,... (SEARCH_TUNING name)")
    parser.add_argument("--base", default="{}", help="SEARCH_TUNING every variant starts from (JSON)")
    parser.add_argument("--mode", choices=list(MODES), default="facts+messages", help="the mode settings are chosen on")
    parser.add_argument("--also", action="store_true", help="also search the other mode for every variant")
    args = parser.parse_args(argv)
    django_setup(database_url_for(BENCH_DB))
    conversations = load_locomo()
    convs = [c.sample_id for c in conversations]
    cache: dict[str, Any] = json.loads(CACHE.read_text(encoding="utf-8")) if CACHE.exists() else {}
    base = json.loads(args.base)
    axes = []
    for spec in args.grid:
        name, _, values = spec.partition("=")
        axes.append([(name, json.loads(v)) for v in values.split(",")])
    tunings = {"base": base}
    for combo in itertools.product(*axes):
        if combo:
            tunings[", ".join(f"{n}={v}" for n, v in combo)] = {**base, **dict(combo)}
    report: dict[str, Any] = {"base": base, "variants": {}}
    modes = list(MODES) if args.also else [args.mode]
    results: dict[str, dict[str, list[dict]]] = {m: {} for m in modes}
    for name, tuning in tunings.items():
        for mode in modes:
            results[mode][name] = searched(tuning, mode, conversations, cache)
            report["variants"].setdefault(name, {})[mode] = summary(results[mode][name])
            print(f"{name} [{mode}]: {json.dumps(report['variants'][name][mode])}", flush=True)
    if len(tunings) > 1:
        report["cross_fit"] = cross_fit(results[args.mode], "base", convs)
        cf = report["cross_fit"]
        for s in cf["splits"]:
            print(f"  test {'+'.join(s['test'])}: chose {s['chosen']}: {s['test_base']} -> {s['test_chosen']}")
        print(
            f"cross-fitted mean gain {cf['mean_test_gain']} ({cf['splits_better']} better, {cf['splits_worse']} worse)"
        )
    return report


if __name__ == "__main__":
    main()
