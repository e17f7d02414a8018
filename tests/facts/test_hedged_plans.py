"""A plan the speaker has not made, in English and Chinese: hedged ("might", "maybe", 可能, 说不定) or left to free
time ("if I get a minute", 有时间的话) and for the next few days, it is dropped (nothing decided, nothing that lasts);
hedged and further off, or with weight (a move, a health matter), it is kept. A choice hedged is no decision. A wish of
the speaker's own for what they would do or have is a preference ("I've always wanted to...", 一直想学...), kept; one
with a date or a goal is a plan, and a wish for a pronoun or for sleep names nothing. A class signed up for is no
subscription; therapy as a figure of speech and 不感冒 ("not into") are no health matter, a broken heart no broken thing,
"a new lease of life" no lease; hoping the listener's operation goes well is about the listener."""

from __future__ import annotations

import datetime as dt

import pytest

from facts.extraction.base import MessageView
from facts.extraction.rules import RuleExtractor

WHEN = dt.datetime(2026, 5, 11, 10, 0, tzinfo=dt.UTC)


def _first_type(text: str) -> str:
    """The first fact's type of a user's turn, or "drop:<reason>"."""
    out = RuleExtractor().extract([MessageView(id=1, role="user", name="", content=text, created_at=WHEN)])[1]
    return out.candidates[0].type if out.candidates else f"drop:{out.gate.reason}"


def _kind(text: str) -> str:
    """The first fact's type, or "drop" whatever the reason."""
    return _first_type(text).split(":")[0]


@pytest.mark.parametrize(
    "text",
    [
        "Might swing by the farmers' market on Sunday if the weather holds up, weather permitting.",
        "I may well hit the pool after work, might not though.",
        "Maybe we'll grab a pizza tonight.",
        "If I get a minute I'll have a look at the shed this weekend.",
        "明天下午可能去趟超市",
        "有时间的话周六去公园转转",
        "这周末说不定去钓个鱼",
        # Left to free time, whenever it is.
        "I'll pop along to the pub quiz if I'm free.",
    ],
)
def test_a_hedged_plan_for_the_next_days_is_dropped(text: str) -> None:
    assert _first_type(text) == "drop:vague"


@pytest.mark.parametrize(
    "text",
    [
        # Further off, or with a weight of its own (a move, work, health): kept, and as no decision or event.
        "We might relocate to Aberdeen next spring for my wife's new post.",
        "Might need a root canal on Thursday, the dentist wasn't sure.",
        "我下个月可能要调去成都分公司",
        "医生说我周五可能要做个胃镜",
        "下个月可能调去深圳，看情况吧",
        # A wish is the speaker's own, free time or not.
        "I'd love to learn Spanish if I ever get the time.",
        "我有空的话想学吉他",
    ],
)
def test_a_hedged_plan_with_weight_is_kept(text: str) -> None:
    assert _first_type(text) in {"relationship", "health", "profile", "commitment", "preference"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A choice hedged is a plan at most, not a decision.
        ("Maybe I'll go with the cheaper broadband deal next year.", "commitment"),
        ("我可能会换成季卡", "commitment"),
        # ... and one made stays a decision, also beside 不可能 ("no way").
        ("I've decided to go with the cheaper broadband deal.", "decision"),
        ("我决定了，不可能再续那家健身房", "decision"),
    ],
)
def test_a_hedged_choice_is_no_decision(text: str, expected: str) -> None:
    assert _first_type(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I've long wanted to take up the saxophone.", "preference"),
        ("My big dream is to own a little cottage by the sea.", "preference"),
        ("I'm itching to learn to surf properly.", "preference"),
        ("我一直都想学滑雪", "preference"),
        ("我真的想去西藏自驾一趟", "preference"),
        # A wish with its date or goal is a plan.
        ("I want to learn enough Italian to order dinner by next summer.", "commitment"),
        ("我特别想考潜水证，争取年底前考下来", "commitment"),
        # A wish for a pronoun, or for bed, names nothing.
        ("I've always wanted to see them.", "drop"),
        ("我好想去那边", "drop"),
    ],
)
def test_a_wish_of_ones_own_is_a_preference(text: str, expected: str) -> None:
    assert _kind(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A class or a race signed up for is no subscription: a class attended is how one lives, a race a plan.
        ("I've just signed up for a life-drawing course on Wednesday nights.", "profile"),
        ("I signed up for the Leeds 10k in June.", "commitment"),
        ("I just signed up for your family broadband plan.", "decision"),
        # Therapy as a figure of speech is no health matter; therapy itself is.
        ("Gardening is a kind of therapy for me.", "drop"),
        ("I've been in therapy for panic attacks since January.", "health"),
        # 不感冒 is "not into", no cold; a cold is health.
        ("我对广场舞真的不怎么感冒", "preference"),
        ("这两天感冒了，鼻子堵得厉害", "health"),
        # A heart broken is no broken thing, "a new lease of life" no lease, "is therapy" a figure too.
        ("That documentary about the orangutans broke my heart.", "drop"),
        ("Our lease on the shop runs out in September.", "legal"),
        ("Baking on a Sunday is therapy for me.", "drop"),
        # Wishing the listener well is about the listener, not the speaker's health.
        ("I really hope your shoulder op goes smoothly!", "drop"),
        ("So sorry about your ankle, that sounds grim.", "drop"),
        ("我希望你的手术一切顺利", "drop"),
        ("I hope to have my hip replacement before Christmas.", "health"),
    ],
)
def test_words_in_other_senses(text: str, expected: str) -> None:
    assert _kind(text) == expected


def test_a_new_lease_of_life_is_no_lease() -> None:
    assert _first_type("Retiring early gave me a new lease of life.") != "legal"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Effort promised on nothing named, in more words: dropped.
        ("I'm going to keep at it with that, no matter what.", "drop"),
        ("I'll keep on pushing and moving forward!", "drop"),
        ("We'll keep hustling on it.", "drop"),
        # ... and on something named, a plan.
        ("I'll keep working on my dissertation over the summer.", "commitment"),
    ],
)
def test_effort_on_nothing_named_is_dropped(text: str, expected: str) -> None:
    assert _kind(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Support for the listener is about the listener's affairs.
        ("Go for the promotion, I'm right behind you!", "drop"),
        ("Priya, I'll check out your podcast tonight!", "drop"),
        ("Your revision will pay off, trust me.", "drop"),
        ("你放心去考，我一直支持你", "drop"),
        # ... while the speaker's own news beside pride stays.
        ("I finally passed my citizenship test and I'm so proud of myself.", "event"),
    ],
)
def test_support_for_the_listener_is_dropped(text: str, expected: str) -> None:
    assert _kind(text) == expected


def test_a_request_to_a_business_is_no_wish() -> None:
    # "I'd like to ..." asks a business for something; it says nothing of what the speaker likes.
    assert _first_type("Hi, I'd like to buy a voucher for £40 please.") != "preference"
    assert _first_type("I'd like to get a new charger sent out.") != "preference"
