"""A cold house and starting over: a bill called wrong, nothing heard back (没动静, 一直不回), a visit that never came
(压根没来), repeated repairs (修了三回), a boiler that keeps losing pressure, being fobbed off (糊弄) and scaffolding still
up weeks later are complaints (a plant dropping leaves or a friend not answering is none); mediation (调解) is legal; a counsellor and COPD are health; holding off, a switch of
supplier (switch到) and closing an account (想销户) are decisions; living on benefits is who one is; 那口子 is a partner;
a dating app is a relationship status; a wish held for years is a preference. Phrasings of this file's own, in both
languages where the rule reads both."""

from __future__ import annotations

import pytest

from facts.extraction.typer import slot_family
from tests.facts.user_turn import first_kind, rule_type_of


@pytest.mark.parametrize(
    "text",
    [
        "the quarterly bill says £960, that can't be right for a one-bed flat",
        "报修快两周了，物业那边一点动静都没有",
        "给中介发了好几次消息，一直不回",
        "约好周三上门的师傅压根没来",
        "这台热水器今年修了四次了",
        "the boiler keeps losing pressure overnight",
        "客服就会糊弄人，问啥都说在处理",
        "the skip is still there three weeks later and blocking the drive",
    ],
)
def test_a_fault_without_the_word_is_a_complaint(text: str) -> None:
    assert rule_type_of(text) == "complaint"


@pytest.mark.parametrize("text", ["why does my basil keep dropping leaves", "群里有个人一直不回消息，烦死"])
def test_a_plant_or_a_friend_is_no_business_at_fault(text: str) -> None:
    assert rule_type_of(text) != "complaint"


@pytest.mark.parametrize("text", ["上周去法院调解，房子判给我了", "we agreed the childcare split through a mediator"])
def test_mediation_is_legal(text: str) -> None:
    assert rule_type_of(text) == "legal"


@pytest.mark.parametrize(
    "text",
    [
        "my counsellor thinks I should write it all down",
        "been going to counselling since the split",
        "I've had COPD for about six years",
    ],
)
def test_a_counsellor_and_copd_are_health(text: str) -> None:
    assert first_kind(text) == "health"


@pytest.mark.parametrize(
    "text", ["the debt counsellor at the charity sorted a payment plan", "I'm looking into counselling as a career"]
)
def test_counselling_as_work_or_money_advice_is_no_health(text: str) -> None:
    assert rule_type_of(text) != "health"


@pytest.mark.parametrize(
    "text", ["I'll hold off on the new windows until spring", "上个月switch到了一家新的电力公司", "那张旧卡我想销户"]
)
def test_holding_off_switching_and_closing_are_decisions(text: str) -> None:
    assert rule_type_of(text) == "decision"


@pytest.mark.parametrize("text", ["I'm on universal credit at the moment", "家里是低保户，每个月有补助"])
def test_living_on_benefits_is_who_one_is(text: str) -> None:
    assert rule_type_of(text) == "profile"


def test_na_kouzi_is_a_partner() -> None:
    assert slot_family(None, "我家那口子天天加班到半夜") == "partner"


@pytest.mark.parametrize("text", ["back on the dating apps after ten years, terrifying", "我妈又给我安排了相亲"])
def test_dating_again_is_a_relationship_status(text: str) -> None:
    assert slot_family(None, text) == "relationship_status"


@pytest.mark.parametrize(
    "text", ["the hinge on the garden gate snapped again", "deleted Tinder after two dates, not for me"]
)
def test_a_hinge_is_no_dating_app_but_tinder_is(text: str) -> None:
    assert (slot_family(None, text) == "relationship_status") == ("Tinder" in text)


def test_a_wish_held_for_years_is_a_preference() -> None:
    assert rule_type_of("I've wanted to walk the Camino for years") == "preference"
