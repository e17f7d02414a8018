"""One user's turn through the rules extractor, as the tests of what the gate keeps read it."""

from __future__ import annotations

import datetime as dt

from facts.extraction.base import Candidate, MessageView
from facts.extraction.rules import RuleExtractor
from facts.extraction.typer import rule_type, slot_family

WHEN = dt.datetime(2026, 5, 11, 10, 0, tzinfo=dt.UTC)


def candidates_of(text: str, name: str = "") -> list[Candidate]:
    """The candidate facts a user's turn yields at WHEN (an unnamed user's unless `name`)."""
    out = RuleExtractor().extract([MessageView(id=1, role="user", name=name, content=text, created_at=WHEN)])[1]
    return list(out.candidates)


def facts_of(text: str) -> list[tuple[str, str]]:
    """(type, text) of every fact an unnamed user's turn yields at WHEN."""
    return [(c.type, c.text) for c in candidates_of(text)]


def first_kind(text: str) -> str:
    """The first fact's type, or "drop"."""
    facts = facts_of(text)
    return facts[0][0] if facts else "drop"


def answer_of(question: str, reply: str) -> list[tuple[str, str]]:
    """(type, text) of every fact an unnamed user's reply to the assistant's question yields at WHEN."""
    message = MessageView(
        id=1, role="user", name="", content=reply, created_at=WHEN, previous_assistant_content=question
    )
    return [(c.type, c.text) for c in RuleExtractor().extract([message])[1].candidates]


def rule_type_of(text: str) -> str:
    """The type the typer's rules are sure of for one sentence, with the slot family it names, or ""."""
    return rule_type(text, None, slot_family(None, text))
