"""A pronoun that stands for the pet or thing the same turn says the speaker gained: said as that thing when the
clause gives its name, kind or age (kept), left as said otherwise (the gate judges it as before)."""

from __future__ import annotations

import pytest

WHEN = "2024-03-11T09:30:00Z"


def _texts(persona, *turns: str) -> list[str]:  # type: ignore[no-untyped-def]
    response = persona.ingest(*turns, created_at=WHEN)
    assert response.status_code == 200, response.json()
    return [f["text"] for f in response.json()["facts"]]


@pytest.mark.parametrize(
    ("turn", "expected"),
    [
        ("Just adopted a tabby from the shelter. He's called Mango.", "User's tabby is called Mango."),
        ("We rescued a lurcher last spring. Her name is Juniper.", "User's lurcher's name is Juniper."),
        ("I finally bought a van. It's a 2011 Ford Transit.", "User's van is a 2011 Ford Transit."),
        ("I got a hamster for my birthday. She's eight months old.", "User's hamster is eight months old."),
        ("我前几天收养了一只猫。它叫年糕。", "用户的猫叫年糕。"),
        ("我们刚买了一辆二手车。它是一辆老款的本田。", "用户的二手车是一辆老款的本田。"),
    ],
)
def test_a_pronoun_after_a_gained_thing_is_said_as_that_thing(alice, turn: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    texts = _texts(alice, turn)
    assert expected in texts, texts
    assert not any(t.startswith(("He", "She", "It", "Her", "它", "她")) for t in texts), texts


@pytest.mark.parametrize(
    "turn",
    [
        "I adopted a kitten on Sunday. She is adorable!",
        "I bought a new phone. It's amazing, honestly.",
        "我领养了一只狗。它好可爱啊！",
    ],  # fmt: skip
)
def test_how_the_speaker_feels_about_it_is_not_made_a_fact(alice, turn: str) -> None:  # type: ignore[no-untyped-def]
    texts = _texts(alice, turn)
    assert len(texts) == 1, texts  # the adoption or purchase alone


def test_without_a_gained_thing_a_pronoun_is_left_as_said(alice) -> None:  # type: ignore[no-untyped-def]
    texts = _texts(alice, "My sister visited on Sunday. She's called Ruth.")
    assert not any("sister is called" in t or "User's" in t and "called Ruth" in t for t in texts), texts


def test_our_household_is_the_speakers_household(alice) -> None:  # type: ignore[no-untyped-def]
    texts = _texts(alice, "我们家去年买了一台钢琴。")
    assert any(t.startswith("用户家") for t in texts) and not any("和家人家" in t for t in texts), texts
