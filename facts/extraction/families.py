"""Slot families: one current value per person (residence, job, employer, relationship status, diet, school,
phone, email), recognised across paraphrases in English and Chinese.

A family is a set of cues (the verbs and nouns people use for it: "moved to", "got the keys to our place in",
"搬家了，现在住在", "跳槽去", "去字节报到") and a value reader after the cue. A cue counts only when the speaker is
its subject: "我妈住在上海", "my sister lives in Leeds", "你住哪" and "I don't live in Leeds any more" fill no slot
of the speaker. Values of closed families are canonical keys shared by both languages ("吃素" and "I went
vegetarian" are both `vegetarian`), so a change said in the other language still supersedes.

`weak` marks a reading from a cue that also has other senses ("I'm in Vancouver" can be a trip): the
embedding second opinion (facts/extraction/slot_vectors.py) may overrule it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from conversations.postag import pos_tags


@dataclass(frozen=True)
class FamilyMatch:
    predicate: str
    value: str
    type: str
    entity_kind: str = ""
    weak: bool = False


# --- shared pieces -------------------------------------------------------------------------------------------------

# A capitalised place or organisation, optionally an address ("Flat 5, 9 Cheltenham Road, Bristol BS6").
_EN_PROPER = r"((?:(?:Flat|Apt\.?|Unit) \d+\w?,? )?(?:\d+\w? )?[A-Z\u4e00-\u9fff][\w'&.-]*(?:(?:,? |-)(?:[A-Z\u4e00-\u9fff][\w'&.-]*|\d\w*|of|de|la|&))*)"
_EN_NEG_BEFORE = re.compile(r"\b(?:not|n't|no longer|never|if|would|could|might|whether|thinking (?:of|about))\W*"
                            r"(?:\w+\W+){0,2}$", re.I)  # fmt: skip
_EN_TRAILING_JUNK = re.compile(r"(?:,? (?:of|de|la|&))+$")

# Chinese: a value runs until punctuation or a particle that ends it.
_ZH_VALUE = r"了?([\u4e00-\u9fffA-Za-z0-9#\-]{1,30}?)"
_ZH_STOP = r"(?=[，。！？,.!?；;、\s~～]|了|的|啦|呢|吧|呀|哦|那边|这边|附近|一带|那儿|这儿|那里|这里|去了|工作|上班|$)"
# Someone other than the speaker is the clause's subject, or it is a question or a hypothesis.
_ZH_OTHER_SUBJECT = re.compile(
    r"[你您他她它]|爸|妈|父|母|哥|姐|弟|妹|朋友|同事|同学|老公|老婆|男友|女友|儿子|女儿|闺女|孩子|宝宝|娃|爷|奶|外公|外婆|邻居|室友|"
    r"客户|老板|领导|舅|姨|叔|伯|婶|公公|婆婆|岳|丈母娘|老丈人|媳妇|女婿|如果|要是|假如|是否|会不会|想不想"
)
_ZH_NEGATED = re.compile(r"[不没别未](?:再|想|打算|会|要|能)?$")
_ZH_INTERROGATIVE = re.compile(r"哪|什么|啥|多少|几|谁")
_ZH_CLAUSE_START = re.compile(r"[，,。！？!?；;：:]")


def _zh_clause_before(text: str, pos: int) -> str:
    """The clause's words before `pos` (from the last comma or stop): where its subject is."""
    start = 0
    for m in _ZH_CLAUSE_START.finditer(text, 0, pos):
        start = m.end()
    return text[start:pos]


def _zh_speaker_is_subject(text: str, pos: int) -> bool:
    before = _zh_clause_before(text, pos)
    # Whoever is named before the speaker's own 我 is called, not spoken of ("姐妹我跟他分了": "Sis, I ...").
    tail = re.split(r"我们?", before)[-1] if "我" in before else before
    if "我" not in before and not _ZH_OTHER_SUBJECT.search(before) and pos > len(before):
        # No subject of its own: the clause before's goes on ("我妈退休了，住在苏州", "我闺女毕业了，现在住在深圳").
        earlier = _zh_clause_before(text, pos - len(before) - 1).strip()
        subject = re.split(r"我们?(?:的|家的?)?", earlier)[-1] if "我" in earlier else earlier  # (哥几个我…: called)
        if _ZH_OTHER_SUBJECT.match(subject):
            return False
    return not _ZH_OTHER_SUBJECT.search(tail) and not _ZH_NEGATED.search(before)


