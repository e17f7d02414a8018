"""LoCoMo evidence recall through the public search API, beside BM25 and dense MiniLM over raw turns.

Every category 1-4 question with evidence is asked once, as the conversation's subject, through
POST /api/v1/users/{user}/search (limit 20). The dia_ids covered by the top k results are read from
`sources[].external_id`. Metrics per question, then averaged per category id and overall:
recall@k = |evidence ∩ covered@k| / |evidence|, all-evidence hit@10, MRR (first result covering any
evidence id, within 20). Category 5 (adversarial) is reported on its own.
"""

from __future__ import annotations

import re
import statistics
import time
from collections import defaultdict
from typing import Any

from bench.common import BenchContext, Conversation, percentile

K_MAX = 20
KS = (5, 10, 20)
WARMUP = 10
_TOKEN_RE = re.compile(r"\w+", re.UNICODE)


def _tokens(text: str, stop: frozenset[str]) -> list[str]:
    return [t for t in _TOKEN_RE.findall(text.lower()) if t not in stop]


def score_ranking(ranked: list[list[str]], evidence: list[str]) -> dict[str, float]:
    """Metrics for one question from the dia_ids each ranked item covers."""
    ev = set(evidence)
    out: dict[str, float] = {}
    for k in KS:
        covered = {d for item in ranked[:k] for d in item}
        out[f"recall@{k}"] = len(ev & covered) / len(ev)
    covered10 = {d for item in ranked[:10] for d in item}
    out["hit_all@10"] = 1.0 if ev <= covered10 else 0.0
    out["mrr"] = 0.0
    for rank, item in enumerate(ranked[:K_MAX], start=1):
        if ev & set(item):
            out["mrr"] = 1.0 / rank
            break
    return out


def aggregate(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean of every metric per category id and overall."""
    by_cat: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_cat[str(row["category"])].append(row)
    metric_names = [f"recall@{k}" for k in KS] + ["hit_all@10", "mrr"]

    def mean(items: list[dict[str, Any]]) -> dict[str, Any]:
        return {"n": len(items), **{m: round(statistics.fmean(r[m] for r in items), 4) for m in metric_names}}

    return {"overall": mean(rows) if rows else {"n": 0}, "by_category": {c: mean(v) for c, v in sorted(by_cat.items())}}


def _questions(conv: Conversation, categories: set[int]) -> list[Any]:
    return [q for q in conv.qa if q.category in categories and q.evidence]


def run_service(
    ctx: BenchContext, *, include_messages: bool, categories: set[int], limit: int = K_MAX
) -> dict[str, Any]:
    """Ask every question through HTTP (`limit` results each); score from sources; token and latency figures."""
    from facts.tokens import count_tokens

    rows: list[dict[str, Any]] = []
    latencies: list[float] = []
    server_ms: list[float] = []
    ctx_tokens: dict[int, list[int]] = {k: [] for k in (5, 10)}
    savings: dict[int, list[float]] = {k: [] for k in (5, 10)}
    result_counts: list[int] = []
    warm = 0
    for conv in ctx.conversations:
        subject = ctx.subjects[conv.sample_id]
        full = count_tokens("\n".join(t.content for t in conv.turns))
        for q in _questions(conv, categories):
            if warm < WARMUP:  # warm-up: model loaded in every web worker, caches filled; not timed
                ctx.search(subject, q.question, limit=limit, include_messages=include_messages)
                warm += 1
            answer, wall_ms = ctx.search(subject, q.question, limit=limit, include_messages=include_messages)
            latencies.append(wall_ms)
            server_ms.append(float(answer.get("took_ms", 0.0)))
            results = answer["results"]
            result_counts.append(len(results))
            ranked = [[s["external_id"] for s in r["sources"] if s.get("external_id")] for r in results]
            row = {"category": q.category, **score_ranking(ranked, q.evidence)}
            rows.append(row)
            for k in (5, 10):
                tokens = count_tokens("\n".join(r["text"] for r in results[:k]))
                ctx_tokens[k].append(tokens)
                savings[k].append(1 - tokens / full if full else 0.0)
    out = aggregate(rows)
    out["tokens"] = {
        f"top{k}": {
            "ctx_tokens_mean": round(statistics.fmean(ctx_tokens[k]), 1) if ctx_tokens[k] else None,
            "ctx_tokens_p95": round(percentile([float(x) for x in ctx_tokens[k]], 95), 1) if ctx_tokens[k] else None,
            "savings_mean": round(statistics.fmean(savings[k]), 4) if savings[k] else None,
            "compression_mean": round(
                statistics.fmean((1 / (1 - s)) if s < 1 else float("inf") for s in savings[k] if s < 1),
                1,
            )
            if savings[k]
            else None,
        }
        for k in (5, 10)
    }
    out["results_per_query_mean"] = round(statistics.fmean(result_counts), 2) if result_counts else 0
    out["latency_ms"] = {
        "client_p50": round(percentile(latencies, 50), 2),
        "client_p95": round(percentile(latencies, 95), 2),
        "client_p99": round(percentile(latencies, 99), 2),
        "server_took_p50": round(percentile(server_ms, 50), 2),
        "server_took_p95": round(percentile(server_ms, 95), 2),
        "queries": len(latencies),
        "warmup_discarded": warm,
    }
    return out


_TSVECTOR_ENTRY = re.compile(r"'((?:[^']|'')*)'(?::([0-9A-D,]+))?")


def _stemmed(texts: list[str]) -> list[list[str]]:
    """Each text's English-stemmed words without stop words, each as often as it occurs: PostgreSQL's
    to_tsvector('english'), the lexemes the service's own keyword search uses, read back with their
    positions (`'paint':3,9` is "paint" twice)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT to_tsvector('english', t)::text FROM unnest(%s::text[]) WITH ORDINALITY AS u(t, n) ORDER BY n",
            [texts],
        )
        vectors = [row[0] for row in cursor.fetchall()]
    return [
        [m.group(1).replace("''", "'") for m in _TSVECTOR_ENTRY.finditer(v) for _ in (m.group(2) or "1").split(",")]
        for v in vectors
    ]


