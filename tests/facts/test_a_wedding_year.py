"""A year of planning a wedding: a trade person hours and a half late, messages unanswered, clothes that came too long,
a dish that never came out and a charge called unfair after it is named are complaints; a deposit paid is a booking
kept; back from a honeymoon or a holiday is an event kept; a marriage registered (领证) is a relationship status, also
beside where the speaker lives; a flight to change is a decision; a card called Visa is no visa. Phrasings of this
file's own, in both languages where the rule reads both."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import facts_of, first_kind


@pytest.mark.parametrize(
    "text",
    [
        "你们的化妆师那天迟到两个半小时，新娘妆都没化完",
        "策划那边消息不回电话不接，合同都签了",
        "西装到了，裤腿短了一大截",
        "the suit arrived and the sleeves are way too long",
        "the starters never came out for our top table",
        "布置费每桌又加三百，这不合理吧",
    ],
)
def test_service_failures_at_a_wedding_are_complaints(text: str) -> None:
    assert first_kind(text) == "complaint"


@pytest.mark.parametrize(
    "text", ["婚庆公司定好了，订金五千已经付过了", "we put the deposit down on the marquee for June"]
)
def test_a_deposit_paid_keeps_the_booking(text: str) -> None:
    assert first_kind(text) == "commitment"


@pytest.mark.parametrize("text", ["just back from our honeymoon in Crete, still sunburnt", "度假回来了，晒黑了两个度"])
def test_back_from_a_honeymoon_or_a_holiday_is_an_event(text: str) -> None:
    assert first_kind(text) == "event"


def test_back_from_an_errand_is_not_a_trip() -> None:
    assert first_kind("back from the shops, what did you need") != "event"


def test_a_marriage_registered_beside_where_one_lives_is_a_relationship_status() -> None:
    assert first_kind("we got married last week, I live in Leeds if that matters for the name change") == "relationship"


def test_a_flight_to_change_is_a_decision() -> None:
    assert first_kind("我想改一下回程的机票，订单号CA20931") == "decision"


@pytest.mark.parametrize("text", ["那就订这个，刷我的Visa", "book it please, I'll pay with visa"])
def test_a_card_called_visa_is_no_visa(text: str) -> None:
    facts = facts_of(text)
    assert all(kind != "legal" for kind, _ in facts), facts