def _en_clean(value: str) -> str:
    value = _EN_TRAILING_JUNK.sub("", value.strip(" ,.'"))
    return value.strip(" ,.")


def _zh_clean(value: str) -> str:
    return re.sub(r"(?:那边|这边|附近|一带|这里|那里)$", "", value.strip())


def _first(patterns: list[re.Pattern[str]], text: str, accept: Callable[[re.Match[str]], bool]) -> re.Match[str] | None:
    for pattern in patterns:
        for m in pattern.finditer(text):
            if accept(m):
                return m
    return None


def _en_accept(text: str) -> Callable[[re.Match[str]], bool]:
    def accept(m: re.Match[str]) -> bool:
        return not _EN_NEG_BEFORE.search(text[: m.start()][-40:])

    return accept


def _zh_accept(text: str) -> Callable[[re.Match[str]], bool]:
    def accept(m: re.Match[str]) -> bool:
        value = m.group(m.lastindex or 1)
        return _zh_speaker_is_subject(text, m.start()) and not _ZH_INTERROGATIVE.search(value)

    return accept


# --- residence -----------------------------------------------------------------------------------------------------

_EN_ADDRESS = (
    r"((?:(?:Flat|Apt\.?|Unit) \d+\w?,? )?\d+\w?,? (?:[A-Z][\w'-]* )+(?:Road|Rd|Street|St|Avenue|Ave|Lane|Ln|Grove|Drive|"
    r"Dr|Close|Way|Court|Ct|Place|Pl|Crescent|Terrace|Boulevard|Blvd|Square|Gardens|Row|Hill|Park)\b(?:,? [A-Z0-9][\w-]*)*)"
)
_HOME_NOUN = r"(?:place|flat|apartment|house|home|condo|studio|bungalow|townhouse|digs)"
_EN_RESIDENCE = [
    re.compile(
        r"(?:\b(?i:i|we)(?i:'ve|'m|'re| have| am| are)?\s+|^\W{0,3}(?=(?i:just |finally |recently )*(?i:moved|relocated)))"
        r"(?i:just |finally |recently |now |currently |still |officially |"
        r"actually |already |been )*(?i:live|living|lived|moved|moving|relocated|relocating|settled|settling|based)"
        r"(?i: back| over| out| down| up)?(?: (?i:from) (?:(?! (?i:to) )[^,.;!?]){1,40}(?= (?i:to) ))?(?i: in| to| into| at)\s+(?i:(?:a|an|the|our|my) (?:new |little |tiny |"
        r"bigger |small |nice |own )*" + _HOME_NOUN + r" (?:in|on|at) )?(?i:the )?" + _EN_PROPER
    ),
    re.compile(
        r"\b(?i:my|our) (?i:new |current |home )?(?i:" + _HOME_NOUN + r"|address) (?i:is|'s) (?i:now )?"
        r"(?i:in |at |on )?(?i:the )?" + _EN_PROPER
    ),
    re.compile(
        r"\b(?i:bought|got the keys to|rented|renting|rent|own|moved into|closed on) (?i:a|an|our|my) (?i:new |first |"
        r"own )*" + _HOME_NOUN + r" (?i:in|on) (?i:the )?" + _EN_PROPER
    ),
    re.compile(
        r"^(?i:it'?s |now it'?s |the new (?:one|address) is |(?:yes|no|yeah),? (?:it'?s )?)?"
        + _EN_ADDRESS
        + r"(?i:,? now)?[.!]?$"
    ),
]
_EN_RESIDENCE_WEAK = re.compile(r"\b(?i:i'?m|i am) (?i:now |still )?in " + _EN_PROPER + r"(?i: now)?\b")
_EN_TRIP = re.compile(
    r"\b(for the|this) (week|weekend|day|night)|\b(trip|holiday|vacation|visiting|conference)\b", re.I
)
_ZH_RESIDENCE = [
    re.compile(
        r"(?:住在|住到|住进了?|家在|搬到了?|搬去了?|搬进了?|搬来了?|搬回了?|搬家到|定居在?|落户在?|安家在?|新家在|"
        r"地址是|地址改成|地址换成|住址是|(?<![居入暂])住(?![院宿了过着下证房址])(?=[\u4e00-\u9fff]{2}))"
        + _ZH_VALUE
        + _ZH_STOP
    ),
]
_ZH_ADDRESS = re.compile(
    r"^(?:地址是|地址[:：]|寄到|送到)?([\u4e00-\u9fff]{2,}(?:省|市|区|县)[\u4e00-\u9fffA-Za-z0-9\-#]*(?:路|街|道|号|小区|栋|楼|单元|室|\d))[。.]?$"
)
_ZH_RESIDENCE_WEAK = re.compile(
    r"我(?:现在|目前|还|人|已经)?在([\u4e00-\u9fff]{2,5}?)(?:这边|那边)?(?=[，。！？,.!?]|$)"
)
# A hotel or a stay counted in days, weeks or months is a visit, not a home ("去海南住两个月").
_ZH_NOT_HOME = re.compile(
    r"酒店|宾馆|民宿|医院|旅馆|青旅|一晚|几天|一周|一阵|[一两二三四五六七八九十半几]个?(?:天|晚|星期|礼拜|周|月)"
)


