"""Packing under a token budget, property-based over random histories and budgets."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from facts.context.packing import Item, pack
from facts.tokens import count_tokens

WORDS = ["order", "ORD-1234", "Beijing", "allergic", "penicillin", "$1,250", "tomorrow", "meeting", "lawyer",
         "我", "住在", "杭州", "朝阳区", "订单", "过敏", "青霉素", "明天", "开会", "3月15日", "300元", "!", ","]  # fmt: skip
T0 = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)

sentences = st.lists(st.sampled_from(WORDS), min_size=1, max_size=40).map(" ".join)


@st.composite
def histories(draw):  # type: ignore[no-untyped-def]
    turns = draw(st.lists(sentences, min_size=0, max_size=14))
    recent = [Item("recent", f"[2024-01-01 10:{i:02d}] User (user): {t}", t, sort_key=i) for i, t in enumerate(turns)][
        ::-1
    ]  # newest first
    facts = [
        Item("facts", f"- [2024-01-01] {t}", t, sort_key=i)
        for i, t in enumerate(draw(st.lists(sentences, max_size=10)))
    ]
    profile_lines = draw(st.lists(sentences, max_size=8))
    profile = Item("profile", "Profile of u\n" + "\n".join(f"- {s}" for s in profile_lines), truncatable=True)
    summaries = [
        Item("summaries", f"[summary]\n{t}", t, sort_key=i, truncatable=i == 0)
        for i, t in enumerate(draw(st.lists(sentences, max_size=6)))
    ]
    return recent, facts, profile if profile_lines else None, summaries, turns


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=histories(), budget=st.integers(min_value=1, max_value=1500))
def test_budget_is_always_respected_and_recent_turns_stay_a_verbatim_ordered_run(history, budget) -> None:  # type: ignore[no-untyped-def]
    recent, facts, profile, summaries, turns = history
    packed = pack(
        header="Memory context for user u.", recent=recent, facts=facts, profile=profile, summaries=summaries,
        budget=budget, count=count_tokens,
    )  # fmt: skip
    assert packed.tokens == count_tokens(packed.text)
    assert packed.tokens <= budget
    included = [i.payload for i in packed.items["recent"]]
    # The recent turns in the context are the newest ones, verbatim, oldest first, with no gap.
    assert included == (turns[len(turns) - len(included) :] if included else [])
    position = -1
    for item in packed.items["recent"]:
        assert item.text in packed.text
        at = packed.text.index(item.text, position + 1)
        assert at > position
        position = at


def test_large_budget_takes_everything_and_small_budget_keeps_the_newest_turn() -> None:
    recent = [Item("recent", f"turn {i} about 杭州 and ORD-{i}", i, sort_key=i) for i in range(10)][::-1]
    facts = [Item("facts", "- [2024-01-01] Alice is allergic to penicillin.", 1)]
    everything = pack(
        header="h", recent=recent, facts=facts, profile=None, summaries=[], budget=5000, count=count_tokens
    )
    assert [i.payload for i in everything.items["recent"]] == list(range(10))
    assert everything.text.index("Relevant facts") < everything.text.index("Recent turns")
    tight = pack(header="h", recent=recent, facts=facts, profile=None, summaries=[], budget=30, count=count_tokens)
    assert [i.payload for i in tight.items["recent"]] == [9] and tight.tokens <= 30


# --- relevant earlier turns (sections["turns"]) -------------------------------------------------------------------


def _turn(pk: int, text: str = "", day: int = 1) -> Item:
    body = text or f"we talked about the harbour ferry schedule, message {pk}"
    return Item("turns", f"[2024-01-{day:02d} 10:00] Alice (user): {body}", pk, sort_key=(day, pk),
                shows=frozenset({pk}))  # fmt: skip


def _fact(pk: int, sources: tuple[int, ...], text: str = "") -> Item:
    return Item("facts", f"- [2024-01-01] {text or f'Alice takes ferry number {pk}.'}", pk, sort_key=pk,
                shows=frozenset(sources))  # fmt: skip


RECENT = [Item("recent", f"[2024-02-01 10:0{i}] Alice (user): newest turn {i}", 100 + i, sort_key=i) for i in range(4)][
    ::-1
]
SUMMARY = Item(
    "summaries", "[summary, session s1, 2024-01-01 to 2024-01-31]\n" + "Alice talked about boats. " * 20, "s"
)


@pytest.mark.parametrize(
    ("case", "budget", "facts", "turns", "want_facts", "want_turns"),
    [
        ("every turn fits, shown with the facts", 3000, [_fact(1, (11,))], [_turn(12), _turn(13)], [1], [12, 13]),
        ("a turn a chosen fact cites is left out", 3000, [_fact(1, (11,))], [_turn(11), _turn(12)], [1], [12]),
        ("a fact citing two turns leaves both out", 3000, [_fact(1, (11, 12))], [_turn(11), _turn(12)], [1], []),
        (
            "a fact citing a turn and another keeps the turn only if it was not cited",
            3000,
            [_fact(1, (11,)), _fact(2, (12,))],
            [_turn(11), _turn(12), _turn(13)],
            [1, 2],
            [13],
        ),  # fmt: skip
        ("a turn whose fact did not fit stays", 3000, [_fact(1, (11,), "x " * 2000)], [_turn(11)], [], [11]),
        ("no turns, nothing changes", 3000, [_fact(1, (11,))], [], [1], []),
        ("turns without sources on the facts are never deduplicated", 3000, [_fact(1, ())], [_turn(11)], [1], [11]),
    ],
)
def test_relevant_turns_are_packed_deduplicated_and_capped(case, budget, facts, turns, want_facts, want_turns) -> None:  # type: ignore[no-untyped-def]
    packed = pack(
        header="h", recent=[], facts=facts, profile=None, summaries=[], budget=budget, count=count_tokens, turns=turns
    )
    assert [i.payload for i in packed.items["facts"]] == want_facts, case
    assert sorted(i.payload for i in packed.items["turns"]) == sorted(want_turns), case
    assert packed.tokens == count_tokens(packed.text) <= budget, case
    if want_turns:
        assert "## Relevant earlier turns (oldest first)" in packed.text
    else:
        assert "Relevant earlier turns" not in packed.text


@pytest.mark.parametrize(
    ("case", "budget", "want_sections"),
    [
        # Room for the two newest turns, the fact and a relevant turn only: the other recent turns and the summary
        # come after the relevant turn in priority.
        ("tight", 130, {"recent": [102, 103], "facts": [1], "turns": [11], "summaries": []}),
        ("wide", 3000, {"recent": [100, 101, 102, 103], "facts": [1], "turns": [11], "summaries": ["s"]}),
    ],
)
def test_relevant_turns_come_after_top_facts_and_the_newest_turns(case, budget, want_sections) -> None:  # type: ignore[no-untyped-def]
    packed = pack(
        header="h", recent=RECENT, facts=[_fact(1, (9,))], profile=None, summaries=[SUMMARY], budget=budget,
        count=count_tokens, turns=[_turn(11)],
    )  # fmt: skip
    got = {section: [i.payload for i in packed.items[section]] for section in want_sections}
    assert got == want_sections, (case, packed.tokens)
    if budget >= 3000:  # reading order: facts, summaries, relevant earlier turns, recent turns
        marks = ["## Relevant facts", "## Summaries", "## Relevant earlier turns", "## Recent turns"]
        assert [packed.text.index(m) for m in marks] == sorted(packed.text.index(m) for m in marks)


def test_turns_take_at_most_their_share_before_the_summaries() -> None:
    """Four turns would crowd the summary out; capped at TURN_SHARE, three go first, then the summary."""
    turns = [_turn(pk) for pk in range(11, 15)]
    packed = pack(
        header="h", recent=[], facts=[], profile=None, summaries=[SUMMARY], budget=230, count=count_tokens,
        turns=turns,
    )  # fmt: skip
    assert [i.payload for i in packed.items["summaries"]] == ["s"]
    assert [i.payload for i in packed.items["turns"]] == [11, 12, 13]
    assert packed.tokens <= 230


def test_turns_left_over_fill_room_after_summaries_and_dedupe_left_over_facts() -> None:
    """Beyond their share, turns wait until after the summaries; a left-over fact whose source turn is shown by then
    is not added (the same evidence twice)."""
    turns = [_turn(10 + i, "a long turn about the ferry and the harbour and the island " * 3) for i in range(5)]
    big_fact = _fact(1, (14,), "Alice takes the ferry. " * 120)  # over half the budget: left over
    assert 500 < count_tokens(big_fact.text) < 650
    packed = pack(
        header="h", recent=[], facts=[big_fact], profile=None, summaries=[], budget=1000, count=count_tokens,
        turns=turns,
    )  # fmt: skip
    assert packed.items["facts"] == []  # it would fit, but its source turn 14 was shown by then
    assert {i.payload for i in packed.items["turns"]} == {10, 11, 12, 13, 14}
    other = _fact(2, (99,), big_fact.text[16:])  # the same fact citing a turn not shown does get in
    packed = pack(
        header="h", recent=[], facts=[other], profile=None, summaries=[], budget=1000, count=count_tokens,
        turns=turns,
    )  # fmt: skip
    assert [i.payload for i in packed.items["facts"]] == [2] and packed.tokens <= 1000


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    history=histories(),
    turn_texts=st.lists(sentences, max_size=8),
    cited=st.sets(st.integers(min_value=0, max_value=7), max_size=4),
    budget=st.integers(min_value=1, max_value=1500),
)
def test_budget_holds_and_no_turn_repeats_a_chosen_facts_source(history, turn_texts, cited, budget) -> None:  # type: ignore[no-untyped-def]
    recent, _, profile, summaries, _ = history
    turns = [_turn(i, t) for i, t in enumerate(turn_texts)]
    facts = [_fact(100 + i, (i,)) for i in sorted(cited)]
    packed = pack(
        header="Memory context for user u.", recent=recent, facts=facts, profile=profile, summaries=summaries,
        budget=budget, count=count_tokens, turns=turns,
    )  # fmt: skip
    assert packed.tokens == count_tokens(packed.text) <= budget
    fact_sources = {pk for f in packed.items["facts"] for pk in f.shows}
    turn_ids = [i.payload for i in packed.items["turns"]]
    assert not fact_sources & set(turn_ids)
    assert len(turn_ids) == len(set(turn_ids))
