"""The labelled corpus is whole: enough turns, both languages and all registers, labels from the allowed sets, a
held-out quarter chosen by dialogue with the rule its README states, and no fact from an assistant turn."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

import pytest

from facts.extraction.corpus import (
    DROP_REASONS,
    LANGS,
    REGISTERS,
    ROLES,
    SLOTS,
    SPLITS,
    TYPES,
    CorpusTurn,
    load_turns,
)

TURNS = load_turns()
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _share(turns: list[CorpusTurn], predicate: object) -> float:
    assert callable(predicate)
    return sum(1 for turn in turns if predicate(turn)) / len(turns)


def test_the_corpus_is_large_enough_and_ids_are_unique() -> None:
    assert len(TURNS) >= 400
    ids = [turn.id for turn in TURNS]
    assert len(set(ids)) == len(ids)
    for turn in TURNS:
        assert turn.id.startswith(turn.dialogue + "-"), turn.id


def test_the_turns_of_a_dialogue_are_consecutive_and_in_order() -> None:
    seen: set[str] = set()
    previous: CorpusTurn | None = None
    for turn in TURNS:
        number = int(turn.id.rsplit("-", 1)[1])
        if previous is not None and turn.dialogue == previous.dialogue:
            assert number == int(previous.id.rsplit("-", 1)[1]) + 1, turn.id
        else:
            assert turn.dialogue not in seen, f"{turn.dialogue} resumes after another dialogue"
            assert number == 1, turn.id
            seen.add(turn.dialogue)
        previous = turn


def test_fields_take_their_values_from_the_allowed_sets() -> None:
    for turn in TURNS:
        assert turn.register in REGISTERS, turn.id
        assert turn.lang in LANGS, turn.id
        assert turn.role in ROLES, turn.id
        assert turn.split in SPLITS, turn.id
        assert turn.speaker.strip() and turn.text.strip(), turn.id
        assert turn.type is None or turn.type in TYPES, turn.id
        assert turn.slot is None or turn.slot in SLOTS, turn.id


def test_both_languages_and_every_register_in_each_are_present() -> None:
    assert _share(TURNS, lambda t: t.lang == "en") >= 0.4
    assert _share(TURNS, lambda t: t.lang == "zh") >= 0.4
    pairs = {(turn.register, turn.lang) for turn in TURNS}
    for register in REGISTERS:
        for lang in ("en", "zh"):
            assert (register, lang) in pairs, (register, lang)


def test_keep_and_drop_are_both_well_represented() -> None:
    assert 0.3 <= _share(TURNS, lambda t: t.keep) <= 0.7


@pytest.mark.parametrize("turn", [t for t in TURNS if not t.keep], ids=lambda t: t.id)
def test_a_dropped_turn_has_a_reason_and_nothing_kept(turn: CorpusTurn) -> None:
    assert (turn.type, turn.slot, turn.value, turn.fact) == (None, None, None, None)
    assert turn.reason in DROP_REASONS


@pytest.mark.parametrize("turn", [t for t in TURNS if t.keep], ids=lambda t: t.id)
def test_a_kept_turn_has_a_type_a_fact_in_its_language_and_a_reason(turn: CorpusTurn) -> None:
    assert turn.type in TYPES
    assert turn.fact and turn.fact.strip()
    assert turn.reason.strip() and turn.reason not in DROP_REASONS
    assert turn.value is None or turn.slot is not None, "a value belongs to a slot"
    # Chinese and mixed turns are stored as Chinese facts, English turns as English ones.
    assert bool(_CJK.search(turn.fact)) == (turn.lang != "en"), turn.fact


def test_assistant_turns_yield_no_fact_and_only_they_carry_that_reason() -> None:
    for turn in TURNS:
        assert (turn.role == "assistant") == (turn.reason == "assistant"), turn.id
        if turn.role == "assistant":
            assert not turn.keep, turn.id


# The first twelve dialogues of each register and language (72 in all) were split before any tuning; dialogues
# numbered 13 and on were written later to widen the train split and are all train, so the holdout stays the same
# unseen phrasings. Dialogues numbered 90 and on were written after the rules were tuned, by a writer who read only
# the corpus README and train turns, never the rules: all holdout, they bring the held-out share back to a quarter.
_FIRST = 12
_BLIND = 90


def _number(dialogue: str) -> int:
    return int(dialogue.rsplit("-", 1)[1])


def test_the_holdout_is_a_quarter_chosen_by_dialogue() -> None:
    by_dialogue: dict[str, set[str]] = defaultdict(set)
    for turn in TURNS:
        by_dialogue[turn.dialogue].add(turn.split)
    assert all(len(splits) == 1 for splits in by_dialogue.values())
    assert 0.22 <= _share(list(TURNS), lambda t: t.split == "holdout") <= 0.35
    first = [t for t in TURNS if _number(t.dialogue) <= _FIRST]
    assert 0.22 <= _share(first, lambda t: t.split == "holdout") <= 0.30
    for register in REGISTERS:
        part = [t for t in first if t.register == register]
        assert 0.2 <= _share(part, lambda t: t.split == "holdout") <= 0.3, register
    for lang in ("en", "zh"):
        part = [t for t in first if t.lang == lang]
        assert 0.2 <= _share(part, lambda t: t.split == "holdout") <= 0.3, lang


def test_the_holdout_follows_the_stated_rule_every_fourth_dialogue_per_register_and_language() -> None:
    order: dict[str, list[str]] = defaultdict(list)  # "en-svc" -> its dialogues in file order
    split_of: dict[str, str] = {}
    for turn in TURNS:
        group = turn.dialogue.rsplit("-", 1)[0]
        if turn.dialogue not in order[group]:
            order[group].append(turn.dialogue)
        split_of[turn.dialogue] = turn.split
    assert len(order) == 6
    for dialogues in order.values():
        numbered = [_number(d) for d in dialogues if _number(d) < _BLIND]
        blind = [_number(d) for d in dialogues if _number(d) >= _BLIND]
        assert numbered == list(range(1, len(numbered) + 1)), dialogues
        assert blind == list(range(_BLIND, _BLIND + len(blind))), dialogues
        for index, dialogue in enumerate(dialogues):
            held = index < _FIRST and index % 4 == 3 or _number(dialogue) >= _BLIND
            assert split_of[dialogue] == ("holdout" if held else "train"), dialogue


def test_every_type_and_the_main_slots_have_examples_in_both_splits() -> None:
    kept = [t for t in TURNS if t.keep]
    for split in SPLITS:
        types = Counter(t.type for t in kept if t.split == split)
        assert set(types) == TYPES, (split, TYPES - set(types))
    slots = Counter(t.slot for t in kept if t.split == "holdout")
    for slot in ("residence", "employer", "allergy", "pet", "partner", "child", "phone", "preference"):
        assert slots[slot] >= 1, slot
