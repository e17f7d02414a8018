"""Recall on personas written for this project, the same in Chinese and English, through the public API.

    .venv/bin/python -m bench.persona_recall        # BENCH_DATABASE_NAME (default memory_site_personas)

Six personas (bench/personas.json: a handful of durable facts each, and questions that mostly share no word with
the fact that answers them) are ingested through `POST users/{user}/messages?wait=true`, in each language as a
subject of its own, and every question is asked of its own subject and of the other five. Per language:

- facts per turn kept by the extractor;
- recall@1 / recall@5: the first result (the first five) holds the answering fact (`expect`, a substring), facts
  only, and recall@5 with `include_messages`;
- at the fitted relevance floor (relevance.json's `min_relevance`, passed as `min_relevance`): own recall@5, and
  abstention, the share of the other personas' questions that return nothing.

LoCoMo measures long English chats; this measures what a new user asks of a few facts, and whether Chinese is
served as English is. The messages carry a fixed date, so the facts (and their resolved times) are the same every run.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any
from urllib.parse import quote

from bench.common import ROOT, BenchContext, running_service, write_json

DATA = ROOT / "bench" / "personas.json"
LANGUAGES = ("zh", "en")
SAID_AT = "2026-05-12T09:00:00+00:00"


def _subject(lang: str, name: str) -> str:
    return f"persona-{lang}-{name}"


def _erase(subject: str) -> None:
    from conversations.models import Subject

    Subject.objects.filter(external_id=subject).delete()


def _ingest(ctx: BenchContext, subject: str, turns: list[str]) -> int:
    """Store the persona's turns and wait for extraction; the number of active facts it left."""
    _erase(subject)
    messages = [
        {"role": "user", "content": text, "created_at": SAID_AT, "external_id": f"{subject}-{i}"}
        for i, text in enumerate(turns)
    ]
    ctx.post(f"/api/v1/users/{quote(subject)}/messages?wait=true", {"session_id": "s1", "messages": messages})
    listed = ctx.get(f"/api/v1/users/{quote(subject)}/facts?limit=200")
    return len(listed["results"])


def _texts(ctx: BenchContext, subject: str, question: str, **options: Any) -> list[str]:
    answer, _ = ctx.search(subject, question, limit=5, **options)
    return [r["text"].casefold() for r in answer["results"]]


def run(ctx: BenchContext) -> dict[str, Any]:
    from facts.retrieval.relevance import calibration

    floor = calibration().min_relevance
    personas = json.loads(DATA.read_text(encoding="utf-8"))["personas"]
    out: dict[str, Any] = {"floor": floor}
    for lang in LANGUAGES:
        turns = facts = 0
        first = top5 = with_messages = kept = asked = 0
        silent = others = 0
        misses: list[str] = []
        for p in personas:
            turns += len(p[lang]["turns"])
            facts += _ingest(ctx, _subject(lang, p["name"]), p[lang]["turns"])
        for p in personas:
            subject = _subject(lang, p["name"])
            for item in p[lang]["questions"]:
                expect = item["expect"].casefold()
                found = _texts(ctx, subject, item["q"], min_relevance=0)
                asked += 1
                first += bool(found) and expect in found[0]
                top5 += any(expect in t for t in found)
                with_messages += any(expect in t for t in _texts(ctx, subject, item["q"], min_relevance=0,
                                                                  include_messages=True))  # fmt: skip
                kept += any(expect in t for t in _texts(ctx, subject, item["q"], min_relevance=floor))
                if not found or expect not in found[0]:
                    misses.append(item["q"])
            for q in personas:
                if q is p:
                    continue
                for item in q[lang]["questions"]:
                    others += 1
                    silent += not _texts(ctx, subject, item["q"], min_relevance=floor)
        out[lang] = {
            "turns": turns,
            "facts_per_turn": round(facts / turns, 3),
            "questions": asked,
            "recall@1": round(first / asked, 3),
            "recall@5": round(top5 / asked, 3),
            "recall@5_messages": round(with_messages / asked, 3),
            "recall@5_at_floor": round(kept / asked, 3),
            "abstention_at_floor": round(silent / others, 3),
            "missed_first": misses,
        }
    return out


def render(result: dict[str, Any]) -> str:
    lines = [f"Personas (bench/personas.json), floor {result['floor']}:"]
    for lang in LANGUAGES:
        r = result[lang]
        lines.append(
            f"  {lang}: {r['facts_per_turn']} facts/turn; recall@1 {r['recall@1']}, @5 {r['recall@5']} (with messages "
            f"{r['recall@5_messages']}); at the floor @5 {r['recall@5_at_floor']}, abstention {r['abstention_at_floor']}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    database = os.environ.get("BENCH_DATABASE_NAME", "memory_site_personas")
    with running_service(database=database, conversations=[]) as ctx:
        result = run(ctx)
    write_json("persona_recall", result)
    print(render(result))
    print(json.dumps({lang: result[lang]["missed_first"] for lang in LANGUAGES}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
