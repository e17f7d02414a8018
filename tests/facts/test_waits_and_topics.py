"""A grievance about a wait or a change told without a reason, asked or not ("为什么还没发货", "Why hasn't the refund
come through yet?", "房租涨了也没通知"), is the speaker's complaint; steering the talk of the moment ("let's not talk
about work today", "换个话题吧") is no fact, and a heads-up before the news is not part of it; "our" before "my"
names the speaker at "our". Phrasings of this file's own, in both languages."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import candidates_of, facts_of, first_kind


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Why hasn't the replacement arrived yet?", "Complained, asking why the replacement hasn't arrived yet."),
        ("为什么还没上门？", "抱怨还没上门。"),
        ("怎么一直没回复", "抱怨一直没回复。"),
    ],
)
def test_why_a_thing_has_still_not_happened_is_a_complaint(text: str, fact: str) -> None:
    assert facts_of(text) == [("complaint", fact)]


@pytest.mark.parametrize(
    "text",
    [
        "网费从每月一百涨到一百六，也没解释为啥",
        "停车费又涨了，也没提前说一声",
        "包裹在驿站放了一周了，还没人送上楼",
    ],
)
def test_a_change_or_a_wait_told_without_a_reason_is_a_complaint(text: str) -> None:
    assert first_kind(text) == "complaint"


@pytest.mark.parametrize("text", ["怎么还没到放假啊", "为什么你还没吃饭", "Why haven't you been to Rome yet?"])
def test_a_wait_that_is_no_grievance_keeps_no_complaint(text: str) -> None:
    assert first_kind(text) != "complaint"


@pytest.mark.parametrize(
    "text",
    [
        "I'd rather not chat about my job right now.",
        "Can we not talk about my sister right now?",
        "Let's talk about something else.",
        "今天先不聊孩子的事了",
        "咱们聊点别的吧",
    ],
)
def test_steering_the_talk_of_the_moment_is_no_fact(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    "text", ["I never like talking about my dad's illness.", "我不喜欢别人问我的工资，这个话题很敏感。"]
)
def test_a_lasting_wish_about_a_topic_stays(text: str) -> None:
    assert facts_of(text)


@pytest.mark.parametrize(
    ("name", "text", "fact"),
    [
        ("", "Our rent goes up in May, my landlord says.", "User's rent goes up in May, their landlord says."),
        ("Ines", "Our cat hides whenever my nephew visits.", "Ines's cat hides whenever their nephew visits."),
    ],
)
def test_our_before_my_names_the_speaker_at_our(name: str, text: str, fact: str) -> None:
    assert [c.text for c in candidates_of(text, name)] == [fact]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Quick heads-up, I'm allergic to shellfish.", "User is allergic to shellfish."),
        ("先跟你说一下，我对芒果过敏。", "用户对芒果过敏。"),
    ],
)
def test_a_heads_up_before_the_news_is_not_part_of_the_fact(text: str, fact: str) -> None:
    assert [t for _, t in facts_of(text)] == [fact]


@pytest.mark.parametrize("text", ["说的是，我回去再琢磨琢磨", "你说得有道理，我再想想吧"])
def test_agreeing_then_thinking_it_over_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


def test_agreeing_then_a_plan_keeps_the_plan_alone() -> None:
    assert [t for _, t in facts_of("说得对，我下周一就去健身房办卡")] == ["用户2026年5月18日就去健身房办卡。"]