def residence(text: str, zh: bool) -> FamilyMatch | None:
    if zh:
        m = _first(_ZH_RESIDENCE, text, _zh_accept(text))
        if m and not _ZH_NOT_HOME.search(m.group(1)):
            return FamilyMatch("residence", _zh_clean(m.group(1)), "profile", "place")
        m = _ZH_ADDRESS.search(text.strip())
        if m:
            return FamilyMatch("residence", m.group(1), "profile", "place")
        return None
    m = _first(_EN_RESIDENCE, text, _en_accept(text))
    if m:
        return FamilyMatch("residence", _en_clean(m.group(1)), "profile", "place")
    return None


_ZH_PLACE_SUFFIX = re.compile(r"[省市区县镇乡村州岛]$")


def _zh_place(value: str) -> bool:
    """Whether "我在X" names a place: X starts with a place name or ends as one does ("我在还房贷" is no address)."""
    tags = pos_tags(value)
    return bool(_ZH_PLACE_SUFFIX.search(value)) or bool(tags and tags[0][1] == "ns")


def residence_weak(text: str, zh: bool) -> FamilyMatch | None:
    """ "I'm in Vancouver", "我在广州": where the speaker is, which is often, not always, where they live."""
    if zh:
        m = _ZH_RESIDENCE_WEAK.search(text)
        busy = r"家|公司|这|那|哪|路上|外面|忙|上班|读|学|实习|工作|出差|旅|玩|开会"
        value = m.group(1) if m and _zh_accept(text)(m) else ""
        if value and not _ZH_NOT_HOME.search(value) and not re.search(busy, value) and _zh_place(value):
            return FamilyMatch("residence", value, "profile", "place", weak=True)
        return None
    m = _EN_RESIDENCE_WEAK.search(text)
    if m and not _EN_TRIP.search(text) and _en_accept(text)(m):
        return FamilyMatch("residence", _en_clean(m.group(1)), "profile", "place", weak=True)
    return None


# --- work: job title and employer ----------------------------------------------------------------------------------

_EN_TITLE = (
    r"([a-z][\w-]*(?: [a-z][\w-]*){0,3}?)(?= at\b| for\b| in\b| with\b| on\b|[.,!?;]| and\b| but\b| since\b| now\b| these\b| this\b| last\b| "
    r"next\b| again\b| full\b| part\b| from\b|$)"
)
_NOT_A_JOB = {"fan", "regular", "member", "customer", "mess", "bit", "lot", "little", "big fan", "huge fan", "wreck",
              "guest", "user", "subscriber", "patient", "client", "volunteer", "good", "bad"}  # fmt: skip
