"""A year of a relationship and a family growing older: a grandparent, a sibling or an uncle opening a Chinese clause
is the speaker's relative (bare 妈 / 爸 are not read: called to or sworn with); living apart, a wedding called off, making up and moving in together are
relationship statuses; a person taken off a joint account or an account wanted in one's own name is a decision; a will
and a beneficiary are legal; a deposit not given back and a line that keeps dropping are complaints; "what happens if"
is a hypothetical; "lovely, book us in" takes the offer. Phrasings of this file's own, in both languages where the
rule reads both."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import answer_of, facts_of, first_kind


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("爷爷前天摔了一跤，髋骨骨折", "用户的爷爷"),
        ("姐姐下个月二胎预产期", "用户的姐姐"),
        ("老妈上周做了白内障手术", "用户的老妈"),
    ],
)
def test_a_grandparent_a_sibling_or_a_bare_parent_opening_a_clause_is_the_speakers(text: str, said: str) -> None:
    facts = facts_of(text)
    assert facts and facts[0][0] == "relationship" and said in facts[0][1], facts


@pytest.mark.parametrize("text", ["妈呀，这也太贵了吧", "妈的，又被放鸽子了", "爸这个链接是骗人的，别点了哈"])
def test_ma_as_an_exclamation_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "我们先分居一段时间，孩子跟我",
        "婚不结了，我们分了",
        "we're moving in together in June",
        "they called off the wedding two weeks before",
    ],
)
def test_living_apart_a_wedding_called_off_and_moving_in_together_are_relationship_statuses(text: str) -> None:
    assert first_kind(text) == "relationship"


@pytest.mark.parametrize(
    "text",
    [
        "I want to get my ex off the joint mortgage",
        "the energy account is in both our names but I want it just in my name",
        "宽带想过户到我名下",
    ],
)
def test_an_account_changed_between_partners_is_a_decision(text: str) -> None:
    assert first_kind(text) == "decision"


@pytest.mark.parametrize("text", ["I need to redo my will now the kids are grown", "我爸想立遗嘱，房子留给我弟"])
def test_a_will_is_legal(text: str) -> None:
    assert first_kind(text) in {"legal", "relationship"}
    assert first_kind("I need to redo my will now the kids are grown") == "legal"


@pytest.mark.parametrize(
    "text",
    [
        "the landlord refused to give us the deposit back over one scuff",
        "the wifi keeps dropping whenever it rains",
        "搬走三个月了，房东还是押金不退",
    ],
)
def test_a_deposit_kept_and_a_line_dropping_are_complaints(text: str) -> None:
    assert first_kind(text) == "complaint"


def test_what_happens_if_is_a_hypothetical() -> None:
    assert facts_of("what happens if we both want the cat") == []


def test_lovely_book_us_in_takes_the_offer() -> None:
    found = answer_of("We have Tuesday at 11 with Ms Patel. Shall I hold it for you?", "lovely, book us in for that")
    assert found and found[0][0] == "decision", found
