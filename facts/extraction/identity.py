"""The speaker said to be something, in a word or two ("I'm a Virgo", "I'm colour-blind", "我是左撇子", "我属狗"), or to have
a thing ("I have an allotment", "我有辆摩托"): what a person is and has stays true a month later, though the sentence has
one content word (the gate's filler rule drops those)."""

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
# "I have / own / I've got a(n) <thing>" and nothing more, where the noun is a thing one keeps, not a question, a plan,
# an engagement, a passing ailment or a moment ("I have an idea", "I've got a meeting", "I have a flight", "I have a
# cold").
_HAS_ONE_EN = re.compile(
    r"^(?:i|we) (?:have|own|'?ve got|have got) (?:an?|my own|our own) (?:[a-z][\w'-]* )?(?!(?:question|idea|point|feeling|"
    r"plan|thought|suggestion|problem|issue|meeting|call|moment|minute|second|sec|chance|clue|doubt|theory|confession|"
    r"request|favou?r|update|announcement|surprise|story|secret|dream|date|presentation|exam|test|interview|deadline|"
    r"shift|party|lot|bit|few|couple|way|day|week|weekend|night|morning|evening|afternoon|time|go|look|try|break|rest|"
    r"nap|laugh|chat|talk|word|job to do|situation|thing|one|flight|train|class|lecture|lesson|seminar|game|match|gig|"
    r"show|concert|appointment|reservation|booking|wedding|funeral|trip|holiday|vacation|cold|headache|cough|hangover|"
    r"temperature|fever|bug|toothache|stomach ?ache|throat|cramp|rash)\b)[a-z][\w'-]*[.!]*$",
    re.I,
)
# 我有(一)个/辆/台... <thing>: a measure word counts a thing; not 我有个问题 / 想法 / 事.
_HAS_ONE_ZH = re.compile(
    r"^我(?:家)?有(?:一)?(?:个|辆|台|只|条|块|套|间|把|架|艘|匹|头|座|栋|部)(?!问题|想法|事|建议|疑问|主意|请求|提议|消息|计划|"
    r"打算|会|约|安排|朋友|同事|好消息|坏消息|感觉|预感)[\u4e00-\u9fffA-Za-z0-9]{1,8}[。！!.~～]*$"
)
_IS_ZH = re.compile(r"^我(?:是|属)([A-Za-z\u4e00-\u9fff]{1,6}?)(?:的)?[。！!.~～]*$")


def says_what_speaker_is(sentence: str) -> bool:
    """Whether the sentence only says what the speaker is, by a noun (Chinese: every word of it a noun by jieba's
    tags, so 我是说 / 我是认真的 are not) or by one of the adjectives that last, or only what thing the speaker has."""
    text = sentence.strip()
    if _A_NOUN_EN.match(text) or _HAS_ONE_EN.match(text) or _HAS_ONE_ZH.match(text):
        return True
    m = _IS_ZH.match(text)
    return m is not None and all(tag.startswith("n") for word, tag in zh_tagged(m.group(1)) if word.strip())
