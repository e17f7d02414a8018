"""How a kept sentence with no first person is said of the speaker, without quoting them ("X said: ..." never).

An inquiry keeps its subject ("do you ship to Canada?" -> "Asked whether they ship to Canada."), a complaint asked
as a question its grievance ("为什么你们的快递这么慢？" -> "抱怨你们的快递这么慢"); a statement is said of the speaker or
dropped when it is not about them.
"""

from __future__ import annotations

import re

from facts.extraction.elision import not_about_speaker, with_elided_subject, without_marker
from facts.extraction.person import UNNAMED, listener_third
from facts.text import has_cjk, upper_first, zh_tagged

# An id given by its name with the owner left out: the speaker's ("account number is 88120455, if that helps").
_GIVEN_ID_RE = re.compile(
    r"^(?:the )?((?:[a-z]+ ){0,2}(?:number|no\.?|ref(?:erence)?|code|id|pin))(?: is|'s|:) ([A-Z]{0,4}-?\d[\dA-Z-]{3,30})\b",
    re.I,
)
# A contact detail given with no owner named ("sure, it's sam@example.com if you need it", "use 0803 555 2190"): the
# speaker's, the one thing the sentence says of them.
_EMAIL_RE = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}\.[\w.]*\w")
_PHONE_RE = re.compile(r"(?<![\w+])(?:\+\d{1,3}[ -]?)?(?:\b0\d{2,4}|\b1[3-9]\d)[ -]?\d{3,4}[ -]?\d{3,4}\b")
# A Chinese question after statements ("刘建国，139…，住闵行那边，具体门牌要吗"): what is stated before its last clause.
_ZH_STATED_HEAD_RE = re.compile(r"^(?P<head>.{6,}?)[，,]\s*[^，,]{1,20}$")
_ZH_OWN_HEAD_RE = re.compile(r"^(?![^你您]*[你您]).*(?:我|\d)")  # the speaker's or a number, never the listener's
_ASK_EN = re.compile(
    r"^(?:(?:and|so|also|quick question[^:]*:)\s*)?(do|does|can|could|will|would|is|are|did)\s+(.*?)[?\s]*$", re.I
)


