"""A medicine named without a condition's word, or a test's finding, is the speaker's health, in English and Chinese
(phrasings of this file's own): "I've been on naproxen since the weekend", "体检查出来早期脂肪肝"."""

from __future__ import annotations

import pytest

from .user_turn import facts_of


@pytest.mark.parametrize(
    "text",
    [
        "Been on naproxen since the weekend, it barely touches it.",
        "I keep an EpiPen in my bag at all times.",
        "took two paracetamol before bed and still woke at 4",
        "最近每天晚上吃一片氯雷他定",
        "医生给我开了阿莫西林，吃一周",
        "体检查出来早期脂肪肝",
        "下周开始去看心理医生",
        "我现在睡前吃阿托伐他汀，其他药都停了",  # (他 in a medicine's name, 其他: no third person)
    ],
)
def test_a_medicine_or_a_finding_is_kept_as_health(text: str) -> None:
    facts = facts_of(text)
    assert facts and facts[0][0] in {"health", "commitment"}, facts


@pytest.mark.parametrize(
    "text",
    [
        "the chemist handed me the wrong dose of my inhaler again",
        "My repeat prescription was supposed to be sent to your Elm Street branch and you say you haven't received it",
        "药房又给错了，我的降压药是5毫克的",
        "我上个月在你们医院做的核磁，片子到现在还没出来",
    ],
)
def test_a_health_service_gone_wrong_is_a_complaint(text: str) -> None:
    assert [kind for kind, _ in facts_of(text)][:1] == ["complaint"], facts_of(text)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I've booked four more sessions at the clinic on Station Road", "health"),
        ("starting acupuncture for my shoulder next week", "health"),
        ("挂了下周五华山医院的号", "health"),
        ("下个月开始每周做一次推拿", "health"),
    ],
)
def test_treatment_ahead_is_health(text: str, kind: str) -> None:
    assert [k for k, _ in facts_of(text)][:1] == [kind], facts_of(text)


def test_hearsay_with_nothing_of_the_speakers_is_not_kept() -> None:
    assert facts_of("听说推拿对颈椎挺管用的") == []
    assert facts_of("听说我们部门下个月要搬去浦东") != []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("ibuprofen对我一点用都没有", "health"),  # an English word glued to Chinese is still a word
        ("我的visa下个月到期", "legal"),
    ],
)
def test_an_english_word_glued_to_chinese_still_signals(text: str, kind: str) -> None:
    assert [k for k, _ in facts_of(text)][:1] == [kind], facts_of(text)
