"""A pronoun that stands for the pet or thing the turn just said the speaker gained, in English and Chinese.

"I adopted a kitten last week. She's called Miso." The second sentence alone ("She's called Miso.") means nothing a
month later; said of its antecedent it is a durable fact: "My kitten is called Miso." A clause that starts with a
subject pronoun (she, he, it, they, or her / his / its / their name; 她, 他, 它) after a clause of the same turn that
says a pet, a vehicle or a lasting thing was gained (possession.py) is rewritten with "my <thing>" (我的<thing>) in
the pronoun's place, and the rest of extraction says it in third person as usual, when it gives the thing its name
("called", "named", "her name is", 叫), its kind ("he's a beagle") or its age ("she's four", 它两岁了): those are
kept, as a pet's or a car's name is what people are asked for later. How the speaker feels about it ("she's so
cute") stays as said, for the gate to judge.
Linear-time patterns, each anchored at the clause's start or on a literal.
"""

from __future__ import annotations

import re

from facts.extraction.possession import PET_WORDS, possession_change

_NOUN_EN_RE = re.compile(
    r"\b(?:adopt(?:ed|ing)?|rescued|bought|purchased|inherited|leased|brought home|picked up|got|getting)"
    r" (?:(?:my|our|a|an|another|the) )?(?:(?:new|used|second-hand|little|rescue|old|vintage|\w+-year-old) ){0,2}"
    r"(?P<noun>[a-z]+(?: pig| ?van)?)\b",
    re.I,
)
_ZH_THING = (
    r"猫|狗|柯基|仓鼠|兔子?|鹦鹉|金毛|泰迪|柴犬|哈士奇|布偶|鱼|龟|鸟|车|摩托车?|自行车|单车|钢琴|电脑|沙发|房子?"
)
_NOUN_ZH_RE = re.compile(
    rf"(?:领养|收养|买|入手|添|养|捡|提)了?(?:一|两|\d)?(?:只|条|辆|台|架|套|部|匹|头|个)"
    rf"(?P<noun>[^，。！？,.!?\s]{{0,2}}?(?:{_ZH_THING}))"
)

_SUBJECT_EN_RE = re.compile(
    r"^(?P<lead>(?:and|so|oh|yes|yeah)[, ]+)?(?:(?P<pronoun>she|he|it|they)(?P<verb>'s|'re| is| was| are| were)\b"
    r"|(?P<possessive>her|his|its|their) (?P<name>name)\b)",
    re.I,
)
_SUBJECT_ZH_RE = re.compile(r"^(?P<lead>[嗯对哦]+[，,]?)?(?P<pronoun>[她他它])(?![们说觉认想])")
_NAMING_RE = re.compile(r"^(?:'s| is| was) (?:called|named)\b|^ name(?:'s| is| was)\b|^叫|^名叫|^的名字叫", re.I)
# What else about the thing lasts: its kind ("he's a beagle", "it's a 2015 Honda Civic", "she's a Maine Coon") or its
# age ("she's four", "he's 3 months old", 它两岁了); not how the speaker feels about it ("she's so cute").
_NUMBER = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_LASTING_RE = re.compile(
    rf"^(?:'s| is| was) (?:(?:a|an) (?:[A-Z0-9]|(?:{PET_WORDS})\b)|{_NUMBER}(?: (?:years?|months?|weeks?)(?: old)?)?[.!,]?$)"
    r"|^(?:[一二两三四五六七八九十\d]+(?:岁|个月))|^是(?:一)?(?:只|条|辆|台)",
)


def _noun(clause: str) -> str | None:
    """The thing a clause says was gained: "kitten", "car", "小猫" (None when it says none)."""
    if not possession_change(clause):
        return None
    m = _NOUN_EN_RE.search(clause) or _NOUN_ZH_RE.search(clause)
    return m.group("noun").lower() if m else None


