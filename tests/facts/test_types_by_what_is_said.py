"""Types and fact texts on phrasings of their own, in English and Chinese: a medical procedure is health, a child
named by birth order is a relative, leaving a workplace is work, the speaker's wedding with its date or place is a
plan, a bare number given is an id, a service's fee asked about is an inquiry, a loan is legal, a fault or a missed
delivery date is a complaint without the word, a place on a course won is where the speaker studies (考上研究生了 is no
birth), a plan told with its verb alone is the speaker's, and a service question about the business's terms (a refund,
a return, an invoice) is an inquiry while a complaint asked as a question stays a complaint."""

from __future__ import annotations

import datetime as dt

import pytest

from facts.extraction.base import MessageView
from facts.extraction.rules import RuleExtractor
from facts.extraction.typer import slot_family

WHEN = dt.datetime(2026, 4, 14, 10, 0, tzinfo=dt.UTC)


def _facts(text: str, *, name: str = "Nadia"):  # type: ignore[no-untyped-def]
    view = MessageView(id=1, role="user", name=name, content=text, created_at=WHEN)
    return RuleExtractor().extract([view])[1].candidates


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Got my endoscopy booked for the 14th, nil by mouth from midnight.", "health"),
        ("周五要去医院做个彩超，看看甲状腺那个结节", "health"),
        ("Our eldest hates swimming lessons, every week is a battle.", "relationship"),
        ("我小儿子特别挑食，胡萝卜一口都不吃", "relationship"),
        ("I left the supermarket in June after six years there.", "profile"),
        ("干了五年，上周五是我在书店的最后一个班", "profile"),
        ("We're getting married at a barn in Somerset next July.", "commitment"),
        ("我们婚礼定在明年五月，在厦门办", "commitment"),
        ("We're getting married!", "relationship"),
        ("We're getting married next July, just family.", "commitment"),
        ("It's 5521837.", "other"),
        ("会员号是88213405", "other"),
        ("Do you charge a penalty fee for early repayment on the loan?", "inquiry"),
        ("你们提前还款收不收手续费", "inquiry"),
        ("前年贷了八十万，还有二十年才还完", "legal"),
        ("The new kettle trips the fuse every time I switch it on.", "complaint"),
        ("新买的电暖器一插电就跳闸", "complaint"),
        ("The sofa was supposed to arrive on Monday and it's now Thursday.", "complaint"),
        ("说好两天发货，这都第六天了", "complaint"),
        ("We took on two retired racing greyhounds in the spring.", "profile"),
        ("Cancel my gym membership please, I've moved away.", "decision"),
        ("Finally cleared my car loan this month, two years early.", "legal"),
        ("车贷上个月终于还清了", "legal"),
        ("Bad neck ever since a car crash on the motorway in 2021.", "health"),
        ("这阵子天天半夜两点多才睡，早上起不来", "health"),
        ("Perfect, I'll get the green one after work.", "decision"),
        # A place on a course of study won is where the speaker studies next; a word ending in 生 is no birth.
        ("I got into grad school!", "profile"),
        ("I was accepted onto a nursing degree.", "profile"),
        ("我考上研究生了！", "profile"),
        ("拿到了港大的offer，九月入学。", "profile"),
        ("我老婆昨天生了，是个男孩！", "event"),  # a birth is an event (the corpus README), as "my wife gave birth"
    ],
)
def test_a_kept_sentence_is_typed_by_what_it_says(text: str, expected: str) -> None:
    facts = _facts(text)
    assert facts, text
    assert facts[0].type == expected, (text, [(f.type, f.text) for f in facts])


def test_a_childs_birth_order_is_not_an_old_friend() -> None:
    assert slot_family(None, "My eldest starts secondary school in September.") == "child"
    assert slot_family(None, "My oldest friend is coming to stay for a week in May.") != "child"
    assert slot_family(None, "My youngest sister lives in Oslo.") != "child"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Moving to Bristol at the end of June.", "Nadia is moving to Bristol at the end of June."),
        ("Flying out to Lagos on Friday for my cousin's wedding.", "Nadia is flying out to Lagos on Friday"),
    ],
)
def test_a_plan_told_with_its_verb_alone_is_the_speakers(text: str, expected: str) -> None:
    facts = _facts(text)
    assert facts and facts[0].text.startswith(expected), [f.text for f in facts]