_EN_JOB = [
    re.compile(
        r"\b(?i:i|i'm|i am|i've been|i have been) (?i:now |currently |still |just )?(?i:working |employed |"
        r"hired |started |starting |start |began |work )?(?i:as) (?i:a |an |the )?" + _EN_TITLE
    ),
    re.compile(
        r"\b(?i:my) (?i:new |current )?(?i:job|role|position|title) (?i:is|'s) (?i:now )?(?i:as )?(?i:a |an )?"
        + _EN_TITLE
    ),
    re.compile(r"\b(?i:i'?m|i am) (?i:now |currently )?(?i:a|an) " + _EN_TITLE + r"(?= (?:at|for|in|with)\b)"),
    re.compile(
        r"\b(?i:i'?m|i am) (?i:now |currently |still )?(?i:a|an) ((?:[a-z][\w-]* ){0,2}(?:engineer|developer|designer|"
        r"teacher|nurse|doctor|lawyer|accountant|manager|consultant|analyst|scientist|programmer|architect|chef|"
        r"writer|artist|musician|counsell?or|therapist|pharmacist|dentist|firefighter|pilot|mechanic|electrician|"
        r"plumber|librarian|journalist|photographer|researcher|professor|lecturer|paramedic|vet|veterinarian|"
        r"barista|cashier|driver|officer|editor|producer|freelancer|intern|coach|trainer|carpenter|cook|"
        r"surgeon|midwife|social worker|software engineer))\b"
    ),
    re.compile(r"\b(?i:i(?:'ve| have)?(?: just)? (?:been )?(?:got |was )?promoted to) (?i:a |an |the )?" + _EN_TITLE),
]
_EN_EMPLOYER = [
    re.compile(
        r"\b(?i:i|we)(?i:'m|'ll| am| will| have|'ve)? (?i:now |currently |still |just |officially |finally )*"
        r"(?i:work|working|worked|start|starting|started|begin|began|joined|joining|join|got a (?:new )?job|"
        r"got an offer|accepted an offer|took a job|got hired|was hired|been hired|switched|intern|interning)"
        r"(?:[\w' -]{0,40}?)? (?i:at|for|with|by|from|join) (?i:the )?" + _EN_PROPER
    ),
    re.compile(r"\b(?i:i|we) (?i:just |officially )?(?i:joined) (?i:the )?" + _EN_PROPER),
    re.compile(
        r"(?:^|[,;:!] ?)(?i:just |finally )?(?i:started|starting|joined|working|work|interning)(?:[\w' -]{0,40}?)? "
        r"(?i:at|for|with) (?i:the )?" + _EN_PROPER
    ),
    re.compile(
        r"\b(?i:my) (?i:new |current )?(?i:employer|company|job) (?i:is|'s) (?i:now )?(?i:at |with )?" + _EN_PROPER
    ),
]
_EN_STUDY_WORDS = re.compile(r"\b(master'?s|bachelor'?s|phd|degree|course|programme|program|mba|undergrad|semester|"
                             r"class(?:es)?|studies|uni|university|college|school)\b", re.I)  # fmt: skip
_ZH_TITLE = (
    r"([\u4e00-\u9fffA-Za-z]{0,8}?(?:工程师|程序员|设计师|产品经理|经理|总监|主管|老师|教师|医生|护士|律师|会计|司机|厨师|"
    r"记者|编辑|销售|运营|研究员|分析师|架构师|店长|PM|开发|前端|后端|测试|实习生|公务员|警察|保安|快递员|外卖员|"
    r"师|员|家))"
)
_ZH_JOB = [
    re.compile(
        r"(?:我是|我现在是|我目前是|我的工作是|我的职业是|当了|当上了?|担任|升职[为成]?了?|做)(?:一名|一个|个|名)?"
        + _ZH_TITLE
        + _ZH_STOP
    ),
    re.compile(r"我是做" + _ZH_VALUE + r"的"),
]
_ZH_EMPLOYER = [
    re.compile(r"(?<![现正实存好自])在(?!在)" + _ZH_VALUE + r"(?:工作(?!日)|上班|实习|任职|干活|打工|干了)"),
    re.compile(
        r"(?<![现正实存好自])在(?!在)" + _ZH_VALUE + r"(?:做|当)(?=[了过]?[\u4e00-\u9fff\d]{0,4}?" + _ZH_TITLE + ")"
    ),
    re.compile(
        r"(?:跳槽到|跳槽去|跳到|入职了?|加入了?|去|进了|进入了?|拿到了?)"
        + _ZH_VALUE
        + r"(?:报到|报道|上班|工作|入职|的offer|的录用)"
    ),
    re.compile(r"(?:跳槽到|跳槽去|跳到|跳去|换到|转到|入职了?|加入了?)" + _ZH_VALUE + _ZH_STOP),
]
_ZH_NOT_ORG = re.compile(
    r"^(?:家|家里|这|那|这里|那里|这边|那边|公司|单位|外面|外地|本地|哪|.*(?:大学|学院|中学|高中|小学)$)"
)


