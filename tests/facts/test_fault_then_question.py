"""A fault stated, then a question about it ("水管又漏了，物业到底管不管？", "The lift is broken again, is anyone going
to fix it?") is the speaker's complaint even where the speaker is not named (Chinese drops the subject); a question
about the listener's things, or one that states no fault, still keeps nothing. Phrasings of this file's own."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import facts_of, first_kind


@pytest.mark.parametrize(
    "text",
    [
        "The lift is broken again, is anyone going to fix it?",
        "The boiler's leaking again, who do I even call about that?",
        "楼道灯又坏了，有没有人管？",
        "暖气片又漏水了，到底什么时候来修？",
    ],
)
def test_a_fault_then_a_question_is_a_complaint(text: str) -> None:
    assert [kind for kind, _ in facts_of(text)] == ["complaint"]


@pytest.mark.parametrize(
    "text",
    [
        "Is your lift broken again?",
        "How was the trip, was the hotel nice?",
        "你那边天气怎么样，冷不冷？",
    ],
)
def test_a_question_with_no_fault_of_the_speakers_keeps_nothing(text: str) -> None:
    assert first_kind(text) == "drop"


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "The dryer in the laundry room is broken again, can someone replace it?",
            "Complained that the dryer in the laundry room is broken again, asking whether someone can replace it.",
        ),
        (
            "The gate is broken again, is the landlord going to fix it?",
            "Complained that the gate is broken again, asking whether the landlord is going to fix it.",
        ),
        ("The shower is leaking again, who do I talk to about it?", "Complained that the shower is leaking again."),
        (
            "Tesco's delivery never showed up, what's going on?",
            "Complained that Tesco's delivery never showed up, asking what's going on.",
        ),
        ("窗户又漏风了，房东到底修不修？", "抱怨窗户又漏风了，房东到底修不修。"),
    ],
)
def test_the_complaint_reads_as_said_of_the_speaker_with_what_they_asked(text: str, fact: str) -> None:
    """The grievance is stated ("Complained that the gate is broken"), never pasted after "Complained about" with its
    capital and its question; a question with the speaker in it ("who do I talk to") is left out of the fact."""
    assert facts_of(text) == [("complaint", fact)]
