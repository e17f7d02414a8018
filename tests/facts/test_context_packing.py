"""Packing under a token budget, property-based over random histories and budgets."""

from __future__ import annotations

import datetime as dt

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
