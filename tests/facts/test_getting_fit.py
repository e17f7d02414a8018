"""A year of getting fit: a place won in a race's ballot is kept; a body part taken to be seen (看膝盖) is health; cloth
that shows through, a fault still there after the fixes tried, a trainer who stood the customer up and a yearly charge
on a monthly plan are complaints; a course or a card to give back (想退私教课) and an exchange asked for are decisions; a
Chinese symptom asked about keeps the symptom, the speaker's with 我 dropped. Phrasings of this file's own, in both
languages where the rule reads both."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import facts_of, first_kind


@pytest.mark.parametrize("text", ["厦门马拉松中签了！", "今年的全马我中签了"])
def test_a_place_won_in_a_ballot_is_kept(text: str) -> None:
    assert first_kind(text) != "drop"


@pytest.mark.parametrize("text", ["下午去医院看了腰，说是腰肌劳损", "上周去看牙了，补了两颗"])
def test_a_body_part_taken_to_be_seen_is_health(text: str) -> None:
    assert first_kind(text) == "health"


def test_looking_at_a_look_is_no_doctor() -> None:
    assert first_kind("看牙齿广告真好看") != "health"


@pytest.mark.parametrize(
    "text",
    [
        "新买的白T恤透光，穿不出去",
        "重启了路由器，重装了驱动，还是不行",
        "你们的私教连着放了我两次鸽子",
        "the app billed me 119.99 for annual when I signed up monthly",
    ],
)
def test_a_fault_without_the_word_is_a_complaint(text: str) -> None:
    assert first_kind(text) == "complaint"


@pytest.mark.parametrize("text", ["我想退掉剩下的游泳课，还有六节", "could I exchange these for a size 9 instead"])
def test_a_course_given_back_or_an_exchange_asked_for_is_a_decision(text: str) -> None:
    assert first_kind(text) == "decision"


def test_a_chinese_symptom_asked_about_is_kept() -> None:
    facts = facts_of("最近老是半夜醒，醒了就睡不着，有什么好办法吗")
    assert facts and facts[0][0] == "health", facts
