"""A question typed without its mark is still a question: it yields no fact when it asks about the world and says
nothing of the speaker ("what's a good age to start piano lessons"), and an inquiry with its subject when it asks a
business about its prices or times ("how much is the annual pass"). Phrasings of this file's own, English and
Chinese; a question that tells something of the speaker keeps it."""

from __future__ import annotations

import pytest

from facts.extraction.gate import is_question

from .user_turn import facts_of


@pytest.mark.parametrize(
    "text",
    [
        "what's a good age to start piano lessons",
        "how long do tulip bulbs need in the ground",
        "what are some good stretches after cycling",
        "where is the nearest launderette round here",
        "which is better for beginners, yoga or pilates",
        "骑完车做什么拉伸比较好",
        "郁金香种球要在土里埋多久",
    ],
)
def test_a_question_about_the_world_without_its_mark_yields_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "how much is the annual pass",
        "how long does the refund usually take",
        "what's the catch after the trial month",
        "年卡多少钱",
        "退款要几天才能到账",
    ],
)
def test_a_business_asked_its_prices_or_times_without_a_mark_is_an_inquiry(text: str) -> None:
    assert [kind for kind, _ in facts_of(text)] == ["inquiry"], facts_of(text)


def test_a_question_that_tells_something_of_the_speaker_is_read_as_told() -> None:
    assert not is_question("how much should I be practising, I'm 52 and just started the cello")
    assert is_question("how long do tulip bulbs need in the ground")
    assert not is_question("What I love most is the quiet")
    facts = facts_of("how do I stretch my calves, I tore one in March and I'm back running now")
    assert facts and any("March" in text for _, text in facts), facts
