"""An amount or an id types a fact `other` only when the sentence says nothing else (the corpus README: "an amount or
an id with nothing else"); beside what went wrong, was done or is lived, that types it. Phrasings of this file's
own, English and Chinese. An order's number alone is such an id; with what went wrong it is a complaint."""

from __future__ import annotations

import pytest

from facts.extraction.amounts import says_more_than_amount
from tests.facts.user_turn import facts_of


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The amount beside what went wrong, what happened, how the speaker lives: typed by that.
        ("My phone bill went up from £22 to £41 this month without any warning.", "complaint"),
        ("The plumber charged me £180 and the tap still drips.", "complaint"),
        ("I paid 60 euros for the museum pass in Vienna last week.", "event"),
        ("Swimming lessons for me on Mondays, £8 a session at the lido.", "profile"),
        # The amount or the number alone: other, as before.
        ("My rent is 1,150 a month.", "other"),
        ("My membership number is 88213407.", "other"),
        ("我月租两千八", "other"),
        ("会员卡号是 60218833", "other"),
        # An order's number given alone is an id; the order with what went wrong or came is a complaint or an event.
        ("Order 55190, thanks.", "other"),
        ("My order is 55190.", "other"),
        ("订单号55190，谢谢", "other"),
        ("Order 55190 still hasn't been shipped after ten days.", "complaint"),
        ("我的订单 55190 还没发货，都一个星期了", "complaint"),
        ("Order 55190 was delivered yesterday, all fine.", "event"),
    ],
)
def test_an_amount_types_a_fact_only_when_it_is_all_the_fact_says(text: str, expected: str) -> None:
    assert [kind for kind, _ in facts_of(text)] == [expected]


@pytest.mark.parametrize(
    ("text", "more"),
    [
        ("My water rates doubled to £61 a quarter after the meter went in.", True),
        ("Order 55190, thanks.", False),
        ("my order number is 12345", False),
        ("rent is 1200 a month", False),
        ("宽带每个月一百二，天天掉线，客服也不管", True),
        ("物业费一年三千五", False),
        ("订单号 SF1420938857", False),
        ("给儿子报的编程课，一学期四千八，周六上午上课", True),
    ],
)
def test_what_a_sentence_says_besides_its_amount(text: str, more: bool) -> None:
    assert says_more_than_amount(text) is more
