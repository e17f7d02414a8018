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
# that turn, but on its own it says nothing a reader of the profile can place. So does a show-and-tell ("Here are
# the bowls Ana made": a picture in the chat).
_DANGLING_RE = re.compile(
    r"^\s*(?:(?i:yup|yep|yeah|yes|oh|well|so|and|but|anyway)[,!]?\s+)?(?:(?i:it|it's|its|this|that|these|those|they|they're|their|them|he|he's|his|she|she's|her|here's|here\s+(?:is|are))\b"
    r"|它|他|她|这个|那个|这些|那些|这是|那是|这就是|这里是|这儿是)"
)
# A fact still addressed to the listener ("... watch one of your movies", "see you soon", 你也试试) is a remark in a
# conversation: the profile speaks about the person, never to someone.
_ADDRESSED_RE = re.compile(r"(?i:\byou(?:r|rs|'re|'ll|'ve|'d)?\b)|你|您")
# Words that carry no content on their own: a fact made only of them and a name ("Ana is as well!", "Ben too.")
# points at another turn for its meaning.
_FUNCTION_WORDS = frozenset(
    [
        "a", "an", "the", "is", "are", "was", "were", "am", "be", "been", "being", "has", "have", "had", "do",
        "does", "did", "will", "would", "can", "could", "should", "as", "well", "too", "also", "so", "very",
        "really", "just", "and", "or", "but", "not", "no", "yes", "yeah", "same", "one", "ones",
    ]
)  # fmt: skip
_WORD_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")


def is_self_contained(text: str) -> bool:
    """False for a fact a reader of the profile cannot place on its own: it opens on a pronoun or demonstrative
    standing for something it does not name, it still speaks to the listener, or (English) it has no word of
    content besides its capitalised names ("Ana is as well!")."""
    if _DANGLING_RE.match(text) or _ADDRESSED_RE.search(text):
        return False
    words = _WORD_RE.findall(text)
    if not words or re.search(r"[\u4e00-\u9fff]", text):
        return True  # Chinese: the pronoun and address checks above only
    return any(w.lower() not in _FUNCTION_WORDS and not w[0].isupper() for w in words)


# A pronoun inside the fact standing for a thing named in another turn ("Nate loves having them around", "pitched it
# to producers", "include this at the beginning", 它很乖): the fact is true but half of it is elsewhere.
_REFERS_ELSEWHERE_RE = re.compile(
    r"(?i:\b(?:it|them|him|another)\b"
    r"|\b(?:this|these|those)(?=\s*[.,!?;:]|\s*$|\s+(?:at|in|on|to|for|with|from|into|up|out|as|when|because)\b))|它"
)


def refers_elsewhere(text: str) -> bool:
    """True for a fact with a pronoun in it that stands for something it does not name (the profile shows such
    facts after the ones that say all they mean)."""
    return bool(_REFERS_ELSEWHERE_RE.search(text))
