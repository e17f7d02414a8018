"""The value gate: greetings, thanks, small talk and resolved trivia yield no fact; the rest is kept.

The gate works per message (the decision is recorded on it) and per sentence (a greeting inside an
informative message is dropped, the informative sentences are kept). It errs on keeping: a turn with
names, places, dates or two content words is worth a fact, because recall depends on it.
"""

from __future__ import annotations

import re

from facts.extraction.base import GateDecision
from facts.text import has_cjk, keywords

_GREETING_WORDS = (
    r"hi|hello|hey|hiya|yo|thanks( so much| a lot| a bunch)?|thank you( so much| very much)?|thx|ty|ok|okay|k|cool|great|nice|awesome|wow|"
    r"sure|yes|yeah|yep|no|nope|lol|haha|hahaha|bye|goodbye|see you( later| soon)?|take care|good (morning|night|"
    r"evening|afternoon)|you'?re welcome|no problem|np|sounds good|got it|me too|same here|of course|"
    r"sounds (great|good|fun|amazing|awesome|lovely|cool|wonderful|exciting|interesting)|so (cool|true|fun)|for sure|"
    r"you too|totally|absolutely|exactly|definitely|indeed|congrats|congratulations|good luck|i agree|i know|right|"
    r"that'?s (so )?(great|true|amazing|awesome|wonderful|lovely|cool|exciting|interesting|impressive)|"
    r"how (cool|nice|awesome|sweet|fun)|"
    r"good to see you|nice to meet you|nice to see you|good to hear|glad to hear( that)?|that'?s great|"
    r"that'?s (so )?(cool|nice|awesome|amazing)|"
    r"你好|您好|谢谢|多谢|感谢|好的|好|嗯|嗯嗯|哈哈|哈哈哈|再见|拜拜|早上好|早安|晚安|下午好|晚上好|"
    r"不客气|没问题|收到|好吧|对|是的|行|可以|明白了|知道了|太好了|真棒|好久不见"
)
_SMALL_TALK_RE = re.compile(
    r"^\s*((" + _GREETING_WORDS + r")[\s!.,。！，~、?？]*)+(\s*[a-z]{2,12}[\s!.,。！，~]*)?$", re.IGNORECASE
)
_TRIVIAL_QUESTION_RE = re.compile(
    r"^\s*(how are you( doing)?( today)?|how have you been|how'?s it going|what'?s up( with you)?|"
    r"anything new|what time is it|what'?s the time|what day is it( today)?|how about you|and you|you\?|"
    r"what'?s the weather( like)?( today)?|"
    r"你好吗|最近怎么样|最近好吗|怎么样|现在几点了?|几点了|今天星期几|今天天气怎么样|你呢|在吗)[\s!.,。！，~?？]*$",
    re.IGNORECASE,
)

# Signals that a turn holds something worth keeping, with the reason recorded on the message.
_SIGNALS: list[tuple[str, re.Pattern[str]]] = [
    (
        "complaint",
        re.compile(
            r"\b(order|refund|broken|complain\w*|never arrived|late|damaged|wrong item)\b"
            r"|订单|退款|投诉|没收到|坏了|破损|退货|差评",
            re.I,
        ),
    ),
    (
        "health",
        re.compile(
            r"\b(allerg\w*|doctor|hospital|medic\w*|diagnos\w*|surgery|pregnan\w*|sick|pain|therap\w*)"
            r"\b|过敏|医生|医院|吃药|生病|手术|怀孕|血压|糖尿病|感冒",
            re.I,
        ),
    ),
    (
        "legal",
        re.compile(
            r"\b(lawyer|court|contract|lawsuit|divorce|visa|lease|custody)\b|律师|法院|合同|起诉|离婚|签证", re.I
        ),
    ),
    # (?<!\d): a number is tried from its first digit only (from every digit, a long run was quadratic).
    ("amount", re.compile(r"[$¥€£]\s?\d|(?<!\d)\d+(\.\d+)?\s?(dollars|usd|rmb|yuan|euros?|元|块|万|%)", re.I)),
    (
        "date",
        re.compile(
            r"\d{1,4}[-/年月日号]|\b(yesterday|tomorrow|last|next|ago|monday|tuesday|wednesday|thursday|"
            r"friday|saturday|sunday|january|february|march|april|june|july|august|september|october|"
            r"november|december)\b|昨天|明天|前天|后天|上周|下周|上个月|下个月|去年|明年|周[一二三四五六日]",
            re.I,
        ),
    ),
    (
        "commitment",
        re.compile(
            r"\b(i'?ll|i will|i promise|i'?m going to|i plan|we'?ll|planning)\b"
            r"|我会|答应|保证|打算|计划|准备",
            re.I,
        ),
    ),
    ("decision", re.compile(r"\b(decided|decide|chose|choose|going with|settled on)\b|决定|选择了|定了", re.I)),
    (
        "preference",
        re.compile(
            r"\b(love|like|enjoy|prefer|hate|dislike|favou?rite|can'?t stand|into)\b"
            r"|喜欢|爱吃|讨厌|最爱|不吃|偏好|想尝",
            re.I,
        ),
    ),
    (
        "relationship",
        re.compile(
            r"\b(wife|husband|son|daughter|mom|mother|dad|father|sister|brother|friend|partner|"
            r"boyfriend|girlfriend|kids?|children|family|grandma|grandpa)\b"
            r"|老婆|老公|妻子|丈夫|儿子|女儿|妈妈|爸爸|姐姐|妹妹|哥哥|弟弟|朋友|孩子|家人",
            re.I,
        ),
    ),
    ("pet", re.compile(r"\b(dog|cat|puppy|kitten|pet|corgi|hamster|parrot)s?\b|狗|猫|宠物|柯基", re.I)),
    ("personal", re.compile(r"\b(i|my|i'?m|i'?ve|i'?d|me)\b|我", re.I)),
]


