"""Context recall on LoCoMo: is the evidence of each question inside the packed context, and at what cost?

For every category 1-4 question with evidence, POST /users/{user}/context {query, token_budget} through the
running service at each budget (1000 and 2000), then check each evidence turn (dia_id):

- `recall`: the turn is represented in the context: a fact whose sources include it, the turn itself among
  the recent turns or the relevant earlier turns, or a summary (mid-term or far) whose window covers it;
- `recall_facts_or_turns`: the stricter part of that: only facts' sources and verbatim turns (recent or
  relevant earlier ones).

Reported per category and overall as the mean fraction of evidence turns present (`recall`) and the share of
questions with all their evidence present (`all_evidence`), with mean context tokens vs the full history.

Run inside `make bench` (bench.run calls `run(ctx)`), or standalone on a small sample with its own database,
with the real service (gunicorn + worker) or with `--in-process` (Django's view stack in this process):
    .venv/bin/python -m bench.context_recall --conversations 1 --max-questions 60 [--in-process]
"""

from __future__ import annotations

import argparse
import datetime as dt
import time
from collections import defaultdict
from typing import Any
from urllib.parse import quote

from bench.common import BenchContext, ingest_locomo, load_locomo, running_service, write_json

BUDGETS = (1000, 2000)
CATEGORIES = (1, 2, 3, 4)


def _parse(value: str | None) -> dt.datetime | None:
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None


def summaries_refresh(subject_ids: list[str]) -> int:
    """Bring every bench session's summaries up to date (the worker does this after ingest; idempotent)."""
    from conversations.models import Session
    from conversations.summarization.services import session_summarize

    sessions = Session.objects.filter(subject__external_id__in=subject_ids).values_list("pk", flat=True)
    for pk in sessions:
        session_summarize(session_id=pk)
    return len(sessions)


def message_index(subject_id: str) -> dict[int, str]:
    from conversations.models import Message

    rows = Message.objects.filter(subject__external_id=subject_id).values_list("pk", "external_id")
    return {pk: ext for pk, ext in rows if ext}


def evidence_present(answer: dict[str, Any], turn_info: dict[str, tuple[str, dt.datetime]], ids: dict[int, str]):  # type: ignore[no-untyped-def]
    """dia_ids represented in a context answer: (any representation, facts' sources or recent turns only)."""
    sections = answer["sections"]
    strict: set[str] = set()
    for fact in sections["facts"]:
        strict.update(s["external_id"] for s in fact.get("sources", []) if s.get("external_id"))
    turns = [*sections["recent"], *sections.get("turns", [])]
    strict.update(ids[r["id"]] for r in turns if r["id"] in ids)
    covered = set(strict)
    for summary in sections["summaries"]:
        start, until = _parse(summary.get("covers_from")), _parse(summary.get("covers_until"))
        if start is None or until is None:
            continue
        for dia_id, (session, created) in turn_info.items():
            if session == summary["session_id"] and start <= created <= until:
                covered.add(dia_id)
    return covered, strict


def run(ctx: BenchContext, *, budgets: tuple[int, ...] = BUDGETS, max_questions: int | None = None) -> dict[str, Any]:
    if not ctx.ingest:
        ingest_locomo(ctx)
    refreshed = summaries_refresh([c.subject_id for c in ctx.conversations])
    per_budget: dict[int, dict[str, Any]] = {}
    started = time.perf_counter()
    for budget in budgets:
        tokens: list[int] = []
        full: list[int] = []
        by_cat: dict[int, list[tuple[float, float, bool]]] = defaultdict(list)
        for conv in ctx.conversations:
            turn_info = {t.dia_id: (f"session_{t.session}", t.created_at) for t in conv.turns}
            ids = message_index(conv.subject_id)
            questions = [q for q in conv.qa if q.category in CATEGORIES and q.evidence][:max_questions]
            for qa in questions:
                answer = ctx.post(
                    f"/api/v1/users/{quote(conv.subject_id, safe='')}/context",
                    {"query": qa.question, "token_budget": budget},
                )
                tokens.append(answer["tokens"])
                full.append(answer["full_history_tokens"])
                covered, strict = evidence_present(answer, turn_info, ids)
                wanted = set(qa.evidence)
                by_cat[qa.category].append(
                    (len(wanted & covered) / len(wanted), len(wanted & strict) / len(wanted), wanted <= covered)
                )
        rows = [r for cat in by_cat.values() for r in cat]

        def summary(rs: list[tuple[float, float, bool]]) -> dict[str, Any]:
            n = len(rs)
            return {
                "questions": n,
                "recall": round(sum(r[0] for r in rs) / n, 4) if n else None,
                "recall_facts_or_turns": round(sum(r[1] for r in rs) / n, 4) if n else None,
                "all_evidence": round(sum(1 for r in rs if r[2]) / n, 4) if n else None,
            }

        mean_tokens = sum(tokens) / len(tokens) if tokens else 0.0
        mean_full = sum(full) / len(full) if full else 0.0
        per_budget[budget] = {
            **summary(rows),
            "per_category": {str(c): summary(by_cat[c]) for c in sorted(by_cat)},
            "mean_context_tokens": round(mean_tokens, 1),
            "max_context_tokens": max(tokens) if tokens else 0,
            "mean_full_history_tokens": round(mean_full, 1),
            "token_savings": round(1 - mean_tokens / mean_full, 4) if mean_full else None,
        }
    return {
        "benchmark": "context_recall",
        "conversations": [c.sample_id for c in ctx.conversations],
        "sessions_summarised": refreshed,
        "budgets": {str(b): v for b, v in per_budget.items()},
        "seconds": round(time.perf_counter() - started, 1),
    }


