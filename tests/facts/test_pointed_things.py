"""A thing pointed at and not named, in English and Chinese: liking it ("I'm hooked on that show", "I love how
shiny it looks", 我真的很喜欢这首歌) or keeping it in mind ("I'll always remember that", 那是我们永远不会忘记的夜晚)
says nothing a month later: what it is was shown or said in another turn, which stays searchable. The speaker's own
home, town or job is named enough, and a liking or a memory with content is kept. Effort promised on nothing named
("never quit", "keep chasing those dreams", 永不放弃), a reminder kept of a pronoun ("I'll bear it in mind", 我会记住的),
tuning in to the listener's show and holding up one's latest work are about the talk, not the speaker. Something
told in the past is an event, never a plan, whatever future-looking word it has ("an exam", "on the 3rd"). Sympathy
for the listener's misfortune and a general truth about a kind of thing ("Cross training prevents injuries") are not
the speaker's health. A liking said for "we" ("We adore hiking in the fells") or as "X is my thing" is a preference."""

from __future__ import annotations

import pytest

from tests.facts.user_turn import first_kind


@pytest.mark.parametrize(
    "text",
    [
        "Honestly I'm hooked on that show!",
        "We adore these ones.",
        "I love how shiny it looks.",
        "I love the way it turned out!",
        "Honestly, I enjoy watching them.",
        "I'll always remember that.",
        "It was a night we'll never forget!",
        "我真的很喜欢这首歌！",
        "我特别迷那个风格。",
        "那是我们永远不会忘记的夜晚。",
    ],
)
def test_a_thing_pointed_at_is_not_remembered(text: str) -> None:
    assert first_kind(text) == "drop"


@pytest.mark.parametrize(
    "text",
    [
        "I love this neighbourhood, the bakeries are great.",
        "I adore Korean thrillers.",
        "I'll never forget the summer I spent in Lagos.",
        "I adore my new flat.",
        "我很喜欢这座城市。",
        "我特别喜欢科幻小说。",
        "我迷上了攀岩，每周去三次。",
    ],
)
def test_a_liking_or_memory_with_content_is_kept(text: str) -> None:
    assert first_kind(text) != "drop"


@pytest.mark.parametrize(
    "text",
    [
        "True, so we'll keep it up.",
        "Congrats on the launch, I'll be tuning in!",
        "恭喜你开店，我肯定去捧场！",
        "Here's my newest drawing from the weekend.",
        "We're going to keep pushing and never stop!",
        "We'll stay focused and keep chasing our goals.",
        "Fair point, I'll bear it in mind as I go on.",
        "I'm going to keep at it and see how it goes.",
        "我会记住的！",
        "我要继续追梦，绝不放弃。",
    ],
)
def test_talk_about_the_talk_is_dropped(text: str) -> None:
    assert first_kind(text) == "drop"


def test_tuning_in_to_something_named_is_a_plan() -> None:
    assert first_kind("I'll tune in to the cup final on Sunday.") == "commitment"


@pytest.mark.parametrize(
    "text",
    [
        "I'll keep chasing my dream of opening a bakery in Porto.",
        "I'll remember that the pharmacy shuts at six.",
        "I'll keep it up when I move to Bristol next month.",
    ],
)
def test_effort_or_a_reminder_with_content_is_kept(text: str) -> None:
    assert first_kind(text) != "drop"


@pytest.mark.parametrize(
    "text",
    [
        "I sat a brutal chemistry exam last Tuesday and it knocked my confidence.",
        "We caught up with my old flatmates on the 3rd and it was brilliant!",
        "I snapped this shot of the harbour at dawn from the old pier last Sunday.",
    ],
)
def test_told_in_the_past_is_no_plan(text: str) -> None:
    assert first_kind(text) == "event"


@pytest.mark.parametrize(
    "text",
    [
        "I have a driving exam on the 19th.",
        "I signed up for the half marathon in October.",
        "We booked a cabin in the Highlands for August.",
        "我下周要考驾照。",
    ],
)
def test_a_plan_made_or_ahead_stays_a_plan(text: str) -> None:
    assert first_kind(text) == "commitment"


@pytest.mark.parametrize(
    "text",
    [
        "Oof, what a bummer about the sprained wrist.",
        "Aw, gutted to hear about your migraines.",
        "Cross training prevents injuries and builds stamina.",
        "Running shoes help avoid knee pain on long runs.",
        "I'm not giving up!",
    ],
)
def test_sympathy_and_general_truths_are_not_the_speakers_health(text: str) -> None:
    assert first_kind(text) == "drop"


@pytest.mark.parametrize(
    "text",
    ["My knee surgery is on the 9th.", "Ugh, bummer about the rain, our barbecue is off and my back hurts."],
)
def test_the_speakers_own_health_is_kept(text: str) -> None:
    assert first_kind(text) == "health"


@pytest.mark.parametrize("text", ["We adore hiking in the fells.", "Jigsaw puzzles are totally my thing."])
def test_a_liking_of_ours_is_a_preference(text: str) -> None:
    assert first_kind(text) == "preference"


def test_everyone_we_love_is_no_liking() -> None:
    assert first_kind("Everyone we love came to the wedding.") != "preference"
