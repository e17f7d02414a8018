"""The labelled corpus of conversation turns the extraction owns: keep or drop, type, slot and fact per turn.

The data lies beside this module (turns.jsonl, and the blind batches under batches/, see README.md there); it is
read once and shared as frozen rows, so a caller cannot alter what another caller sees.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

REGISTERS = frozenset({"friends", "service", "assistant"})
LANGS = frozenset({"en", "zh", "mixed"})
ROLES = frozenset({"user", "assistant"})
SPLITS = frozenset({"train", "holdout"})
TYPES = frozenset(
    {"profile", "preference", "event", "relationship", "complaint", "inquiry", "commitment", "decision", "health",
     "legal", "other"}
)  # fmt: skip
SLOTS = frozenset(
    {"residence", "hometown", "job", "employer", "school", "relationship_status", "name", "age", "birthday", "phone",
     "email", "diet", "allergy", "pet", "partner", "child", "sibling", "parent", "preference", "favorite",
     "order_status", "subscription", "vehicle", "language"}
)  # fmt: skip
DROP_REASONS = frozenset(
    {"greeting", "thanks", "sign_off", "reaction", "compliment", "agreement", "filler", "empty_question", "vague",
     "small_talk", "assistant", "hypothetical"}
)  # fmt: skip


@dataclass(frozen=True)
class CorpusTurn:
    """One turn of a dialogue with its label; a dropped turn has no type, slot, value or fact."""

    id: str
    dialogue: str
    register: str
    lang: str
    role: str
    speaker: str
    text: str
    keep: bool
    type: str | None
    slot: str | None
    value: str | None
    fact: str | None
    reason: str
    split: str


@cache
def _turns() -> tuple[CorpusTurn, ...]:
    text = resources.files(__name__).joinpath("turns.jsonl").read_text(encoding="utf-8")
    return tuple(CorpusTurn(**json.loads(line)) for line in text.splitlines() if line.strip())


def load_turns() -> list[CorpusTurn]:
    """Return every turn of the corpus in file order (dialogues consecutive, turns in order)."""
    return list(_turns())


@cache
def _batches() -> tuple[CorpusTurn, ...]:
    folder = resources.files(__name__).joinpath("batches")
    rows: list[CorpusTurn] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".jsonl"):
            lines = entry.read_text(encoding="utf-8").splitlines()
            rows.extend(CorpusTurn(**json.loads(line)) for line in lines if line.strip())
    return tuple(rows)


def load_batches() -> list[CorpusTurn]:
    """Every turn of the blind batches (batches/*.jsonl, README "Batches"), by file name then in file order: labelled
    after the rules by writers who read only the README. Their `split` is the writer's: only `train` turns inform a
    type; none is in the corpus's holdout."""
    return list(_batches())
