"""Kinds of turns a blind batch showed, on phrasings of this file's own, in English and Chinese: a promise broken
("supposed to be finished... still not", 说好…还没) and a delay are complaints; a booking with its date is a plan; a
day moved to, a provider switched, an offer passed on, a pass handed back are decisions; a third person's injury
is someone else's (relationship); a birth told without "born" is an event; shifts, volunteering, a doctorate and a
business of one's own are work; a diet taken up by name is a preference; injuries, pills and sleep in other words
are health; interjections (我的妈, "och, that's grim") and "if I ever won" are dropped; a question to the business in
any shape (…有…不, 接机, "take the old one away") is an inquiry; "no" before a noun is part of the fact."""

from __future__ import annotations

import datetime as dt

import pytest

from facts.extraction.base import MessageView
from facts.extraction.rules import RuleExtractor

WHEN = dt.datetime(2026, 5, 11, 10, 0, tzinfo=dt.UTC)


def _facts(text: str, *, before: str = "") -> list[tuple[str, str]]:
    """(type, text) of every fact of a user's turn, after the assistant's message `before`."""
    view = MessageView(id=1, role="user", name="", content=text, created_at=WHEN, previous_assistant_content=before)
    out = RuleExtractor().extract([view])[1]
    return [(c.type, c.text) for c in out.candidates] or [(f"drop:{out.gate.reason}", "")]


def _typed(text: str) -> str:
    return _facts(text)[0][0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A promise broken, a delay, a thing snapped: what went wrong.
        ("The plumber was meant to finish the bathroom by Easter and the tiles still aren't on.", "complaint"),
        ("装修公司说好五月底交房，现在都六月中了还没弄完", "complaint"),
        ("The ferry was delayed overnight and we lost a whole day of the holiday.", "complaint"),
        ("The suitcase you sent has a snapped handle.", "complaint"),
        ("师傅说好周末来装空调，到今天还没来", "complaint"),
        # A booking with its date or place: the speaker's plan.
        ("We've reserved the village hall for the 9th of August.", "commitment"),
        # ... but a doctor's appointment booked is health.
        ("我约了下礼拜二看皮肤科", "health"),
        # Decisions: an offer passed on, a day moved to, a provider switched, a pass handed back.
        ("I think I'll pass on the extended warranty, thanks.", "decision"),
        ("I think I'll give the upgrade a miss for now.", "decision"),
        ("周四我去不了，改下周一上午吧", "decision"),
        ("这家物业太差了我们打算换一家", "decision"),
        ("我准备把游泳卡退了，夏天一过就不想去了", "decision"),
        # A third person's injury: someone else's, not the speaker's.
        ("He slipped on the ice on Sunday and fractured his ankle, so I'm driving him to physio.", "relationship"),
        # A birth told without "born".
        ("生了生了，前天半夜生的，是个女宝，六斤半", "event"),
        # Work by other words: shifts, volunteering, a doctorate, a business of one's own.
        ("I've gone onto lates at the warehouse, 2 till 10.", "profile"),
        ("I volunteer at the food bank on Tuesday evenings.", "profile"),

        ("I sell handmade candles at the Sunday market in Hebden Bridge.", "profile"),
        ("最近开始上夜班了，晚上十点到早上六点", "profile"),
        ("我的瑜伽工作室下个月满三年了", "profile"),
        # A diet taken up by name.
        # Health in other words: a torn muscle, a pill, sleep.
        ("Ripped my hamstring sprinting for the bus on Monday.", "health"),
        ("Sleep's been shocking since the move, up at 4 every day.", "health"),
        ("上个月查出来肺炎，住了一个礼拜", "health"),
    ],
)  # fmt: skip
def test_what_a_turn_keeps_is_typed_by_what_it_tells(text: str, expected: str) -> None:
    assert _typed(text) == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Ach, that's pants, sorry tae hear it.", "reaction"),
        ("Ach that's awful, so sorry tae hear that.", "reaction"),
        ("我的妈呀，抢钱吧。", "reaction"),
        ("lol if I ever won the lottery I'd quit on the spot", "hypothetical"),
        ("要是我以后有钱了，肯定天天在家躺着", "hypothetical"),
    ],
)
def test_interjections_reactions_and_daydreams_are_dropped(text: str, reason: str) -> None:
    assert _typed(text) == f"drop:{reason}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Will your lads take the old one away when they fit the new boiler?", "Asked whether"),
        ("Do you take the old mattress away or do I have to book the council?", "Asked whether"),
        ("你们这个款的灰色有现货不", "咨询商家"),
        ("另外你们酒店有接机吗？浦东机场过去多远", "咨询酒店是否有接机"),
        ("理赔定损一般要多久啊？", "咨询理赔定损一般要多久。"),
    ],
)
def test_a_question_to_the_business_in_any_shape_is_an_inquiry(text: str, expected: str) -> None:
    facts = _facts(text)
    assert facts[0][0] == "inquiry" and facts[0][1].startswith(expected), facts


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("no red meat for me these days, doctor's orders", "No red meat"),
        ("but no coffee after lunch these days, it keeps me up", "No coffee"),
    ],
)
def test_no_before_a_noun_is_part_of_the_fact(text: str, kept: str) -> None:
    assert _facts(text)[0][1].startswith(kept)


@pytest.mark.parametrize(
    "text",
    [
        # Not a fault: a photo snapped, an exhausted speaker, a relative clause of where one volunteers.
        "Look at this sunset I snapped from the ferry!",
        "I'm absolutely shattered after the wedding, what a day.",
    ],
)
def test_words_of_a_fault_in_other_senses_are_no_complaint(text: str) -> None:
    assert _typed(text) != "complaint"


def test_laughter_in_stitches_is_no_health() -> None:
    assert _typed("Haha that video had me in stitches all evening") != "health"
    assert _typed("Needed four stitches in my chin after falling off the scooter.") == "health"


@pytest.mark.parametrize(
    ("before", "reply", "expected"),
    [
        # Acceptance in more than one word keeps what it accepts; an act offered is asked of the business; a day
        # read back is kept as the date it names (WHEN is Monday 11 May 2026).
        ("Shall I move your delivery to the 22nd, between 8 and 12?", "Fine, do it.",
         "Asked the business to move their delivery to the 22nd, between 8 and 12."),
        ("Would you like me to book the 10:15 with Dr Haddad on Monday?", "Yes.",
         "Asked the business to book the 10:15 with Dr Haddad on Monday."),
        ("Would you like me to cancel the Thursday class for you?", "ok sure, go ahead",
         "Asked the business to cancel the Thursday class for them."),
        ("需要帮您把取件时间改到周六上午吗？", "行，可以", "同意把取件时间改到2026年5月16日上午。"),
        ("需要帮您改成周日晚上吗？", "好的，可以", "同意改成2026年5月17日晚上。"),
    ],
)  # fmt: skip
def test_an_act_offered_and_accepted_is_the_users_decision(before: str, reply: str, expected: str) -> None:
    assert _facts(reply, before=before) == [("decision", expected)]


def test_a_generic_offer_accepted_in_more_words_stays_dropped() -> None:
    assert _facts("Sure, why not.", before="Want me to draw up a packing list?")[0][0].startswith("drop:")