def test_a_gerund_that_is_its_own_subject_is_not_the_speakers_plan() -> None:
    assert all("is moving" not in f.text for f in _facts("Moving house can be exhausting."))


def test_a_chinese_greeting_before_the_news_is_not_part_of_the_fact() -> None:
    facts = _facts("你好，我上个月在你们这办的宽带，到现在还没装好")
    assert facts and not facts[0].text.startswith("你好"), [f.text for f in facts]
    assert "宽带" in facts[0].text
    english = _facts("Hello, the broadband I ordered from you last month still isn't installed.")
    assert english and not english[0].text.lower().startswith("hello")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Cancel my phone contract please.", "Nadia asked to cancel their phone contract"),
        ("帮我取消我的健身房会员", "Nadia要求取消健身房会员"),
    ],
)
def test_a_cancellation_told_as_an_order_is_the_speakers_decision(text: str, expected: str) -> None:
    facts = _facts(text)
    assert facts and facts[0].type == "decision" and facts[0].text.startswith(expected), [
        (f.type, f.text) for f in facts
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Yep, we finally did it last weekend!",
        "Yay, I nailed it on Saturday!",
        "我们昨天终于搞定了！",
        "上周末总算做到了",
    ],
)
def test_a_done_act_with_a_pronoun_for_its_object_keeps_nothing(text: str) -> None:
    assert _facts(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "We finally did the Snowdon climb on Saturday!",
        "我们终于把房子的首付凑齐了",
        "I finished my thesis this morning.",
    ],
)
def test_a_done_act_with_its_content_is_kept(text: str) -> None:
    assert _facts(text)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Hi Sam! Ages since we last chatted! Quite a bit has been going on at my end! Have a look at this.", False),
        ("嗨小林！好久没聊了！最近我这边发生了好多事！你看看这个。", False),
        ("Loads going on at work since they promoted me to team lead in March.", True),
        ("最近发生了好多事，我下个月要调去成都了", True),
    ],
)
def test_busy_news_with_no_news_in_it_keeps_nothing(text: str, kept: bool) -> None:
    assert bool(_facts(text)) is kept, [f.text for f in _facts(text)]


@pytest.mark.parametrize(
    ("text", "expected", "said"),
    [
        # A refund, a return or an exchange asked about with no trouble of the speaker's asks about the business's
        # terms: an inquiry with its subject, also without a question mark.
        ("你们的退货政策是怎样的", "inquiry", "咨询"),
        ("退款大概要几天到账？", "inquiry", "咨询"),
        ("退货的运费是谁出？", "inquiry", "咨询"),
        ("What's your refund policy on sale items?", "inquiry", "asked"),
        ("How long does a refund usually take?", "inquiry", "asked"),
        ("Can I get a refund if I change my mind?", "inquiry", ""),
        # A complaint asked as a question stays a complaint, said as one (never dropped for asking).
        ("为什么你们的快递这么慢", "complaint", "抱怨"),
        ("Why is your courier so slow?", "complaint", "complained"),
        ("Why hasn't my refund come through yet?", "complaint", ""),  # guard
        ("我买的台灯不亮了，能退货吗？", "complaint", ""),  # guard
        ("我想退货，运费谁出？", "complaint", ""),  # guard: the speaker's own return
        # A term of the trade asked of the business is kept, whatever the classifier's vectors make of it.
        ("你们能开发票吗", "inquiry", "咨询"),
        ("能开专票吗？", "inquiry", "咨询"),
        ("Do you do invoices for businesses?", "inquiry", "asked whether they do invoices"),
        ("你家店周末开门吗", "inquiry", "咨询"),
        # The listener's own shop, named as one person's: a friend is asked, a business is not.
        ("你那个工作室周末营业吗？", None, ""),
        ("你那家店周末开门吗？", None, ""),  # guard
    ],
)
def test_a_service_question_asks_about_terms_or_complains(text: str, expected: str | None, said: str) -> None:
    facts = _facts(text)
    if expected is None:
        assert facts == [], [f.text for f in facts]
        return
    assert facts and facts[0].type == expected, (text, [(f.type, f.text) for f in facts])
    assert said in facts[0].text, facts[0].text
