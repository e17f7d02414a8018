"""What the speaker is, said in a word or two ("I'm a Gemini", "我是独生子"), lasts though the sentence has one content
word; a mood of the moment in the same shape ("I'm knackered", "我是开玩笑的") keeps nothing. A blood type is health.
Phrasings of this file's own, in both languages."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import facts_of, first_kind


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I'm a Gemini.", "User is a Gemini."),
        ("I'm right-handed.", "User is right-handed."),
        ("I'm adopted.", "User is adopted."),
        ("我是独生子。", "用户是独生子。"),
        ("我属兔", "用户属兔。"),
        ("我是路痴", "用户是路痴。"),
    ],
)
def test_what_the_speaker_is_in_a_word_is_kept(text: str, fact: str) -> None:
    assert [t for _, t in facts_of(text)] == [fact]


@pytest.mark.parametrize("text", ["I'm knackered.", "I'm a bit lost.", "I'm starving!", "我是开玩笑的", "我是说真的"])
def test_a_mood_in_the_same_shape_keeps_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize("text", ["FYI my blood group is B negative.", "我的血型是B型，输血的时候要注意", "我是AB型血"])
def test_a_blood_type_is_health(text: str) -> None:
    assert first_kind(text) == "health"
