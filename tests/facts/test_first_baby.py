"""A first baby's year: a child named with its age ("my 18-month-old son", "我三岁的女儿") is the fact's subject; a
part that came off or a seam that split is a fault; a slot chosen among times laid out with 还有 is a decision, also
with a relative in the next clause; a name and an address given when asked for in many words are the user's; "one
more thing" and "dude" lead nothing; a service asked whether it provides something is asked about; a craving is a
preference. Phrasings of this file's own, in both languages where the rule reads both."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import answer_of, candidates_of, facts_of, first_kind


@pytest.mark.parametrize(
    "text",
    [
        "my 18-month-old son has had a fever since Sunday",
        "our newborn daughter isn't latching well at all",
        "my 4 year old keeps waking up at 5am and my 4 year old daughter hates naps",
        "我三岁的女儿最近总是咳嗽",
        "我们家两岁的儿子对鸡蛋过敏",
    ],
)
def test_a_child_named_with_its_age_is_the_subject(text: str) -> None:
    assert first_kind(text) == "relationship"


@pytest.mark.parametrize(
    "text", ["my knee is killing me since I carried my son up the hill", "我腰疼得厉害，天天抱孩子抱的"]
)
def test_the_speakers_own_body_stays_the_speakers_beside_a_child(text: str) -> None:
    assert first_kind(text) == "health"


@pytest.mark.parametrize(
    "text",
    [
        "the buckle came off the car seat strap after a week",
        "I bought this baby sling from you in May and the seam has split already",
        "the stitching ripped along the seam the first time I washed it",
    ],
)
def test_a_part_that_came_off_or_a_split_seam_is_a_fault(text: str) -> None:
    assert first_kind(text) == "complaint"


@pytest.mark.parametrize("text", ["I fell off my bike on the canal path", "the band split up last year"])
def test_falling_off_or_splitting_up_is_no_fault(text: str) -> None:
    assert first_kind(text) != "complaint"


SLOTS_ZH = "目前可以约下周二上午九点 还有下周五下午三点 您看哪个方便"


@pytest.mark.parametrize("reply", ["周五下午那个吧", "周二上午那个吧 我婆婆那天能帮忙带孩子"])
def test_a_time_chosen_among_those_laid_out_is_a_decision(reply: str) -> None:
    found = answer_of(SLOTS_ZH, reply)
    assert found and found[0][0] == "decision", found
    assert "周" in found[0][1] and "您看" not in found[0][1]


def test_a_name_and_address_given_when_asked_for_in_many_words_are_the_users() -> None:
    found = answer_of(
        "Thanks for calling. Could I take your full name and the first line of your address, please?",
        "Ana Souza, 14 Birch Road.",
    )
    assert found and found[0][0] == "profile" and "14 Birch Road" in found[0][1], found


@pytest.mark.parametrize(
    ("text", "lead"),
    [
        ("One more thing: I switched to night shifts last week.", "one more thing"),
        ("dude my landlord sold the flat", "dude"),
    ],
)
def test_a_lead_of_talk_is_not_part_of_the_fact(text: str, lead: str) -> None:
    found = candidates_of(text)
    assert found and all(lead not in c.text.lower() for c in found), [c.text for c in found]


def test_a_service_asked_whether_it_provides_something_is_asked_about() -> None:
    assert first_kind("Do you supply the cot mattress, or do we bring our own?") == "inquiry"


def test_a_craving_is_a_preference() -> None:
    assert first_kind("I've been craving spicy noodles for weeks") == "preference"
    assert facts_of("the craving is real lol") == []
