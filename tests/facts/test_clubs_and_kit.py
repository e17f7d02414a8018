"""Hobbies, clubs and the kit they need: a thing the speaker has is kept though it is one word; an inflammation, an
"-itis" and a sprain are health; a signed agreement is legal; a thing bought from the business and already worn out
is a complaint; a wish against the facts and a choice put off are not kept; "every single time" is no relationship
status. Phrasings of this file's own, in both languages."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import candidates_of, facts_of, first_kind


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I own a kayak.", "Ines owns a kayak."),
        ("I've got a rowing machine!", "Ines has got a rowing machine."),
        ("我有台缝纫机。", "Ines有台缝纫机。"),
    ],
)
def test_a_thing_the_speaker_has_is_kept_in_one_word(text: str, fact: str) -> None:
    facts = candidates_of(text, name="Ines")
    assert [(c.type, c.text) for c in facts] == [("profile", fact)]


@pytest.mark.parametrize(
    "text",
    [
        "I have a feeling.",
        "I've got a meeting.",
        "I have a question.",
        "I have a flight.",
        "I've got a hangover.",
        "我有个想法",
        "我有个问题。",
    ],
)
def test_having_an_idea_a_meeting_a_flight_or_a_hangover_is_no_possession(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "鼻窦炎又犯了，头疼得厉害",
        "I've had bronchitis since Christmas.",
        "Physio says it's tendinitis, not a tear.",
        "打球的时候脚又崴了",
        "关节炎一到下雨天就犯",
    ],
)
def test_an_inflammation_or_a_sprain_is_health(text: str) -> None:
    assert first_kind(text) == "health"


def test_hot_weather_is_no_inflammation() -> None:
    assert first_kind("今天外面太炎热了") != "health"


@pytest.mark.parametrize(
    "text",
    [
        "We signed a rental agreement for the studio yesterday.",
        "The hire agreement I signed says the deposit is gone if I cancel.",
    ],
)
def test_a_signed_agreement_is_legal(text: str) -> None:
    assert first_kind(text) == "legal"


@pytest.mark.parametrize(
    "text",
    [
        "The boots I got at your Kingsway store are already peeling.",
        "I bought a kettle at your Mill Rd branch and it's already rusting.",
        "The strap on the bag started fraying after two weeks.",
        "Hi, I ordered a hammock on your website in June and the frame's already bent.",
    ],
)
def test_a_thing_worn_out_soon_after_it_was_bought_is_a_complaint(text: str) -> None:
    assert first_kind(text) == "complaint"


@pytest.mark.parametrize(
    "text",
    [
        "我爸要是肯戒烟就好了",
        "她要是能陪我练琴该多好",
        "老板要是给我涨工资我做梦都能笑醒",
        "It's like if I forgot my own name.",
        "蓝的还是灰的，我再想想",
        "好的 那个套餐我再考虑考虑吧",
    ],
)
def test_a_wish_against_the_facts_or_a_choice_put_off_is_not_kept(text: str) -> None:
    assert facts_of(text) == []


def test_a_fact_told_beside_being_torn_is_kept() -> None:
    assert first_kind("我收到两个offer了，纠结死了") != "drop"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I dread the commute every single time.", "preference"),
        ("I detest early starts at the yard.", "preference"),
        ("我超烦写周报", "preference"),
        ("I'm single again.", "relationship"),
        ("I'm a single dad to twins.", "relationship"),
    ],
)
def test_every_single_time_is_how_often_not_a_relationship(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "We haven't talked in weeks, just wanted to tell you I passed my driving test.",
            "Ines passed their driving test.",
        ),
        ("还有件事，我对芒果过敏", "Ines对芒果过敏。"),
    ],
)
def test_a_catch_up_or_one_more_thing_before_the_news_is_not_part_of_it(text: str, fact: str) -> None:
    assert [c.text for c in candidates_of(text, name="Ines")] == [fact]


@pytest.mark.parametrize(("text", "kind"), [("你们的季卡可以暂停吗？", "inquiry"), ("申诉一般要多久？", "inquiry")])
def test_a_pass_or_an_appeal_asked_about_is_an_inquiry(text: str, kind: str) -> None:
    assert first_kind(text) == kind


def test_a_request_to_put_together_a_plan_is_no_fact() -> None:
    assert facts_of("帮我整一份周末的训练安排") == []


@pytest.mark.parametrize(("text", "kind"), [("明年改学吉他", "decision"), ("黄瓜太难伺候了，今年改种草莓", "decision")])
def test_switching_what_one_grows_or_learns_this_year_is_a_decision(text: str, kind: str) -> None:
    assert first_kind(text) == kind


def test_a_fault_nobody_has_fixed_is_a_complaint() -> None:
    assert first_kind("Third week running the club's showers are cold and no one's fixed it.") == "complaint"
