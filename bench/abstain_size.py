"""Abstention and own-question recall by memory size: LoCoMo dev conversations cut to their first k sessions.

    BENCH_DATABASE_NAME=memory_site_abstain_size .venv/bin/python -m bench.abstain_size          # ingest, ask, report
    BENCH_DATABASE_NAME=memory_site_abstain_size .venv/bin/python -m bench.abstain_size --cached # report again

Each dev conversation is ingested whole (its usual subject, so `bench.fit_relevance --check --no-ingest` reads the
same database) and cut to its first k sessions (`--sessions`, a subject of its own each), through the service. Every
subject is asked, in process with no floor and in both modes, its own questions whose evidence lies within its
sessions and `--others` of each other conversation's questions (spread over them; the generic ones left out).
Offline, with the committed calibration: per memory size (the subject's facts and raw turns as the search counts
them, the vocabulary's `rows`), own recall@10 with and without the fitted floor, and abstention (an other
conversation's question left with nothing at or above the floor); then the same under the default's size gate
(`--gates`: the floor applies only to memories of at least that many rows). And the answerable model's features,
own questions against the others', by size: what the floor reads in a small memory.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import os
import pickle
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from bench.common import BENCH_DB, BENCH_TENANT, ROOT, Conversation, load_locomo, write_json  # noqa: E402
from bench.fit_relevance import (  # noqa: E402
    MODES,
    Search,
    answer_probability,
    query_row,
    relevances,
    search_record,
)

CACHE = ROOT / "var" / "abstain_size.pickle"
SESSIONS = (1, 2, 3, 5, 8, 12)
BUCKETS = ((0, 40), (40, 80), (80, 120), (120, 200), (200, 300), (300, 450), (450, 10**9))
GATES = (0, 40, 80, 120, 150, 200, 300, 450, 10**9)  # 10**9: never (the old default, no floor)


def truncated(conv: Conversation, k: int) -> Conversation:
    """The conversation's first k sessions as a subject of its own, with the questions they answer."""
    kept = conv.sessions[:k]
    sessions = {n for n, _, _ in kept}
    qa = [q for q in conv.qa if q.evidence and all(int(e[1:].split(":")[0]) in sessions for e in q.evidence)]
    return dataclasses.replace(conv, sample_id=f"{conv.sample_id}-k{k}", sessions=kept, qa=qa)


def subjects(conversations: list[Conversation], ks: tuple[int, ...]) -> list[tuple[str, Conversation]]:
    """(the conversation's own id, the subject's conversation) for every cut and for the whole."""
    out = [(c.sample_id, truncated(c, k)) for c in conversations for k in ks if k < len(c.sessions)]
    return out + [(c.sample_id, c) for c in conversations]


