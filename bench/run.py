"""`make bench`: ingest LoCoMo through HTTP, measure recall, context and search latency; write results.

    .venv/bin/python -m bench.run                      # everything (scale test at 1M facts)
    .venv/bin/python -m bench.run --skip-scale         # LoCoMo only
    .venv/bin/python -m bench.run --scale-facts 200000 # smaller scale database
    .venv/bin/python -m bench.run --fresh              # re-ingest LoCoMo from scratch
    .venv/bin/python -m bench.run --conversations conv-26 conv-30

Results: bench/results/<name>.json (name from --name, default a UTC timestamp) and bench/results/latest.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from typing import Any

# One intra-op thread per process: the web workers, the worker and this process share 2 cores, and
# torch's default thread pool only fights itself there (the embedder's own time is measured the same way).
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

from bench.common import RESULTS_DIR, ROOT, ingest_locomo, load_locomo, running_service, write_json  # noqa: E402


def _optional(module: str) -> Any | None:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return None
        raise


def _step(results: dict[str, Any], name: str, fn: Any) -> None:
    started = time.perf_counter()
    print(f"== {name}", flush=True)
    try:
        results[name] = fn()
    except Exception as exc:  # one failing part must not lose the others' figures
        traceback.print_exc()
        results[name] = {"error": repr(exc)}
    print(f"== {name} done in {time.perf_counter() - started:.1f}s", flush=True)


def run_scale(args: argparse.Namespace) -> dict[str, Any]:
    """The scale test runs in its own process: it serves another database (memory_site_scale)."""
    out = RESULTS_DIR / f".scale-{os.getpid()}.json"
    cmd = [sys.executable, "-m", "bench.search_latency", "--facts", str(args.scale_facts), "--out", str(out)]
    if args.fresh_scale:
        cmd.append("--fresh")
    subprocess.run(cmd, cwd=ROOT, check=True)
    data = json.loads(out.read_text())
    out.unlink()
    return data


def run_lifecycle(args: argparse.Namespace) -> dict[str, Any]:
    """One lifecycle pass over the scale data (a copy in a database of its own), then search latency."""
    out = RESULTS_DIR / f".lifecycle-{os.getpid()}.json"
    cmd = [sys.executable, "-m", "bench.lifecycle_pass", "--facts", str(args.scale_facts), "--out", str(out)]
    subprocess.run(cmd, cwd=ROOT, check=True)
    data = json.loads(out.read_text())
    out.unlink()
    return data


def run_brokers(args: argparse.Namespace) -> dict[str, Any]:
    """Ingest throughput on `make run`'s default broker (the embedded Valkey) beside Redis: the same LoCoMo
    ingest through HTTP, each on a service of its own (subprocesses), in alternating rounds; target >= 0.9."""
    runs: dict[str, list[dict[str, Any]]] = {"embedded": [], "redis": []}
    for _ in range(args.broker_rounds):
        for broker in ("redis", "embedded"):
            out = RESULTS_DIR / f".ingest-{broker}-{os.getpid()}.json"
            cmd = [sys.executable, "-m", "bench.ingest_throughput", "--broker", broker, "--no-embedder-alone",
                   "--out", str(out)]  # fmt: skip
            subprocess.run(cmd, cwd=ROOT, check=True)
            runs[broker].append(json.loads(out.read_text()))
            out.unlink()
    best = {broker: max(r["e2e_messages_per_s"] for r in rs) for broker, rs in runs.items()}
    return {
        "messages_per_s": best,
        "embedded_vs_redis": round(best["embedded"] / best["redis"], 3) if best["redis"] else None,
        "target": 0.9,
        "runs": runs,
    }


def run_load_faults(args: argparse.Namespace) -> dict[str, Any]:
    """50 clients against `make run`'s stack with faults midway (its own process, directory and database)."""
    name = f"{args.name}-load"
    cmd = [sys.executable, "-m", "bench.load_faults", "--duration", str(args.load_duration), "--name", name]
    subprocess.run(cmd, cwd=ROOT, check=True)
    data = json.loads((RESULTS_DIR / f"load-faults-{name}.json").read_text())
    return {"report": f"bench/results/load-faults-{name}.json", "pass": data["pass"], **data["reconciliation"]}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description="Memory Site benchmarks")
    parser.add_argument("--name", default=dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ"))
    parser.add_argument("--fresh", action="store_true", help="re-ingest LoCoMo even when the bench DB holds it")
    parser.add_argument("--conversations", nargs="*", default=None, help="sample ids (default: all five)")
    parser.add_argument("--skip-scale", action="store_true", help="skip the 1M-fact latency test")
    parser.add_argument("--scale-facts", type=int, default=1_000_000, help="facts in the scale database")
    parser.add_argument("--fresh-scale", action="store_true", help="regenerate the scale database")
    parser.add_argument("--skip-locomo", action="store_true")
    parser.add_argument("--skip-lifecycle", action="store_true", help="skip the lifecycle pass over the scale data")
    parser.add_argument("--skip-distil", action="store_true", help="skip the value gate's figures (bench.distil)")
    parser.add_argument(
        "--no-throughput", action="store_true", help="do not run bench.ingest_throughput (it always re-ingests)"
    )
    parser.add_argument("--skip-brokers", action="store_true", help="skip ingest on the embedded broker vs Redis")
    parser.add_argument("--broker-rounds", type=int, default=2, help="alternating rounds of the broker comparison")
    parser.add_argument("--skip-load-faults", action="store_true", help="skip the load with faults (bench.load_faults)")
    parser.add_argument("--load-duration", type=float, default=300.0, help="seconds of the load with faults")
    args = parser.parse_args(argv)

    conversations = load_locomo()
    if args.conversations:
        conversations = [c for c in conversations if c.sample_id in set(args.conversations)]
    results: dict[str, Any] = {
        "name": args.name,
        "started_at": dt.datetime.now(dt.UTC).isoformat(),
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "conversations": [c.sample_id for c in conversations],
    }
    if not args.skip_locomo:
        with running_service(args=args, conversations=conversations) as ctx:
            from django.conf import settings

            from facts.retrieval.config import search_config

            results["config"] = {
                "embedder": settings.EMBEDDINGS_MODEL,
                "vector_mode": settings.SEARCH_VECTOR_MODE,
                "search": search_config().as_dict(),  # the settings and every stage's tuning, as the service ran
                "web": "gunicorn as `make run`: 2 workers of 4 threads, keep-alive client, OMP_NUM_THREADS=1",
            }
            throughput = None if args.no_throughput else _optional("bench.ingest_throughput")
            if throughput is not None:
                _step(results, "ingest", lambda: throughput.run(ctx))
                if isinstance(results["ingest"], dict) and "error" in results["ingest"]:
                    _step(results, "ingest_fallback", lambda: ingest_locomo(ctx, fresh=False))
            else:
                _step(results, "ingest", lambda: ingest_locomo(ctx, fresh=args.fresh))
            from bench import locomo_recall

            _step(results, "locomo_recall", lambda: locomo_recall.run(ctx))
            from bench import persona_recall

            _step(results, "persona_recall", lambda: persona_recall.run(ctx))
            from bench import fit_relevance

            _step(results, "relevance", lambda: fit_relevance.bench_report(conversations))
            context = _optional("bench.context_recall")
            if context is not None:
                _step(results, "context_recall", lambda: context.run(ctx))
    if not args.skip_distil:
        from bench import distil

        _step(results, "distil", lambda: distil.run())
    if not args.skip_brokers:
        _step(results, "ingest_brokers", lambda: run_brokers(args))
    if not args.skip_scale:
        _step(results, "search_latency", lambda: run_scale(args))
    if not args.skip_load_faults:
        _step(results, "load_faults", lambda: run_load_faults(args))
    if not args.skip_lifecycle:
        _step(results, "lifecycle", lambda: run_lifecycle(args))
    results["finished_at"] = dt.datetime.now(dt.UTC).isoformat()
    path = write_json(args.name, results)
    md = render_markdown(results)
    (RESULTS_DIR / "latest.md").write_text(md, encoding="utf-8")
    print(md)
    print(f"results: {path.relative_to(ROOT)} and bench/results/latest.md")
    return results


def _f(x: Any, digits: int = 3) -> str:
    if x is None:
        return "–"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def _brokers_markdown(brokers: Any) -> list[str]:
    if not isinstance(brokers, dict) or "messages_per_s" not in brokers:
        return []
    rate = brokers["messages_per_s"]
    return [
        "## Ingest by broker (best of the rounds, turns/s from the API to searchable facts)",
        "",
        f"`make run`'s embedded Valkey: {rate['embedded']}; Redis: {rate['redis']}; "
        f"ratio {brokers['embedded_vs_redis']} (target {brokers['target']}).",
        "",
    ]


def render_markdown(r: dict[str, Any]) -> str:
    lines = [f"# Benchmark {r['name']}", "", f"Conversations: {', '.join(r.get('conversations', []))}", ""]
    ing = r.get("ingest")
    if isinstance(ing, dict) and "error" not in ing:
        lines += [
            "## Ingest",
            "",
            "```",
            json.dumps({k: v for k, v in ing.items() if k != "per_conversation"}, indent=1),
            "```",
            "",
        ]  # noqa: E501
    lines += _brokers_markdown(r.get("ingest_brokers"))
    if isinstance(r.get("distil"), dict) and "holdout" in r["distil"]:
        from bench.distil import markdown as distil_markdown

        lines += distil_markdown(r["distil"])
    personas = r.get("persona_recall")
    if isinstance(personas, dict) and "zh" in personas:
        from bench.persona_recall import render as personas_render

        lines += ["## Personas, Chinese and English", "", "```", personas_render(personas), "```", ""]
    loc = r.get("locomo_recall")
    if isinstance(loc, dict) and "modes" in loc:
        lines += [
            "## LoCoMo evidence recall (categories 1-4, search limit 20 unless the row says otherwise)",
            "",
            "| system | n | recall@5 | recall@10 | recall@20 | all-evidence hit@10 | MRR |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        rows = [(f"memory-site ({m})", v) for m, v in loc["modes"].items()]
        rows += [
            ("BM25 over raw turns (English stemming)", loc["baselines"]["bm25"]),
            ("BM25 over raw turns (plain words)", loc["baselines"]["bm25_unstemmed"]),
            ("dense MiniLM over raw turns", loc["baselines"]["dense_minilm"]),
        ]  # noqa: E501
        rows += [("random turns", loc["baselines"]["random"])]
        for label, v in rows:
            o = v["overall"]
            lines.append(
                f"| {label} | {o['n']} | {_f(o['recall@5'])} | {_f(o['recall@10'])} | {_f(o['recall@20'])} | "
                f"{_f(o['hit_all@10'])} | {_f(o['mrr'])} |"
            )
        lines += ["", "Recall@10 per category id (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop):", ""]
        cats = sorted(loc["baselines"]["bm25"]["by_category"])
        lines += [
            "| system | "
            + " | ".join(f"cat {c} (n={loc['baselines']['bm25']['by_category'][c]['n']})" for c in cats)
            + " |"
        ]  # noqa: E501
        lines += ["|---|" + "---:|" * len(cats)]
        for label, v in rows:
            lines.append(
                f"| {label} | " + " | ".join(_f(v["by_category"].get(c, {}).get("recall@10")) for c in cats) + " |"
            )  # noqa: E501
        lines += ["", "Ratios (recall@10):", ""]
        for mode, ratio in loc["ratios"].items():
            lines.append(
                f"- {mode}: {ratio['recall@10_vs_bm25']}× BM25 (stemmed; {ratio['recall@10_vs_bm25_unstemmed']}× "
                f"plain words), {ratio['recall@10_vs_dense']}× dense MiniLM"
            )
        lines += ["", "Tokens of the returned results vs the full conversation (same tokenizer):", ""]
        lines += [
            "| system | top-5 tokens (mean) | top-5 savings | top-10 tokens (mean) | top-10 savings | results/query |"
        ]  # noqa: E501
        lines += ["|---|---:|---:|---:|---:|---:|"]
        for mode, v in loc["modes"].items():
            t = v["tokens"]
            lines.append(
                f"| {mode} | {_f(t['top5']['ctx_tokens_mean'], 1)} | {_f(t['top5']['savings_mean'], 4)} | "
                f"{_f(t['top10']['ctx_tokens_mean'], 1)} | {_f(t['top10']['savings_mean'], 4)} | {v['results_per_query_mean']} |"  # noqa: E501
            )
        lines += ["", "Search latency through HTTP during the LoCoMo run (one query at a time, warm-up discarded):", ""]
        lines += ["| mode | client p50 ms | p95 | p99 | server took p50 | p95 |", "|---|---:|---:|---:|---:|---:|"]
        for mode, v in loc["modes"].items():
            lat = v["latency_ms"]
            lines.append(
                f"| {mode} | {lat['client_p50']} | {lat['client_p95']} | {lat['client_p99']} | "
                f"{lat['server_took_p50']} | {lat['server_took_p95']} |"
            )
        c5 = loc.get("category_5", {})
        if c5:
            s = c5["service"]["overall"]
            b = c5["baselines"]["bm25"]["overall"]
            d = c5["baselines"]["dense_minilm"]["overall"]
            lines += [
                "",
                f"Category 5 (adversarial, reported apart; evidence is the distractor turn), n={s.get('n')}: "
                f"memory-site ({c5['service'].get('mode')}) recall@10 {_f(s.get('recall@10'))}, "
                f"BM25 {_f(b.get('recall@10'))}, dense {_f(d.get('recall@10'))}.",
            ]
    rel = r.get("relevance")
    if isinstance(rel, dict) and "figures" in rel:
        from bench import fit_relevance

        lines += ["", *fit_relevance.markdown(rel)]
    ctxr = r.get("context_recall")
    if isinstance(ctxr, dict):
        lines += ["", "## Context (bench.context_recall)", "", "```", json.dumps(ctxr, indent=1)[:4000], "```"]
    lat = r.get("search_latency")
    if isinstance(lat, dict) and "search_ms" in lat:
        lines += [
            "",
            f"## Search latency at scale ({lat['facts']} facts in the database, {lat['hot_subject_facts']} for the subject)",  # noqa: E501
            "",
            "| p50 ms | p95 ms | p99 ms | server took p50 | embedder alone p50 | p50 / embedder |",
            "|---:|---:|---:|---:|---:|---:|",
            f"| {lat['search_ms']['p50']} | {lat['search_ms']['p95']} | {lat['search_ms']['p99']} | "
            f"{lat['search_ms']['server_took_p50']} | {lat['embed_ms']['p50']} | {lat['p50_over_embed_p50']} |",
            "",
            f"Embedder alone: {lat['embed_ms'].get('runtime', 'onnx')} runtime, as the web workers embed queries, "
            "the same queries timed in blocks alternating with the searches. "
            f"For reference, torch's encode of the same model: p50 {lat.get('embed_torch_ms', {}).get('p50')} ms "
            f"(search p50 / that: {lat.get('p50_over_embed_torch_p50')}).",
            "",
            f"Vector mode: {lat.get('vector_mode')}; HNSW: {lat.get('hnsw_index')}.",
        ]
        sizes = lat.get("by_subject_size")
        if isinstance(sizes, dict):
            lines += ["", "By subject size (all candidates returned; embedder timed in alternating blocks):", ""]
            lines += ["| subject facts | p50 ms | p95 ms | embedder p50 | p50 / embedder | p95 / embedder |"]
            lines += ["|---|---:|---:|---:|---:|---:|"]
            for size, v in sizes.items():
                lines.append(
                    f"| {size} | {v['p50']} | {v['p95']} | {v['embed_p50']} | {v['p50_over_embed_p50']} | "
                    f"{v['p95_over_embed_p50']} |"
                )
        written = lat.get("with_writes_ms")
        if isinstance(written, dict):
            lines += [
                "",
                f"Searches while the subject is written to ({written['writes']} writes, one a second, during "
                f"{written['searches']} searches): p50 {written['p50']} ms, p95 {written['p95']} ms, embedder p50 "
                f"{written['embed_p50']} ms: p95 / embedder {written['p95_over_embed_p50']} (target 3).",
            ]
    lc = r.get("lifecycle")
    if isinstance(lc, dict) and "first_pass" in lc:
        lines += ["", f"## Lifecycle pass ({lc['facts']} facts; target {lc['target_facts_per_s']} facts/s)", "",
                  "| pass | facts/s | wall s | CPU s (pass / PostgreSQL) | peak RSS MB | load | counts |",
                  "|---|---:|---:|---:|---:|---:|---|"]  # fmt: skip
        for name in ("first_pass", "second_pass"):
            one = lc[name]
            cpu = f"{one.get('cpu_s', '-')} / {one.get('pg_cpu_s', '-')}"
            load = (one.get("load_avg") or ["-"])[0]
            lines.append(
                f"| {name} | {one['facts_per_s']} | {one['wall_s']} | {cpu} | {one['peak_rss_mb']} | {load} "
                f"| {one['counts']} |"
            )
        after = lc["search_after"]["search_ms"]
        lines += ["", f"Search right after (HTTP, 10k-fact subject): p50 {after['p50']} ms, p95 {after['p95']} ms."]
    for key in ("ingest", "locomo_recall", "relevance", "context_recall", "search_latency", "lifecycle", "distil"):
        if isinstance(r.get(key), dict) and "error" in r[key]:
            lines.append(f"\n**{key} failed:** `{r[key]['error']}`")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