def frame(sentence: str, speaker: str, *, type_: str, question: bool) -> str:
    """A kept sentence without first person, said of the speaker without quoting them ("X said: ..." never).

    An inquiry keeps its subject ("do you ship to Canada?" -> "Asked whether they ship to Canada."); anything
    else not about the speaker is dropped ("")."""
    named = speaker not in UNNAMED
    body = sentence.strip().rstrip("?？.。!！ ")
    if has_cjk(body):
        if question:
            body = _ZH_ASKING_RE.sub("", body) or body
            if type_ == "complaint":  # "为什么你们的快递这么慢？" -> "抱怨你们的快递这么慢"
                body = _ZH_WHY_RE.sub("", body) or body
                return (f"{speaker}抱怨" if named else "抱怨") + body
            head = _ZH_STATED_HEAD_RE.match(body) if type_ != "complaint" else None  # (framed above)
            if head and type_ != "inquiry" and _ZH_OWN_HEAD_RE.search(head.group("head")):
                return frame(head.group("head"), speaker, type_=type_, question=False)
            if type_ != "inquiry":
                return ""
            wish = _ZH_WISH_RE.match(body)  # "想约个洗牙，这周末还有号吗" -> "想约个洗牙，咨询这周末是否还有号"
            if wish:
                return f"{speaker if named else ''}{wish.group(1)}，咨询{zh_asked(body[wish.end() :])}"
            return (f"{speaker}咨询" if named else "咨询") + zh_asked(body)
        if _ZH_REACTION_RE.match(body):  # "哇太厉害了，…": a reaction to the listener, nothing of the speaker's
            return ""
        if named and _zh_subject_dropped(body):  # "这阵子老是心慌" -> "Mia这阵子老是心慌", not "Mia提到…"
            return f"{speaker}{body}"
        return f"{speaker}提到{body}" if named else body
    if question:
        if type_ not in {"inquiry", "complaint"}:
            return ""
        m = _ASK_EN.match(body)
        wh = not m and re.match(r"(?:which|what|when|where|who|whose|how|why)\b", body, re.I)  # "asked which ..."
        stated = type_ == "complaint" and not m and not wh and stated_then_asked(body)
        if stated:  # "The lift is broken again, is anyone going to fix it?"
            return f"{speaker} complained that {stated}" if named else f"Complained that {stated}"
        what = listener_third(m.group(2) if m else body[:1].lower() + body[1:] if wh else body, m.group(1) if m else "")
        verb = "Asked whether" if m else "Asked" if wh else "Asked about"
        if type_ == "complaint":  # "Why is your courier so slow?" -> "complained, asking why is their courier so slow"
            verb = "Complained, asking whether" if m else "Complained, asking" if wh else "Complained about"
        return f"{speaker} {verb[0].lower() + verb[1:]} {what}" if named else f"{verb} {what}"
    given = _GIVEN_ID_RE.match(body)
    if given:  # "membership number is GY-20931 if you need it" -> "Robin's membership number is GY-20931"
        return f"{speaker or 'User'}'s {given.group(1).lower()} is {given.group(2)}"
    contact = None if has_cjk(body) or ": " in body else _EMAIL_RE.search(body) or _PHONE_RE.search(body)  # (an answer)
    if contact and not re.search(r"\b(?:my|his|her|their|your|our)\b", body, re.I):
        kind = "email" if "@" in contact.group(0) else "phone number"
        return f"{speaker if named else 'User'}'s {kind} is {contact.group(0)}"
    if not_about_speaker(body, complaint=type_ == "complaint"):  # "Your courier left it in the rain" is one
        return ""
    body = without_marker(body)
    chosen = _CHOSEN_RE.match(body) if type_ == "decision" else None
    if chosen:  # "A refund, please." -> "asked for a refund"
        thing = chosen.group(1)[:1].lower() + chosen.group(1)[1:]
        return f"{speaker} asked for {thing}" if named else f"Asked for {thing}"
    elided = with_elided_subject(body, speaker)
    if elided is not None:
        return elided
    if not named:
        return upper_first(body)
    if _COMMON_FIRST.match(body):
        body = body[:1].lower() + body[1:]
    return f"{speaker} mentioned that {body}"


def stated_then_asked(body: str) -> str:
    """A grievance stated, then asked about, said as stated and asked ("The lift is broken again, is anyone going to
    fix it" -> "the lift is broken again, asking whether anyone is going to fix it"), or "" when the sentence does not
    open with a statement. A question with the speaker in it ("who do I even call about that") is left out: the
    grievance is the fact."""
    m = _STATED_THEN_ASKED_RE.match(body)
    if m is None or _FIRST_EN_RE.search(m.group("stated")):
        return ""
    stated = m.group("stated").strip()
    if _COMMON_FIRST.match(stated):
        stated = stated[:1].lower() + stated[1:]
    asked = m.group("asked")
    if _FIRST_EN_RE.search(asked):
        return stated
    ask = _ASK_EN.match(asked)
    said = listener_third(ask.group(2), ask.group(1)) if ask else listener_third(asked[:1].lower() + asked[1:])
    return f"{stated}, asking {'whether ' if ask else ''}{said}"


