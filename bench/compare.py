"""Compare the recall figures of two bench results to 3 decimals (`make bench` JSON files).

    .venv/bin/python -m bench.compare bench/results/latest-full.json bench/results/<run>.json

Every number under `locomo_recall` and `context_recall` that is not a timing or a token count (recall@k, hit@10,
MRR, per category and mode, the baselines) is compared rounded to 3 decimals; the differences are listed, and
the exit status is 1 when there is any.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SECTIONS = ("locomo_recall", "context_recall")
SKIPPED = ("latency", "tokens", "_ms", "seconds", "started", "finished")


def figures(data: Any, path: str = "") -> Iterator[tuple[str, float]]:
    """(path, value) of every number in `data` except timings and token counts."""
    if isinstance(data, dict):
        for key, value in data.items():
            if not any(skip in str(key) for skip in SKIPPED):
                yield from figures(value, f"{path}/{key}")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from figures(value, f"{path}[{i}]")
    elif isinstance(data, int | float) and not isinstance(data, bool):
        yield path, float(data)


def differences(before: dict[str, Any], after: dict[str, Any]) -> tuple[int, list[str]]:
    """How many figures were compared, and a line for each that differs at 3 decimals (or is missing)."""
    compared, out = 0, []
    for section in SECTIONS:
        old = dict(figures(before.get(section, {}), section))
        new = dict(figures(after.get(section, {}), section))
        for path in sorted(old.keys() | new.keys()):
            compared += 1
            a, b = old.get(path), new.get(path)
            if a is None or b is None or round(a, 3) != round(b, 3):
                out.append(f"{path}: {a} -> {b}")
    return compared, out


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    before, after = (json.loads(Path(p).read_text(encoding="utf-8")) for p in args[:2])
    compared, diffs = differences(before, after)
    print(f"{compared} figures compared, {len(diffs)} differ at 3 decimals")
    for line in diffs:
        print("  " + line)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
