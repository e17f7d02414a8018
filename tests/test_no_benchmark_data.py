"""The LoCoMo benchmark's licence is non-commercial: the project reads it from ../shared and never holds any
of its text. This fails if a tracked file quotes a turn, a caption or a question from it (6 words in a row)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from bench.common import LOCOMO_PATH as LOCOMO  # where the bench reads it: ../shared, or the machine's copy

ROOT = Path(__file__).resolve().parent.parent
_WORD = re.compile(r"\w+")
RUN = 6  # 8 let a six-word quote through; generic phrases of six words happen not to collide


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    return {tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}


def test_no_tracked_file_quotes_the_benchmark() -> None:
    if not LOCOMO.exists():
        pytest.skip("the LoCoMo file is not beside the project on this machine")
    try:
        tracked = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))
    quoted: set[tuple[str, ...]] = set()
    for sample in data:
        for qa in sample.get("qa", []):
            quoted |= _shingles(str(qa.get("question", "")))
        for key, turns in sample.get("conversation", {}).items():
            if key.startswith("session_") and isinstance(turns, list):
                for turn in turns:
                    quoted |= _shingles(f"{turn.get('text', '')} {turn.get('blip_caption', '')}")
    offending = []
    for name in tracked:
        path = ROOT / name
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if _shingles(text) & quoted:
            offending.append(name)
    assert offending == []
