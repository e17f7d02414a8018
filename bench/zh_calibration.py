"""The Chinese calibration set (bench/zh_calibration.json) as conversations bench.fit_relevance ingests and asks.

    .venv/bin/python -m bench.fit_relevance --zh            # ingest it, fit the Chinese models, write "zh"
    .venv/bin/python -m bench.fit_relevance --zh --check    # measure the committed "zh" models, write nothing

Under an English-only embedder a Chinese query's relevance reads the keyword-only models (the vector's similarities
are noise there); those fitted on English LoCoMo turns under-rate right Chinese matches, so the default floor did
not apply to Chinese. These are the same two models (per result, and the query-level "answerable") fitted the same
way on bench/zh_calibration.json: every question asked of its own subject (1: a result covering its evidence turn;
the query is answerable) and of every other subject (0), generic questions ("我是做哪一行的？", which any subject
answers of its own life) only of their own. The floor and beta stay the English fit's, so that one operator floor
means the same probability in both languages. The personas of bench/persona_recall.py stay out of the fit: they
are its check.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path

from bench.common import QA, ROOT, Conversation, Turn

DATA = ROOT / "bench" / "zh_calibration.json"


@dataclass
class ZhConversation(Conversation):
    @property
    def subject_id(self) -> str:
        return f"zhcal-{self.sample_id}"


def load_zh(path: Path = DATA) -> list[Conversation]:
    """The Chinese calibration subjects as conversations the LoCoMo helpers ingest and ask (bench.common)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out: list[Conversation] = []
    for subject in data["subjects"]:
        sessions = []
        for n, session in enumerate(subject["sessions"], start=1):
            start = dt.datetime.fromisoformat(session["date"]).astimezone(dt.UTC)
            turns = [
                Turn(dia_id=t["id"], session=n, speaker="", content=t["text"], role=t["role"],
                     created_at=start + dt.timedelta(seconds=i))
                for i, t in enumerate(session["turns"])
            ]  # fmt: skip
            sessions.append((n, start, turns))
        qa = [
            QA(question=q["q"], answer=q["answer"], category=1, evidence=q["evidence"], generic=q.get("generic", False))
            for q in subject["questions"]
        ]
        out.append(ZhConversation(sample_id=subject["id"], speaker_a="", speaker_b="", sessions=sessions, qa=qa))
    return out
