"""A year of going back to study, and more of buying a home: a home or a car just bought is a possession, not an
order; a mortgage's signing, a property deed and a conveyancer are legal; goods not what was ordered, an outage of a
website, silence after an application, money not in when due, only part of an order: complaints; a move or a lease
given up or renewed, a job kept: decisions; an exam result and a dated interview or deadline are kept; "you've" of a
business is the business; a number keeps its unit; Physiology is a subject, not physio; insomnia beside looking
after the kids is the speaker's; a guessing teaser and "quick one, if I... would I" keep nothing. Phrasings of this
file's own, in both languages where the rule reads both."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import answer_of, candidates_of, facts_of, first_kind


@pytest.mark.parametrize("text", ["刚买了套老小区的两居室", "刚买了辆二手的比亚迪"])
def test_a_home_or_a_car_just_bought_is_a_possession(text: str) -> None:
    assert [c.type for c in candidates_of(text)] == ["profile"]
    assert all(c.predicate != "subscription" for c in candidates_of(text))


@pytest.mark.parametrize(
    "text",
    [
        "下周三去建行面签，商贷150",
        "不动产权证上只写了我一个人的名字",
        "our conveyancer still hasn't got the searches back",
    ],
)
def test_signing_a_mortgage_a_deed_and_a_conveyancer_are_legal(text: str) -> None:
    assert first_kind(text) == "legal"


@pytest.mark.parametrize(
    "text",
    [
        "I ordered a king size frame and got a double",
        "they delivered us a white hob instead, the one we paid for was black",
        "the council tax portal is down again",
        "sent my application in a month ago and still not heard a thing",
        "my bursary was supposed to go in on Friday and there's nothing",
        "买的是三人位沙发，结果送来的是双人位",
        "订了四把椅子，只送了两把",
        "还好意思收我们停车管理费，车位都没划",
    ],
)
def test_goods_not_as_ordered_an_outage_and_silence_are_complaints(text: str) -> None:
    assert first_kind(text) == "complaint"


@pytest.mark.parametrize(
    "text", ["haven't heard back from my sister since Sunday", "I'm keeping the garden wild this year"]
)
def test_a_relatives_silence_and_a_way_of_keeping_things_are_no_complaint_or_decision(text: str) -> None:
    assert first_kind(text) not in {"complaint", "decision"}


@pytest.mark.parametrize("text", ["房子先不卖了，等明年行情好点", "宿舍再续一年吧", "fine, I'm keeping the car then"])
def test_a_plan_given_up_a_lease_renewed_and_a_thing_kept_are_decisions(text: str) -> None:
    assert first_kind(text) == "decision"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("my viva is on the 12th at 10", "commitment"),
        ("the assignment deadline is Friday", "commitment"),
        ("got 72 on the essay, best mark yet", "event"),
    ],
)
def test_a_dated_viva_or_deadline_and_a_mark_are_kept(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize("text", ["我 mum 下个月要来住两周", "和女朋友开始同居了"])
def test_a_relative_named_in_english_inside_chinese_and_living_together_are_relationships(text: str) -> None:
    assert first_kind(text) == "relationship"


def test_a_business_that_has_done_something_is_named_as_the_business() -> None:
    facts = facts_of("you've sent me the wrong charger twice now")
    assert facts and "the business has sent" in facts[0][1].lower(), facts


def test_a_number_keeps_its_unit_after_a_space() -> None:
    facts = facts_of("装修队说要 8 周，我们下个月先搬去我妈家")
    assert facts and any("8 周" in text for _, text in facts), facts


def test_physiology_is_a_subject_not_physio() -> None:
    assert first_kind("I got a merit in the Physiology module") != "health"


def test_insomnia_beside_looking_after_the_kids_is_the_speakers() -> None:
    assert first_kind("白天上班晚上带娃，最近天天失眠") == "health"


@pytest.mark.parametrize(
    "text", ["哈哈你猜我今天又把什么弄丢了", "quick one, if I dropped to part-time would I lose my loan"]
)
def test_a_guessing_teaser_and_an_if_i_would_i_keep_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize("text", ["考上川大的研究生了！", "我考过雅思了，总分7.5", "终于拿到offer了，下个月入职"])
def test_a_place_or_an_exam_won_in_chinese_is_kept_without_a_subject(text: str) -> None:
    assert first_kind(text) in {"event", "profile"}


def test_someone_elses_exam_is_not_the_speakers() -> None:
    assert first_kind("我家儿子考上北航了，学飞行器设计") == "relationship"


@pytest.mark.parametrize(
    "text", ["我下个月去一家律所做internship", "I do 20 hours a week at the pharmacy on top of the course"]
)
def test_a_placement_and_hours_at_a_workplace_are_work(text: str) -> None:
    assert first_kind(text) == "profile"


def test_a_deadline_opening_the_sentence_is_kept() -> None:
    assert first_kind("deadline's the 3rd of March, so plenty of time") == "commitment"


def test_a_proposal_asked_with_xing_bu_is_accepted_by_a_yes() -> None:
    found = answer_of("抱歉又让您跑空了，我们安排周五上午重新派送，行不？", "行")
    assert found and found[0][0] == "decision" and "重新派送" in found[0][1] and "行不" not in found[0][1], found


def test_one_class_offered_is_chosen_by_naming_it() -> None:
    found = answer_of("周四晚上七点有一个班，还有名额。", "那就周四晚上吧")
    assert found and found[0][0] == "decision" and "周四晚上七点" in found[0][1], found
