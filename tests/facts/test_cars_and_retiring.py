"""A year with a car and a year of retiring: a car named by its make or model fills the vehicle slot, and is a
possession only with a word of having it (a make alone may be one looked at or one broken down); a premium, a
claim made on a policy (出过险), a liability fixed (全责) and a licence held (才拿的本) are legal; retiring said in
English is work news, a pension (退休金) or a retirement present is not; a blood pressure reading, a slipped disc,
altitude sickness and a strained back are health; a partner called 老伴 or 爱人 is a partner; a birth told by its day
(周五凌晨生的) is an event; a routine one has to keep is who one is, not a plan; a place named after a relative ("to my
mum's") is no fact about the relative; 那就这么定, 不续了, "I'll just take" and 那还是 + a verb are decisions; someone else
pulling out of a road is no decision. Phrasings of this file's own, in both languages where the rule reads both."""

from __future__ import annotations

import pytest

from facts.extraction.gate import is_question
from facts.extraction.typer import slot_family
from tests.facts.user_turn import first_kind, rule_type_of


@pytest.mark.parametrize(
    "text",
    ["we sold the Yaris to my cousin in March", "my old Skoda finally died on the M4", "我开的那台轩逸今年刚满五年"],
)
def test_a_car_named_by_its_make_or_model_fills_the_vehicle_slot(text: str) -> None:
    assert slot_family(None, text) == "vehicle"


@pytest.mark.parametrize(
    "text", ["the garage says the Qashqai needs new brake discs", "帮我对比一下小鹏和比亚迪的新款"]
)
def test_a_make_named_alone_is_no_possession(text: str) -> None:
    assert slot_family(None, text) == "vehicle"
    assert rule_type_of(text) != "profile"


@pytest.mark.parametrize(
    "text", ["I need to focus on the exam now", "we played golf with the neighbours", "大众点评上评分挺高"]
)
def test_a_models_name_as_a_word_is_no_car(text: str) -> None:
    assert slot_family(None, text) != "vehicle"


@pytest.mark.parametrize(
    "text",
    [
        "这两年出过两次险，续保的时候保费涨了不少",
        "事故认定书下来了，对方负全责",
        "去年十月才拿的本 还不太敢上高速",
        "我只有摩托车驾照，汽车的还在考",
        "the premium went up to 640 this year and I never claimed",
    ],
)
def test_insurance_a_liability_and_a_licence_held_are_legal(text: str) -> None:
    assert rule_type_of(text) == "legal"


def test_a_book_taken_is_no_licence() -> None:
    assert rule_type_of("帮我拿本书过来") != "legal"


@pytest.mark.parametrize(
    "text",
    [
        "I retired from the post office last spring",
        "retired three years ago and I've never been busier",
        "退休以后又被医院返聘了",
    ],
)
def test_retiring_is_work_news(text: str) -> None:
    assert rule_type_of(text) == "profile"


@pytest.mark.parametrize("text", ["给自己挑个退休礼物，下个月去冰岛看极光", "退休金每个月到手四千二"])
def test_a_pension_or_a_retirement_present_is_no_work_news(text: str) -> None:
    assert rule_type_of(text) != "profile"


@pytest.mark.parametrize(
    "text",
    [
        "the pharmacist said my BP was 165 over 100",
        "I've had a dodgy disc in my lower back for years",
        "my heart was racing all night and I couldn't calm down",
        "去西藏那次高反很严重，吸了一晚上氧",
        "年轻时在工地落下了腰肌劳损",
        "我左边膝盖做过 replacement，走不了太远",
    ],
)
def test_a_reading_a_disc_altitude_and_a_strain_are_health(text: str) -> None:
    assert first_kind(text) == "health"


@pytest.mark.parametrize("text", ["我老伴特别爱钓鱼，一去就是一整天", "我爱人在区医院当护士"])
def test_a_partner_by_an_older_word_is_a_relationship(text: str) -> None:
    assert slot_family(None, text) == "partner"
    assert rule_type_of(text) == "relationship"


@pytest.mark.parametrize("text", ["我们家小的是上周五凌晨生的，六斤二两", "外孙女是昨天凌晨生的，母女平安"])
def test_a_birth_told_by_its_day_is_an_event(text: str) -> None:
    assert rule_type_of(text) == "event"


def test_ones_own_birthday_is_no_birth() -> None:
    assert rule_type_of("我是11月5号生的，天蝎座") != "event"


@pytest.mark.parametrize(
    "text", ["I have to drive to Leeds every day for work", "I've been going to pottery on Thursdays since May"]
)
def test_a_routine_is_who_one_is_not_a_plan(text: str) -> None:
    assert first_kind(text) == "profile"


def test_a_place_named_after_a_relative_is_no_fact_about_them() -> None:
    assert rule_type_of("I need the van back by then, driving up to my dad's in Hull") != "relationship"


@pytest.mark.parametrize(
    "text",
    ["那就先这么定，下周开始", "下个季度不续了，太贵", "那还是要标准间吧", "ok I'll just take the grey one then"],
)
def test_settling_and_not_renewing_are_decisions(text: str) -> None:
    assert rule_type_of(text) == "decision"


def test_someone_else_pulling_out_of_a_road_is_no_decision() -> None:
    assert rule_type_of("a van pulled out of a side road right in front of me") != "decision"
    assert rule_type_of("I've pulled out of the half marathon, my knee's gone") == "decision"
    assert rule_type_of("pulled out of the relay on Friday, still coughing") == "decision"


@pytest.mark.parametrize("text", ["行 那就这么定", "好，就这么定，谢谢你啊"])
def test_agreeing_to_settle_it_is_no_decision(text: str) -> None:
    assert rule_type_of(text) != "decision"


@pytest.mark.parametrize("text", ["你们店里还有这款的现货没", "那个周末的团还有位置没"])
def test_a_chinese_question_closed_by_mei_asks(text: str) -> None:
    assert is_question(text)
