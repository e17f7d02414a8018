"""The Chinese half of the relevance calibration: its data set (bench/zh_calibration.json) and when search reads it."""

from __future__ import annotations

import json
from pathlib import Path

from bench.zh_calibration import DATA, load_zh, load_zh_unrelated
from facts.retrieval.relevance import PARAMS_PATH, QuerySignals, calibration
from facts.text import detect_language


def signals(language: str, *, vector_ran: bool, space: str = "base") -> QuerySignals:
    return QuerySignals(
        similarity={}, sim_floor=0.0, bm25={}, vector_ran=vector_ran, language=language, vector_space=space
    )


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
    unrelated = load_zh_unrelated()
    assert len(set(unrelated)) == len(unrelated) >= 40
    assert all(detect_language(q) == "zh" for q in unrelated)
    own = {q.question for c in convs for q in c.qa}
    assert not own & set(unrelated)


def test_a_chinese_query_searched_by_e5_reads_the_chinese_full_models(tmp_path: Path) -> None:
    raw = json.loads(PARAMS_PATH.read_text(encoding="utf-8"))
    committed = calibration()
    e5 = signals("zh", vector_ran=True, space="zh")
    assert committed.zh_full is not None and committed.models(e5) == committed.zh_full
    # Calibrated (an operator's floor applies), but the fitted default floor is not adopted for them.
    assert raw["zh"]["full_adopted"] is False
    assert committed.calibrated_for(e5) and not committed.default_floor_for(e5)
    assert committed.turn_floor(e5) == raw["zh"]["context_floor"] != committed.turn_floor()
    # English, and a Chinese query without e5's vector, read what they read before.
    english = signals("en", vector_ran=True)
    assert committed.models(english) == (committed.full, committed.answerable[0])
    assert committed.calibrated_for(english) and committed.default_floor_for(english)
    assert committed.models(signals("zh", vector_ran=False, space="zh"))[0] is committed.keyword_only
    assert committed.turn_floor() == committed.turn_floor(english) == raw["context_floor"]
    assert committed.turn_floor(signals("zh", vector_ran=False, space="zh")) == raw["context_floor"]

    path = tmp_path / "relevance.json"
    path.write_text(json.dumps({**raw, "zh": {**raw["zh"], "full_adopted": True}}), encoding="utf-8")
    assert calibration(path).default_floor_for(e5)
    path = tmp_path / "older.json"  # (calibration() is read once per path)
    path.write_text(json.dumps({**raw, "zh": {k: v for k, v in raw["zh"].items() if k != "full"}}), encoding="utf-8")
    older = calibration(path)  # a calibration without them: the keyword-only models, as before
    assert older.zh_full is None and older.models(e5)[0] is older.keyword_only and not older.calibrated_for(e5)


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
