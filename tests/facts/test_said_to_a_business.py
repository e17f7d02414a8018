"""Turns of a chat or a service talk that say what the speaker does, has or wants, in English and Chinese: a plan by
its booking or its trip ("just booked a climbing taster for the 14th", "I'm driving up Saturday for the wedding"), a
dislike ("so sick of pasta"), an offer taken ("Yes please, book it."), a health matter by its condition or its dose
(thyroid, 吐了三次, 每天两片), a question of the business's stock, insurance or refunds, a grievance ignored; and the
talk's own business dropped: a chore to leave for, a call promised for a day, a question of advice without its mark."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import first_kind


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("just booked a climbing taster for the 14th", "commitment"),
        ("I'm driving up saturday morning for the wedding", "commitment"),
        ("honestly I'm so sick of pasta, max twice a week", "preference"),
        ("Yes please, book it.", "decision"),
        ("它今天吐了三次", "health"),
        ("我在吃降压药 每天两片", "health"),
        ("do you restock the trail runners in size 12?", "inquiry"),
        ("Do you accept Bupa insurance?", "inquiry"),
        ("请问年卡能退吗", "inquiry"),
        ("The landlord has ignored four emails about the leak.", "complaint"),
    ],
)
def test_what_the_speaker_does_has_or_wants_is_kept(text: str, kind: str) -> None:
    assert first_kind(text) == kind


@pytest.mark.parametrize(
    "text", ["Right, I'm off to put the tea on.", "hey what's a good budget tent", "Sure, I'll ring you on Tuesday."]
)
def test_the_talks_own_business_is_dropped(text: str) -> None:
    assert first_kind(text) == "drop"
