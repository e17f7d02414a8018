"""Working abroad and growing food: a deposit not returned, being cheated (被坑了), water in a device, a connection that
drops, a card declined and something thought included are complaints; a criminal record, a visa on arrival and a
notice to quit are legal; a stent and a doctor on a weekday are health; 那订 / 那我订 and "cancel the ..." after a
lead are decisions, "I'll pick you up" is not; a business's fees and "are those extra" are asked of it; a contact
detail given without its owner is the speaker's; a Chinese question after statements keeps what is stated. Phrasings
of this file's own, in both languages where the rule reads both."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import answer_of, facts_of, first_kind, rule_type_of


@pytest.mark.parametrize(
    "text",
    [
        "搬走快两个月了，押金到现在还没退",
        "在大理租房被中介坑了",
        "手机昨晚进水了，开不了机",
        "这个公寓一刮风网就断，根本没法开会",
        "my card keeps getting declined at every cash machine here",
        "I thought breakfast was included, it's on your website",
    ],
)
def test_a_fault_without_the_word_is_a_complaint(text: str) -> None:
    assert rule_type_of(text) == "complaint"


@pytest.mark.parametrize(
    "text",
    [
        "申请签证要开无犯罪记录证明",
        "落地签只给了三十天",
        "the council sent me a notice to quit for the plot",
        "they asked whether I have a criminal record",
    ],
)
def test_a_record_a_visa_on_arrival_and_a_notice_to_quit_are_legal(text: str) -> None:
    assert rule_type_of(text) == "legal"


@pytest.mark.parametrize("text", ["去年做了心脏支架，现在每天吃药", "doctor on friday about the rash on my arms"])
def test_a_stent_and_a_doctor_on_a_weekday_are_health(text: str) -> None:
    assert first_kind(text) == "health"


@pytest.mark.parametrize(
    "text", ["那订周六上午那场吧", "那我订两晚的双床房", "ok, and cancel the music add-on, never use it"]
)
def test_booking_it_and_cancelling_after_a_lead_are_decisions(text: str) -> None:
    assert rule_type_of(text) == "decision"


@pytest.mark.parametrize("text", ["I'll pick you up at six and we'll drive over", "那订单号我再发你一遍"])
def test_a_lift_offered_or_an_order_number_is_no_decision(text: str) -> None:
    assert rule_type_of(text) != "decision"


@pytest.mark.parametrize(
    "text", ["what are your fees for paying by card abroad", "do the day passes cover lockers or are those extra?"]
)
def test_a_businesss_fees_are_asked_of_it(text: str) -> None:
    assert first_kind(text) == "inquiry"


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("sure, it's jo.baxter@example.org if you need to write", "email", "jo.baxter@example.org"),
        ("no, use 0161 496 0321 instead, the other one's dead", "phone number", "0161 496 0321"),
    ],
)
def test_a_contact_detail_given_without_its_owner_is_the_speakers(text: str, kind: str, value: str) -> None:
    facts = facts_of(text)
    assert facts and facts[0][1].startswith(f"User's {kind} is {value}"), facts


def test_robbery_said_of_a_price_is_a_reaction() -> None:
    assert first_kind("daylight robbery lol") == "drop"


def test_a_chinese_question_after_the_listeners_news_keeps_nothing_of_it() -> None:
    assert first_kind("对了你呢？上次说在考虑换工作，定了吗？") == "drop"


def test_a_chinese_question_after_statements_keeps_what_is_stated() -> None:
    facts = answer_of("请留一下姓名、电话和住址。", "王小明，13712345678，住在天河区体育西路那边，门牌号也要写吗")
    assert facts and "13712345678" in facts[0][1] and "门牌号" not in facts[0][1], facts
