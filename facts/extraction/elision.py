"""English sentences kept by the gate that carry no first person: said of the speaker, or not kept.

Chat drops the subject ("Checked out the library there." = "I checked out..."); that is the speaker's own story and
reads as "Joanna checked out the library there". A sentence addressed to the listener ("Hope your knee is better",
"Combining your two interests is super cool"), an instruction ("Be sure to ask them first") or a reaction to what
the listener said ("Sounds wonderful") is not about the speaker at all: it yields no fact ("X mentioned that Be
sure to..." would be a quote in disguise). Linear-time patterns over the sentence's head only.
"""

from __future__ import annotations

import re

from facts.extraction.person import is_past_form, third_person_en

_HEAD = 300
_ADVERB = r"(?:even|just|also|finally|recently|actually|really|totally|always|never|still|already|once|then)"
_SECOND_PERSON_RE = re.compile(r"\b(?:you|your|yours|you're|you've|you'll|yourself|u|ur)\b", re.I)
_IMPERATIVE_RE = re.compile(
    r"(?:please\s+)?(?:be|check|let|let's|try|keep|make sure|take|go|don't|do not|remember|hope|enjoy|have fun|"
    r"give|look at|stay|tell|come|treat|say|watch|listen|follow|ask|bring|show|consider|imagine|trust|wish|put|add|use|"
    r"call|text|send|grab|pick|buy|get|turn|wait|drink|eat|read|sign up|don't forget|feel free)\b",
    re.I,
)
_REACTION_RE = re.compile(
    r"(?:(?:wow|whoa|oh|aw+|omg|ooh|yay|haha+|lol)[\s,!.]+)*(?:(?:that|it|this)(?:'s| is)?\s+)?"
    r"(?:sounds?|looks?|seems?)\b",
    re.I,
)
_ELIDED_RE = re.compile(rf"(?:{_ADVERB}\s+)?([A-Za-z]+)\b(?:\s+([A-Za-z']+))?", re.I)
# After a name that looks like a past form ("Fred came over", "Ahmed is back"): a verb, not an object.
_VERB_AFTER = frozenset(["is", "was", "has", "had", "and", "will", "would", "can", "could", "says", "said", "'s"])


def not_about_speaker(body: str) -> bool:
    """A sentence without first person that speaks to the listener, instructs, or reacts to what was said."""
    head = body[:_HEAD].lstrip(" \"'-–—")
    return bool(_SECOND_PERSON_RE.search(head) or _IMPERATIVE_RE.match(head) or _REACTION_RE.match(head))


def with_elided_subject(body: str, speaker: str) -> str | None:
    """ "Checked out the library there" -> "Joanna checked out the library there"; None when the sentence does not
    open with a past-tense verb (with at most one adverb before it)."""
    head = body.lstrip(" \"'-–—")
    m = _ELIDED_RE.match(head[:_HEAD])
    if m is None or not is_past_form(m.group(1)):
        return None
    after = (m.group(2) or "").lower()
    if after in _VERB_AFTER or after and is_past_form(after):
        return None
    return third_person_en("I " + head[:1].lower() + head[1:], speaker)
