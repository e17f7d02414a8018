"""A short reply is read with the assistant's question it answers, in English and Chinese: "Mild asthma." after
"any medical conditions?" is the user's health, said with what was asked; a reply that agrees, stalls, asks back or
answers a question about feelings or an open "anything else?" keeps nothing."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import answer_of


@pytest.mark.parametrize(
    ("question", "reply", "kind", "said"),
    [
        ("Before we start, do you have any medical conditions I should be aware of?", "Mild asthma.", "health",
         "medical conditions"),
        ("Thanks. Could I take the registration number, please?", "KX21 PLM", "other", "registration number: KX21 PLM"),
        ("Lovely. Any dietary requirements for the table?", "Strictly no pork.", "preference", "dietary requirements"),
        ("请问您的车牌号是多少？", "沪A·3K729", "profile", "车牌号：沪A·3K729"),
        ("好的，请问有没有药物过敏史？", "青霉素过敏", "health", "药物过敏史"),
        ("明白。请问您的税前年收入大概是多少？", "大概三十万", "other", "税前年收入：大概三十万"),
    ],
)  # fmt: skip
def test_a_short_reply_is_kept_with_what_it_answers(question: str, reply: str, kind: str, said: str) -> None:
    facts = answer_of(question, reply)
    assert len(facts) == 1
    assert facts[0][0] == kind
    assert said in facts[0][1]


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("How was your weekend?", "Pretty chill."),
        ("Any questions before we wrap up?", "Nope, all clear."),
        ("May I have your email address?", "One sec, let me dig it out."),
        ("What's your date of birth?", "why do you need that"),
        ("最近心情怎么样？", "还行吧"),
        ("还有别的需要帮忙的吗？", "没了没了"),
        ("请问您的收货地址是？", "稍等我翻一下"),
        ("您的会员卡号是多少？", "为什么要给你这个"),
        ("好的，请问您平时有什么忌口？", "也没啥特别的"),
    ],
)
def test_a_reply_that_says_nothing_keeps_nothing(question: str, reply: str) -> None:
    assert answer_of(question, reply) == []


@pytest.mark.parametrize(
    ("proposal", "reply", "accepted"),
    [
        ("I've found a seat on the 07:15 to Leeds on Friday, £42 with your railcard. Shall I book it?", "Go on then.",
         "07:15 to Leeds"),
        ("The repair comes to £180 including parts. Does that work for you?", "Pricey... but fine, yes.", "£180"),
        ("Hmm. Your renewal would be £39.99 a month from June. Is that OK?", "Ugh. OK.", "£39.99"),
        ("查到了。换到周六上午十点的场次需要补差价60元。可以吗？", "行", "60元"),
    ],
)  # fmt: skip
def test_a_yes_to_a_bare_proposal_accepts_the_sentence_before(proposal: str, reply: str, accepted: str) -> None:
    facts = answer_of(proposal, reply)
    assert [kind for kind, _ in facts] == ["decision"]
    assert accepted in facts[0][1]


@pytest.mark.parametrize(
    ("proposal", "reply"),
    [
        ("The repair comes to £180 including parts. Does that work for you?", "No way. OK, bye."),
        ("Sure thing. Shall I go ahead?", "Yes."),  # nothing concrete was proposed
        ("改到周六需要补差价60元。可以吗？", "算了吧。好"),
    ],
)
def test_a_refusal_or_a_proposal_without_a_detail_accepts_nothing(proposal: str, reply: str) -> None:
    assert answer_of(proposal, reply) == []
