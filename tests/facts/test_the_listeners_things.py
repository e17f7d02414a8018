"""Talk about the listener's things and a day together yields no fact, even where a liking's object is found: a
liking for what is the listener's ("I adore your garden"), an offer left to the listener ("if you'd like"), something
to do together some day ("we should go kayaking sometime", "改天我们一起去吃火锅吧"). Phrasings of this file's own, in
English and Chinese; what the speaker says of their own beside them is kept."""

from __future__ import annotations

import pytest

from facts.extraction.talk import praise_of_yours

from .user_turn import facts_of


@pytest.mark.parametrize(
    "text",
    [
        # A liking for what is the listener's.
        "Honestly I adore your garden so much!",
        "I really like your new glasses.",
        "I love it when you bake those cinnamon buns, they're unreal.",
        "I've been dying to try your lasagne for ages.",
        "I'm so keen to read your short story.",
        "我超喜欢你拍的那组海边照片！",
        "我也好喜欢你家的猫",
        "好想尝尝你做的糖醋排骨",
        # An offer left to the listener.
        "I can lend you my camping stove if you'd like.",
        "Happy to forward you the spreadsheet if you're interested!",
        # Something to do together some day.
        "Maybe we can go kayaking on the lake one of these days!",
        "We should totally grab brunch together sometime.",
        "Perhaps we could visit that pottery place together.",
        "改天我们一起去吃火锅吧！",
        "我们下次再去那家书店吧",
        "有空我们一起去看展",
    ],
)
def test_the_listeners_things_and_a_day_together_yield_nothing(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("text", "words", "not_said"),
    [
        ("I love your idea, I'm booking the cottage in Kendal for May.", "Kendal", "idea"),
        ("I like your new app but my order from Tuesday still hasn't arrived.", "order", None),
        ("我也喜欢你的穿搭，我最近在学着自己搭配，报了个形象设计课", "形象设计课", "穿搭"),
        ("We should move to Bristol next spring, the rent's half what we pay here.", "Bristol", None),
        ("I'm allergic to shellfish, I can bring my own dish if you'd like.", "shellfish", None),
    ],
)
def test_what_the_speaker_says_of_their_own_beside_it_is_kept(text: str, words: str, not_said: str | None) -> None:
    """The speaker's own news is kept, without the liking for the listener's said before it."""
    facts = facts_of(text)
    assert facts and any(words in f for _, f in facts), facts
    assert not_said is None or all(not_said not in f for _, f in facts), facts


def test_a_liking_of_the_listeners_is_a_compliment_only_when_nothing_else_is_said() -> None:
    assert praise_of_yours("Aw, I love your dog!") == "compliment"
    assert praise_of_yours("我好喜欢你的新发型") == "compliment"
    assert praise_of_yours("I love your dog, I'm getting one just like him in June.") == ""
    assert praise_of_yours("I love my dog.") == ""
    assert praise_of_yours("我喜欢你们店的面包，但是今天买的发霉了") == ""
