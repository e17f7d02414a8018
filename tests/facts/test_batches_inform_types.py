"""The blind batches (facts/extraction/corpus/batches) inform the type where no rule is sure: their English kept
turns join the type exemplars, weighing half beside the definitions' own; they stay out of the holdout."""

from __future__ import annotations

from facts.extraction import type_definitions
from facts.extraction.corpus import load_batches, load_turns


def test_the_batches_are_train_turns_apart_from_the_corpus() -> None:
    batches = load_batches()
    assert len(batches) > 10_000
    assert {t.split for t in batches} <= {"train", "holdout"}
    ids = [t.id for t in batches]
    assert len(ids) == len(set(ids))
    assert not set(ids) & {t.id for t in load_turns()}


def test_english_kept_batch_turns_are_exemplars_and_chinese_ones_are_not() -> None:
    texts = {text for _, text in type_definitions.exemplar_rows()}
    kept = [t for t in load_batches() if t.split == "train" and t.role == "user" and t.keep and t.type]
    assert sum(t.lang == "en" for t in kept) > 2_000
    assert all(t.text in texts for t in kept if t.lang == "en")
    assert not any(t.text in texts for t in kept if t.lang == "zh" and not t.text.isascii())
    held = [t for t in load_batches() if t.split == "holdout" and t.keep and t.lang == "en"]
    assert held and not any(t.text in texts for t in held if t.text not in {k.text for k in kept})


def test_many_turns_on_one_topic_do_not_outvote_the_definitions() -> None:
    # Batch turns about plans and billing are mostly questions; a choice between two of them is still a decision.
    assert type_definitions.nearest_type("Go with the quarterly billing, not monthly.") == "decision"
    assert type_definitions.nearest_type("Put me on the yearly plan instead of the monthly one.") == "decision"
