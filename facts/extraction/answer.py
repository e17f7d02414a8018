"""A short reply to the assistant's question is a fact only with its question ("Any allergies?" / "Only to penicillin.").

The gate reads a sentence alone, and "Only to penicillin.", "BS3 4QT." or 柯基 叫豆豆 三岁了 say nothing until the
question is read with them. When the assistant's last question asks the user for a thing of theirs by name (a name,
a number, an address, allergies, the school applied to: "May I have your postcode?", "请问您的税前年收入大概多少？")
and the user's reply is a short statement with content, the reply is said as the user's own sentence about that
thing ("My postcode: BS3 4QT.", "我的税前年收入：四十万左右") and read by the extractor like any other. A question
about feelings or opinions, an open "anything else?", an offer (read by the confirmation and offer paths) or a reply
that only agrees, refuses or does not know yields nothing.
"""

from __future__ import annotations

import re

from facts.extraction.chatter import DONT_KNOW_RE
from facts.extraction.confirm import offer_made, pieces_of
from facts.extraction.gate import is_question
from facts.extraction.slots import Slot
from facts.text import has_cjk, zh_tagged

# What the assistant asks for, by the shape of its question; group "t" is the thing asked.
_ASK_EN = [
    re.compile(p, re.I)
    for p in (
        r"^(?:and |also |lastly |finally |first,? )?(?:may|can|could) (?:i|we) (?:please |just )?(?:have|get|take|grab|ask for|"
        r"confirm|check|ask|note down|take down) (?P<t>.{2,60})$",
        r"^(?:and |also |please |kindly )?(?:(?:can|could|would) you (?:please )?)?(?:confirm|give me|tell me|provide|share|send me|let me know|"
        r"spell|remind me of) (?P<t>.{2,60})$",
        r"^(?:and |so |also )?what(?:'s| is| are| was| were) (?P<t>(?:your|the) .{2,60})$",
        r"^(?:and |also )?(?:do|does|did) you (?:have|take|get) any (?P<t>.{2,50})$",
        r"^(?:and |also )?(?:do|does|did) you (?:have|know) (?P<t>(?:your|the) .{2,50})$",
        r"^(?:and |also )?are you (?:on|taking|using) any (?P<t>.{2,50})$",
        r"^(?:and |also )?any (?P<t>.{2,50})$",
        r"^(?:and |also )?(?P<t>(?:your|the) [\w' -]{2,40}?)(?:,? please)?$",
        r"^(?:and |so )?which (?P<t>[\w -]{2,30}?) (?:is it|is that|do you|are you|did you|have you|would you|was it)\b.*$",
    )
]
# Words that end the thing asked: whom it is for, why, manners ("your postcode for me", "allergies we should know about").
_TAIL_EN = re.compile(
    r"(?<!\s)\s+(?:for (?:me|us|(?:the|your|our) [a-z]{2,15}|security|verification)"
    r"|handy|to hand|on you|please|we should know about|i should know about|(?:that )?we need to know about|to (?:note|mention|add)|on (?:the|your) "
    r"(?:account|file|booking|order)|again|today|just now|by any chance|at all|you (?:have|use|had)|it is|it's|"
    r"(?:that )?(?:i|we|the [a-z]{2,12}) (?:should|need to|ought to|must|have to|can|could|will) (?:be aware of|know about|"
    r"know|note(?: down)?|keep in mind|add|mention|flag|tell|pass on)|"
    r"(?:to|we can|i can|we should|i should) (?:reach|contact|call|text|email|ring) you)\b.*$",
    re.I,
)
# Things asked that are no thing of the user's: manners, an open question, the conversation itself.
_NOT_A_THING_EN = re.compile(
    r"\b(?:else|help|questions?|thoughts?|feedback|problems?|issues?|worries|concerns|luck|idea|ideas|plans?|way|"
    r"suggestions?|preference|chance|news|update|reason)\b|^(?:other|more|further)\b",
    re.I,
)
_LEAD_ZH = re.compile(
    r"^(?:(?:好的|好|嗯|明白了?|了解|收到|别着急|当然可以|可以的|非常抱歉|抱歉|不好意思|谢谢|那|另外|最后|还有)[，,、！!]?)+"
)
_POLITE_ZH = re.compile(
    r"^(?:请问|想问一?下|麻烦|方便|请)?(?:您|你)?(?:方便)?(?:再)?(?:说一下|告诉我|提供一下|提供|留一下|确认一下|报一下|输入|发一下)?(?:您|你)?(?:的)?"
)
# Asking words read out of a Chinese question: what is left names the thing ("报考什么专业、哪所学校" -> 报考专业、学校).
_ASKING_ZH = re.compile(
    r"大概|大约|一般|具体|分别|是多少(?:钱)?|多少(?:钱)?|是什么|什么|是哪一?(?:个|所|家|里|儿|位|款|种|年|天)?|哪一?(?:个|所|家|里|儿|位|款|种|年|天|月|周)?|"
    r"是几(?:岁|个|号|点|年)?|几(?:岁|个|号|点|年|位)?|多大了?|多久|多长时间|有没有|有无|是否|是不是|"
    r"是(?:怎么样|怎样|什么样)的|干嘛|干啥|干什么|做(?:些)?什么|忙(?:些)?什么|忙啥|咋样|怎样|怎么样|如何|呢|吗|啊|呀"
)
# Adverbs left at the end of a thing once its asking words are out ("平时周末都做什么" -> 平时周末).
_TRAILING_ADVERB_ZH = re.compile(r"(?:都|还|也|又|常|经常|一般|通常|主要)+$")
_NOT_A_THING_ZH = re.compile(
    r"对方|合适|方便|考虑|打算|帮|其他|其它|别的|还有|感觉|觉得|想法|看法|意见|问题|需要|要不要|心情|满意|喜欢|可以"
)

