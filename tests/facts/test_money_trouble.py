"""A year of money trouble: a job lost or found and work taken on the side are who the speaker is now (kept without the
classifier's veto, typed profile); a debt and arrears are legal; money promised
back to the listener and a dated interview are plans; a bill against its plan or its usual is a complaint, and so is a
car that broke down in slang; "不修了" and "那就…" after a proposal are decisions; an income beside a request for a plan is
kept; the last digits of a card asked for are kept. Phrasings of this file's own, in both
languages where the rule reads both."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import answer_of, facts_of, first_kind


@pytest.mark.parametrize(
    "text",
    [
        "they let me go on tuesday, the whole call centre is closing",
        "I lost my job back in October",
        "我被裁了，整个部门都没了",
        "最近晚上在跑外卖，一单五六块",
        "周末接点剪视频的私单",
    ],
)
def test_a_job_lost_or_work_on_the_side_is_kept_as_profile(text: str) -> None:
    assert first_kind(text) == "profile"


@pytest.mark.parametrize(
    "text",
    [
        "I owe nearly 4,000 across two credit cards",
        "three months behind on the rent and the agent keeps ringing",
        "我信用卡逾期了一个月，银行天天打电话",
        "网贷逾期了两期，催收天天打电话",
    ],
)
def test_a_debt_and_arrears_are_legal(text: str) -> None:
    assert first_kind(text) == "legal"


@pytest.mark.parametrize("text", ["I'll pay you back the 200 on Friday", "发了工资就还你，最晚十五号"])
def test_money_promised_back_to_the_listener_is_a_plan(text: str) -> None:
    assert first_kind(text) == "commitment"


@pytest.mark.parametrize(
    "text", ["got a second interview at the council next tuesday, 11am", "下周三上午有个复试，在园区那边"]
)
def test_a_dated_interview_is_a_plan(text: str) -> None:
    assert first_kind(text) == "commitment"


@pytest.mark.parametrize(
    "text",
    [
        "my bill came to 118 this month but my tariff is 35",
        "燃气费这个月三百多，往常才八十",
        "车又抛锚了，在环线上等拖车",
    ],
)
def test_a_bill_against_its_plan_and_a_breakdown_in_slang_are_complaints(text: str) -> None:
    assert first_kind(text) == "complaint"


def test_halved_income_is_no_missing_item() -> None:
    assert first_kind("工资少了一半，房租还涨了") != "complaint"


def test_needing_less_data_is_no_fault() -> None:
    assert first_kind("把流量包换成20G的吧，现在用不了那么多") == "decision"


@pytest.mark.parametrize("text", ["修一次要八千，车不修了，直接卖", "我是3栋的租户，想提前退租"])
def test_a_repair_given_up_and_a_lease_ended_early_are_decisions(text: str) -> None:
    assert first_kind(text) == "decision"


@pytest.mark.parametrize(
    "text", ["帮我规划一下存钱吧 每月到手一万二", "help me plan a budget, I take home 1,900 a month"]
)
def test_an_income_beside_a_request_is_kept(text: str) -> None:
    facts = facts_of(text)
    assert facts and facts[0][0] == "other" and ("一万二" in facts[0][1] or "1,900" in facts[0][1]), facts


def test_the_last_digits_of_a_card_asked_for_are_kept() -> None:
    facts = answer_of("Thanks. Can you confirm the last four digits of the card please?", "2208")
    assert facts and "2208" in facts[0][1], facts


def test_a_job_lost_by_someone_named_by_a_pronoun_is_not_the_speakers() -> None:
    assert first_kind("她上个月被裁了，一直没找到") != "profile"