# A statement, then a question after a comma ("The heating's off again, when will it be fixed?").
_STATED_THEN_ASKED_RE = re.compile(
    r"^(?P<stated>[^,;?]{8,}?)[,;]\s*(?:(?:and|so|but)\s+)?(?P<asked>(?:do|does|did|can|could|will|would|is|are|has|"
    r"have|why|when|where|what|who|how)\b[^,;]*)$",
    re.I,
)
# A choice named and asked for, nothing else ("A refund, please", "The navy one please").
_CHOSEN_RE = re.compile(r"^((?:a|an|the) [\w' -]{1,40}?),? please$", re.I)
# "你好，想问下你们的自提点几点关门？" -> "咨询你们的自提点几点关门": the greeting and the asking words go.
_ZH_ASKING_RE = re.compile(
    r"^(?:(?:你好|您好|在吗|哈喽)[，,！!\s]*)?(?:(?:另外|还有|顺便|对了)[，,\s]*)?(?:再?(?:(?:我)?(?:还)?想(?:咨询|问)(?:一)?下|"
    r"请问(?:一下)?|问(?:一)?下|想问问))?[，,\s]*"
)
# A wish stated before the question in the same sentence, the speaker's ("想约个洗牙，", "打算下个月办卡，").
_ZH_WISH_RE = re.compile(r"^((?:想|要|打算|准备|需要)[^，,。？?]{2,20})[，,]\s*(?=\S)")
_ZH_WHY_RE = re.compile(r"^(?:为什么|为啥|怎么)")
_ZH_REACTION_RE = re.compile(r"(?:哇+|啊+[？?]?|哈哈+|天哪|天啊|哎呀|哎哟|我的天|呀)[，,！!？?\s]*")
_COMMON_FIRST = re.compile(
    r"^(the|a|an|it|its|it's|this|that|these|those|there|our|we|they|their|some|one|no|all|she|he|she's|he's|his|her|"
    r"much|many|most|more|lots|plenty|every|everything|everyone|something|someone|nothing|anything|each|both|"
    r"what|when|where|how|why|which|if|since|because|after|before|while|during|with|for|in|on|at|to|from|as|"
    r"[a-z]+ly)\b",
    re.I,
)


# A question to the business said as what was asked: the business by its name, a yes-or-no question with 是否 before
# its verb ("你们周日营业吗" -> "商家周日是否营业", "能开发票吗" -> "能否开发票", "有没有白色的" -> "是否有白色的").
_ZH_BUSINESS_RE = re.compile(r"^(?:你们|您们|你家|贵(?:司|店|公司|行))(?:这边|店里|店|家)?")
_ZH_YES_NO_RE = re.compile(r"[吗嘛](?:啊|呀|呢)?$")
_ZH_A_NOT_A = {
    "能不能": "能否",
    "可不可以": "可否",
    "是不是": "是否",
    "有没有": "是否有",
    "会不会": "是否会",
    "要不要": "是否要",
}
_ZH_MODALS = ("能", "能够", "可以", "可", "会", "要", "需要", "是", "有", "支持")
_NOT_MODAL = {
    "可能",
    "才能",
    "功能",
    "技能",
    "性能",
    "智能",
    "本能",
    "体能",
    "节能",
    "能力",
    "能量",
    "能源",
    "只能",
    "不能",
}
_ZH_ASKED_ABOUT_RE = re.compile(r"(?:是)?(?:怎样|怎么样|什么样|如何)的?$")