# Replies that only agree, refuse, thank, stall or do not know: nothing to keep.
_EMPTY_REPLY_RE = re.compile(
    r"^(?:no|nope|nah|none|not really|not sure|no idea|i'?m not sure|i don'?t know|dunno|nothing|not yet|n/a|"
    r"it depends|depends|whatever|anything|either|both|same|same as before|as above|not much|nothing much|"
    r"nothing (?:special|in particular|really)|can'?t remember|i forget|"
    r"没有|没|不是|不用了?|不需要|不知道|不清楚|不太清楚|不记得了?|忘了|都行|都可以|随便|一样|还没|暂时没有|无|说不好|不好说|看情况|"
    r"(?:到时候)?再说|再看看|还没(?:想好|定)|"
    r"(?:也|好像|其实)?没(?:啥|什么|有什么|有啥)(?:特别|特殊|要求|讲究)?的?)"
    r"[\s,，.。!！~～吧啊呢哈]*(?:thanks?|thank you|谢谢)?[\s.。!！]*$|"
    # Stalling: the answer is still to come ("hang on, finding the logbook", "稍等我找一下").
    r"^(?:hang on|hold on|one sec|just a (?:sec|second|moment|minute)|give me a (?:sec|second|moment|minute)|brb|"
    r"let me (?:check|look|find|see|think|grab)|checking|looking|finding|"
    r"稍等|等一?下|等等|我(?:找|查|看|想)(?:一下|找|查|看|想))",
    re.I,
)
# A reply that leaves the choice to the other ("都行，哪个快挂哪个", "没啥要求，你们常用的就行", "either's fine, whatever's
# quicker") or is not sure yet and will look ("应该吧，我回去翻翻", "probably, I'll check"): nothing of the user's said.
_EMPTY_THEN_RE = re.compile(
    r"^(?:都行|都可以|都好|随便|无所谓|哪个都行|哪个都可以|没(?:啥|什么)(?:特别的?)?(?:要求|讲究|偏好)|whatever|"
    r"either(?: one)?(?:'s| is)?(?: fine| works| ok| okay)?|any(?:thing| of them| one)?(?: is| 's)?(?: fine| works)?|"
    r"no preference|(?:i )?don'?t mind)[，,.。\s]|"
    r"^(?:应该(?:是|吧)|可能吧|大概吧|probably|i think so|i guess)[，,.\s]{1,3}(?:"
    r"(?:我)?(?:得|要)?(?:回去|回头|晚点|等下|待会)?(?:再)?(?:翻翻|找找|查查|看看|确认一下)|"
    r"(?:i'?ll|let me|i'?d have to|i need to|i have to) (?:check|look|dig|find))",
    re.I,
)
# A reply that asks back ("Lol why do you ask", "what do you mean") answers nothing.
_ASKS_BACK_RE = re.compile(
    r"^(?:(?:lol|haha|hmm|um|er|oh|wait)\W{0,3}\s*)*(?:why|what|how|who|where|when|which|do you|are you|can you|is it|is that)\b|"
    r"^(?:为什么|为啥|干嘛|干什么|啥意思|什么意思|你问这个)",
    re.I,
)
# A stall anywhere in a short reply ("um somewhere. hang on.", "在找了 稍等").
_STALL_RE = re.compile(
    r"\b(?:hang on|hold on|one sec|just a (?:sec|second|moment|minute)|give me a (?:sec|second|moment|minute)|"
    r"let me (?:check|look|find|dig))\b|稍等|等一下|我找一下|我查一下",
    re.I,
)
# A reply that opens by not knowing ("No clue, it's on the certificate somewhere"): the thing is not told.
_NO_IDEA_RE = re.compile(r"^(?:no clue|not a clue|no idea|not sure|dunno|i (?:don'?t|do not) know)\b", re.I)
_WORD_EN = re.compile(r"[A-Za-z]{3,20}|\d")
_FILLER_EN = frozenset([
    "yes", "yeah", "yep", "yup", "sure", "okay", "fine", "good", "great", "cool", "nice", "thanks", "thank",
    "just", "only", "really", "maybe", "think", "know", "probably", "well", "that", "this", "the", "and", "but",
    "not", "quite", "pretty", "much", "very", "lol", "lmao", "haha", "hmm", "erm", "umm", "why", "ask",
])  # fmt: skip
_FILLER_ZH = re.compile(r"[嗯啊哦吧呢呀哈了的是对好行就都也还很挺呃额吗嘛]")