def markdown(result: dict[str, Any]) -> str:
    lines = [
        "| budget | questions | recall | recall (facts/turns only) | all evidence | mean tokens | full history | savings |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for budget, row in result["budgets"].items():
        lines.append(
            f"| {budget} | {row['questions']} | {row['recall']} | {row['recall_facts_or_turns']} | "
            f"{row['all_evidence']} | {row['mean_context_tokens']} | {row['mean_full_history_tokens']} | "
            f"{row['token_savings']} |"
        )
    return "\n".join(lines)


class InProcessContext:
    """The bench context without servers: requests go through Django's full view stack in this process and
    ingest uses `?wait=true` (extraction inline), then the summary service runs as the worker would."""

    def __init__(self, conversations: list[Any], database: str) -> None:
        from bench.common import api_key_for_bench, database_ensure, django_setup

        django_setup(database_ensure(database))
        from django.core.management import call_command
        from rest_framework.test import APIClient

        call_command("migrate", interactive=False, verbosity=0)
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {api_key_for_bench()}")
        self.conversations = conversations
        self.ingest: dict[str, Any] = {}

    def post(self, path: str, body: Any) -> Any:
        response = self.client.post(path, body, format="json")
        if response.status_code >= 400:
            raise RuntimeError(f"HTTP {response.status_code}: {response.content[:300]!r}")
        return response.json()

    def ingest_all(self) -> dict[str, Any]:
        from bench.common import conversation_is_stored, session_payload, subject_erase

        done = []
        for conv in self.conversations:
            if conversation_is_stored(conv):
                continue
            subject_erase(conv)
            for n, _, turns in conv.sessions:
                self.post(f"/api/v1/users/{quote(conv.subject_id, safe='')}/messages?wait=true",
                          session_payload(conv, n, turns))  # fmt: skip
            done.append(conv.sample_id)
            print(f"  ingested {conv.sample_id} in process", flush=True)
        self.ingest = {"conversations_ingested": done, "in_process": True}
        return self.ingest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=None, help="first N conversations only")
    parser.add_argument("--max-questions", type=int, default=None, help="per conversation")
    parser.add_argument("--database", default="memory_site_bench_context")
    parser.add_argument("--in-process", action="store_true", help="no gunicorn/worker: Django views in process")
    args = parser.parse_args()
    conversations = load_locomo()[: args.conversations] if args.conversations else load_locomo()
    if args.in_process:
        local = InProcessContext(conversations, args.database)
        local.ingest_all()
        result = run(local, max_questions=args.max_questions)  # type: ignore[arg-type]
    else:
        with running_service(database=args.database, conversations=conversations, args=args) as ctx:
            ingest_locomo(ctx)
            result = run(ctx, max_questions=args.max_questions)
    result["sample"] = {
        "conversations": args.conversations, "max_questions": args.max_questions, "in_process": args.in_process,
    }  # fmt: skip
    path = write_json("context_recall", result)
    print(markdown(result))
    for budget, row in result["budgets"].items():
        print(budget, {c: v["recall"] for c, v in row["per_category"].items()})
    print(f"written to {path}")


if __name__ == "__main__":
    main()
