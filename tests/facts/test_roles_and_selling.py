"""Volunteering and selling on the side: leaving a job (辞职了, 退休了), a role one is elected or made to (treasurer,
副主任) and being a sole trader are who one is; stepping down or not standing again is a decision; a blood group and
fainting at needles are health; a DBS check, a business licence (营业执照) and a claim put in are legal; money held
back, an account shut, a payment that bounced, tracking that has not moved, a parcel shown delivered but not there
and a buyer who vanished are complaints; a first sale, a number of things sold and a bad review received are events
(a bad review given stays a complaint); a parent names themself by their child; 我家那小子 is the speaker's child; a
question to a business on what it has or what a policy covers is an inquiry; a brand written with a small first
letter keeps it. Phrasings of this file's own, in both languages where the rule reads both."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import facts_of, first_kind, rule_type_of


@pytest.mark.parametrize(
    "text",
    [
        "跟你讲，我上周辞职了",
        "退休了嘛，天天在家闲着",
        "the club made me treasurer at the agm",
        "they elected me captain for next season",
        "我被选为业委会副主任了",
        "I'm a sole trader now, registered in the spring",
    ],
)
def test_leaving_work_or_taking_a_role_is_who_one_is(text: str) -> None:
    assert first_kind(text) == "profile"


@pytest.mark.parametrize("text", ["我妈退休了吗", "did you get made treasurer in the end?"])
def test_someone_elses_role_or_a_question_is_not_the_speakers(text: str) -> None:
    assert first_kind(text) != "profile"


@pytest.mark.parametrize(
    "text",
    [
        "I'm stepping down as chair after the summer fair",
        "honestly I'm not standing again next year",
    ],
)
def test_stepping_down_is_a_decision(text: str) -> None:
    assert first_kind(text) == "decision"


@pytest.mark.parametrize(
    "text", ["my blood group is AB positive, for the record", "我是O型血，献过好几次了", "打针我是真不行，从小就晕针"]
)
def test_a_blood_group_and_fainting_at_needles_are_health(text: str) -> None:
    assert first_kind(text) == "health"


@pytest.mark.parametrize(
    "text",
    [
        "the scout group needs me to get a fresh DBS check",
        "下个月得去工商局办营业执照",
        "we put a claim in with the insurer for the flooded kitchen",
        "the landlord's gas safety certificate ran out in May",
    ],
)
def test_a_check_a_licence_and_a_claim_are_legal(text: str) -> None:
    assert rule_type_of(text) == "legal"


@pytest.mark.parametrize(
    "text",
    [
        "the marketplace is withholding my payouts for another two weeks",
        "75% of my balance is being held until the dispute closes",
        "我的店铺突然被封了，也没给理由",
        "my seller account was suspended overnight",
        "the direct debit bounced and the bank charged me a £12 fee",
        "the tracking hasn't moved in eight days",
        "物流好几天都没动了",
        "the strap ripped out after a week",
        "快递显示已经签收了，可是我根本没收到",
        "又一个买家拍完就消失了",
    ],
)
def test_money_held_an_account_shut_and_a_lost_parcel_are_complaints(text: str) -> None:
    assert rule_type_of(text) == "complaint"


@pytest.mark.parametrize(
    "text",
    [
        "I made my first sale on the new shop yesterday!!",
        "we sold 30 prints at the weekend market",
        "开店两个月终于出了第一单",
        "got my first one star review this morning",
        "昨天店里收了个差评，心态有点崩",
    ],
)
def test_a_sale_or_a_review_received_is_an_event(text: str) -> None:
    assert first_kind(text) == "event"


def test_a_bad_review_given_is_still_a_complaint() -> None:
    assert rule_type_of("我给那家外卖打了差评，菜是凉的") == "complaint"


@pytest.mark.parametrize(
    "text",
    ["我是二年级三班刘小宇的妈妈", "I'm Noah Brent's dad, he's in the under-9s"],
)
def test_a_parent_named_by_their_child_is_a_relationship(text: str) -> None:
    assert first_kind(text) == "relationship"


def test_the_speakers_lad_is_their_child() -> None:
    assert first_kind("我家那小子下个月要去夏令营") == "relationship"


@pytest.mark.parametrize(
    "text",
    [
        "你好，想问一下你们周末有儿科医生吗",
        "你们有没有按月扣款的捐助方式？",
        "does the policy cover a lodger's belongings?",
        "what's the minimum order for printed labels?",
    ],
)
def test_a_question_on_what_the_business_has_or_covers_is_an_inquiry(text: str) -> None:
    assert first_kind(text) == "inquiry"


@pytest.mark.parametrize("text", ["你们有没有去过那家新开的面馆？", "does your mum still do the school run?"])
def test_a_question_to_friends_is_no_inquiry(text: str) -> None:
    assert first_kind(text) != "inquiry"


def test_a_brand_with_a_small_first_letter_keeps_it() -> None:
    texts = [t for _, t in facts_of("eBay is holding my money again, third time this year")]
    assert texts and texts[0].startswith("eBay")
