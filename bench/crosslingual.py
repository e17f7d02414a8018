"""English questions about Chinese memories (`python -m bench.crosslingual`).

An agent often asks in English about a user who talks in Chinese. The Chinese calibration subjects
(bench/zh_calibration.json) are ingested through HTTP as `bench.fit_relevance --zh` ingests them, then asked, in
process through `run_search`, the English questions written for them (bench/zh_calibration_en.json: the same
questions and evidence, phrased as an agent asks), each of its own subject, and the set's English unrelated questions
of every subject. Per setting (the cross-language reading off, then on at each `--origins` value; first, for
reference, the Chinese questions):

- recall@10 of the own questions (share of evidence turns covered by the top 10), facts only and with messages,
  with no floor and at the fitted floor (relevance.json's, which a memory of DEFAULT_FLOOR_ROWS facts and turns or
  more gets by default; these subjects hold ~40 turns each, where no floor applies unless asked for);
- answered: the share of own questions with any result at that floor;
- abstention: the share of unrelated questions with no result at that floor;
- p50_ms: the median wall time of the own questions' searches with no floor, in process (the query's embeddings
  included: with the reading on, the encoder that reads Chinese embeds an English query as well).

    .venv/bin/python -m bench.crosslingual                      # ingest if needed, then measure
    .venv/bin/python -m bench.crosslingual --no-ingest --origins 0.6 0.65 0.7
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from bench.common import BENCH_TENANT, ROOT

QUESTIONS = ROOT / "bench" / "zh_calibration_en.json"


def ask(
    subject_pk: int, query: str, *, messages: bool, floor: float | None, times: list[float] | None = None
) -> list[set[str]]:
    """The evidence turns each result covers, best first (with `times`, the search's wall time appended in ms)."""
    from facts.retrieval.search import run_search

    started = time.perf_counter()
    outcome = run_search(subject_id=subject_pk, query=query, limit=10, include_messages=messages, min_relevance=floor)
    if times is not None:
        times.append((time.perf_counter() - started) * 1000)
    return [{s["external_id"] for s in h.sources if s.get("external_id")} for h in outcome.hits]


def recall(covers: list[set[str]], evidence: list[str]) -> float:
    found = set().union(*covers) if covers else set()
    return len(found & set(evidence)) / len(evidence)


def measure(conversations: list[Any], asked: dict[str, list[str]], unrelated: list[str]) -> dict[str, Any]:
    from conversations.models import Subject
    from facts.retrieval.relevance import calibration

    floor = calibration().min_relevance
    out: dict[str, Any] = {}
    pks = {
        c.sample_id: Subject.objects.get(tenant__name=BENCH_TENANT, external_id=c.subject_id).pk for c in conversations
    }
    for messages in (False, True):
        mode = "facts+messages" if messages else "facts"
        free: list[float] = []
        floored: list[float] = []
        answered: list[bool] = []
        times: list[float] = []
        for conv in conversations:
            for qa, query in zip(conv.qa, asked[conv.sample_id], strict=True):
                found = ask(pks[conv.sample_id], query, messages=messages, floor=0.0, times=times)
                free.append(recall(found, qa.evidence))
                at_floor = ask(pks[conv.sample_id], query, messages=messages, floor=floor)
                floored.append(recall(at_floor, qa.evidence))
                answered.append(bool(at_floor))
        silent = [not ask(pk, q, messages=messages, floor=floor) for pk in pks.values() for q in unrelated]
        out[mode] = {
            "recall@10": round(statistics.mean(free), 4),
            "recall@10_at_floor": round(statistics.mean(floored), 4),
            "answered_at_floor": round(statistics.mean(answered), 4),
            "abstention": round(statistics.mean(silent), 4),
            "p50_ms": round(statistics.median(times), 2),
        }
        print(f"    {mode}: {out[mode]}", flush=True)
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-ingest", action="store_true", help="use the bench database as it is")
    parser.add_argument("--origins", type=float, nargs="*", default=[], help="vector.cross_origin values to try")
    args = parser.parse_args(argv)
    from bench.zh_calibration import load_zh

    conversations = load_zh()
    if args.no_ingest:
        from bench.common import BENCH_DB, database_url_for, django_setup

        django_setup(database_url_for(BENCH_DB))
    else:
        from bench.common import ingest_locomo, running_service

        with running_service(conversations=conversations) as ctx:
            ingest_locomo(ctx)
    from django.test import override_settings

    from bench.zh_calibration import load_zh_unrelated
    from facts.retrieval.candidates.vector import VectorTuning

    english = json.loads(Path(QUESTIONS).read_text(encoding="utf-8"))
    report: dict[str, Any] = {}
    print("  the same subjects asked in Chinese (the reference)", flush=True)
    chinese = {c.sample_id: [q.question for q in c.qa] for c in conversations}
    report["asked in Chinese"] = measure(conversations, chinese, load_zh_unrelated())
    settings_tried = [("off", {"vector.cross_lingual": False}), ("on", {})]
    settings_tried += [(f"origin={o}", {"vector.cross_origin": o}) for o in args.origins]
    for name, tuning in settings_tried:
        if name == "on":
            name = f"on (origin {VectorTuning().cross_origin})"
        print(f"  {name}", flush=True)
        with override_settings(SEARCH_TUNING=tuning):
            report[name] = measure(conversations, english["subjects"], english["unrelated"])
    print(json.dumps(report, indent=1))
    return report


if __name__ == "__main__":
    main()