def _top(ids: list[str], scores: Any) -> list[list[str]]:
    """The K_MAX best-scored turns, ties by position, each as the one-id list score_ranking takes."""
    order = sorted(range(len(ids)), key=lambda j: (-float(scores[j]), j))[:K_MAX]
    return [[ids[j]] for j in order]


def run_baselines(ctx: BenchContext, *, categories: set[int]) -> dict[str, Any]:
    """BM25 (rank-bm25, Okapi; English-stemmed, and plain words) and dense MiniLM cosine over the raw turns,
    same questions, same metrics."""
    import numpy as np
    from rank_bm25 import BM25Okapi

    from facts.embedding import embed_texts
    from facts.text import EN_STOP_WORDS

    rows: dict[str, list[dict[str, Any]]] = {"bm25": [], "bm25_unstemmed": [], "dense_minilm": [], "random": []}
    rng = np.random.default_rng(0)
    for conv in ctx.conversations:
        turns = conv.turns
        ids = [t.dia_id for t in turns]
        questions = _questions(conv, categories)
        stemmed = _stemmed([t.content for t in turns] + [q.question for q in questions])
        bm25 = {
            "bm25": (BM25Okapi([words or ["_"] for words in stemmed[: len(turns)]]), stemmed[len(turns) :]),
            "bm25_unstemmed": (
                BM25Okapi([_tokens(t.content, EN_STOP_WORDS) or ["_"] for t in turns]),
                [_tokens(q.question, EN_STOP_WORDS) for q in questions],
            ),
        }
        matrix = np.asarray(embed_texts([t.content for t in turns]), dtype=np.float32)
        qvecs = np.asarray(embed_texts([q.question for q in questions]), dtype=np.float32) if questions else None

        for i, q in enumerate(questions):
            for name, (index, query_words) in bm25.items():
                rows[name].append(
                    {"category": q.category, **score_ranking(_top(ids, index.get_scores(query_words[i])), q.evidence)}
                )
            assert qvecs is not None
            rows["dense_minilm"].append(
                {"category": q.category, **score_ranking(_top(ids, matrix @ qvecs[i]), q.evidence)}
            )
            pick = rng.choice(len(ids), size=min(K_MAX, len(ids)), replace=False)
            rows["random"].append({"category": q.category, **score_ranking([[ids[j]] for j in pick], q.evidence)})
    return {name: aggregate(found) for name, found in rows.items()}


def run(ctx: BenchContext) -> dict[str, Any]:
    """The whole LoCoMo recall benchmark: service modes, baselines and ratios."""
    started = time.perf_counter()
    headline = {1, 2, 3, 4}
    modes: dict[str, Any] = {}
    # The recall target counts at most 10 results: the last mode asks for exactly 10 (its recall@20 is its @10).
    runs = (("facts", False, K_MAX), ("facts+messages", True, K_MAX), ("facts+messages, limit 10", True, 10))
    for name, include_messages, limit in runs:
        print(f"  locomo: searching ({name}) ...", flush=True)
        modes[name] = run_service(ctx, include_messages=include_messages, categories=headline, limit=limit)
    print("  locomo: baselines ...", flush=True)
    baselines = run_baselines(ctx, categories=headline)
    best = max(("facts", "facts+messages"), key=lambda m: modes[m]["overall"]["recall@10"])
    print("  locomo: category 5 ...", flush=True)
    cat5 = run_service(ctx, include_messages=best == "facts+messages", categories={5})
    cat5_base = run_baselines(ctx, categories={5})
    ratios = {
        mode: {
            "recall@10_vs_bm25": round(res["overall"]["recall@10"] / baselines["bm25"]["overall"]["recall@10"], 3),
            "recall@10_vs_bm25_unstemmed": round(
                res["overall"]["recall@10"] / baselines["bm25_unstemmed"]["overall"]["recall@10"], 3
            ),
            "recall@10_vs_dense": round(
                res["overall"]["recall@10"] / baselines["dense_minilm"]["overall"]["recall@10"], 3
            ),
        }
        for mode, res in modes.items()
    }
    return {
        "questions": modes["facts"]["overall"]["n"],
        "conversations": [c.sample_id for c in ctx.conversations],
        "search_limit": K_MAX,
        "modes": modes,
        "best_mode": best,
        "baselines": baselines,
        "ratios": ratios,
        "category_5": {"service": {**cat5, "mode": best}, "baselines": cat5_base},
        "seconds": round(time.perf_counter() - started, 1),
    }
