"""Friends catching up: questions about the listener's own life, talk about the last talk, advice and praise of the
listener carry nothing of the speaker; news announced before it is told is not part of the fact; a place, a job or a
part not won is an event; a rash is health, not a broken thing; "twice in one week" is how often, not a date.
Phrasings of this file's own, in both languages."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import candidates_of, facts_of, first_kind


@pytest.mark.parametrize(
    "text",
    [
        "What inspired you to take up the cello?",
        "What made you buy a food truck, of all things?",
        "Right, what's ur next move now, after the exams?",
        "What's your favourite part about running the cafe?",
        "你怎么想到去学陶艺的？",
    ],
)
def test_a_question_about_the_listeners_life_is_no_fact(text: str) -> None:
    assert [c.text for c in candidates_of(text, name="Ines")] == []


@pytest.mark.parametrize(
    ("text", "kind"), [("Do your stores open on Sundays?", "inquiry"), ("What's your returns policy?", "inquiry")]
)
def test_a_customers_question_about_the_business_stays_an_inquiry(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "A lot has happened since our last call.",
        "Been a crazy month since we talked.",
        "Long time no chat, loads has happened since our last call.",
        "Hi Tom, we haven't talked in ages!",
        "Can't believe it's been two months already.",
        "Okay, enough about my landlord.",
        "Last time we spoke you were still house-hunting.",
    ],
)
def test_talk_about_the_last_talk_is_no_fact(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "Been a crazy month since we talked, I started a new job at the council!",
            "User started a new job at the council.",
        ),
        ("The good news is that I passed my driving test.", "User passed their driving test."),
        ("Quick update: I sold the camper van.", "User sold the camper van."),
        ("Turns out I'm allergic to latex.", "User is allergic to latex."),
        ("跟你说个好消息：我下个月去杭州上班了。", "用户2026年6月去杭州上班了。"),
        ("好消息，我怀孕了！", "用户怀孕了。"),
    ],
)
def test_news_announced_before_it_is_told_is_not_part_of_the_fact(text: str, fact: str) -> None:
    assert [f for _, f in facts_of(text)] == [fact]


@pytest.mark.parametrize(
    "text",
    [
        "I didn't get the place at the art school.",
        "We got rejected for the mortgage.",
        "Got another rejection from a literary agent this week.",
        "考研没考上，明年再来。",
        "博士面试没过。",
    ],
)
def test_a_place_or_a_job_not_won_is_an_event(text: str) -> None:
    assert first_kind(text) == "event"


@pytest.mark.parametrize("text", ["I broke out in hives after the shellfish.", "My son broke out in a rash."])
def test_a_rash_is_health_not_a_broken_thing(text: str) -> None:
    assert first_kind(text) in {"health", "relationship"}


def test_a_rash_decision_is_no_rash() -> None:
    assert first_kind("Quitting the band was a rash decision on my part.") != "health"


def test_how_often_is_not_a_date() -> None:
    assert facts_of("My car broke down twice in one week.") == [
        ("complaint", "User's car broke down twice in one week.")
    ]


@pytest.mark.parametrize(
    "text", ["你赶紧去医院看看吧，别拖着。", "那些学生肯定特别喜欢你。", "你做的红烧肉比饭店的还好吃。"]
)
def test_advice_and_praise_of_the_listener_are_no_fact_of_the_speakers(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "你上次说三天到货，现在都一周了还没到。",
        "我跟你说，我下周去你那边出差。",
        "下个月回老家给你带两罐蜂蜜。",
        "婚礼定在十月，在厦门办，你必须来。",
        "I haven't talked to my brother in two years.",
    ],
)
def test_a_grievance_to_the_listener_or_the_speakers_own_news_stays(text: str) -> None:
    assert facts_of(text)


@pytest.mark.parametrize("text", ["Funny thing happened since our last call.", "Something big happened to me today!"])
def test_news_announced_and_not_told_is_no_fact(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Last month was rough, I lost my job.", "April 2026 was rough, Ines lost their job."),
        (
            "Last week was hectic, I got scouted by a gallery.",
            "The week of 4 May 2026 was hectic, Ines got scouted by a gallery.",
        ),
        ("Last week I got scouted by a gallery.", "In the week of 4 May 2026 Ines got scouted by a gallery."),
    ],
)
def test_a_time_said_as_the_subject_takes_no_preposition(text: str, fact: str) -> None:
    assert [c.text for c in candidates_of(text, name="Ines")] == [fact]


def test_the_speakers_thing_after_and_is_theirs() -> None:
    fact = candidates_of("It was my anniversary and my husband cooked me dinner.", name="Ines")[0].text
    assert fact == "It was Ines's anniversary and their husband cooked them dinner."


@pytest.mark.parametrize("text", ["我最近孕吐挺严重的，闻到油烟就难受。", "下周三去医院建档，顺便做产检。"])
def test_a_pregnancys_sickness_and_checks_are_health(text: str) -> None:
    assert first_kind(text) == "health"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Patagonia has been on my bucket list for years.", "preference"),
        ("I'll always love sailing.", "preference"),
        ("我会一直喜欢画画的。", "preference"),
        ("I'll always remember that summer in Crete.", "event"),
        ("I'll ring the garage tomorrow about the clutch.", "commitment"),
    ],
)
def test_a_lasting_liking_said_with_will_is_a_preference_not_a_plan(text: str, kind: str) -> None:
    assert first_kind(text) == kind


def test_an_unnamed_thing_on_the_bucket_list_names_nothing() -> None:
    assert facts_of("Oh it's really on our bucket list.") == []


def test_a_date_after_for_takes_no_second_preposition() -> None:
    assert facts_of("We're saving for next summer.")[0][1] == "User and others are saving for the summer of 2027."


@pytest.mark.parametrize(
    "text",
    [
        "Please tell me you're getting spoiled with cake and box sets.",
        "Seriously, take it easy with that shoulder, don't rush back to the climbing wall before the physio says so.",
        "我早就说你拍的照片比那些博主好看多了。",
        "三个月就考过了N2，可以啊！",
    ],
)
def test_what_the_listener_should_do_or_is_said_to_be_is_no_fact(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [("Don't forget I'm allergic to nuts.", "health"), ("The yoghurt was spoiled when it arrived.", "complaint")],
)
def test_the_speakers_own_fact_beside_those_words_stays(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize(
    "text", ["这阵子老是失眠，半夜三点还醒着。", "刚确诊了甲减。", "最近老是失眠。", "膝盖又开始疼了。"]
)
def test_a_chinese_symptom_with_no_one_named_is_the_speakers_health(text: str) -> None:
    assert first_kind(text) == "health"


def test_a_relatives_symptom_stays_theirs() -> None:
    assert first_kind("我爸这阵子老是失眠。") == "relationship"