def others_of(conversations: list[Conversation], per: int) -> dict[str, list[Any]]:
    """Per conversation, `per` of its category 1-4 questions with evidence, spread evenly, none generic."""
    out: dict[str, list[Any]] = {}
    for c in conversations:
        qs = [q for q in c.qa if q.category in (1, 2, 3, 4) and q.evidence and not q.generic]
        step = max(1, len(qs) // per)
        out[c.sample_id] = qs[::step][:per]
    return out


def collect(pairs: list[tuple[str, Conversation]], others: dict[str, list[Any]]) -> list[Search]:
    """Each subject's own questions and the other conversations' sampled ones, both modes, no floor."""
    from conversations.models import Subject

    out: list[Search] = []
    for base, conv in pairs:
        subject = Subject.objects.get(tenant__name=BENCH_TENANT, external_id=conv.subject_id)
        own = [(conv.sample_id, q) for q in conv.qa if q.category in (1, 2, 3, 4) and q.evidence]
        foreign = [(asker, q) for asker, qs in others.items() if asker != base for q in qs]
        print(f"  {conv.sample_id}: {len(own)} own, {len(foreign)} others' questions", flush=True)
        for (asker, q), (mode, with_messages) in itertools.product(own + foreign, MODES):
            out.append(search_record(subject.pk, conv.sample_id, asker, q, mode, with_messages))
    return out


_SIZES: dict[str, int] = {}


def size_of(s: Search) -> int:
    """The subject's rows (facts and raw turns) as its searches counted them (the vocabulary's N; a search that
    found no candidate reads none, so the subject's largest count is taken: the same for every search but a
    time-bounded one)."""
    return _SIZES.get(s.conv, -1)


def count_sizes(searches: list[Search]) -> None:
    for s in searches:
        if s.query is not None:
            _SIZES[s.conv] = max(_SIZES.get(s.conv, -1), s.query.vocabulary.rows)


def _recall(s: Search, rel: np.ndarray, floor: float) -> float:
    ev = set(s.evidence)
    kept = [c for c, r in zip(s.covers, rel, strict=True) if r >= floor][:10]
    return len(ev & set().union(*kept)) / len(ev) if kept else 0.0


def figures(searches: list[Search], params: dict[str, Any], floor: float, gate: int) -> dict[str, Any]:
    """Per mode: own recall@10 without a floor and under the default (the floor where the memory has `gate` rows
    or more), its drop, and abstention on the others' questions (nothing at or over the applied floor)."""
    out: dict[str, Any] = {}
    for mode, _ in MODES:
        own = [s for s in searches if s.mode == mode and s.related]
        other = [s for s in searches if s.mode == mode and not s.related]
        applied = {id(s): floor if size_of(s) >= gate else 0.0 for s in own + other}
        rels = {id(s): relevances(params, s) for s in own + other}
        r0 = [_recall(s, rels[id(s)], 0.0) for s in own]
        rf = [_recall(s, rels[id(s)], applied[id(s)]) for s in own]
        silent = [not (rels[id(s)] >= applied[id(s)]).any() for s in other]
        out[mode] = {
            "own": len(own), "others": len(other),
            "recall@10": round(float(np.mean(r0)), 4) if own else None,
            "recall_drop": round(float(np.mean(r0) - np.mean(rf)), 4) if own else None,
            "abstention": round(float(np.mean(silent)), 4) if other else None,
        }  # fmt: skip
    return out


def floor_within(searches: list[Search], params: dict[str, Any], max_drop: float = 0.01) -> dict[str, Any]:
    """The highest floor (a multiple of 0.0025) costing these own questions less than `max_drop` of recall@10 in
    both modes, and its abstention: the floor each size could afford at the fit's tolerance."""
    best: tuple[float, dict[str, Any]] = (0.0, figures(searches, params, 0.0, 0))
    for floor in np.arange(0.0025, 0.5, 0.0025):
        got = figures(searches, params, float(floor), 0)
        if all((v["recall_drop"] or 0.0) < max_drop for v in got.values()):
            best = (round(float(floor), 4), got)
        else:
            break
    return {"floor": best[0], **{m: v["abstention"] for m, v in best[1].items()}}


def feature_means(searches: list[Search], params: dict[str, Any]) -> dict[str, Any]:
    """The answerable model's features and probability, mean over own and over others' questions, facts mode."""
    out: dict[str, Any] = {}
    for related in (True, False):
        rows = [(s, query_row(s)) for s in searches if s.mode == "facts" and s.related == related]
        rows = [(s, r) for s, r in rows if r is not None]
        if not rows:
            continue
        names = list(rows[0][1])
        means = {n: round(float(np.mean([r[n] for _, r in rows])), 3) for n in names}
        means["answerable"] = round(float(np.mean([answer_probability(params, s) for s, _ in rows])), 3)
        out["own" if related else "others"] = means
    return out


def report(searches: list[Search], gates: tuple[int, ...]) -> dict[str, Any]:
    from facts.retrieval.relevance import PARAMS_PATH, calibration

    params = json.loads(PARAMS_PATH.read_text(encoding="utf-8"))
    floor = calibration().min_relevance
    searches = [s for s in searches if s.evidence or not s.related]
    count_sizes(searches)
    by_size: list[dict[str, Any]] = []
    for lo, hi in BUCKETS:
        group = [s for s in searches if lo <= size_of(s) < hi]
        if group:
            by_size.append(
                {"rows": [lo, hi], "subjects": len({s.conv for s in group}),
                 "figures": figures(group, params, floor, 0), "features": feature_means(group, params),
                 "affordable": floor_within(group, params)}
            )  # fmt: skip
    return {
        "floor": floor,
        "by_size": by_size,
        "gates": {str(g): figures(searches, params, floor, g) for g in gates},
        "whole_only": figures([s for s in searches if "-k" not in s.conv], params, floor, 0),
    }


def render(result: dict[str, Any]) -> str:
    lines = [f"floor {result['floor']}", "rows | subjects | mode | own | recall@10 | drop | others | abstention"]
    for row in result["by_size"]:
        for mode, v in row["figures"].items():
            lines.append(
                f"{row['rows']} | {row['subjects']} | {mode} | {v['own']} | {v['recall@10']} | {v['recall_drop']} | "
                f"{v['others']} | {v['abstention']}"
            )
        lines.append(f"   features {json.dumps(row['features'])}")
        lines.append(f"   affordable floor (drop < 0.01) {json.dumps(row['affordable'])}")
    lines.append("gate | mode | recall drop | abstention (all subjects)")
    for gate, modes in result["gates"].items():
        lines += [f"{gate} | {m} | {v['recall_drop']} | {v['abstention']}" for m, v in modes.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, nargs="*", default=list(SESSIONS), help="the cuts (first k sessions)")
    parser.add_argument("--others", type=int, default=20, help="questions asked of each other conversation")
    parser.add_argument("--gates", type=int, nargs="*", default=list(GATES), help="size gates to report (rows)")
    parser.add_argument("--cached", action="store_true", help="report on the searches the last run collected")
    args = parser.parse_args(argv)
    conversations = load_locomo()
    pairs = subjects(conversations, tuple(args.sessions))
    if args.cached:
        from bench.common import database_url_for, django_setup

        django_setup(database_url_for(BENCH_DB))
        with open(CACHE, "rb") as fh:
            searches = pickle.load(fh)  # noqa: S301 (this program's own file)
    else:
        from bench.common import ingest_locomo, running_service

        with running_service(conversations=[conv for _, conv in pairs]) as ctx:
            ingest_locomo(ctx)
        searches = collect(pairs, others_of(conversations, args.others))
        with open(CACHE, "wb") as fh:
            pickle.dump(searches, fh)
    result = report(searches, tuple(args.gates))
    write_json("abstain_size", result)
    print(render(result))
    return result


if __name__ == "__main__":
    main()
