"""English sentences kept by the gate that carry no first person: said of the speaker, or not kept.

Chat drops the subject ("Tried the new ramen bar on Friday." = "I tried..."); that is the speaker's own story and
reads as "Joanna tried the new ramen bar on Friday". A sentence addressed to the listener ("Hope your knee is
better", "Your new haircut suits you"), an instruction ("Be sure to ask them first") or a reaction to what the
listener said ("Sounds lovely") is not about the speaker at all: it yields no fact ("X mentioned that Be
sure to..." would be a quote in disguise). A promise or request whose only content is to talk later ("I'll let you
know", "Ping me if anything comes up", "Tell me more about your trip") carries nothing either. Linear-time
patterns over the sentence's head only.
"""

from __future__ import annotations

import re

from facts.extraction.person import is_past_form, third_person_en
from facts.text import keywords

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
    """ "Tried the new ramen bar" -> "Joanna tried the new ramen bar"; None when the sentence does not
    open with a past-tense verb (with at most one adverb before it)."""
    head = body.lstrip(" \"'-–—")
    m = _ELIDED_RE.match(head[:_HEAD])
    if m is not None and m.group(1).lower() == "been":  # "Been swimming a lot" -> "Jon has been swimming a lot"
        return third_person_en("I've " + head[:1].lower() + head[1:], speaker)
    if m is None or not is_past_form(m.group(1)):
        return None
    after = (m.group(2) or "").lower()
    if after in _VERB_AFTER or after and is_past_form(after):
        return None
    return third_person_en("I " + head[:1].lower() + head[1:], speaker)


# Talking later, and the clauses that only condition it ("if you need anything", "whenever you need help").
_TALK_RE = re.compile(
    r"\b(?:let (?:me|you|us) know|lemme know|keep (?:you|me) (?:posted|updated|in the loop)|get back to (?:you|me)|"
    r"reach out|hit (?:me|you) up|tell me (?:more|all)|text (?:me|you)|call (?:me|you)|give (?:me|you) a shout|"
    r"ping (?:me|you)|message (?:me|you)|drop (?:me|you) a line|"
    r"send (?:it|them|that|those) (?:to you|over|your way))\b|(?:跟|和|给)?(?:我|你)(?:说|讲)一声|告诉(?:我|你)|"
    r"通知(?:我|你)|联系(?:我|你)|找我|跟我说|保持联系",
    re.I,
)
_TALK_FILLER_RE = re.compile(
    r"\b(?:if (?:i|you) (?:need|want) (?:anything|any help|help|more|some)(?: \w+)?|if there'?s anything(?: else)?"
    r"(?: i can do)?(?: to help)?|whenever you (?:need|want)(?: help| anything)?|any ?time|definitely|sure|just|"
    r"(?:i'?ll|i will|i'?m gonna|i am going to|i can|i'?d|will|would|be)|help(?: you)?(?: out)?|later|soon|more)\b|"
    r"有(?:什么)?(?:需要|问题|事)(?:的话)?|随时|到时候?|回头|一定|再|就|的话|[会我你吧啊哈呀啦]",
    re.I,
)


def only_talk(sentence: str) -> bool:
    """A promise or request to talk later with no content of its own, or one about the listener's business."""
    head = sentence[:_HEAD]
    m = _TALK_RE.search(head)
    if m is None:
        return False
    rest = _TALK_FILLER_RE.sub(" ", head[: m.start()] + " " + head[m.end() :])
    return bool(_SECOND_PERSON_RE.search(rest)) or len(keywords(rest)) < 2


# Liking or hating a pronoun alone ("I love it!", "I'd love to.", "我也喜欢"): what is liked is in another turn.
_EMPTY_LIKING_RE = re.compile(
    r"(?:(?:aw+|oh+|wow|yes|yeah|haha+|omg|honestly)[\s,!.]+)*"
    r"(?:i|we)(?:'d| would| really| just| totally| absolutely| so| also| still)* (?:love|like|enjoy|adore|hate)s? "
    r"(?:it|that|this|them|to|those|these|him|her)(?: (?:so much|a lot|too|as well))?[\s!.~]*|"
    r"我?(?:也|真的|超|好|特别|很|就)*(?:喜欢|爱|讨厌)(?:它|这个|那个|他|她)?(?:了|啊|呀|哦|的)?[\s!！。~～]*",
    re.I,
)


def empty_liking(sentence: str) -> bool:
    """A preference whose object is only a pronoun: nothing to remember on its own."""
    return bool(_EMPTY_LIKING_RE.fullmatch(sentence[:_HEAD].strip()))
