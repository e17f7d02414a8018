"""Possessions and pets gained or given up, plans with an empty object, dropped subjects that name a state, and
abbreviated weekdays, in English and Chinese, on phrasings of their own (none from the corpus)."""

from __future__ import annotations

import datetime as dt

import pytest

from facts.extraction.base import MessageView
from facts.extraction.rules import RuleExtractor
from facts.extraction.timeexpr import resolve_text

WHEN = dt.datetime(2026, 4, 15, 10, 0, tzinfo=dt.UTC)  # a Wednesday


def _extract(text: str, *, name: str = "Ines"):  # type: ignore[no-untyped-def]
    view = MessageView(id=1, role="user", name=name, content=text, created_at=WHEN)
    return RuleExtractor().extract([view])[1]


@pytest.mark.parametrize(
    ("content", "word"),
    [
        # A new pet or a thing bought, sold or given away is durable, with or without a greeting before it.
        ("Morning! We took in a rescue kitten on Saturday.", None),
        ("Hello hello, I adopted a rabbit.", "rabbit"),
        ("Finally got rid of the old motorbike.", "motorbike"),
        ("I bought a second-hand piano for the spare room.", "piano"),
        ("我前天收养了一只小狗", "小狗"),
        ("哈喽，我把那台旧冰箱送人了", "冰箱"),
        ("那辆电动车我上个月转手卖了", "电动车"),
        ("嗨！我入手了一台新相机", "相机"),
    ],
)
def test_a_possession_or_pet_gained_or_given_up_is_a_profile_fact(content: str, word: str | None) -> None:
    out = _extract(content)
    if word is None:  # "took in" is no word the rules know: the classifier may go either way; never a greeting
        assert all("orning" not in c.text for c in out.candidates)
        return
    assert out.candidates, out.gate.reason
    assert word in out.candidates[0].text
    assert out.candidates[0].type == "profile"


@pytest.mark.parametrize(
    ("content", "word"),
    [
        # Owning one now, said plainly, is as durable as a purchase (these were dropped as filler or by the classifier).
        ("I drive a battered old Volvo estate car.", "Volvo"),
        ("These days I ride an electric scooter.", "scooter"),
        ("We've got three hamsters.", "hamsters"),
        ("I own a Tesla.", "Tesla"),
        ("I drive a white BYD electric car.", "BYD"),
        ("我家有两只兔子。", "兔子"),
        ("我有一辆二手的摩托车。", "摩托车"),
        ("I have a dentist appointment on Friday.", None),  # not a thing owned: the rules decide as before
    ],
)
def test_a_possession_owned_now_is_kept(content: str, word: str | None) -> None:
    from facts.extraction.signals import strong_signal

    if word is None:
        assert strong_signal(content) != "possession"
        return
    out = _extract(content)
    assert out.candidates, out.gate.reason
    assert word in out.candidates[0].text


@pytest.mark.parametrize(
    ("content", "family"),
    [
        ("We adopted two guinea pigs from the shelter.", "pet"),
        ("I sold my old camper last month.", "vehicle"),
        ("我领养了一只布偶", "pet"),
        ("我把自行车卖了", "vehicle"),
    ],
)
def test_the_pet_or_vehicle_family_is_filled(content: str, family: str) -> None:
    from facts.extraction.typer import slot_family

    assert slot_family(None, content) == family


@pytest.mark.parametrize(
    "content",
    [
        "Bought a coffee on the way in.",  # a consumable is no possession
        "I got home late again.",
        "我买了一杯奶茶",
    ],
)
def test_a_trivial_purchase_is_no_possession_signal(content: str) -> None:
    from facts.extraction.signals import strong_signal

    assert strong_signal(content) != "possession"


def test_a_purchase_from_the_business_is_not_stated_as_a_possession() -> None:
    from facts.extraction.signals import strong_signal

    assert strong_signal("I bought a sofa from you in May and a cushion was missing.") == "complaint"
    assert strong_signal("I bought a bed from you in June, do you also sell frames?") != "possession"
    assert strong_signal("上个月在你们店买了一台烤箱，能开发票吗？") != "possession"


def test_a_relative_who_gets_a_pet_is_a_relationship_fact() -> None:
    out = _extract("My brother just adopted a beagle called Tofu.")
    assert out.candidates and out.candidates[0].type == "relationship"