def zh_asked(body: str) -> str:
    """What a Chinese question to the business asks, said without asking (no 吗, no 你们)."""
    # The business by what it is, where it says so ("你们酒店有接机吗" -> "酒店是否有接机"), else by its role.
    text = _ZH_BUSINESS_RE.sub(
        "商家", re.sub(r"^(?:你们|您们|贵)(酒店|宾馆|门店|公司|银行|医院|诊所|平台)", r"\1", body.strip())
    )
    parts = re.split(r"[，,]", text)
    if len(parts) > 1 and any(_ZH_YES_NO_RE.search(p) for p in parts[:-1]):  # "…能分期吗，免息几期": each asked
        return "，".join(zh_asked(p) if p else p for p in parts)
    text = _ZH_ASKED_ABOUT_RE.sub("", text) or text  # "商家的退货政策是怎样的" -> "商家的退货政策"
    if re.search(r"几|多久|多少|什么|啥|怎么|哪", text):  # "定损一般要几天啊" -> "定损一般要几天"
        text = re.sub(r"(?:啊|呀|呢)$", "", text)
    for pair, plain in _ZH_A_NOT_A.items():
        if pair in text:
            return text.replace(pair, plain, 1)
    if not _ZH_YES_NO_RE.search(text):
        return text
    text = _ZH_YES_NO_RE.sub("", text)
    words = zh_tagged(text)
    at = next((i for i, (w, _) in enumerate(words) if w in _ZH_MODALS), None)
    # 能 the segmenter joined to a word ("两个人能共用" cut as 人能 / 共用, "能带宠物" as 能带 / 宠物): split it off.
    glued = next((i for i, (w, _) in enumerate(words) if len(w) == 2 and "能" in w and w not in _NOT_MODAL), None)
    if at is None and glued is not None:
        first, second = words[glued][0][0], words[glued][0][1]
        words = [*words[:glued], (first, "x"), (second, "x"), *words[glued + 1 :]]
        at = glued + (1 if second == "能" else 0)
    if at is None:  # the first verb ("商家周日营业" -> "商家周日是否营业")
        at = next((i for i, (_, tag) in enumerate(words) if tag.startswith("v")), None)
    if at is None:  # no verb by its tag ("营业", "发货" are nouns to it): before the last word but particles
        at = max((i for i, (_, tag) in enumerate(words) if tag[:1] not in {"u", "y", "x", "e"}), default=0)
    start = sum(len(w) for w, _ in words[:at])
    modal = words[at][0]
    if modal in {"能", "能够", "可"}:
        return text[:start] + modal + "否" + text[start + len(modal) :]
    return text[:start] + "是否" + text[start:]


# The speaker's own question to the business, put as the business would hear it: "Can I change my address?" is asked
# the way "Can you change your address?" is reported ("asked whether they can change the address"); 我 goes.
_FIRST_EN = {"i": "you", "me": "you", "my": "the", "mine": "yours", "myself": "yourself", "am": "are", "was": "were",
             "we": "you", "our": "the", "us": "you"}  # fmt: skip
_FIRST_EN_RE = re.compile(
    r"\b(?:I(?=['’](?:m|ve|ll|d)\b)|I|me|[Mm]y|mine|myself|(?<=\bI )am|(?<=\bI )was|(?i:am|was)(?= I\b)|[Ww]e(?= )|[Oo]ur|"
    r"(?<=\w )us)\b"
)
# What the business's frames cannot yet say plainly: a question inside ("asked how many days do they have") or
# about a statement ("asked about they're moving ..."); the speaker's question then stays as it was.
_STILL_ASKING_RE = re.compile(
    r"\basked about\b|\basked (?:how|what|when|where|which|who|why)\b[^.,]{0,40}?\b(?:do|does|did|is|are|was|were|have|"
    r"has)(?:n['’]t)? (?:they|them|the|their)\b",
    re.I,
)
_FIRST_ZH_RE = re.compile(r"^(?:我|本人)(?:的)?")
_WHY_RE = re.compile(r"(?i:why|how come)\b|为什么|为啥|怎么还")


