"""Words that decide a kept fact's type or a drop, on phrasings of their own, in English and Chinese: an injury is
health (a relative's is the relative's), a break-up is no breakage, not renewing is a decision before a lease is
legal, spoiled food is a complaint, a joint replaced is health, shifts, notice handed in, a transfer and a school
year are work and study, a move without its subject is a residence, going with someone to their appointment is the
speaker's plan, a bare booking code or a capped sum is kept, a bare "what a rip-off" is a reaction, and doing
something together some day is no plan."""

from __future__ import annotations

import datetime as dt

import pytest

from facts.extraction.base import MessageView
from facts.extraction.rules import RuleExtractor

WHEN = dt.datetime(2026, 4, 14, 10, 0, tzinfo=dt.UTC)


def _typed(text: str) -> str:
    """The best fact's type, or "drop:<reason>"."""
    out = RuleExtractor().extract([MessageView(id=1, role="user", name="Nadia", content=text, created_at=WHEN)])[1]
    if not out.candidates:
        return f"drop:{out.gate.reason}"
    return max(out.candidates, key=lambda c: c.confidence).type


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My sister broke her collarbone skiing.", "relationship"),
        ("Sam and I broke up last week.", "relationship"),
        ("We won't be renewing the tenancy in August.", "decision"),
        ("I'm not renewing my contract with them.", "decision"),
        ("The strawberries you delivered were mouldy.", "complaint"),
        ("送来的面包都发霉了", "complaint"),
        ("收到的橙子一半是烂的", "complaint"),
        ("去年做了髋关节置换，现在还在做康复", "health"),
        ("I'm on lates at the hotel most weeks.", "profile"),
        ("Handed my notice in at the garage today.", "profile"),
        ("They've transferred me into the London compliance team.", "profile"),
        ("我今年大三，学的是会计", "profile"),
        ("Moved back to Cork in the spring.", "profile"),
        ("这周六我陪她去医院复查", "commitment"),
        ("Taking him for his blood test tomorrow.", "commitment"),
        ("ZR4K9T.", "other"),
        ("TK-551-7720", "other"),
        ("Twelve grand, max.", "other"),
        ("三千以内吧", "other"),
        ("I've made my mind up: the Leeds offer, not Bristol.", "decision"),
        ("Why did you charge us twice for one delivery?", "complaint"),
        ("下个月起改用电动牙刷，先用着看", "decision"),
        ("好，就这个了，下个月开始扣费", "decision"),
        # A decision the typer knows is a reason to keep the sentence, too (it was dropped as low value).
        ("以后改坐地铁上班了", "decision"),
        ("太坑了吧！", "drop:reaction"),
        ("What a rip-off!", "drop:reaction"),
        ("等我考完试，咱们一起去学潜水呗", "drop:vague"),
        ("Let's go kayaking together one of these days!", "drop:vague"),
        # Guards: the words in other senses.
        ("I had a knee replacement in March.", "health"),
        ("I'm in year 11 at Greenfield High.", "profile"),
        ("年底搬回老家了", "profile"),
        ("我下个月和她一起去云南", "commitment"),
        ("The kettle you sent me is broken.", "complaint"),
    ],
)
def test_words_that_decide_the_type_or_the_drop(text: str, expected: str) -> None:
    assert _typed(text) == expected


@pytest.mark.parametrize("text", ["阳光灿烂的日子最适合晒被子", "Er, no idea.", "Moved the sofa into the garage."])
def test_the_words_in_other_senses_decide_nothing(text: str) -> None:
    from facts.extraction.families import residence
    from facts.extraction.signals import strong_signal

    assert strong_signal(text) == "" and residence(text, "晒" in text) is None


@pytest.mark.parametrize(
    ("question", "answer", "expected"),
    [
        # A remedy offered and accepted is the customer's decision, said as what was accepted.
        (
            "So sorry! Would you like a replacement sent out?",
            "Yes please.",
            ("decision", "Nadia accepted a replacement"),
        ),
        ("非常抱歉，给您重新发一份可以吗？", "可以", ("decision", "Nadia同意重新发一份")),
        (
            "We can refund you or send a new one. Which do you prefer?",
            "A refund, please.",
            ("decision", "Nadia chose the refund"),
        ),
        ("您好，可以为您办理69元套餐，次月生效，确认办理吗？", "嗯，办吧", ("decision", "Nadia同意办理69元套餐")),
        # Guard: a read-back of the user's own detail is still confirmed as it was read.
        ("So your new address is 4 Elm Road, Leeds?", "That's right.", ("profile", "Nadia confirmed")),
    ],
)
def test_an_offer_accepted_is_a_decision(question: str, answer: str, expected: tuple[str, str]) -> None:
    view = MessageView(id=1, role="user", name="Nadia", content=answer, created_at=WHEN,
                       previous_assistant_content=question)  # fmt: skip
    facts = RuleExtractor().extract([view])[1].candidates
    assert facts and facts[0].type == expected[0] and facts[0].text.startswith(expected[1]), [f.text for f in facts]


@pytest.mark.parametrize(
    "text",
    [
        "最近总是胸闷气短，爬两层楼就喘",
        "这几天老恶心，没胃口",
        "Been short of breath on the stairs lately.",
        "The nausea hits me every morning before work.",
        "I keep getting dizzy spells when I stand up.",  # guard: health by nearness before
    ],
)
def test_symptoms_are_health(text: str) -> None:
    assert _typed(text) == "health"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ugh fine, I'll cancel the spin classes next week", "decision"),
        ("Hi, I need to move my appointment, reference ABX-40", "decision"),
        ("I have to cancel the dinner reservation for Saturday", "decision"),
        ("快递能改寄到我公司吗，家里没人", "decision"),
        ("健身卡月底到期，我不打算再续了", "decision"),
        # Guard: the landlord's not renewing is no decision of the speaker's.
        ("烦死了，房东说租约到期就不续了", "legal"),
    ],
)
def test_a_booking_changed_or_cancelled_for_later_is_a_decision(text: str, expected: str) -> None:
    assert _typed(text) == expected
