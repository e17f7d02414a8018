"""Someone and the speaker as one subject: the verb stays plural ("Ana and User have", never "Ana and User has") and a
couple ended said plainly ("Dev and I are officially over") is a relationship; done with a chore is none."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import facts_of, first_kind


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Dev and I are officially over.", "Dev and User are officially over."),
        ("Ana and I have two rescue greyhounds", "Ana and User have two rescue greyhounds"),
        ("My knee is wrecked and I am off running for a month", "and they are off running"),
    ],
)
def test_someone_and_the_speaker_are_one_plural_subject(text: str, said: str) -> None:
    assert any(said in fact for _kind, fact in facts_of(text))


def test_a_couple_ended_is_a_relationship_and_a_chore_done_is_not() -> None:
    assert first_kind("Dev and I are officially over.") == "relationship"
    assert first_kind("Dev and I are done with the garden finally") != "relationship"