def asked_by_speaker(sentence: str, speaker: str, type_: str = "inquiry") -> str:
    """An inquiry (or a grievance asked as a question) with the speaker in it said as asked ("Where can I collect my
    parcel?" -> "Asked where they can collect the parcel", "我的订单发货了吗" -> "咨询订单是否发货了"), or "" when it
    reads no better that way. A grievance that names the business ("why did you charge me twice?") stays as it was:
    its "you" is the business, not the speaker."""
    if type_ == "complaint" and not has_cjk(sentence) and not _WHY_RE.match(sentence.strip()):
        stated = stated_then_asked(sentence.strip().rstrip("?.! "))  # "The boiler's leaking, who do I call?"
        if not stated:
            return ""
        return f"{speaker} complained that {stated}" if speaker not in UNNAMED else f"Complained that {stated}"
    if type_ == "complaint" and (re.search(r"\byou\b|你|您", sentence, re.I) or not _WHY_RE.match(sentence.strip())):
        return ""  # only a "why" is said as a grievance asked ("为什么我的退款还没到账" -> "抱怨退款还没到账")
    if has_cjk(sentence):
        body = _ZH_ASKING_RE.sub("", sentence.strip()) or sentence
        body = _ZH_WHY_RE.sub("", body) if type_ == "complaint" else body
        return frame(
            re.sub(r"(?<=[把给让帮])我(?:们)?的", "", _FIRST_ZH_RE.sub("", body)), speaker, type_=type_, question=True
        )
    swapped = _FIRST_EN_RE.sub(lambda m: _FIRST_EN[m.group(0).lower()], sentence)
    swapped = re.sub(r"\b([Yy])ou['’]m\b", r"\1ou're", swapped)
    swapped = swapped[:1].upper() + swapped[1:]
    asked = frame(swapped, speaker, type_=type_, question=True)
    return "" if _STILL_ASKING_RE.search(asked) else asked


# Words a Chinese statement opens with when its subject, the speaker, is left out: a time, an adverb, a verb, an
# adjective, a preposition or a number ("最近老是失眠", "对花生过敏", "在杭州上班", "三十了"); a noun or a pronoun
# opening it may be a subject of its own ("天气太热了"), said as mentioned.
_DROPPED_SUBJECT_TAGS = ("t", "f", "d", "v", "a", "p", "m")
_DROPPED_SUBJECT_RE = re.compile(r"^(?:对|在|跟|给|从|刚|才|又|还|也|都|已经|一直|最近|这阵子|这几天|前阵子)")


def _zh_subject_dropped(body: str) -> bool:
    if _DROPPED_SUBJECT_RE.match(body):  # (jieba reads "对虾过敏" as a prawn's)
        return True
    words = [(w, tag) for w, tag in zh_tagged(body[:24]) if w.strip()]
    return bool(words) and words[0][1].startswith(_DROPPED_SUBJECT_TAGS) and words[0][1] != "vshi"


# A trip the speaker asks to have planned or booked: the request is the assistant's work, the trip is the speaker's
# plan ("帮我规划一下五一去西安的行程" -> "计划五一去西安", "Plan me a 4-day trip to Porto in June" -> "is planning a
# 4-day trip to Porto in June").
_TRIP_ZH_RE = re.compile(
    r"^(?:请|麻烦你?|能不能)?帮我(?:规划|安排|做|查|订|定|排)(?:一下|个|一个|份|一份)?(?P<when>[^，,。！？]{0,8}?)"
    r"去(?P<where>[^，,。！？的]{1,10})的(?:行程|攻略|路线|机票|酒店|旅行|旅游)"
)
_TRIP_EN_RE = re.compile(
    r"^(?:(?:please|can you|could you|would you|help me)\s+)*(?:plan|organi[sz]e|book|sort out|put together|map out)"
    r"(?: me| us)? (?:a|an|my|our) (?P<trip>(?:[\w-]+ ){0,3}(?:trip|holiday|itinerary|getaway|weekend|honeymoon) "
    r"(?:to|in|around|for) [^?.!]{2,60})",
    re.I,
)


def trip_planned(clause: str, speaker: str) -> str:
    named = speaker not in UNNAMED
    text = clause.strip()
    m = _TRIP_ZH_RE.match(text)
    if m:
        return f"{speaker if named else ''}计划{m.group('when')}去{m.group('where')}。"
    m = _TRIP_EN_RE.match(text)
    if m:
        trip = m.group("trip").rstrip(" ,")
        return f"{speaker} is planning a {trip}." if named else f"Is planning a {trip}."
    return ""
