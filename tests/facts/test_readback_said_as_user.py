"""A yes to the assistant's read-back keeps the read-back said as the user, and typed as the user's statement: the
asking around it (请问, a "吗", ", right?", "对吧") neither makes it an inquiry nor stays in the fact. A read-back with
no number or name that states a durable fact of the user's (an allergy, a diet, a cancellation) is confirmable too;
an open question answered "yes" ("Do you have any allergies?") confirms nothing said."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import answer_of


@pytest.mark.parametrize(
    ("readback", "reply", "kind", "said"),
    [
        ("Just to confirm, you're allergic to shellfish?", "yes", "health", "allergic to shellfish"),
        ("您是对芒果过敏对吧？", "对", "health", "对芒果过敏"),
        ("So you're vegan now?", "Yep.", "preference", "vegan"),
        ("So you'd like to cancel the yoga membership?", "yes please", "decision", "cancel the yoga membership"),
        ("请问您是要退订这个视频会员吗？", "是的", "decision", "退订这个视频会员"),
        ("请问您预约的是下周三上午的牙科吗？", "对", "health", "上午的牙科"),
        ("So you're booked in for a blood test on the 14th?", "That's right.", "health", "blood test on the 14th"),
        ("改签需要补差价180元，确认改签吗？", "确认", "decision", "改签"),
    ],
)  # fmt: skip
def test_a_yes_keeps_the_readback_as_the_users_statement(readback: str, reply: str, kind: str, said: str) -> None:
    facts = answer_of(readback, reply)
    assert len(facts) == 1
    assert facts[0][0] == kind
    assert said in facts[0][1]
    assert not facts[0][1].rstrip(".。").endswith(("吗", "对吧", "right", "?", "？"))


@pytest.mark.parametrize(
    ("readback", "reply", "fact"),
    [
        ("So the parcel goes to 22 Rowan Close, right?", "yes", "Confirmed the parcel goes to 22 Rowan Close."),
        ("收货地址是滨江区江南大道88号，对吧？", "对的", "确认收货地址是滨江区江南大道88号。"),
    ],
)
def test_the_tag_of_a_readback_leaves_the_fact(readback: str, reply: str, fact: str) -> None:
    assert [text for _kind, text in answer_of(readback, reply)] == [fact]


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("Do you have any allergies?", "yes"),
        ("Are you vegetarian or vegan?", "yeah"),
        ("您有没有过敏史？", "有"),
        ("您是否对药物过敏？", "是的"),
        ("Want a printable version of the plan?", "Sure, why not."),
    ],
)
def test_a_yes_to_an_open_question_confirms_nothing_said(question: str, reply: str) -> None:
    assert answer_of(question, reply) == []


@pytest.mark.parametrize(
    ("offer", "reply", "said"),
    [
        ("There's a room with a sea view on the 4th floor. Shall we put you there?", "Yes please", "sea view"),
        ("So that's Friday the 9th at 10:30?", "Yes that's fine", "Friday the 9th"),
        ("Please confirm the new delivery date is Tuesday the 14th.", "yes", "Tuesday the 14th"),
        ("请确认收件人为王磊，电话尾号2231。", "对的", "王磊"),
        ("退订的话剩余的45元会退回，您确定要退订吗？", "确定", "退订"),
        ("单人间一晚480，双人间一晚560，您看是单人间还是双人间？", "双人间吧 我跟我妈一起住", "双人间"),
    ],
)
def test_a_business_offer_or_readback_taken_is_kept(offer: str, reply: str, said: str) -> None:
    facts = answer_of(offer, reply)
    assert len(facts) == 1 and said in facts[0][1]
    assert not facts[0][1].startswith(("确认请", "Confirmed please"))
    assert not facts[0][1].endswith("。。")


@pytest.mark.parametrize(
    ("offer", "reply"),
    [("Would you like a printable version?", "Sure, why not."), ("要不要我把清单发你一份？", "好啊")],
)
def test_a_yes_to_a_generic_offer_still_keeps_nothing(offer: str, reply: str) -> None:
    assert answer_of(offer, reply) == []


@pytest.mark.parametrize(
    ("readback", "reply", "relative", "absolute"),
    [
        ("请问您预约的是下周三上午的牙科吗？", "对", "下周三", "2026年5月"),
        ("So your appointment is next Tuesday at 2pm?", "yes", "next Tuesday", "May 2026"),
    ],
)
def test_a_time_read_back_is_kept_as_the_date_it_names(readback: str, reply: str, relative: str, absolute: str) -> None:
    [(_kind, text)] = answer_of(readback, reply)
    assert relative not in text and absolute in text
