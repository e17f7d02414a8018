"""Which facts are durable: worth showing in the profile and in context's fact section.

A durable fact is about the person (identity, health, preferences, relationships, work, plans, complaints,
decisions, events with a content), not a quote of small talk ("A said: Long time no see.", "B asked: how are
you?"), not a bare question, and not a typeless remark. The write path's gate keeps few such rows; this is the
read side's guarantee for facts stored before it, or written by an API client.
"""

from __future__ import annotations

import re

# Types that do not describe the person durably: an open question, a remark the typer could not place (unless
# it has a time of its own: then it is an event).
NOT_DURABLE_TYPES = frozenset({"inquiry", "other"})
# Quote-form: "<speaker> said/asked/replied: ...", "<speaker>说：", "<speaker>问：".
_QUOTE_RE = re.compile(
    r"^\s*[\w\u4e00-\u9fff .'-]{1,40}?\s(?:said|asked|replied|wrote|says|asks|added|answered)\s*[:：,]"
    r"|^\s*[\w\u4e00-\u9fff]{1,12}(?:说|问|回复|回答|表示)[:：]",
    re.I,
)
_QUESTION_END = ("?", "？", "吗。", "吗")


def is_quote(text: str) -> bool:
    return bool(_QUOTE_RE.search(text))


def is_durable(*, text: str, type: str, has_time: bool = False) -> bool:
    """True for a fact worth showing as durable knowledge about the person (see the module's docstring).

    A remark the typer left `other` that carries its own time ("前天拔了一颗智齿") is an event: it counts."""
    if type == "inquiry" or (type in NOT_DURABLE_TYPES and not has_time):
        return False
    stripped = text.strip()
    return bool(stripped) and not is_quote(stripped) and not stripped.endswith(_QUESTION_END)


# A fact that opens on a pronoun or a demonstrative ("It's like therapy for Mel.", "He hid his bone in her slipper.",
# "Those milestones are great reminders ...", 这是一个大决定) names what it is about in another turn: searchable with
# that turn, but on its own it says nothing a reader of the profile can place.
_DANGLING_RE = re.compile(
    r"^\s*(?:(?i:yup|yep|yeah|yes|oh|well|so|and|but|anyway)[,!]?\s+)?(?:(?i:it|it's|its|this|that|these|those|they|they're|their|them|he|he's|his|she|she's|her)\b"
    r"|它|他|她|这个|那个|这些|那些|这是|那是|这就是)"
)


def is_self_contained(text: str) -> bool:
    """False for a fact that opens on a pronoun or demonstrative standing for something it does not name."""
    return not _DANGLING_RE.match(text)
