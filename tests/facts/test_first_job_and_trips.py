"""A first job and a trip: a pay rise won happened; a train or a flight cancelled, a wrong tax code and tax taken twice
are complaints; an agent's "And your full name and date of birth, please?" is answered by the bare reply (the
"please" after a comma no longer hides what was asked); an offer that finally came (offer终于下来了) happened.
Phrasings of this file's own, in both languages where the rule reads both."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import answer_of, first_kind, rule_type_of


@pytest.mark.parametrize("text", ["we finally got the pay rise we asked for!!", "the offer总算下来了，下个月入职"])
def test_a_pay_rise_or_an_offer_that_came_is_kept(text: str) -> None:
    assert first_kind(text) in {"event", "profile"}


@pytest.mark.parametrize(
    "text",
    [
        "the 8:05 was cancelled again this morning",
        "my flight got cancelled two hours before boarding",
        "高铁又取消了，改签都改不了",
        "pretty sure they've put me on an emergency tax code",
        "这个月个税被扣多了",
    ],
)
def test_a_service_cancelled_or_a_tax_code_wrong_is_a_complaint(text: str) -> None:
    assert rule_type_of(text) == "complaint"


def test_a_trip_the_speaker_cancelled_is_no_complaint() -> None:
    assert rule_type_of("I cancelled the flight and booked the train instead") != "complaint"


@pytest.mark.parametrize(
    ("question", "reply", "said"),
    [
        ("Thanks. And your full name and date of birth, please?", "Maya Lindqvist, 2 May 1999", "Maya Lindqvist"),
        ("Lovely. And the postcode, please?", "M14 5RT", "M14 5RT"),
    ],
)
def test_a_reply_to_and_your_thing_please_is_kept(question: str, reply: str, said: str) -> None:
    facts = answer_of(question, reply)
    assert facts and facts[0][0] == "profile" and said in facts[0][1]