@pytest.mark.parametrize(
    "content",
    [
        "I'll pick up a couple.",
        "Honestly I'm feeling motivated by the sunshine, so we're planning a few.",
        "Makes me think maybe I should try it too.",
        "我也想买一个",
        "我准备也约几次",
    ],
)
def test_a_plan_whose_object_is_a_pronoun_or_a_number_alone_yields_no_fact(content: str) -> None:
    assert _extract(content).candidates == []


@pytest.mark.parametrize(
    ("content", "word"),
    [
        ("I'll pick up a couple of wetsuits for the surf trip in June.", "wetsuits"),
        ("我准备报几节攀岩课，下个月开始", "攀岩"),
    ],
)
def test_a_plan_that_names_its_object_is_kept(content: str, word: str) -> None:
    out = _extract(content)
    assert out.candidates and word in out.candidates[0].text


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("Totally swamped at work this month.", "Ines is totally swamped at work this month."),
        ("Gutted about the cancelled gig.", "Ines is gutted about the cancelled gig."),
        ("Sold my drum kit to a neighbour.", "Ines sold their drum kit to a neighbour."),
    ],
)
def test_a_dropped_subject_stays_a_state_or_an_act(content: str, expected: str) -> None:
    from facts.extraction.elision import with_elided_subject

    assert with_elided_subject(content, "Ines") == expected
    out = _extract(content)
    kept = resolve_text(expected, WHEN)[0]  # ("this month" is then the month it names)
    assert all(c.text == kept for c in out.candidates)  # when the gate keeps it, it reads the same


@pytest.mark.parametrize(
    ("text", "resolved"),
    [
        ("I met him last Fri", "I met him on 10 April 2026"),
        ("We fly out next Thurs", "We fly out on 23 April 2026"),
        ("the clinic called last Tues", "the clinic called on 7 April 2026"),
        ("I'm free this Sun", "I'm free this Sun"),  # "this sun" stays as written
    ],
)
def test_abbreviated_weekdays_resolve(text: str, resolved: str) -> None:
    assert resolve_text(text, WHEN)[0] == resolved


def test_an_abbreviated_past_weekday_dates_the_event_in_both_languages() -> None:
    en = _extract("Last Sat I ran my first 10k in Leeds.")
    zh = _extract("上周六我跑了人生第一个十公里")
    assert en.candidates and en.candidates[0].event_time is not None
    assert en.candidates[0].event_time.date() == dt.date(2026, 4, 11)
    assert zh.candidates and zh.candidates[0].event_time is not None
    assert zh.candidates[0].event_time.date() == dt.date(2026, 4, 11)


@pytest.mark.parametrize(
    "sentence",
    [
        "The blender I ordered from you last month makes a grinding noise.",
        "我上个月在你们网店买的吹风机，用了两次就没风了",
    ],
)
def test_a_customer_stating_what_they_bought_from_the_business_is_a_complaint(sentence: str) -> None:
    from facts.extraction.typer import rule_type

    assert rule_type(sentence, None, None) == "complaint"


@pytest.mark.parametrize(
    ("offer", "answer", "expected"),
    [
        # The user's "yes" to a read-back of their own plan keeps its type; to a service's offer, a decision.
        ("Just to confirm, you're relocating to Bristol in May?", "That's right.", "profile"),
        ("So your new mobile number is 07700 900123?", "Yes.", "profile"),
        ("Shall I move your delivery to Saturday the 18th?", "Yes please.", "decision"),
        ("需要帮您把配送改到18号周六吗？", "好的", "decision"),
        # An offer accepted is a decision, also when it names an amount, a fault or a date of the service's.
        ("The faster line is £7 more each month, would you like it?", "Yes.", "decision"),
        ("Sorry the charger arrived cracked, do you want a refund of the £25?", "Yes please.", "decision"),
        ("The technician can come tomorrow at 10, is that OK?", "Perfect.", "decision"),
        ("补差价80元，可以吗？", "可以", "decision"),
        ("宽带故障需要派师傅上门，周三下午三点可以吗？", "行", "decision"),
        ("下个月起每月多收15元，要不要帮您升级？", "好的", "decision"),
        # A read-back of the user's own detail ("..., 对吗?") keeps the detail's type.
        ("和您核对一下，收货地址是海淀区学院路12号，对吗？", "对", "profile"),
    ],
)
def test_what_a_bare_yes_confirms_is_typed_by_its_content(offer: str, answer: str, expected: str) -> None:
    view = MessageView(id=1, role="user", name="", content=answer, created_at=WHEN, previous_assistant_content=offer)
    out = RuleExtractor().extract([view])[1]
    assert out.candidates, out.gate.reason
    assert out.candidates[0].type == expected
