"""Recall on personas written for this project, the same in Chinese and English, through the public API.

    .venv/bin/python -m bench.persona_recall        # BENCH_DATABASE_NAME (default memory_site_personas)

Personas (bench/personas.json: a handful of durable facts each, and questions that mostly share no word with the
fact that answers them) are ingested through `POST users/{user}/messages?wait=true`, in each language as a subject of
its own, and every question is asked of its own subject and of the others. Per language and per set ("tuned": read
while fixing misses; "blind": never used to choose a change):

- facts per turn kept by the extractor;
- recall@1 / recall@5: the first result (the first five) holds the answering fact (`expect`, a substring), facts
  only, and recall@5 with `include_messages`;
- at the fitted relevance floor (relevance.json's `min_relevance`, passed as `min_relevance`), at the service's
  default (no `min_relevance` sent) and at any `--floors`: own recall@5, and abstention, the share of the other
  personas' questions that return nothing.

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


def _floored(floor: float | None) -> dict[str, float]:
    """The search's options at `floor` (None: the service's default, no `min_relevance` sent)."""
    return {} if floor is None else {"min_relevance": floor}


def _key(floor: float | None) -> str:
    return "default" if floor is None else f"{floor:g}"


def _own(
    ctx: BenchContext, subject: str, questions: list[dict[str, str]], floors: list[float | None]
) -> dict[str, list[str]]:
    """Each own question's outcome: found first, in the top five, with messages, at each floor; missed first."""
    out: dict[str, list[str]] = {"first": [], "top5": [], "messages": [], "missed": []}
    for item in questions:
        expect, q = item["expect"].casefold(), item["q"]
        found = _texts(ctx, subject, q, min_relevance=0)
        out["first" if found and expect in found[0] else "missed"].append(q)
        if any(expect in t for t in found):
            out["top5"].append(q)
        if any(expect in t for t in _texts(ctx, subject, q, min_relevance=0, include_messages=True)):
            out["messages"].append(q)
        for floor in floors:
            kept = any(expect in t for t in _texts(ctx, subject, q, **_floored(floor)))
            out.setdefault(f"floor {_key(floor)}", []).extend([q] if kept else [])
    return out


def _figures(outcomes: list[dict[str, list[str]]], asked: int, turns: int, facts: int) -> dict[str, Any]:
    def share(key: str) -> float:
        return round(sum(len(o[key]) for o in outcomes) / max(asked, 1), 3)

    return {
        "turns": turns,
        "facts_per_turn": round(facts / max(turns, 1), 3),
        "questions": asked,
        "recall@1": share("first"),
        "recall@5": share("top5"),
        "recall@5_messages": share("messages"),
        **{f"recall@5_at_{k[6:]}": share(k) for k in outcomes[0] if k.startswith("floor ")},
        "missed_first": [q for o in outcomes for q in o["missed"]],
    }


def run(ctx: BenchContext, extra_floors: list[float] | None = None) -> dict[str, Any]:
    from facts.retrieval.relevance import calibration

    floor = calibration().min_relevance
    floors: list[float | None] = [floor, None, *(extra_floors or [])]  # fitted, the service's default, asked
    personas = json.loads(DATA.read_text(encoding="utf-8"))["personas"]
    sets = sorted({p.get("set", "tuned") for p in personas}, reverse=True)  # tuned, then blind
    out: dict[str, Any] = {"floor": floor, "sets": sets}
    for lang in LANGUAGES:
        facts = {p["name"]: _ingest(ctx, _subject(lang, p["name"]), p[lang]["turns"]) for p in personas}
        silent = dict.fromkeys(map(_key, floors), 0)
        others = 0
        for p in personas:
            for q in personas:
                if q is not p:
                    for item in q[lang]["questions"]:
                        others += 1
                        for f in floors:
                            silent[_key(f)] += not _texts(ctx, _subject(lang, p["name"]), item["q"], **_floored(f))
        out[lang] = {f"abstention_at_{k}": round(v / max(others, 1), 3) for k, v in silent.items()}
        out[lang]["abstention_at_floor"] = out[lang][f"abstention_at_{_key(floor)}"]
        for name in sets:
            group = [p for p in personas if p.get("set", "tuned") == name]
            outcomes = [_own(ctx, _subject(lang, p["name"]), p[lang]["questions"], floors) for p in group]
            out[lang][name] = _figures(
                outcomes,
                sum(len(p[lang]["questions"]) for p in group),
                sum(len(p[lang]["turns"]) for p in group),
                sum(facts[p["name"]] for p in group),
            )
    return out


def render(result: dict[str, Any]) -> str:
    lines = [f"Personas (bench/personas.json), floor {result['floor']}:"]
    for lang in LANGUAGES:
        for name in result.get("sets", ["tuned"]):
            r = result[lang][name]
            at = ", ".join(f"{k[12:]} {v}" for k, v in r.items() if k.startswith("recall@5_at_"))
            lines.append(
                f"  {lang} {name} ({r['questions']} q): {r['facts_per_turn']} facts/turn; recall@1 {r['recall@1']}, "
                f"@5 {r['recall@5']} (with messages {r['recall@5_messages']}); @5 at floors: {at}"
            )
        at = ", ".join(
            f"{k[14:]} {v}"
            for k, v in result[lang].items()
            if k.startswith("abstention_at_") and k != "abstention_at_floor"
        )
        lines.append(f"  {lang} abstention (the other personas' questions) at floors: {at}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floors", type=float, nargs="*", default=[], help="more floors to measure at")
    args = parser.parse_args(argv)
    database = os.environ.get("BENCH_DATABASE_NAME", "memory_site_personas")
    with running_service(database=database, conversations=[]) as ctx:
        result = run(ctx, args.floors)
    write_json("persona_recall", result)
    print(render(result))
    missed = {f"{lang} {name}": result[lang][name]["missed_first"] for lang in LANGUAGES for name in result["sets"]}
    print(json.dumps(missed, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
