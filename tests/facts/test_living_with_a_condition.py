"""A year with a long-term condition: a service's failure beside a health word is the complaint (a label that is not
what was prescribed, no call back, goods not what was ordered, a claim refused, a promised date passed); an income
protection policy is legal, not an amount; options labelled "Option A:" are picked by their letter; "better than last
week" alone keeps nothing; what a service includes, and whether a business has something, are asked about; a sick
note is health; a refund offered and taken keeps the refund offered. Phrasings of this file's own, in both languages
where the rule reads both."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import answer_of, facts_of, first_kind


@pytest.mark.parametrize(
    "text",
    [
        "the label says 20mg but my GP prescribed 10mg, can someone check this",
        "it's been a month and no one has rung me back about my MRI results",
        "在你们店买的血糖试纸，收到的是50片装的，我下单的是100片装的",
        "保险公司把我去年做胃镜那次的理赔拒赔了",
        "说好的三个工作日出体检报告呢，今天都第六天了",
    ],
)
def test_a_services_failure_beside_a_health_word_is_the_complaint(text: str) -> None:
    assert first_kind(text) == "complaint"


def test_an_income_protection_policy_is_legal_and_an_income_an_amount() -> None:
    assert first_kind("I need to make a claim on my income protection policy, ref IP-20391") == "legal"
    assert first_kind("my income is about £38k before tax") == "other"


def test_options_labelled_option_a_and_b_are_picked_by_their_letter() -> None:
    asked = "Two ways to fit it in. Option A: a short walk every lunchtime. Option B: a swim on Tuesdays and Fridays."
    found = answer_of(asked, "A, my lunch break is an hour anyway")
    assert found and found[0][0] == "decision" and "walk every lunchtime" in found[0][1], found


@pytest.mark.parametrize("text", ["比上周好多了", "好点了"])
def test_better_than_before_alone_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


def test_better_than_before_leaves_the_news_after_it() -> None:
    facts = facts_of("比上周好多了，内分泌科医生说是桥本甲状腺炎")
    assert [kind for kind, _ in facts] == ["health"], facts


@pytest.mark.parametrize(
    "text",
    [
        "does the annual membership include the hydrotherapy pool?",
        "你们有适合孕妇的瑜伽课吗",
        "你们店里有没有无麸质的面包",
    ],
)
def test_what_a_service_includes_and_whether_a_business_has_something_are_asked_about(text: str) -> None:
    assert first_kind(text) == "inquiry"


def test_a_friends_why_include_is_no_question_to_a_business() -> None:
    assert facts_of("Why include pilates in your week at all?") == []


def test_a_sick_note_is_health() -> None:
    assert first_kind("医生开了两周病假，下周一开始休") == "health"


def test_a_refund_offered_and_taken_keeps_the_refund_offered() -> None:
    found = answer_of("抱歉发错了货，给您退差价15元可以吗？", "退吧")
    assert found and found[0][0] == "decision" and "退差价15元" in found[0][1], found
