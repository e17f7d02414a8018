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
        ("Sorry about that. Could I take the booking reference?", "It's ZK4Q9T.", "other", "booking reference: ZK4Q9T"),
        ("请问会员卡号是多少？", "88120567", "other", "会员卡号：88120567"),
        ("And your date of birth?", "4/11/1990", "profile", "date of birth: 4/11/1990"),
        ("Got it. And the car?", "2017 Yaris hybrid, silver", "profile", "car: 2017 Yaris hybrid"),
        # Asked whether the user has it, or is on any; the value after an acknowledgement.
        ("Do you have your membership number handy?", "sure, MB-77120", "other", "membership number: MB-77120"),
        ("Are you taking any supplements?", "Vitamin D, 1000 IU daily.", "health", "supplements: Vitamin D"),
        ("Can I grab an email for the receipt?", "sure, pat.lee@example.org", "profile", "email: pat.lee@example.org"),
        ("你现在住哪儿？", "搬去望京了，离公司近", "profile", "用户现在住哪儿：搬去望京了"),
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
        ("Quick quiz! What's the capital of Peru?", "Lima"),
        ("Could I take your policy number?", "thanks! one sec."),
    ],
)
def test_a_reply_that_says_nothing_keeps_nothing(question: str, reply: str) -> None:
    assert answer_of(question, reply) == []


@pytest.mark.parametrize(
    ("question", "reply", "said"),
    [
        ("平时下班后都做些什么？", "练练书法，有时候去夜跑。", "用户平时下班后：练练书法"),
        ("最近周末干嘛呢？", "去爬山了，爬了香山。", "用户最近周末：去爬山了"),
        ("您的设备型号是怎样的？", "云台2K", "用户的设备型号：云台2K"),
    ],
)
def test_a_chinese_question_is_said_without_its_asking_words(question: str, reply: str, said: str) -> None:
    """What the user does at a time is said after 用户 ("用户最近周末：…"), a thing of theirs after 用户的; the words
    that ask (干嘛, 做些什么, 是怎样的) are not in the fact."""
    facts = answer_of(question, reply)
    assert len(facts) == 1 and facts[0][1].startswith(said), facts


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


@pytest.mark.parametrize(
    ("offer", "reply", "chosen"),
    [
        (
            "Sorry it arrived cracked. Would you prefer a replacement or a refund?",
            "replacement, same colour",
            "replacement",
        ),
        ("We can also offer you a £20 voucher for the trouble.", "ok, I'll take the voucher", "voucher"),
        ("Sorry it arrived cracked. Would you prefer a replacement or a refund?", "Refund please.", "refund"),
        ("好的，已经帮您挂失了。需要给您重新寄一张吗？", "寄吧，寄到公司", "寄"),
    ],
)
def test_an_option_taken_is_the_users_decision(offer: str, reply: str, chosen: str) -> None:
    facts = answer_of(offer, reply)
    assert [kind for kind, _ in facts] == ["decision"]
    assert chosen in facts[0][1]


@pytest.mark.parametrize(
    ("offer", "reply"),
    [
        ("Sorry it arrived cracked. Would you prefer a replacement or a refund?", "hmm let me think about it"),
        ("好的，已经帮您挂失了。需要给您重新寄一张吗？", "好吧"),
    ],
)
def test_no_option_named_is_no_decision(offer: str, reply: str) -> None:
    assert answer_of(offer, reply) == []


@pytest.mark.parametrize(
    ("asked", "reply", "said"),
    [
        ("Thanks for holding. Please confirm the billing postcode.", "LS6 2AB", "billing postcode: LS6 2AB"),
        ("您好，请别着急，麻烦报一下身份证后六位。", "031X27", "身份证后六位：031X27"),
    ],
)
def test_a_request_without_a_question_mark_asks_too(asked: str, reply: str, said: str) -> None:
    facts = answer_of(asked, reply)
    assert len(facts) == 1 and said in facts[0][1]


def test_a_yes_no_question_ending_in_bu_is_an_inquiry() -> None:
    assert [kind for kind, _ in answer_of("哦 这款要两千多", "可以分期付不")] == ["inquiry"]


def test_a_thing_asked_about_is_named_without_the_asking() -> None:
    assert answer_of("Tell me about your dog?", "Pickle, a 4yo whippet") == [
        ("profile", "User's dog: Pickle, a 4yo whippet.")
    ]


@pytest.mark.parametrize(
    ("offer", "reply", "said"),
    [
        ("I can get an engineer out on Thursday the 3rd between 8 and 1. Shall I book that?", "Yes, Thursday works.",
         "Thursday the 3rd"),
        ("有下周二上午9:30的号，挂号费50元，可以吗？", "行 就约这天", "9:30"),
        ("这张卡已经欠费停机了，现在帮您补缴开通吗？", "补吧", "补缴"),
        ("我先帮您把订单拦截下来，再原路退款，可以吗？", "可以，拦截吧", "拦截"),
    ],
)  # fmt: skip
def test_a_yes_that_names_what_it_takes_is_a_decision(offer: str, reply: str, said: str) -> None:
    facts = answer_of(offer, reply)
    assert [kind for kind, _ in facts] == ["decision"]
    assert said in facts[0][1]


@pytest.mark.parametrize(
    ("readback", "reply", "said"),
    [
        ("Can I just confirm the delivery postcode is M14 5RT?", "No, it's M14 5RS, easy mistake", "postcode: M14 5RS"),
        ("Could I confirm your surname is Ferrand?", "nope, Ferrant with a t", "surname: Ferrant"),
    ],
)
def test_a_read_back_corrected_keeps_the_right_value(readback: str, reply: str, said: str) -> None:
    facts = answer_of(readback, reply)
    assert len(facts) == 1 and said in facts[0][1]
