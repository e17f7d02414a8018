"""The value gate and the typer: table-driven over the corpus's held-back quarter, and every behaviour on phrasings
of its own (not the corpus's), in English and Chinese. The extractor is called directly (no database)."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from bench.distil import corpus_scores
from facts.extraction import classifier
from facts.extraction.base import MessageView
from facts.extraction.corpus import load_turns
from facts.extraction.gate import rule_verdict
from facts.extraction.rules import RuleExtractor

WHEN = dt.datetime(2026, 4, 14, 10, 0, tzinfo=dt.UTC)
QUOTE_RE = re.compile(r"\b(said|asked)\s*:|说：|问：")


def _extract(text: str, *, name: str = "", role: str = "user", before: str = ""):  # type: ignore[no-untyped-def]
    view = MessageView(id=1, role=role, name=name, content=text, created_at=WHEN, previous_assistant_content=before)
    return RuleExtractor().extract([view])[1]


def test_the_holdout_quarter_holds_the_measured_floor() -> None:
    """On turns no tuning saw. The issue's targets (precision 0.9, recall 0.8, type accuracy 0.85) are NOT all met
    (measured 0.885 / 0.719 / 0.652 on 2026-12-01; 0.881 / 0.812 / 0.577 on 2026-12-02 with the wider train split;
    0.873 / 0.774 / 0.562 the same day on the 310 held-out turns, 148 of them written blind to the rules; 0.866 / 0.782 /
    0.588 after the type definitions and the typer by meaning): this holds
    the figures reached so that they cannot silently fall. On failure it shows the figures only, never the turns."""
    scores = corpus_scores([t for t in load_turns() if t.split == "holdout"])
    figures = {k: v for k, v in scores.items() if k != "errors"}
    assert scores["gate_precision"] >= 0.85, figures
    assert scores["gate_recall"] >= 0.75, figures
    assert scores["type_accuracy"] >= 0.53, figures


def test_the_classifier_learns_from_the_train_split_only_and_is_deterministic() -> None:
    rows = classifier.training_turns()
    assert rows and all(t.split == "train" and t.role == "user" for t in rows)
    holdout = {t.id for t in load_turns() if t.split == "holdout"}
    assert holdout and not holdout & {t.id for t in rows}
    vectors = classifier.training_vectors([t.text for t in rows])
    assert vectors is not None
    first, second = classifier.fit(rows, vectors), classifier.fit(rows, vectors)
    assert (first.keep_w == second.keep_w).all() and (first.type_w == second.type_w).all()


CHATTER = [
    ("谢谢，再见～", "thanks"),
    ("多谢啦，回头聊！", "thanks"),
    ("Cheers mate, much appreciated!", "thanks"),
    ("Morning!! 😊", "greeting"),
    ("嗨～好久不见", "greeting"),
    ("Catch you later, take care", "sign_off"),
    ("拜拜，晚安～", "sign_off"),
    ("Haha no way, that's awesome", "reaction"),
    ("哇塞，太厉害了", "reaction"),
    ("Sounds like a plan.", "agreement"),
    ("行，没问题", "agreement"),
]


@pytest.mark.parametrize(("text", "reason"), CHATTER)
def test_greetings_thanks_sign_offs_and_reactions_yield_nothing_with_their_reason(text: str, reason: str) -> None:
    out = _extract(text, name="Lin")
    assert out.candidates == [] and not out.gate.keep
    assert out.gate.reason == reason


DROPPED = [
    "So what have you all been doing lately?",
    "你周末一般干嘛？",
    "You look great in that photo!",
    "你这发型真适合你",
    "If I were rich I'd buy a boat and call it Nemo.",
    "要是我中了五百万，我就辞职环游世界",
    # About the listener, the speaker only framing it; a promise with no content; a non-committal answer; a belief
    # just given up; a how-to question without its mark.
    "天哪，你居然一个人去了西藏",
    "我记得你小时候特别怕狗",
    "Honestly, you were always the smart one.",
    "Next week, I promise!",
    "嗯，我再想想",
    "We'll see.",
    "我还以为周日也营业呢",
    "so what should I name a python variable for a counter",
]


@pytest.mark.parametrize("text", DROPPED)
def test_questions_about_the_other_compliments_and_hypotheticals_are_dropped(text: str) -> None:
    assert _extract(text, name="Lin").candidates == []


KEPT = [
    (
        "My partner Ana and I adopted a greyhound called Pixel last weekend.",
        "Lin",
        {"relationship", "profile", "event"},
    ),
    ("I've been coeliac since I was a kid, so no bread for me.", "", {"health", "preference"}),
    ("我姐姐下个月在苏州结婚", "", {"relationship", "commitment"}),
    ("我上个月刚入职字节，做推荐算法", "", {"profile"}),
    ("The kettle I bought from you stopped working after two days.", "", {"complaint"}),
    ("买的空气炸锅用了三天就不加热了，外壳还有裂缝", "", {"complaint"}),
    ("Does this jacket ship to Norway?", "", {"inquiry"}),
    ("这款洗衣机能送货到昆明吗？", "", {"inquiry"}),
    ("We've decided to go with the cheaper flat in Didsbury.", "", {"decision"}),
    ("我对青霉素过敏", "", {"health"}),
    # The listener named, but the speaker's own fact or a complaint about them stays.
    ("I know you hate cats, but I adopted two kittens last week.", "", {"event", "profile"}),
    ("你们寄来的台灯是坏的，开关按了没反应", "", {"complaint"}),
]


@pytest.mark.parametrize(("text", "name", "types"), KEPT)
def test_durable_facts_are_kept_and_typed(text: str, name: str, types: set[str]) -> None:
    out = _extract(text, name=name)
    assert out.candidates, out.gate
    assert out.candidates[0].type in types, [c.type for c in out.candidates]
    assert out.gate.keep and out.gate.reason.startswith("keep: ")


def test_a_chinese_complaint_about_a_defective_product_without_the_word_is_a_complaint() -> None:
    out = _extract("上周在你们店买的电动牙刷，充满电也只能用一天，按键还失灵")
    assert [c.type for c in out.candidates][:1] == ["complaint"]


def test_an_english_complaint_without_the_word_is_a_complaint() -> None:
    out = _extract("The sofa you delivered on Friday has a torn cushion and one leg is missing.")
    assert [c.type for c in out.candidates][:1] == ["complaint"]


def test_an_inquiry_keeps_its_subject_in_third_person() -> None:
    out = _extract("Do you deliver to Tasmania?")
    assert out.candidates and "Tasmania" in out.candidates[0].text
    assert not QUOTE_RE.search(out.candidates[0].text) and "you" not in out.candidates[0].text.split()


@pytest.mark.parametrize(
    ("text", "name", "good", "bad"),
    [
        (
            "I went climbing with my sister in Snowdonia.",
            "Ruth",
            "Ruth went climbing with their sister",
            "Ruth's sister",
        ),
        ("I went climbing with my sister in Snowdonia.", "", "User went climbing with their sister", "User's"),
        ("我和我妹妹上周去了青岛", "", "和妹妹", "用户的"),
    ],
)
def test_third_person_is_natural(text: str, name: str, good: str, bad: str) -> None:
    texts = [c.text for c in _extract(text, name=name).candidates]
    assert texts and good in texts[0] and bad not in texts[0], texts


@pytest.mark.parametrize(
    "text",
    [
        "The museum downtown reopened with a dinosaur wing, you'd love it.",
        "那家新开的书店周末有读书会，听说挺热闹",
        "Anyway the weather's been mad.",
    ],
)
def test_no_fact_is_a_quote(text: str) -> None:
    for candidate in _extract(text, name="Omar").candidates:
        assert not QUOTE_RE.search(candidate.text), candidate.text


def test_assistant_turns_yield_nothing() -> None:
    out = _extract("Your flight to Oslo on 3 May is booked, seat 14C.", role="assistant")
    assert out.candidates == [] and out.gate.reason == "assistant"


@pytest.mark.parametrize(
    ("before", "reply", "expected"),
    [
        ("Just to check, your new postcode is M14 5RT?", "Yep, that's right.", "M14 5RT"),
        ("跟您确认一下，收货手机是13900001111吗？", "是的", "13900001111"),
    ],
)
def test_a_user_confirming_the_assistants_read_back_keeps_it(before: str, reply: str, expected: str) -> None:
    out = _extract(reply, before=before)
    assert out.candidates and expected in out.candidates[0].text
    assert not QUOTE_RE.search(out.candidates[0].text)


@pytest.mark.parametrize(
    ("before", "reply"),
    [("Would you like a packing list as well?", "Sure, go ahead."), ("要不要我再给您推荐几家餐厅？", "好的")],
)
def test_accepting_a_generic_offer_confirms_nothing(before: str, reply: str) -> None:
    assert _extract(reply, before=before).candidates == []


def test_rule_verdicts_name_their_reasons() -> None:
    assert rule_verdict("谢谢，再见～").reason == "thanks"
    assert rule_verdict("What's your favourite film?").reason == "empty_question"
    assert rule_verdict("我对芒果过敏").keep is True