# Things asked that say who the user is, how to reach them and what they keep (a car, a pet): their answer is the
# user's profile, also when it is only a code or a number ("Postcode?" / "BS3 4QT.").
_CONTACT_RE = re.compile(
    r"\b(?:name|phone|mobile|number to reach|best number|contact number|email|e-mail|address|postcode|post code|zip(?: code)?|date of birth|"
    r"birthday|age|occupation|job|vehicle|car|bike|model|make|pets?|dogs?|cats?)\b|姓名|名字|手机|电话|邮箱|地址|邮编|生日|"
    r"出生|年龄|职业|工作单位|车|狗|猫|宠物",
    re.I,
)


# Asked as a request, without a question mark ("Please confirm your postcode.", "麻烦提供一下卡号后四位。").
_REQUEST_RE = re.compile(
    r"^(?:(?:and|also|ok(?:ay)?|great|thanks),?\s+)?(?:please|kindly) (?:confirm|give me|tell me|provide|share|send me|let me know|"
    r"spell)\b|^(?:麻烦|请)(?:您|你)?(?:再)?(?:提供|告诉我|说一下|报一下|输入|留一下|发一下|确认一下)",
    re.I,
)


# What a service asks for as "the X": a record of the user's ("the postcode", "the booking reference").
_RECORD_RE = re.compile(
    r"\b(?:name|number|no|code|reference|ref|address|postcode|zip|e-?mail|phone|mobile|date|birth|policy|order|account|"
    r"booking|registration|reg|plate|model|make|serial|card|licen[cs]e|passport|id|pin|username|member(?:ship)?|"
    r"customer|invoice|ticket|flight|seat|room|vehicle|car|device|holder|sort)\b",
    re.I,
)


def is_code(reply: str) -> bool:
    """Whether a reply is an id or a number alone ("6620", "It's HV-204417."): a digit, no word and no Chinese."""
    return bool(re.search(r"\d", reply)) and not re.search(r"[a-z]{3}|[\u4e00-\u9fff]", reply)


def names_the_user(thing: str) -> bool:
    return bool(_CONTACT_RE.search(thing))


