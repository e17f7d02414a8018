"""Entities of a sentence for the rule extractor: people, pets, places, organisations, products, order numbers,
dates and amounts, as {text, kind}."""

from __future__ import annotations

import re

from conversations.postag import pos_tags
from facts.extraction.slots import order_numbers, relationship_entities
from facts.extraction.timeexpr import absolute_dates
from facts.text import has_cjk

_CAPS_RE = re.compile(r"(?<![\w'])([A-Z][a-zA-Z'’-]+(?:\s+[A-Z][a-zA-Z'’-]+){0,3})")
# A bare number reads at most 31 digits and commas: unbounded, a try from every digit of a long run read the rest
# of the run (quadratic).
_AMOUNT_RE = re.compile(
    r"(?:[$¥€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|million|thousand))?)|(?:\d[\d,]{0,30}(?:\.\d+)?\s?(?:dollars|usd|rmb|yuan|euros?|"
    r"pounds|元|块钱|块|万元|万|%|percent))",
    re.IGNORECASE,
)
_PLACE_PREP = re.compile(r"\b(in|to|from|at|near|visited|visit)\s+$", re.I)
_ORG_HINT = re.compile(r"\b(Inc|Corp|Company|University|College|School|Hospital|Bank|Group|Club|Center|Centre)\b")
_NOT_NAMES = frozenset(
    [
        "I",
        "I'm",
        "I've",
        "I'd",
        "I'll",
        "The",
        "A",
        "An",
        "It",
        "It's",
        "That",
        "This",
        "These",
        "Those",
        "There",
        "They",
        "We",
        "You",
        "He",
        "She",
        "My",
        "Your",
        "Our",
        "Their",
        "His",
        "Her",
        "What",
        "When",
        "Where",
        "Why",
        "How",
        "Who",
        "Which",
        "Hey",
        "Hi",
        "Hello",
        "Thanks",
        "Thank",
        "Oh",
        "Wow",
        "Yeah",
        "Yes",
        "No",
        "Ok",
        "Okay",
        "So",
        "And",
        "But",
        "Or",
        "If",
        "Just",
        "Also",
        "Really",
        "Well",
        "Sure",
        "Great",
        "Cool",
        "Nice",
        "Awesome",
        "Haha",
        "Lol",
        "Love",
        "Glad",
        "Sounds",
        "Good",
        "Bye",
        "Let",
        "Let's",
        "Do",
        "Did",
        "Is",
        "Are",
        "Was",
        "Were",
        "Have",
        "Has",
        "Had",
        "Can",
        "Could",
        "Would",
        "Should",
        "Will",
        "Not",
        "Don't",
        "Didn't",
        "Can't",
        "Same",
        "Me",
        "Maybe",
        "Definitely",
        "Totally",
        "Absolutely",
        "Of",
        "Course",
        "Congrats",
        "Congratulations",
        "Sorry",
        "Please",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ]
)
_MONTH_WORDS = frozenset(
    [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ]
)


def entities_of(sentence: str, fact_text: str, speaker: str) -> list[dict[str, str]]:
    """People, pets, places, organisations, products, order numbers, dates and amounts, as {text, kind}."""
    found: dict[str, dict[str, str]] = {}
    seen: set[str] = set()  # lowercased keys of found (a set rebuilt per entity was quadratic)

    def add(text: str, kind: str) -> None:
        text = text.strip(" ,.'’")
        if text and text.lower() not in seen:
            seen.add(text.lower())
            found[text] = {"text": text, "kind": kind}

    if speaker and speaker not in {"User", "用户", "Assistant"}:
        add(speaker, "person")
    for ent in relationship_entities(sentence):
        add(ent["text"], ent["kind"])
    for number in order_numbers(sentence):
        add(number, "order")
    for date in absolute_dates(fact_text):
        add(date, "date")
    for amount in _AMOUNT_RE.findall(sentence):
        add(amount, "amount")
    if has_cjk(sentence):
        _zh_entities(sentence, add)
    for m in _CAPS_RE.finditer(sentence):
        words = [w for w in m.group(1).split() if w not in _NOT_NAMES and w.strip("'’") not in _NOT_NAMES]
        if not words or all(w in _MONTH_WORDS for w in words):
            continue
        phrase = " ".join(words)
        if m.start() == 0 and len(words) == 1 and phrase.lower() in _COMMON_START:
            continue
        # The words just before (the patterns below end at $): the whole prefix made a long sentence quadratic.
        before = sentence[max(0, m.start() - 200) : m.start()]
        if _ORG_HINT.search(phrase):
            kind = "org"
        elif _PLACE_PREP.search(before):
            kind = "place" if re.search(r"\b(in|to|from|near|visited|visit)\s+$", before, re.I) else "org"
        elif re.search(r"\b(bought|ordered|got|purchased|using|use|play|playing|read|reading|watched|watching)\s+"
                       r"(?:a |an |the |my |new )*$", before, re.I):  # fmt: skip
            kind = "product"
        elif phrase.isupper() and len(phrase) > 1:
            kind = "org"
        else:
            kind = "person"
        add(phrase, kind)
    return list(found.values())


_COMMON_START = frozenset({"after", "before", "during", "since", "today", "yesterday", "tomorrow", "last", "next"})


_NOT_ZH_NAME = re.compile(r"[周月天年号日过敏说想要去了]")


def _zh_entities(sentence: str, add) -> None:  # type: ignore[no-untyped-def]
    kinds = {"nr": "person", "nrfg": "person", "nrt": "person", "ns": "place", "nt": "org", "nz": "product"}
    for word, flag in pos_tags(sentence):  # bounded in time (conversations.postag)
        kind = kinds.get(flag)
        if kind and len(word) >= 2 and word not in {"用户"} and not (kind == "person" and _NOT_ZH_NAME.search(word)):
            add(word, kind)
