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