# The single-valued families a thing asked names, which a bare reply does not show by itself (a phone number or an
# e-mail address the slot rules read from the reply alone, normalised): a later answer replaces the earlier one.
_ASKED_SLOTS = [
    ("name", re.compile(r"^(?:(?:full|first|last|sur)\s?)?name$|^姓名$|^名字$", re.I)),
    ("job", re.compile(r"^(?:occupation|job|profession|line of work)$|^职业$|^工作$", re.I)),
]


def slot_asked(thing: str, reply: str) -> Slot | None:
    """The slot the thing asked fills with the reply ("May I have your name?" / "Sam Okafor" -> name), else None."""
    value = re.sub(r"^(?:(?:yes|no|it'?s|that'?s|it is)[,\s]+)+", "", reply.strip(), flags=re.I).strip(" .。!！")
    for family, pattern in _ASKED_SLOTS:
        if pattern.search(thing) and 0 < len(value) <= 60:
            return Slot(family, value, "profile", "person" if family == "name" else "")
    return None


def asked_thing(assistant: str) -> str:
    """The thing of the user's the assistant's last question asks for ("your postcode", "税前年收入"), else ""."""
    if not assistant or offer_made(assistant):
        return ""
    pieces = pieces_of(assistant.strip()[-400:])
    asks = pieces and (pieces[-1].endswith(("?", "？")) or re.search(r"[吗呢][。.]?$", pieces[-1]))
    if not (asks or pieces and _REQUEST_RE.match(re.split(r"[，,]\s*", pieces[-1])[-1])):
        return ""
    question = pieces[-1].rstrip("?？。. ")
    return _asked_zh(question) if has_cjk(question) else _asked_en(question)


def _asked_en(question: str) -> str:
    for pattern in _ASK_EN:
        # Asked after a clause of its own ("Before we start, do you have any ...?").
        m = pattern.match(question) or pattern.match(re.sub(r"^[^,]{1,40},\s*", "", question))
        if m:
            # "confirm the address is Flat 3, ...": the thing is what is read back, not the reading
            thing = re.sub(r"^((?:the|your) [\w' -]{2,30}?) (?:is|are|was)\b.*$", r"\1", m.group("t"), flags=re.I)
            thing = _TAIL_EN.sub("", thing).strip(" ,")
            # (a contact detail may take more words: "your full name and the first line of your address")
            words = len(thing.split())
            limit = (
                10 if _CONTACT_RE.search(thing) else 8 if _RECORD_RE.search(thing) else 6
            )  # "the last 4 digits of ..."
            if not thing or words > limit or _NOT_A_THING_EN.search(thing):
                return ""
            if re.match(r"(?:about\s+)?(?:the|a|an)\s", thing, re.I) and not _RECORD_RE.search(thing):
                return ""  # "what's the capital of France?": "the" thing that is no record of the user's
            thing = re.sub(r"^(?:about\s+)?(?:your|the|a|an)\s+", "", thing, flags=re.I)  # "(tell me about) your dog"
            # "what happened", "what went wrong", "what the problem is": the trouble told is the thing
            thing = re.sub(
                r"^what (?:happened|went wrong|the (?:problem|issue) (?:is|was)|is wrong)\b.*$",
                "problem",
                thing,
                flags=re.I,
            )
            # A thing of someone else's ("his date of birth"), or the listener's.
            other = re.search(r"\b(?:you|yourself|he|she|they|him|her|his|their|i|we|it)\b", thing, re.I)
            return "" if other else re.sub(r"\byour\b", "my", thing, flags=re.I)  # "name on your card"
    return ""


def _asked_zh(question: str) -> str:
    question = re.sub(r"你们家|您家", "家庭", _LEAD_ZH.sub("", question))
    parts = [p for p in re.split(r"[，,]", question) if p]
    # The part that asks ("为了评估，请问您的工作单位是" asks in its second part; "狗狗多大了，什么品种" in its first).
    first = next((p for p in parts if _ASKING_ZH.search(p) or p.endswith("是")), parts[-1] if parts else "")
    thing = _ASKING_ZH.sub("", _POLITE_ZH.sub("", first)).strip("，,、 ")
    thing = re.sub(r"(?:留|说|报|提供|告诉我|发|填)一?下$", "", re.sub(r"的是$|是$", "", re.sub(r"的是", "的", thing)))
    thing = _TRAILING_ADVERB_ZH.sub("", re.sub(r"的$", "", thing))  # "老家是哪里的" -> 老家
    if len(thing) < 2 or len(thing) > 14 or _NOT_A_THING_ZH.search(thing) or re.search(r"[您你我他她]", thing):
        return ""
    return thing


