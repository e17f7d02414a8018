"""A year of buying a first home: a spouse, a parent or an in-law opening a Chinese clause with 我 dropped is the
speaker's relative (kept, said as the speaker's); a trade that turned up hours late or never came is a complaint; a
kind of house bought is a possession; a reference with slashes is an id; "如果 X 我就 Y" is a hypothetical; an amount
beside other words is not "other" by the shape alone. Phrasings of this file's own, in both languages where the rule
reads both."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import answer_of, facts_of, first_kind


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("老公上个月辞职了", "用户的老公"),
        ("岳父刚做完心脏搭桥", "用户的岳父"),
        ("还好吧，就是公公也要搬来一起住", "用户的公公"),
        ("老妈下周过来帮我们收拾新家", "用户的老妈"),
    ],
)
def test_a_spouse_or_parent_opening_a_chinese_clause_is_the_speakers(text: str, said: str) -> None:
    facts = facts_of(text)
    assert facts and facts[0][0] == "relationship" and said in facts[0][1], facts


@pytest.mark.parametrize("text", ["老公你太好了吧", "妈的，钥匙又找不到了", "你老公辞职了？"])
def test_a_kin_word_called_to_sworn_with_or_asked_about_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "the electrician showed up four hours late and left the socket hanging off the wall",
        "booked the fitters for 8am, nobody turned up",
        "no one has been on site since the skip arrived",
        "装空调的师傅迟到了两个多小时",
        "说好周三来量尺寸，到现在没人来",
    ],
)
def test_a_trade_hours_late_or_never_there_is_a_complaint(text: str) -> None:
    assert first_kind(text) == "complaint"


@pytest.mark.parametrize("text", ["I was two hours late for the viewing", "nobody showed up to my housewarming"])
def test_being_late_oneself_or_an_empty_party_is_no_complaint(text: str) -> None:
    assert first_kind(text) != "complaint"


@pytest.mark.parametrize(
    "text",
    ["we finally bought a 1960s bungalow near the station", "just bought a two-up two-down terrace in Wigan"],
)
def test_a_kind_of_house_bought_is_a_possession(text: str) -> None:
    assert first_kind(text) in {"profile", "event"}


def test_a_reference_with_slashes_is_an_id() -> None:
    assert first_kind("file ref KT/19/4402") == "other"


@pytest.mark.parametrize("text", ["如果房价再跌10% 我就入手", "嗯 如果首付凑够了我们就买"])
def test_if_then_i_would_is_a_hypothetical(text: str) -> None:
    assert facts_of(text) == []


def test_an_amount_beside_a_home_is_not_an_amount_alone() -> None:
    assert first_kind("新房子120平，总价380万，是我们自己的第一套房") != "other"


def test_a_number_chosen_between_two_is_a_decision_with_its_unit() -> None:
    found = answer_of("Would you like to spread it over 6 or 9 months?", "9 please, on the 1st")
    assert found and found[0][0] == "decision" and "9 months" in found[0][1], found


def test_payment_held_back_is_a_decision() -> None:
    assert first_kind("we're withholding the final payment until the snagging list is done") == "decision"
