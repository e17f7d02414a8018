"""Precision of what the rule extractor keeps, and the type it gives, on phrasings of their own (none from the corpus
or the bench batches), in English and Chinese: encouragement and catch-up questions yield nothing; news of the
speaker's work is who they are (profile); an inquiry needs a real question, legal a word of the law; an advice
opener before the speaker's news is not part of the fact; the speaker is named once per fact."""

from __future__ import annotations

import datetime as dt

import pytest

from facts.extraction.base import MessageView
from facts.extraction.person import third_person_en
from facts.extraction.person_zh import third_person_zh
from facts.extraction.rules import RuleExtractor

WHEN = dt.datetime(2026, 5, 20, 9, 30, tzinfo=dt.UTC)


def _facts(text: str, *, name: str = "", role: str = "user"):  # type: ignore[no-untyped-def]
    view = MessageView(id=1, role=role, name=name, content=text, created_at=WHEN)
    return RuleExtractor().extract([view])[1].candidates


@pytest.mark.parametrize(
    "text",
    [
        # Encouragement, reassurance: a resolve with nothing in it.
        "Don't stress, it'll all turn out fine.",
        "Honestly, I reckon you'll sort it out somehow.",
        "Hang in there, you've got this!",
        "别灰心，一切都会好起来的。",
        "相信你，你肯定没问题的！",
        "一定要坚持下去，我觉得会顺利的。",
        # Catch-up questions: they ask for news and carry none.
        "So, what's new with you?",
        "How are things going?",
        "最近过得咋样？",
        "好久不见，最近在忙什么呢？",
    ],
)
def test_encouragement_and_catch_up_questions_yield_no_fact(text: str) -> None:
    assert _facts(text, name="Robin") == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("My scan is on Tuesday, I'm certain it will be fine.", "scan"),
        ("我下周三做胃镜，相信会没事的。", "胃镜"),
    ],
)
def test_the_speakers_news_beside_a_reassurance_is_kept(text: str, word: str) -> None:
    facts = _facts(text, name="Robin")
    assert facts and word in facts[0].text


@pytest.mark.parametrize(
    "text",
    [
        "I handed in my notice at the agency and start at a vet practice in June.",
        "Got made redundant in April, so I'm freelancing now.",
        "我今年三月升了店长，管两家门店。",
        "我换了份工作，去了一家做物流的公司。",
    ],
)
def test_news_of_the_speakers_work_is_profile(text: str) -> None:
    facts = _facts(text, name="Robin")
    assert facts and facts[0].type == "profile"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Do you deliver to the Isle of Wight?", "inquiry"),
        ("你们周日营业吗？", "inquiry"),
        ("We live two minutes from your Kings Road shop.", None),
        ("我家就在你们门店附近，走路五分钟。", None),
    ],
)
def test_an_inquiry_needs_a_question(text: str, expected: str | None) -> None:
    facts = _facts(text)
    assert facts
    assert (facts[0].type == "inquiry") == (expected == "inquiry")


@pytest.mark.parametrize(
    ("text", "legal"),
    [
        ("My ex is taking me to court over the dog.", True),
        ("If the deposit isn't back by June I'll see them in small claims court.", True),
        ("我准备申请劳动仲裁，公司拖了三个月工资。", True),
        ("要是下周还不退款，我就去法院起诉。", True),
        ("Our doubles pair lost the final on the grass court last Saturday.", False),
        ("I got a first-aid certificate through work in March.", False),
    ],
)
def test_legal_needs_a_word_of_the_law(text: str, legal: bool) -> None:
    facts = _facts(text, name="Robin")
    assert facts
    assert (facts[0].type == "legal") is legal


@pytest.mark.parametrize(
    ("text", "opener", "word"),
    [
        ("You should know that I'm allergic to penicillin.", "should know", "penicillin"),
        ("Just so you know, I'm vegetarian these days.", "so you know", "vegetarian"),
        ("建议你存一下，我的新邮箱是robin.k@example.org。", "建议你", "robin.k@example.org"),
        # A frame of telling or of being reminded: the news is what follows.
        ("I need to let you know I start at the county library on Monday.", "let you know", "library"),
        ("Honestly it reminds me why I got into nursing in the first place.", "reminds", "nursing"),
        ("我就是想跟你说一下，我周五要去深圳出差。", "想跟你说", "深圳"),
        ("这让我想起我大学时也在乐队打过鼓。", "让我想起", "打过鼓"),
        ("That made me realize I want to retrain as a midwife.", "realize", "midwife"),
    ],
)
def test_an_advice_opener_is_stripped_from_the_speakers_news(text: str, opener: str, word: str) -> None:
    facts = _facts(text, name="Robin")
    assert facts
    assert opener not in facts[0].text and word in facts[0].text


@pytest.mark.parametrize(
    ("sentence", "name", "expected"),
    [
        ("I teach piano and I love it.", "Nadia", "Nadia teaches piano and they love it."),
        ("I was exhausted, so I went to bed at eight.", "", "User was exhausted, so they went to bed at eight."),
        ("My knee is sore and I'm resting it.", "Nadia", "Nadia's knee is sore and they are resting it."),
        ("My brother and I run a café.", "Nadia", "Nadia and their brother run a café."),
    ],
)
def test_the_speaker_is_named_once_in_english(sentence: str, name: str, expected: str) -> None:
    assert third_person_en(sentence, name) == expected


@pytest.mark.parametrize(
    ("sentence", "name", "expected"),
    [
        ("我上周辞职了，老板还欠我一个月工资。", "阿强", "阿强上周辞职了，老板还欠自己一个月工资。"),
        ("我在学日语，我每晚背五十个单词。", "阿强", "阿强在学日语，每晚背五十个单词。"),
        ("我不喝咖啡，我姐天天喝。", "", "用户不喝咖啡，姐姐天天喝。"),
    ],
)
def test_the_speaker_is_named_once_in_chinese(sentence: str, name: str, expected: str) -> None:
    assert third_person_zh(sentence, name) == expected


@pytest.mark.parametrize(
    ("sentence", "name", "expected"),
    [
        ("My sister and I are off to Lisbon in May.", "Jess", "Jess and their sister are off to Lisbon in May."),
        ("so my dad and I fixed the fence", "", "so User and their dad fixed the fence"),
    ],
)
def test_the_speaker_comes_first_beside_a_relative(sentence: str, name: str, expected: str) -> None:
    assert third_person_en(sentence, name) == expected


@pytest.mark.parametrize(
    ("sentence", "name", "expected"),
    [
        ("我弟刚考上研究生。", "", "用户的弟弟刚考上研究生。"),
        ("我姐和我下周去日本。", "小林", "小林和姐姐下周去日本。"),
        ("我跟我哥合租。", "", "用户跟哥哥合租。"),
        ("我爸妈下个月来上海。", "", "用户的爸妈下个月来上海。"),
        ("我姐夫在银行上班。", "", "用户的姐夫在银行上班。"),
        ("我妈妈退休了。", "", "用户的妈妈退休了。"),
        ("我们家的狗叫豆豆。", "", "用户家的狗叫豆豆。"),
    ],
)
def test_a_relative_is_said_as_a_word_in_chinese(sentence: str, name: str, expected: str) -> None:
    assert third_person_zh(sentence, name) == expected