def job(text: str, zh: bool) -> FamilyMatch | None:
    if zh:
        m = _first(_ZH_JOB, text, _zh_accept(text))
        return FamilyMatch("job", m.group(1), "profile") if m else None
    m = _first(_EN_JOB, text, _en_accept(text))
    if m and m.group(1).lower() not in _NOT_A_JOB and not _EN_STUDY_WORDS.search(m.group(1)):
        return FamilyMatch("job", m.group(1).strip(), "profile")
    return None


def employer(text: str, zh: bool) -> FamilyMatch | None:
    if zh:
        m = _first(_ZH_EMPLOYER, text, _zh_accept(text))
        if m and not _ZH_NOT_ORG.search(m.group(1)):
            return FamilyMatch("employer", _zh_clean(m.group(1)), "profile", "org")
        return None
    m = _first(_EN_EMPLOYER, text, _en_accept(text))
    if m and not _EN_STUDY_WORDS.search(m.group(0)):
        return FamilyMatch("employer", _en_clean(m.group(1)), "profile", "org")
    return None


# --- school --------------------------------------------------------------------------------------------------------

_EN_SCHOOL = [
    re.compile(
        r"\b(?i:i|i'm|i am|i've|i have)(?i: now| currently| just| finally)? (?i:study|studying|studied|go|going|went|"
        r"graduated|enrolled|started|starting|start|doing|got into|got accepted|was accepted|been accepted|got an offer)"
        r"(?:[\w' -]{0,40}?)? (?i:at|to|from|into|in) (?i:the )?" + _EN_PROPER
    ),
    re.compile(
        r"(?:^|[,;:!] ?)(?i:just |finally )?(?i:started|starting|doing|finished)(?:[\w' -]{0,40}?)? (?i:at|in) "
        r"(?i:the )?" + _EN_PROPER
    ),
    re.compile(
        r"\b(?i:i'?m|i am) (?i:a |an )?(?:\w+ )?(?i:student|freshman|sophomore|undergrad|postgrad|phd candidate)"
        r" (?i:at|in) (?i:the )?" + _EN_PROPER
    ),
]
_EN_SCHOOL_NAME = re.compile(r"University|College|School|Academy|Institute|Polytechnic|\bUni\b|MIT|UCL|LSE", re.I)
_ZH_SCHOOL_NAME = r"([\u4e00-\u9fffA-Za-z]{2,12}?(?:大学|学院|中学|高中|小学|学校|大))"
_ZH_SCHOOL = [
    re.compile(
        r"(?<![现正实存好自])在(?!在)"
        + _ZH_VALUE
        + r"(?:读书|上学|读研|读博|念书|读大学|上大学|读本科|读硕士|读研究生|上课|留学|读)"
    ),
    re.compile(
        r"(?:考上了?|考进了?|考到了?|被|拿到了?|收到了?|进了|毕业于|毕业自|我是)"
        + _ZH_SCHOOL_NAME
        + r"(?:的offer|的录取|录取|的学生|的研究生|的本科生|毕业)?"
    ),
    re.compile(_ZH_SCHOOL_NAME + r"[\u4e00-\u9fff]{0,6}?(?:本科|硕士|博士|研究生|毕业)"),
]


def school(text: str, zh: bool) -> FamilyMatch | None:
    if zh:
        m = _first(_ZH_SCHOOL, text, _zh_accept(text))
        return FamilyMatch("school", _zh_clean(m.group(1)), "profile", "org") if m else None
    m = _first(_EN_SCHOOL, text, _en_accept(text))
    if m and (_EN_SCHOOL_NAME.search(m.group(1)) or _EN_STUDY_WORDS.search(m.group(0))):
        return FamilyMatch("school", _en_clean(m.group(1)), "profile", "org")
    return None


# --- closed families: relationship status, diet --------------------------------------------------------------------