_INTERJECTIONS = frozenset(
    [
        "wow",
        "awesome",
        "great",
        "amazing",
        "cool",
        "nice",
        "so",
        "that's",
        "thats",
        "yay",
        "oh",
        "aw",
        "aww",
        "haha",
        "lol",
        "totally",
        "congrats",
        "sounds",
        "how",
        "what",
        "thanks",
        "thank",
        "yes",
        "yeah",
        "you",
        "good",
        "love",
        "glad",
        "hope",
        "wishing",
        "enjoy",
        "have",
    ]
)


def is_small_talk(text: str) -> bool:
    return bool(_SMALL_TALK_RE.match(text))


def is_trivial_question(text: str) -> bool:
    return bool(_TRIVIAL_QUESTION_RE.match(text))


_QUESTION_START_RE = re.compile(
    r"^\s*(what|who|when|where|why|how|which|is|are|can|could|do|does|did)\b|[吗呢？?]\s*$", re.IGNORECASE
)
_PERSON_RE = re.compile(r"\b(i|my|me|we|our|you|your)\b|我|你|您", re.IGNORECASE)


def _is_impersonal_question(text: str) -> bool:
    """A general-knowledge question ("what's the capital of France?"): nothing about the user in it."""
    return (
        text.rstrip().endswith(("?", "？", "吗"))
        and bool(_QUESTION_START_RE.search(text))
        and not _PERSON_RE.search(text)
    )


def _has_slot(text: str) -> bool:
    from facts.extraction.slots import pet_slot, slot_of

    return slot_of(text) is not None or pet_slot(text) is not None


def signal_of(text: str) -> str:
    for name, pattern in _SIGNALS:
        if pattern.search(text):
            return name
    return ""


def sentence_worth_keeping(sentence: str) -> bool:
    """A sentence inside a kept message: drop greetings and trivia, keep anything with content."""
    if is_small_talk(sentence) or is_trivial_question(sentence):
        return False
    words = keywords(sentence)
    plain = sentence.strip()
    first = plain.split(" ", 1)[0].lower().strip(",!")
    short_exclamation = (
        plain.endswith("!")
        and len(plain.split()) <= 4
        and not re.search(r"\d|\s[A-Z]", plain)
        and first in _INTERJECTIONS
    )
    if short_exclamation and not has_cjk(plain):
        return False
    if _has_slot(sentence):
        return True
    if len(words) >= 2:
        return True
    # One content word is enough when it is a name, a number or a signal ("I'm allergic.")
    return bool(words) and (
        bool(re.search(r"\d|[A-Z][a-z]+", sentence[1:])) or signal_of(sentence) not in {"", "personal"}
    )


def value_gate(content: str) -> GateDecision:
    """Decide whether a message may hold a fact worth keeping, and say why."""
    text = content.strip()
    if not text:
        return GateDecision(False, "empty")
    if is_small_talk(text):
        return GateDecision(False, "greeting, thanks or small talk")
    if is_trivial_question(text):
        return GateDecision(False, "trivial question")
    signal = signal_of(text)
    if not signal and _is_impersonal_question(text):
        return GateDecision(False, "trivial question")
    words = keywords(text)
    if _has_slot(text):
        return GateDecision(True, "personal detail" if signal in {"", "personal"} else signal)
    if signal and signal != "personal" and words:
        return GateDecision(True, signal)
    if len(words) < 2:
        return GateDecision(False, "no content words")
    return GateDecision(True, "personal detail" if signal == "personal" else "content")
