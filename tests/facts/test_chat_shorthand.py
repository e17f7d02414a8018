"""Chat shorthand, in English and Chinese. What would follow a thing that has not happened ("my landlord would freak
out if I painted the walls", 要是下个月又涨价了呢) and a question asked without its mark by its verb said twice
(会不会好点) are no facts; a bet on the listener (我赌你...) is about them, a reaction to their news ("oof that's brutal")
and an offer to be called (...的话叫我) about the talk. Whoever the speaker calls before their own 我 (姐妹们, 妈) is not the
subject, and is left out of the fact; an exam passed, a diet given up, travel sickness, a product's variant asked of
the business, "rather ..." and a refund or a rebooking accepted are kept as what they are; so are a connection that
keeps dropping and 凭什么 (complaints), 定了 (a decision), 只喝 (a preference) and a deposit paid (a plan), and a plan
still ahead stays a plan beside a past verb ("I upped my mileage because I'm doing ..."). A past with a prefix
("overpaid", "retook") is said as a past. 我们 before a group or a place of the speaker's (我们公司, 我们小区) is theirs
(用户的公司), 我们俩 is the speaker and the other one, and 我们 alone the speaker's people."""

from __future__ import annotations

import pytest

from facts.extraction.person_zh import third_person_zh
from tests.facts.user_turn import facts_of


@pytest.mark.parametrize(
    "text",
    [
        "my landlord would freak out if I painted the walls",
        "要是下个月又涨价了呢",
        "那我要是改成周末班会不会好点",
        "我赌你撑不过一周",
        "要人帮忙的话叫我啊",
        "oof that's brutal",
    ],
)
def test_nothing_that_happened_or_lasts_is_kept(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("text", "kind", "called"),
    [("姐妹们我跟男朋友分了", "relationship", "姐妹"), ("妈我搬到成都了", "profile", "妈")],
)
def test_whoever_the_speaker_calls_is_not_the_subject(text: str, kind: str, called: str) -> None:
    facts = facts_of(text)
    assert facts and facts[0][0] == kind and called not in facts[0][1] and facts[0][1].startswith("用户")


def test_a_relative_before_my_own_is_still_the_subject() -> None:
    assert facts_of("我姐跟他分了")[0][1].startswith("用户的姐姐")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("雅思终于过了，总分7分！", "event"),
        ("科目三总算过了", "event"),
        ("今天开始戒夜宵，说到做到", "preference"),
        ("fyi I get seasick on ferries", "health"),
        ("我一坐飞机就晕机", "health"),
        ("do you do the desk in walnut?", "inquiry"),
        ("这款电动牙刷你们有卖吗", "inquiry"),
        ("yes please rebook it", "decision"),
        ("my broadband keeps dropping every night", "complaint"),
        ("凭什么扣我违约金", "complaint"),
        ("好，那我定了，下周就去签约", "decision"),
        ("我平时只喝燕麦奶", "preference"),
        ("already paid the deposit for the cabin, no backing out now", "commitment"),
        ("I upped my mileage because I'm doing the Dublin marathon in October.", "commitment"),
    ],
)
def test_said_in_shorthand_is_kept_as_what_it_is(text: str, kind: str) -> None:
    facts = facts_of(text)
    assert facts and facts[0][0] == kind


@pytest.mark.parametrize(
    "text", ["I would love to live by the sea if we can afford it.", "我下个月会不会被调岗还不知道。"]
)
def test_a_wish_with_a_condition_and_an_open_question_about_oneself_are_kept(text: str) -> None:
    assert facts_of(text)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("I overpaid my council tax by 200 quid.", "User overpaid"),
        ("I rewrote my CV over the weekend.", "User rewrote"),
    ],
)
def test_a_past_with_a_prefix_stays_a_past(text: str, said: str) -> None:
    assert facts_of(text)[0][1].startswith(said)


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        ("我们公司下个月搬到浦东。", "用户的公司下个月搬到浦东。"),
        ("我们小区又停水了。", "用户的小区又停水了。"),
        ("我们俩十月领证。", "用户和对方十月领证。"),
        ("我们组织了一次义卖。", "用户和家人组织了一次义卖。"),
        ("我们两个月没见了。", "用户和家人两个月没见了。"),
        ("我们家的狗叫豆豆。", "用户家的狗叫豆豆。"),
    ],
)
def test_our_group_is_the_speakers(sentence: str, said: str) -> None:
    assert third_person_zh(sentence, "用户") == said
