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
