"""Kitchens, deliveries and bookings: a fault in what the business fitted, then a question, is a complaint; so are
workers who left a job half done and "what kind of service is this"; a booking or a corkage fee asked about is an
inquiry; a request for a list, a wish on a bigger home and slang for being fed up keep nothing; coming to love a
routine (…爱上了) is a preference. Phrasings of this file's own, in both languages."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import facts_of, first_kind


@pytest.mark.parametrize(
    "text",
    [
        "你们上周换的水龙头，第二天又裂了，怎么回事？",
        "快递员把箱子扔门口就走了，这什么服务？",
        "The plumbers ripped out the sink on Monday and haven't been back since.",
    ],
)
def test_a_fault_in_the_business_work_is_a_complaint_also_asked_about(text: str) -> None:
    assert first_kind(text) == "complaint"


@pytest.mark.parametrize(
    "text", ["Do you take bookings for birthday parties?", "你们收不收开瓶费？", "你们店里能自己带蛋糕吗？"]
)
def test_a_booking_or_a_fee_asked_of_the_business_is_an_inquiry(text: str) -> None:
    assert first_kind(text) == "inquiry"


@pytest.mark.parametrize(
    "text",
    [
        "could you do me a packing list for Lisbon",
        "要是房子再大点我们就养狗了",
        "兄弟我真的要裂开了",
        "暖手宝能带上高铁吗",
    ],
)
def test_a_request_a_wish_on_a_bigger_home_or_slang_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


def test_coming_to_love_a_routine_is_a_preference() -> None:
    assert first_kind("天天骑车上班，骑着骑着居然爱上了") == "preference"