_RELATIONSHIP: list[tuple[str, re.Pattern[str]]] = [
    ("single", re.compile(r"\bi'?m (?:now |still |happily )?(?:single|not (?:married|seeing anyone|dating))\b|"
                          r"\b(?:we|i)(?: just| finally)? (?:broke up|split up|split|called it quits|separated)\b|"
                          # "Rob and I are officially done", "we're officially over": a couple ended, said plainly.
                          r"\b(?-i:[A-Z][a-z]{1,15}) and i(?:'re| are)(?: officially| finally)? (?:done|over|through)"
                          r"(?=\s{0,3}(?:[.!,;~]|lol\b|haha|for good|$))|\bwe(?:'re| are) officially (?:done|over|through)\b|"
                          r"\bi(?:'m| am) (?:no longer|not) (?:with|together with|dating) |单身|分手了?|(?:跟|和).{1,6}分了|^我们?分了|"
                          r"没结婚|未婚", re.I)),  # fmt: skip
    ("divorced", re.compile(r"\bi(?:'m| am| got| just got|'ve been)? divorced\b|离婚了|离了婚|已离婚", re.I)),
    ("married", re.compile(r"\b(?:i|we)(?:'re| are|'m| am| just| got| finally)* (?:married|hitched|tied the knot)\b|结婚了|领证了?|已婚|我们结婚", re.I)),
    ("engaged", re.compile(r"\b(?:i|we)(?:'re| are|'m| am| just| got| finally)* engaged\b|\bproposed\b.*\bi said yes\b|"
                           r"订婚了?|求婚.*答应", re.I)),
    ("dating", re.compile(r"\bi'?m (?:now )?(?:seeing someone|dating|in a relationship)\b|\bi (?:have|'ve got|got) a "
                          r"(?:new )?(?:girlfriend|boyfriend|partner)\b|脱单了?|谈恋爱了|有(?:男|女)朋友了|在谈恋爱", re.I)),
]  # fmt: skip
_EN_I_DIET = r"\b(?:i'?m|i am|i(?:'ve)? (?:went|gone|started|follow|do|eat|am doing|'m doing))(?: now)? (?:on )?(?:a |the )?(?:strict )?"
_DIET: list[tuple[str, re.Pattern[str]]] = [
    ("omnivore", re.compile(r"\bi(?:'m| am) (?:no longer|not) (?:a )?(?:vegetarian|vegan)|\b(?:started |am |'m )?eating "
                            r"meat again\b|\beat meat again\b|不吃素了|开始吃肉|又吃肉|恢复吃肉|重新吃肉|开荤", re.I)),
    ("vegan", re.compile(r"\b(?:i'?m|i am|i went|went|gone|become|became|turned|i'm now|now) (?:fully |strictly |a )?"
                         r"(?:vegan|plant[- ]based)\b|纯素|吃全素|全素", re.I)),
    ("vegetarian", re.compile(r"\b(?:i'?m|i am|went|gone|become|became|turned|now) (?:fully |strictly |mostly |a )?"
                              r"(?:vegetarian|veggie|veg)\b(?! (?:box|patch|plot|stall|garden|bed|soup|curry|option|burger|lasagne)s?\b)|\bi (?:don'?t|do not|never) eat (?:any )?meat\b|\b(?:stopped|quit|gave up|"
                              r"given up) (?:eating )?meat\b|吃素|素食|不吃肉|戒了?肉", re.I)),
    ("pescatarian", re.compile(r"\bpescatarian\b|只吃鱼不吃肉", re.I)),
    ("keto", re.compile(_EN_I_DIET + r"(?:keto|ketogenic)\b|我(?:在|开始)?(?:吃)?生酮", re.I)),
    ("gluten-free", re.compile(_EN_I_DIET + r"gluten[- ]free\b|我(?:只)?(?:吃)?无麸质", re.I)),
]  # fmt: skip
_EN_FIRST_PERSON = re.compile(r"\b(i|i'm|i've|we|we're|my)\b", re.I)


def _closed(
    text: str, zh: bool, table: list[tuple[str, re.Pattern[str]]], predicate: str, type_: str
) -> FamilyMatch | None:
    if not zh and not _EN_FIRST_PERSON.search(text):
        return None
    for value, pattern in table:
        m = pattern.search(text)
        if m is None:
            continue
        if zh and not _zh_speaker_is_subject(text, m.start()) and not m.group(0).startswith(("不", "没", "未")):
            continue
        return FamilyMatch(predicate, value, type_)
    return None


_ZH_WITH_PARTNER = re.compile(
    r"(?:和|跟|与)(?:我的)?(?:男朋友|女朋友|男友|女友|老公|老婆|对象|前任|未婚夫|未婚妻|他|她)"
)


def relationship_status(text: str, zh: bool) -> FamilyMatch | None:
    """ "我和女朋友分手了": the partner is the other half of the speaker's status, not another subject."""
    found = _closed(text, zh, _RELATIONSHIP, "relationship_status", "relationship")
    if found is None and zh and _ZH_WITH_PARTNER.search(text):
        found = _closed(_ZH_WITH_PARTNER.sub("", text), zh, _RELATIONSHIP, "relationship_status", "relationship")
    return found


