"""A credential's value is not kept as a fact unless the speaker asks to remember it (context pastes facts into
prompts; the turn itself stays stored for its owner), a word about one is as before; the turn's tone (an exclamation, "tbh", 说实话) stays out of the fact.
Phrasings of this file's own, in both languages."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import candidates_of, facts_of


@pytest.mark.parametrize(
    "text",
    [
        "btw my gym locker password is 7731, in case I forget",
        "The door code's 2580#, and my passcode is tulip99.",
        "我的银行卡密码是246810，别告诉别人",
        "验证码：503311",
    ],
)
def test_a_credential_given_is_no_fact(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "I changed my Netflix password last night.",
            "User changed their Netflix password on the night of 10 May 2026.",
        ),
        ("My bank sent me a new PIN by post.", "User's bank sent them a new PIN by post."),
    ],
)
def test_a_word_about_a_credential_is_kept_as_before(text: str, fact: str) -> None:
    assert [t for _, t in facts_of(text)] == [fact]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Ngl, I finally booked my driving test for June!!", "User finally booked their driving test for June."),
        ("说真的，我下个月要去杭州上班了！", "用户2026年6月要去杭州上班了。"),
        ("I'd like to close my savings account please.", "User would like to close their savings account."),
        ("I'll go with the annual plan, thank you!", "User will go with the annual plan."),
    ],
)
def test_the_turns_tone_and_manners_stay_out_of_the_fact(text: str, fact: str) -> None:
    assert [t for _, t in facts_of(text)] == [fact]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Please remember: the garage code is 8812.", "User's garage code is 8812."),
        ("记住：我家门禁密码是1357", "用户家门禁密码是1357。"),
    ],
)
def test_a_credential_the_speaker_asks_to_remember_is_kept_pinned(text: str, fact: str) -> None:
    assert [(c.text, c.pinned) for c in candidates_of(text)] == [(fact, True)]
