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
# Words that tell the amount or the id itself: paying, its period, what kind of sum or number it is ("We pay 1,250 a
# month for the flat" says the rent and nothing else), and the confirmation a read-back's fact is framed with.
_OF_THE_AMOUNT_RE = re.compile(
    r"pay(?:s|ing)?|paid|costs?|spen[dt]s?|charged?|price|total|per|day|daily|weeks?|weekly|months?|monthly|years?|"
    r"yearly|annual(?:ly)?|rent|income|salary|wages?|budget|fees?|about|around|roughly|number|no|ref(?:erence)?|code|"
    r"id|confirm(?:s|ed)?|每(?:个)?月|一?个月|每年|一年|每周|一周|花了?|付|交|房租|月租|租金|工资|收入|月薪|年薪|税[后前]|预算|大概|左右|"
    r"差不多|块钱|钱|到手|尾号|编号|号码|单号|卡号|确认"
)
MORE_WORDS = 3  # content words besides the amount: "rent is 1200 a month" has none, "my order number is 12345" two


def says_more_than_amount(sentence: str) -> bool:
    """Whether the sentence holds MORE_WORDS content words or more besides numbers, codes and the words that tell
    the amount itself."""
    words = keywords(strip_chatter(sentence))
    return sum(1 for w in words if not _OF_THE_AMOUNT_RE.fullmatch(w) and not _NUMBERISH_RE.fullmatch(w)) >= MORE_WORDS
