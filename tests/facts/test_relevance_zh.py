"""The Chinese half of the relevance calibration: its data set (bench/zh_calibration.json) and when search reads it."""

from __future__ import annotations

import json
from pathlib import Path

from bench.zh_calibration import DATA, load_zh
from facts.retrieval.relevance import PARAMS_PATH, QuerySignals, calibration


def signals(language: str, *, vector_ran: bool) -> QuerySignals:
    return QuerySignals(similarity={}, sim_floor=0.0, bm25={}, vector_ran=vector_ran, language=language)


def test_the_calibration_set_is_whole() -> None:
    """Every question cites turns its subject holds, said by the user; the subjects are long enough to calibrate."""
    subjects = json.loads(DATA.read_text(encoding="utf-8"))["subjects"]
    assert len(subjects) >= 8
    for subject in subjects:
        turns = {t["id"]: t for s in subject["sessions"] for t in s["turns"]}
        assert 40 <= len(turns) <= 80, subject["id"]
        assert 15 <= len(subject["questions"]) <= 25, subject["id"]
        for q in subject["questions"]:
            assert q["evidence"] and all(turns[e]["role"] == "user" for e in q["evidence"]), q["q"]
    convs = load_zh()
    assert [c.subject_id for c in convs][:2] == ["zhcal-zh01", "zhcal-zh02"]
    assert {t.role for c in convs for t in c.turns} == {"user", "assistant"}


def test_chinese_reads_the_chinese_models_only_once_adopted(tmp_path: Path) -> None:
    raw = json.loads(PARAMS_PATH.read_text(encoding="utf-8"))
    assert "zh" in raw and raw["zh"]["adopted"] is False  # measured, not adopted (docs/relevance.md)
    committed = calibration()
    assert committed.zh is None and not committed.calibrated_for(signals("zh", vector_ran=False))
    assert committed.models(signals("zh", vector_ran=False)) == (committed.keyword_only, committed.answerable[1])

    path = tmp_path / "relevance.json"
    path.write_text(json.dumps({**raw, "zh": {**raw["zh"], "adopted": True}}), encoding="utf-8")
    adopted = calibration(path)
    assert adopted.zh is not None
    assert adopted.models(signals("zh", vector_ran=False)) == adopted.zh
    assert adopted.calibrated_for(signals("zh", vector_ran=False))
    # English, and Chinese under an embedder that reads it, are what they were.
    assert adopted.models(signals("en", vector_ran=False)) == (adopted.keyword_only, adopted.answerable[1])
    assert not adopted.calibrated_for(signals("en", vector_ran=False))
    assert adopted.models(signals("zh", vector_ran=True)) == (adopted.full, adopted.answerable[0])
