"""A short reply to the assistant's open question about the user is said with that question.

answer.py reads questions that ask for a thing of the user's by name ("May I have your postcode?", "您的税前年收入是
多少？"). A question that asks where, when, how or what the user does names no such thing ("Where are you working
now?", "How do you usually get to work?", "你对什么过敏？", "你生日打算怎么过？"), and the reply alone says little or
nothing ("At a small bakery downtown.", "Mostly by bike, unless it rains.", "芒果，吃了会起疹子。"). Here the question
is said as an indirect question in the user's voice ("Where I am working now", "How I usually get to work", "我对什么
过敏") with the reply after it; the gate then reads the two together like any sentence of the user's, and the fact
says what it answers ("Where User is working now: At a small bakery downtown."). Questions about feelings, opinions or
the conversation, what the assistant may do for the user, and replies that only agree, stall or do not know yield
nothing; a reply that is a statement of its own ("I'm a nurse, mostly nights.") is read as it is.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from facts.extraction.answer import answer_sentence, asked_thing, says_nothing, verb_phrase
from facts.extraction.confirm import offer_made, pieces_of
from facts.text import has_cjk

MAX_REPLY_WORDS = 14  # a reply longer than this says what it means on its own
MAX_REPLY_CHARS_ZH = 30

# What may open a question without asking anything ("Oh nice! So where ...", "Out of curiosity, what ...").
_LEAD_EN = re.compile(
    r"^(?:(?:and|so|also|then|ok(?:ay)?|oh|ah|nice|great|cool|right|well|by the way|btw|out of curiosity|just curious|"
    r"i'?m curious|i was wondering|quick question|one more thing)[,:;!.]?\s+)+",
    re.I,
)
# An open question to the user: a question word, an auxiliary, the user (or something of theirs), the rest.
_OPEN_EN = re.compile(
    r"^(?P<wh>what(?: kind of| sort of| type of)?(?: [a-z]+)?|where|when|which [a-z]+|who|how(?: often| long| much| many|"
    r" far| old| soon)?|why)\s+(?P<aux>are|is|were|was|do|does|did|have|has|will)\s+(?P<subject>you|your)\b\s*(?P<rest>.*)$",
    re.I,
)
# Asked of feelings, opinions, the conversation or what the user would like the assistant to do: no fact in the reply.
_NOT_OPEN_EN = re.compile(
    r"^how (?:are|is|was|were)\b|^how do you (?:feel|like|find)\b|"
    r"\b(?:think|thoughts|feel|feeling|mean|reckon|recommend|suggest|prefer i|want me|like me|need me|help|"
    r"going on|wrong|matter|happy|sad|okay|ok|fine)\b|\b(?:do|did) you (?:say|ask)\b",
    re.I,
)
# Asked of the moment: what the user is doing or eating now, where they are now. A month later the answer is no fact
# ("Where are you right now?" / "On the bus home.", "你在干嘛呢？" / "看电视。"); a habit or a time ahead makes it one
# ("What are you doing this weekend?", "你晚饭一般吃什么？").
_MOMENT_EN = re.compile(
    r"\b(?:doing|up to)\b|^where (?:are|were) you(?: (?:right )?now| at the moment| today| tonight)?$|"
    # a meal now or today ("are you having", "did you eat"); "what do you have for breakfast?" is a habit
    r"(?:\b(?:having|eating|drinking|cooking|making|had|ate|eaten)\b|\bdid you (?:have|eat|drink|cook|make)\b)"
    r".*\b(?:breakfast|lunch|dinner|tea|supper|brunch)\b",
    re.I,
)
_LASTING_EN = re.compile(
    r"\b(?:usually|normally|typically|generally|often|always|weekends?|tomorrow|next|summer|winter|spring|autumn|"
    r"holidays?|christmas|easter|half[- ]term|new year|break|trip|birthday|vacation|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|after (?:school|work|uni)|over the|during|later|"
    r"in (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|"
    r"this (?:week|month|year|term)|for a living|for work|these days|lately)\b",
    re.I,
)
_MOMENT_ZH = re.compile(
    r"在(?:干嘛|干啥|干什么|做什么|做啥|忙什么|忙啥)|(?:干嘛|干啥)呢|^[你您]?(?:现在|这会儿|目前)?在哪(?:儿|里)?[呢啊呀]?$|"
    r"(?:早饭|早餐|午饭|午餐|晚饭|晚餐|宵夜|中午|晚上|今天|今晚).*吃|吃.*(?:早饭|早餐|午饭|午餐|晚饭|晚餐|宵夜)"
)
_LASTING_ZH = re.compile(r"最近|平时|一般|经常|通常|常常|周末|明天|下周|以后|打算|准备|计划|爱|喜欢")
_OBJECT_EN = {"you": "me", "your": "my", "yours": "mine", "yourself": "myself", "yourselves": "ourselves"}
_BE_FOR_ME = {"are": "am", "were": "was"}
# A reply whose first part has a subject of its own is a statement, read as it is ("I'm a nurse, mostly nights.").
_OWN_SUBJECT_EN = re.compile(r"\b(?:i|i'?m|i'?ve|i'?ll|i'?d|we|we'?re|we'?ve|my \w+ (?:is|are|was|were))\b", re.I)
_ACK_EN = re.compile(r"^(?:(?:oh|ah|um+|uh+|hmm+|er+|well|so|honestly|haha|lol)[,.!]*\s+)+", re.I)

_LEAD_ZH = re.compile(
    r"^(?:(?:您好|你好|亲|好的|好|嗯|哦|噢|明白了?|了解|收到|那|另外|最后|还有|对了|顺便问一下|顺便问下|话说|说起来)"
    r"[，,、！!～~]*)+"
)
_POLITE_ZH = re.compile(r"^(?:请问|想问一?下|冒昧问一?下|方便说一下|能说说|可以说说)")
_ASKS_ZH = re.compile(r"什么|啥|哪|怎么|几|多少|谁|多久|多长|为什么|为啥|干嘛|如何")  # a yes or no is confirm.py's
_NOT_OPEN_ZH = re.compile(
    r"觉得|感觉|认为|看法|想法|意见|心情|怎么样|还好|怎么了|需要|帮|可以|要不要|想不想|能不能|愿不愿意|愿意|满意|"
    r"喜不喜欢|还有别的|还有其他|其他问题|别的问题"
)
_OWN_SUBJECT_ZH = re.compile(r"^[^，,。！!？?]{0,4}我(?!们家)")


def open_question(assistant: str) -> str:
    """The assistant's last question, when it asks the user openly about their own life, as an indirect question in
    the user's voice ("Where are you working now?" -> "Where I am working now"; "你对什么过敏？" -> "我对什么过敏"),
    else ""."""
    return _said_openly(_last_question(assistant))


def _said_openly(question: str) -> str:
    """open_question's answer for the assistant's last question, already cut out of its turn."""
    if not question or _of_the_moment(question):
        return ""
    return _indirect_zh(question) if has_cjk(question) else _indirect_en(question)


def _last_question(assistant: str) -> str:
    if not assistant or offer_made(assistant):
        return ""
    pieces = pieces_of(assistant.strip()[-400:])
    if not pieces or not pieces[-1].rstrip().endswith(("?", "？")):
        return ""
    return pieces[-1].strip().rstrip("?？ ")


def _of_the_moment(question: str) -> bool:
    """Whether the assistant's last question asks what the user is doing or eating, or where they are, right now: the
    reply is no fact, however it would be said."""
    if has_cjk(question):
        question = _POLITE_ZH.sub("", _LEAD_ZH.sub("", question)).strip("，, ")
        return bool(_MOMENT_ZH.search(question)) and not _LASTING_ZH.search(question)
    question = _plain_en(question)
    return bool(question and _MOMENT_EN.search(question)) and not _LASTING_EN.search(question)


def _plain_en(question: str) -> str:
    """The question without what opens it ("Oh nice! So ...", "Sorry to hear that, where ...")."""
    return _LEAD_EN.sub(
        "", re.sub(r"^[^,]{1,40},\s+(?=(?:what|where|when|which|who|how|why)\b)", "", question, flags=re.I)
    )


def _indirect_en(question: str) -> str:
    """Each open question of a question ("What level are you at and what are you working on?"), said in the user's
    voice and joined with "and"; a yes or no asked beside them ("and is anything coming with you?") is left out."""
    question = _plain_en(question)
    parts = re.split(
        r",?\s+and\s+(?=(?:what|where|when|which|who|how|why|is|are|do|does|did|have|has)\b)", question, flags=re.I
    )
    said = [_indirect_one(part) for part in parts]
    if not said[0]:
        return ""
    joined = " and ".join(s for s in said if s)
    return joined[0].upper() + joined[1:]


def _indirect_one(question: str) -> str:
    m = _OPEN_EN.match(question)
    if m is None or _NOT_OPEN_EN.search(question):
        return ""
    wh, aux, rest = m.group("wh").lower(), m.group("aux").lower(), m.group("rest").split()
    if m.group("subject").lower() == "you":
        subject, persons = ["I"], "I"
    else:  # "your" and the words of the thing of theirs it names ("your sister's wedding", "your son")
        size = _subject_size(rest, aux)
        if size == 0:
            return ""
        subject, persons, rest = (
            ["my", *rest[:size]],
            "plural" if aux in ("are", "were", "do", "have") else "one",
            rest[size:],
        )
    rest = [_OBJECT_EN.get(w.lower(), w) for w in rest]
    if aux in ("do", "does", "did"):
        adverbs = list(itertools.takewhile(_is_adverb, rest))  # "do you usually do": the adverb stays before
        if len(rest) == len(adverbs):
            return ""
        verb = _inflected(rest[len(adverbs)], "VBD" if aux == "did" else "VBZ" if persons == "one" else "")
        if not verb:
            return ""
        words = [*subject, *adverbs, verb, *rest[len(adverbs) + 1 :]]
    elif aux in ("are", "were", "is", "was"):
        words = [*subject, _BE_FOR_ME.get(aux, aux) if persons == "I" else aux, *rest]
    else:  # have, has, will
        words = [*subject, "have" if persons == "I" and aux == "has" else aux, *rest]
    return f"{wh} {' '.join(words)}".strip()


def _subject_size(rest: list[str], aux: str) -> int:
    """How many words after "your" name the thing of the user's the question asks about: up to its verb (base form
    after do, an -ing or past participle after be), or all of them after be ("When is your sister's wedding")."""
    for i, word in enumerate(rest):
        if i == 0 or rest[i - 1].endswith(("'s", "’s")):
            continue  # the thing's own noun ("your train leave": train)
        plain = word.lower().strip(",")
        if aux in ("do", "does", "did", "will") and _is_verb(plain, base=True):
            return i
        if aux in ("are", "is", "were", "was", "have", "has") and _is_verb(plain, base=False):
            return i
    return len(rest) if aux in ("are", "is", "were", "was") else 0


_ADVERBS = frozenset(
    {"still", "ever", "always", "often", "sometimes", "never", "even", "also", "just", "now", "usually"}
)


def _is_adverb(word: str) -> bool:
    plain = word.lower()
    return plain in _ADVERBS or plain.endswith("ly") and len(plain) > 4 and not _is_verb(plain, base=True)


@lru_cache(maxsize=4096)
def _is_verb(word: str, *, base: bool) -> bool:
    """Whether `word` is a verb in its base form (`base`), or its -ing form or past participle and no noun."""
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word, upos="VERB").get("VERB", ())
    if base:
        return word in lemmas
    return (
        bool(lemmas)
        and word not in lemmas
        and word.endswith(("ing", "ed", "en"))
        and not getAllLemmas(word, upos="NOUN")
    )


def _inflected(verb: str, tag: str) -> str:
    """The verb in the form `tag` asks (VBD: past, VBZ: third person; "" the base form, as said after "I")."""
    from lemminflect import getInflection

    plain = verb.lower()
    if not _is_verb(plain, base=True):
        return ""
    if not tag:
        return plain
    forms = getInflection(plain, tag=tag)
    return forms[0] if forms else ""


def _indirect_zh(question: str) -> str:
    question = _POLITE_ZH.sub("", _LEAD_ZH.sub("", question)).strip("，, ")
    # From the part that names the user ("那这套挺合适的，您什么时候…").
    addressed = re.search(r"[^，,…～~：:]*[你您]", question)
    if addressed is None:
        return ""
    question = _POLITE_ZH.sub("", question[addressed.start() :])
    if not _ASKS_ZH.search(question) or _NOT_OPEN_ZH.search(question):
        return ""
    said = re.sub(r"[你您]", "我", re.sub(r"你们|您们", "我们", re.sub(r"你们家|您家", "我家", question)))
    said = re.sub(r"(?:吗|呢|呀|啊|吧)$", "", said)
    return said if 2 <= len(said) <= 24 else ""


def open_answer_sentence(reply: str, question: str) -> str:
    """The reply said after the question it answers ("Where I am working now: At a small bakery downtown."), or ""
    when the reply says nothing, asks back or is too long to need its question (open_answer has left out a reply that
    says what it means on its own: `is_statement`)."""
    text = _ACK_EN.sub("", reply.strip())
    if not question or not text or says_nothing(text):
        return ""
    if has_cjk(question):
        if not has_cjk(text) or len(re.sub(r"\s", "", text)) > MAX_REPLY_CHARS_ZH:
            return ""
        return f"{question}：{text.rstrip('。.！!~～ ')}。"
    if has_cjk(text) or len(text.split()) > MAX_REPLY_WORDS:
        return ""
    return f"{question}: {text.rstrip(' .!')}."


def is_statement(reply: str) -> bool:
    """Whether the reply's first part has a subject of its own ("I'm a nurse, mostly nights.", "我在市一医院上班。"): it
    says what it means without the question, and is read as it is."""
    first = re.split(r"[,，;；.。!！:：]", _ACK_EN.sub("", reply.strip()), maxsplit=1)[0]
    return bool(_OWN_SUBJECT_ZH.search(first) if has_cjk(first) else _OWN_SUBJECT_EN.search(first))


def open_answer(reply: str, assistant: str) -> str:
    """The reply said with the assistant's open question about the user, or "". A thing of theirs asked by name
    ("您的车牌号是多少？") is said as answer.py says it ("我的车牌号：…")."""
    question = _last_question(assistant)  # the turn read once for all that follows
    said = _said_openly(question)
    if not said or is_statement(reply):
        return ""
    thing = asked_thing(assistant)
    if thing and not _unfit(thing, question, said):
        return answer_sentence(reply, thing)
    return open_answer_sentence(reply, said)


def short_form_unfit(thing: str, assistant: str) -> bool:
    """Whether answer.py's short form ("我的X：…") does not fit the assistant's question: it asks of the moment, or what
    it reads out is what the user does, said better with its question ("你对什么过敏？": "我对什么过敏：…", not "我的对过
    敏：…")."""
    question = _last_question(assistant)
    return _unfit(thing, question, _said_openly(question))


def _unfit(thing: str, question: str, said: str) -> bool:
    return _of_the_moment(question) or has_cjk(thing) and verb_phrase(thing) and bool(said)