def says_nothing(text: str) -> bool:
    """Whether a reply only agrees, refuses, asks back, stalls or does not know: no answer to keep."""
    if _EMPTY_REPLY_RE.match(text) or _ASKS_BACK_RE.match(text) or is_question(text):
        return True
    if DONT_KNOW_RE.search(text) or _EMPTY_THEN_RE.match(text) and not re.search(r"\d", text):
        return True
    return bool(_STALL_RE.search(text) or _NO_IDEA_RE.match(text))  # the answer is still to come, or not known


def verb_phrase(thing: str) -> bool:
    """Whether a Chinese thing asked, its asking words taken out, is what the user does rather than a thing they have,
    by jieba's tags: several words, one a verb or a preposition ("养宠物", "在公司上班"), or a last word that is no noun
    ("家孩子上级了", from "你家孩子上几年级了"); not "工作单位" nor "车牌号". Such a thing reads badly without its asking
    words ("我的对过敏"): open_answer.py says it with its question."""
    flags = [flag for word, flag in zh_tagged(thing) if word.strip()]
    return bool(flags) and (
        len(flags) > 1 and any(flag in ("v", "p") for flag in flags) or not flags[-1].startswith("n")
    )


def answer_sentence(reply: str, thing: str) -> str:
    """The reply said as the user's own sentence about the thing asked ("My postcode: BS3 4QT."), or ""."""
    text = reply.strip()
    if not thing or not text or says_nothing(text):
        return ""
    if has_cjk(thing) or has_cjk(text):
        if len(re.sub(r"\s", "", text)) > 30 or len(_FILLER_ZH.sub("", re.sub(r"[^\u4e00-\u9fff\w]", "", text))) < 2:
            return ""
        return f"我{'' if _said_of_me(thing) else '的'}{thing}：{text.rstrip('。.！!~～ ')}。"
    words = text.split()
    content = [w for w in _WORD_EN.findall(text) if w.lower() not in _FILLER_EN]
    if len(words) > 14 or not content:
        return ""
    # "No, it's flat 5.": a read-back corrected says the right value
    body = re.sub(
        r"^(?:(?:yes|yeah|yep|sure|ok(?:ay)?|no|nope|actually|it'?s|that'?s|it is)[,\s]+)+", "", text, flags=re.I
    )
    body = body.rstrip(" .!")
    return f"My {thing}: {body}."


def _said_of_me(thing: str) -> bool:
    """Whether a Chinese thing asked is a time of the user's or what they do then, said after 我 without 的 ("我最近周末：
    …", "我现在住：…"), not a thing they have ("我的车牌号：…", "我的税前年收入：…"): by jieba's tags, it opens with a time
    word and names no noun."""
    flags = [flag for word, flag in zh_tagged(thing) if word.strip()]
    return bool(flags) and flags[0] in ("t", "f") and not any(f.startswith("n") for f in flags)


# What may stand before a reply's value without saying anything of its own ("sure, jo@example.com").
_ACK_RE = re.compile(
    r"(?:(?:sure|yes|yeah|yep|yup|ok(?:ay)?|of course|certainly|right|here you go|it'?s|that'?s)[\s,.!:]*)*", re.I
)


def said_as_is(kept: str, reply: str) -> bool:
    """Whether the one fact kept of a reply is the reply itself, maybe without an acknowledgement before it."""
    kept_text, whole = kept.strip().rstrip(".。").lower(), reply.strip().rstrip(".。").lower()
    if kept_text == whole:
        return True
    given = re.match(r"^[\w' -]{1,40}'s (?:email|phone number) is (.+)$", kept_text)  # framing.py's contact detail
    if given and given.group(1) in whole:
        return True
    before = whole[: len(whole) - len(kept_text)]
    return whole.endswith(kept_text) and len(before) <= 40 and bool(_ACK_RE.fullmatch(before))
