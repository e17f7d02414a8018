"""The Chinese calibration set (bench/zh_calibration.json) as conversations bench.fit_relevance ingests and asks.

    .venv/bin/python -m bench.fit_relevance --zh            # ingest it, fit the Chinese models, write "zh"
    .venv/bin/python -m bench.fit_relevance --zh --check    # measure the committed "zh" models, write nothing

A Chinese query is searched by multilingual-e5's vector (candidates/vector.py ZH); its relevance reads models fitted
on Chinese (bench/fit_relevance_zh.py): every question asked of its own subject (1: a result covering its evidence
turn; the query is answerable) and every `unrelated` question, about what no subject ever mentions, asked of every
subject (0). The other subjects' questions are asked too, for a figure only: in the first person most of them are
another subject's own as well. The floor and beta stay the English fit's, so that one operator floor means the same
probability in both languages. The personas of bench/persona_recall.py stay out of the fit: they are its check.
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


def load_zh_unrelated(path: Path = DATA) -> list[str]:
    """The questions about what none of the subjects mentions (the set's `unrelated`), asked of every subject."""
    return list(json.loads(path.read_text(encoding="utf-8"))["unrelated"])