def _rewritten(clause: str, noun: str) -> str | None:
    """The clause with its leading subject pronoun said as the speaker's `noun`, when it names the thing or says
    what kind of thing it is or its age (None otherwise: the clause stays as it was said)."""
    m = _SUBJECT_EN_RE.match(clause)
    if m is not None:
        owner = f"My {noun}"
        rest = clause[m.end() :]
        if m.group("possessive"):
            rest = re.sub(r"^'s\b", " is", rest)
            head, names, lasting = f"{owner}'s name", bool(_NAMING_RE.match(" name" + rest)), False
        else:
            verb = m.group("verb").lower()
            verb = {"'s": " is", "'re": " is", " are": " is", " were": " was"}.get(verb, verb)
            head, names, lasting = (
                owner + verb,
                bool(_NAMING_RE.match(verb + rest)),
                bool(_LASTING_RE.match(verb + rest)),
            )
        return (head + rest) if names or lasting else None
    m = _SUBJECT_ZH_RE.match(clause)
    if m is not None:
        rest = clause[m.end() :]
        return f"我的{noun}{rest}" if _NAMING_RE.match(rest) or _LASTING_RE.match(rest) else None
    return None


def with_antecedents(clauses: list[tuple[str, int, int]]) -> tuple[list[tuple[str, int, int]], set[int]]:
    """The turn's clauses with each pronoun subject that follows a gained thing said as that thing, when the clause
    names it or says its kind or age, and the indexes of those (kept: they last). The spans stay the original
    clauses' (a fact's source is the text as said)."""
    out = list(clauses)
    lasting: set[int] = set()
    noun: str | None = None
    for i, (clause, start, end) in enumerate(clauses):
        found = _noun(clause)
        if found is not None:
            noun = found
            continue
        if noun is None:
            continue
        rewritten = _rewritten(clause, noun)
        if rewritten is not None:
            out[i] = (rewritten, start, end)
            lasting.add(i)
    return out, lasting


# A parent or grandparent called by the word a child calls them, capitalised as a name ("Mum had a fall", "Dad's
# retiring in May"): the speaker's own, said as such ("my mum had a fall") so that it is read as the speaker's relative.
_BARE_KIN_RE = re.compile(
    r"^((?:(?:and|but|so|then|now|also|oh|well|plus)[,\s]{1,3})?)"
    r"(?-i:(Mum|Mom|Mam|Dad|Nan|Nana|Gran|Granny|Grandma|Grandpa|Grandad))(?=(?:'s)?\s(?!I\b))",
    re.I,
)


# ... or called to ("Mum, I moved to Leeds!"): the one spoken to is not the fact's subject.
_CALLED_KIN_RE = re.compile(r"^(?-i:Mum|Mom|Mam|Dad|Nan|Gran|Grandma|Grandpa),\s(?=(?:I|I'm|I've|we|we're)\s)")


# "guess who finally cancelled the gym": the speaker, teasing.
_GUESS_WHO_RE = re.compile(
    r"^(?:so |and |oh )?guess who(?= (?:just |finally |actually |only )?(?:[a-z]{2,20}ed|got|quit|went|did|won|made|sold|bought)\b)",
    re.I,
)


# "Me and Callum broke up": the speaker and someone as one subject, said as "Callum and I".
_ME_AND_RE = re.compile(
    r"^(?:(?:so|and|but|well|oh)[,\s]{1,3})?[Mm]e (?:and|&) ((?-i:[A-Z][a-z]{1,15})|my [a-z]{2,15})\b"
)


def own_relative(clause: str) -> str:
    """ "Mum had a fall" -> "my mum had a fall", "Mum, I moved" -> "I moved", "guess who got the job" -> "I got the
    job"; any other clause as it is."""
    clause = _GUESS_WHO_RE.sub("I", _CALLED_KIN_RE.sub("", clause, count=1), count=1)
    clause = _ME_AND_RE.sub(lambda m: f"{m.group(1)} and I", clause, count=1)
    return _BARE_KIN_RE.sub(lambda m: f"{m.group(1)}my {m.group(2).lower()}", clause, count=1)
