"""Whether a sentence with an amount or an id says more than the amount.

The corpus README's `other` is "an amount or an id with nothing else" (an income, a rent, an order or policy
number). A sentence that carries an amount beside what happened, was bought, went wrong or is planned is typed by
that: "my water bill jumped from £38 to £61 a month" is a complaint, "we already got the flights for 1,460 total" a
plan, "sold the corsa for 900 quid" who the speaker is. Read by the typer's weaker cues (typer.cue_type).
"""

from __future__ import annotations

import re

from facts.extraction.gate import strip_chatter
from facts.text import keywords

# A number, an amount or a code as a word of its own ("1,460", "£45" -> "45", "bx-44719", "四千八", "二十二万").
_NUMBERISH_RE = re.compile(
    r"[\d.,/:-]+|[a-z]{0,3}\d[\w-]*|[零〇一二两三四五六七八九十百千万亿点半多几]+[块元万千百岁个号]?", re.I
)
MORE_WORDS = 3  # content words besides the numbers: "rent is 1200 a month" has two (rent, month)


def says_more_than_amount(sentence: str) -> bool:
    """Whether the sentence holds MORE_WORDS content words or more besides numbers and codes ("my order number is
    12345" holds two: it is the number)."""
    words = [w for w in keywords(strip_chatter(sentence)) if not _NUMBERISH_RE.fullmatch(w)]
    return len(words) >= MORE_WORDS
