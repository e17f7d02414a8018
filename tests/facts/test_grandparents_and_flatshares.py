"""A grandparent's year and a flatshare: a machine that is dead, will not drain or 罢工 is a complaint; macular
degeneration, glaucoma and 耳鸣 are health (tinnitus in English is left to the type definitions); "if I wasn't
allergic I'd ..." is a hypothetical like "if I weren't"; a friend's bus pass (老年卡) asked after is no inquiry, while
a business's annual pass (年卡) is. Phrasings of this file's own, in both languages where the rule reads both."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import first_kind, rule_type_of


@pytest.mark.parametrize(
    "text",
    [
        "the dishwasher's completely dead, third time this year",
        "the washing machine won't drain and the kitchen smells",
        "家里冰箱又罢工了，一晚上东西全化了",
    ],
)
def test_a_dead_machine_is_a_complaint(text: str) -> None:
    assert rule_type_of(text) == "complaint"


@pytest.mark.parametrize("text", ["I was told last spring I've got glaucoma in both eyes", "我耳鸣快半年了"])
def test_eye_and_ear_conditions_are_health(text: str) -> None:
    assert first_kind(text) == "health"


def test_if_i_wasnt_is_a_hypothetical() -> None:
    assert first_kind("honestly if I wasn't so allergic I'd adopt the lot of them") == "drop"


def test_a_friends_bus_pass_is_no_inquiry_and_a_businesss_pass_is() -> None:
    assert first_kind("老王，你那老年卡办好了没？") == "drop"
    assert first_kind("你们健身房的年卡多少钱？") == "inquiry"