def diet(text: str, zh: bool) -> FamilyMatch | None:
    return _closed(text, zh, _DIET, "diet", "profile")


# --- contact: phone, email -----------------------------------------------------------------------------------------

_PHONE = re.compile(r"(?<![A-Za-z0-9#])(\+?\d[\d \-().]{5,18}\d)(?![A-Za-z0-9])")
_PHONE_CUE = re.compile(
    r"\b(?:my (?:new |work |home |mobile |cell |personal |main )*(?:number|phone|mobile|cell|whatsapp)(?: number)?|"
    r"call me|reach me|text me|ring me|contact me|use (?:my )?(?:\w+ )?(?:number|mobile|phone)?)\b|号码|手机|电话|"
    r"联系我|打我|微信",
    re.I,
)
_PHONE_OTHER = re.compile(r"\b(?:his|her|their|my (?:wife|husband|mum|mom|dad|boss|son|daughter)'?s?)\b|他的|她的|(?:爸|妈|老婆|老公)的",
                          re.I)  # fmt: skip
_MOBILE_RE = re.compile(r"1[3-9]\d{9}$|07\d{9}$")
_ID_WORD_RE = re.compile(
    r"订单|单号|会员|卡号|编号|尾号|账号|快递|\b(?:order|account|reference|ref|tracking|membership|policy|booking|card|"
    r"case|ticket|invoice|customer)\b",
    re.I,
)
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+")  # bounded: linear on long runs


def phone(text: str, zh: bool) -> FamilyMatch | None:
    m = _PHONE.search(text)
    if m is None or _PHONE_OTHER.search(text[: m.start()]):
        return None
    digits = re.sub(r"\D", "", m.group(1))
    if not 7 <= len(digits) <= 15:
        return None
    alone = not re.sub(r"[\W_]+", "", text.replace(m.group(1), ""))
    # A mobile number by its shape, given with no word for it ("换了，现在是13911520476"), unless an id is named.
    mobile = _MOBILE_RE.match(digits) and not _ID_WORD_RE.search(text[: m.start()])
    if alone or mobile or _PHONE_CUE.search(text[: m.start()]):
        return FamilyMatch("phone", ("+" if m.group(1).startswith("+") else "") + digits, "profile")
    return None


def email(text: str, zh: bool) -> FamilyMatch | None:
    m = _EMAIL.search(text)
    if m is None or _PHONE_OTHER.search(text[: m.start()]):
        return None
    return FamilyMatch("email", m.group(0).lower().rstrip("."), "profile")


# Order matters where cues overlap: contact ids first (exact), then school before work ("started my master's at
# Edinburgh"). English says the role first ("I work as a nurse at Mercy Hospital": job); Chinese the employer
# ("在华为做硬件工程师": employer), as the corpus labels them.
FAMILIES_EN: list[Callable[[str, bool], FamilyMatch | None]] = [
    email, phone, residence, school, job, employer, relationship_status, diet, residence_weak,
]  # fmt: skip
FAMILIES_ZH: list[Callable[[str, bool], FamilyMatch | None]] = [
    email, phone, residence, school, employer, job, relationship_status, diet, residence_weak,
]  # fmt: skip


def family_of(text: str, zh: bool) -> FamilyMatch | None:
    """The single-valued slot a sentence said by the speaker fills, if any.

    A Chinese sentence is read by the Chinese cues, then by the English ones ("I live in 朝阳区")."""
    passes = [(FAMILIES_ZH, True), (FAMILIES_EN, False)] if zh else [(FAMILIES_EN, False)]
    for readers, as_zh in passes:
        for reader in readers:
            found = reader(text, as_zh)
            if found is not None and found.value:
                return found
    return None


_SUFFIX_ZH = re.compile(r"(?:区|市|县|省|镇|街道|公司|集团|大学)$")


def same_value(a: str, b: str) -> bool:
    """'朝阳' and '朝阳区', 'Acme' and 'Acme Ltd', '138 1234 5678' and '13812345678' are one value."""

    def key(v: str) -> str:
        v = re.sub(r"[\s.,'-]+", "", v.casefold())
        v = re.sub(r"(?:ltd|inc|llc|plc|gmbh|corp|co)$", "", v)
        return _SUFFIX_ZH.sub("", v)

    return bool(key(a)) and key(a) == key(b)
