"""The speaker said to be something, in a word or two ("I'm a Virgo", "I'm colour-blind", "我是左撇子", "我属狗"): what a
person is stays true a month later, though the sentence has one content word (the gate's filler rule drops those)."""

from __future__ import annotations

import re

from facts.text import zh_tagged

# "I'm a/an <noun>" classifies the speaker; a few nouns say a mood or a degree instead ("I'm a mess", "a bit").
_A_NOUN_EN = re.compile(
    r"^(?:i'?m|i am) (?:an? (?!(?:bit|little|lot|mess|wreck|fan|genius|legend|idiot|joke|nervous|huge|big)\b)[a-z][\w'-]*"
    r"(?: [a-z][\w'-]*)?|"
    # ... and the adjectives that say what someone is, not how they feel today.
    r"[a-z]+-(?:handed|blind|sighted|employed|free|intolerant|born|raised|taught)|colou?rblind|retired|catholic|muslim|"
    r"jewish|hindu|buddhist|christian|atheist|agnostic|sikh|deaf|dyslexic|autistic|adopted|widowed|divorced|engaged|"
    r"teetotal|freelance|bilingual|trilingual|introverted|extroverted)[.!]*$",
    re.I,
)
_IS_ZH = re.compile(r"^我(?:是|属)([A-Za-z\u4e00-\u9fff]{1,6}?)(?:的)?[。！!.~～]*$")


def says_what_speaker_is(sentence: str) -> bool:
    """Whether the sentence only says what the speaker is, by a noun (Chinese: every word of it a noun by jieba's
    tags, so 我是说 / 我是认真的 are not) or by one of the adjectives that last."""
    text = sentence.strip()
    if _A_NOUN_EN.match(text):
        return True
    m = _IS_ZH.match(text)
    return m is not None and all(tag.startswith("n") for word, tag in zh_tagged(m.group(1)) if word.strip())
