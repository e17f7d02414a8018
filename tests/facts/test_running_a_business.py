"""A year of running a small business: options an assistant enumerates, picked by label or place, are decisions
(ideas it suggests are not); a plan moved up or down on the user's request is said as asked; a bank's rates asked
about; no follow-up is a grievance; "it has broken me", a hedged yes to an offer, 在考虑 and a condition after an
opener keep nothing; a piece of work asked for as a question keeps nothing; goods sent instead of others are a
fault; a device or a profession named by a health word is no health; a liability or a life policy, the small
claims court and a lease signed for years are legal; a drug a doctor put the speaker on is health; the name of a
workplace is no policy. Phrasings of this file's own, in both languages where the rule reads both."""

from __future__ import annotations

import pytest

from facts.extraction.enumerated import option_picked, options_of
from tests.facts.user_turn import answer_of, facts_of, first_kind

PRICES = (
    "Going by your costs there are three ways to do it: (a) £3.20 from Monday, (b) £3.00 now and £3.20 after "
    "Easter, (c) £3.40 with a stamp card. Which would you go for?"
)
PLANS = "We have three tiers: 1. Basic at £8 a month, 2. Team at £20 a month, 3. Studio at £45 a month."
ROUTES_ZH = "按你现在的情况有三条路：一，先在网上开店试水；二，直接租个小门面；三，先去市集摆摊攒口碑。你倾向哪个？"


def test_enumerated_options_are_read_in_order_with_their_labels() -> None:
    assert options_of(PRICES) == ("£3.20 from Monday", "£3.00 now and £3.20 after Easter", "£3.40 with a stamp card")
    assert options_of(PLANS) == ("Basic at £8 a month", "Team at £20 a month", "Studio at £45 a month")
    assert options_of(ROUTES_ZH) == ("先在网上开店试水", "直接租个小门面", "先去市集摆摊攒口碑")
    assert options_of("Call us at 3. Or pop in on Friday.") == ()  # one label is no list


@pytest.mark.parametrize(
    ("assistant", "reply", "chosen"),
    [
        (PRICES, "b, most of my customers are students", "£3.00 now and £3.20 after Easter"),
        (PRICES, "C please", "£3.40 with a stamp card"),
        (PLANS, "option 2", "Team at £20 a month"),
        (PLANS, "the third one", "Studio at £45 a month"),
        (ROUTES_ZH, "第三个吧", "先去市集摆摊攒口碑"),
        (ROUTES_ZH, "选二", ""),  # a numeral alone is not read as a label
    ],
)
def test_an_option_is_picked_by_its_label_or_its_place(assistant: str, reply: str, chosen: str) -> None:
    assert option_picked(reply, assistant) == chosen


@pytest.mark.parametrize(
    ("assistant", "reply", "word"),
    [
        (PRICES, "b, most of my customers are students", "£3.00"),
        (PLANS, "option 2", "Team"),
        (ROUTES_ZH, "第三个吧", "市集"),
    ],
)
def test_the_option_picked_is_the_users_decision(assistant: str, reply: str, word: str) -> None:
    found = answer_of(assistant, reply)
    assert found and found[0][0] == "decision" and word in found[0][1], found


@pytest.mark.parametrize(
    ("assistant", "reply"),
    [
        (
            "A few ideas for the window: 1) pastel bunting, 2) a chalkboard menu, 3) fairy lights. Any take your fancy?",
            "the second one",
        ),  # fmt: skip
        ("可以考虑这几种开场白：1. 讲个笑话；2. 先自我介绍；3. 直接上干货。", "第二个"),
    ],
)
def test_an_idea_suggested_and_taken_is_no_decision(assistant: str, reply: str) -> None:
    assert answer_of(assistant, reply) == []


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("right, upgrade me to the Studio tier", "asked to be upgraded to the Studio tier"),
        ("could you move us to the quarterly billing please", "asked to be moved to the quarterly billing"),
    ],
)
def test_a_plan_changed_on_request_is_a_decision_said_as_asked(text: str, said: str) -> None:
    facts = facts_of(text)
    assert facts and facts[0][0] == "decision" and said in facts[0][1], facts


@pytest.mark.parametrize(
    "text",
    ["what are your merchant card rates for small shops?", "what's the overdraft limit on a sole trader account?"],
)
def test_a_banks_rates_asked_about_are_an_inquiry(text: str) -> None:
    assert first_kind(text) == "inquiry"


@pytest.mark.parametrize(
    "text",
    [
        "I've rung twice about the till and nobody followed up",
        "报修三天了，一直没人跟进",
        "说好今天回电话，到现在都没人follow up",
    ],
)
def test_no_follow_up_is_a_grievance(text: str) -> None:
    assert first_kind(text) == "complaint"


@pytest.mark.parametrize(
    "text",
    [
        "maybe I'll take you up on that next month",
        "I might hold you to that",
        "还在考虑，或许明年让我外甥来帮忙吧",
        "老实说，要是有人出五十万买我的店，我估计就卖了",
    ],
)
def test_a_figure_of_speech_a_hedge_or_a_condition_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


def test_being_worn_out_is_no_broken_thing() -> None:
    assert first_kind("the wedding season has broken me") != "complaint"
    assert first_kind("the wedding season broke me, I slept for two days") != "complaint"
    assert first_kind("the mixer you sold me is broken") == "complaint"


def test_mainly_is_no_condition() -> None:
    assert first_kind("主要是我上个月查出来腰椎间盘突出，站不了太久") == "health"


@pytest.mark.parametrize(
    "text",
    ["help me work out what to charge for a wedding cake?", "so can you help me sort out my invoices this week"],
)
def test_a_piece_of_work_asked_for_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize("text", ["那你帮我打听打听", "好啊，你帮我问一下"])
def test_a_friend_asked_to_find_out_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "the wholesaler delivered ten boxes of oat milk instead of soya again",
        "you sent me the A5 flyers instead of the A4 ones I paid for",
    ],
)
def test_goods_sent_instead_of_others_are_a_fault(text: str) -> None:
    assert first_kind(text) == "complaint"


def test_a_choice_instead_of_another_stays_a_decision() -> None:
    assert first_kind("I'll go with the walnut counter instead of the oak") == "decision"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("上周在你们这买的汽车诊断仪，一开机就花屏", "complaint"),
        ("我报了明年三月的心理咨询师考试", "commitment"),
    ],
)
def test_a_device_or_a_profession_named_by_a_health_word_is_no_health(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "给店里买了份公众责任险，一年三千二",
        "if the invoice isn't paid by Friday it's going to small claims",
        "铺子租下来了，合同签了五年",
    ],
)
def test_a_policy_the_small_claims_court_and_a_lease_for_years_are_legal(text: str) -> None:
    assert first_kind(text) == "legal"


def test_a_drug_a_doctor_put_the_speaker_on_is_health() -> None:
    assert first_kind("my doctor put me on propranolol before the trade fair") == "health"


def test_the_name_of_a_workplace_is_no_policy() -> None:
    facts = facts_of("I finally handed in my notice at Halden Insurance yesterday")
    assert facts and facts[0][0] == "profile", facts
    assert first_kind("my car insurance with Halden went up by £200") == "legal"
