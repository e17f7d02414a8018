"""The type of a kept sentence and the slot family it fills, by rules first and the classifier second.

Rules settle what a word makes sure of, in both languages (a defective product is a complaint without the
word 投诉, a relative's allergy is a relationship fact, a lease is legal); what no rule settles takes the
classifier's type when it is confident enough, else a fallback by the sentence's shape.
"""

from __future__ import annotations

import re

from facts.extraction import classifier
from facts.extraction.amounts import says_more_than_amount
from facts.extraction.chatter import I_WORDS, WE_WORDS, first_person_re, has_first_person
from facts.extraction.elision import ELIDED_PLAN_ZH_RE
from facts.extraction.gate import _SERVICE_RE, is_question, keep_hint, statement_beside_question, strip_chatter
from facts.extraction.lexicon import CRIME_RE, LAW_RE, STRONG, ZH_AGED, ZH_CHILD_WORDS, ZH_EN_KIN, ZH_KIN_OPENS_RE
from facts.extraction.person import is_past_form
from facts.extraction.possession import VEHICLE_NAMED_RE, pet_named, possession_change, vehicle_owned
from facts.extraction.signals import (
    ACHIEVED_RE,
    ASKS_ABOUT_RE,
    ATTENDS_RE,
    BACK_FROM_RE,
    BODY_RE,
    BOOKED_RE,
    BOUGHT_FROM_LISTENER_RE,
    DECISION_RE,
    DIET_CHANGE_RE,
    HOME_RE,
    ID_ONLY_RE,
    INCOME_RE,
    MOVED_RE,
    OF_A_CAR,
    REMEMBERED_RE,
    REMIND_RE,
    ROUTINE_RE,
    VET_RE,
    WEDDING_RE,
    WHEN_OR_WHERE_RE,
    WON_A_PLACE_RE,
    WORK_RE,
    asks_terms,
    decided,
    legal_words,
    names_a_fault,
    only_describes,
    strong_signal,
    told_as_past,
    wish,
)
from facts.extraction.slots import Slot
from facts.extraction.type_definitions import nearest_type, nearness_speaks
from facts.extraction.whose import ACCOMPANY_RE, PRONOUN_SUBJECT_RE, own_health, someone_elses_body
from facts.text import detect_language

# A partner in Chinese, one list for the kin family, a relative as subject and a relative as companion below.
_ZH_PARTNER = "家那位|另一半|老婆|老公|老伴|爱人|妻子|丈夫|男朋友|女朋友"
# Slot families (the corpus's slot names) and the type a family implies.
_FAMILY_TYPE = {
    "residence": "profile", "hometown": "profile", "job": "profile", "employer": "profile", "school": "profile",
    "name": "profile", "age": "profile", "birthday": "profile", "phone": "profile", "email": "profile",
    "vehicle": "profile", "language": "profile", "pet": "profile", "diet": "preference",
    "preference": "preference", "favorite": "preference", "allergy": "health", "partner": "relationship",
    "child": "relationship", "sibling": "relationship", "parent": "relationship",
    "relationship_status": "relationship", "subscription": "decision", "order_status": "complaint",
}  # fmt: skip
_KIN = [
    (
        "partner",
        rf"wife|husband|partner|boyfriend|girlfriend|fianc[eé]e?|{_ZH_PARTNER}|那口子|未婚夫|未婚妻|对象",
    ),
    (
        "child",
        r"sons?|daughters?|kids?|children|baby|toddler|newborn|stepsons?|stepdaughters?|儿子|女儿|闺女|孩子|宝宝|"
        r"(?<!娃)娃(?!娃)|我家(?:那个(?=[\s，,]|[吃喝睡哭闹是才刚已还又也就老总最现一])|的(?=[才刚已现\d一二三四五六七八九十两]))",
    ),
    ("sibling", r"brothers?|sisters?|siblings?|哥哥|姐姐|弟弟|妹妹|我哥|我姐|我弟|我妹"),
    ("parent", r"mum|mom|mother|dad|father|parents|妈妈|妈|爸爸|爸|父母|(?<!老)婆婆|公公|岳父|岳母|丈母娘|老丈人"),
]
_KIN_RE = [
    (
        slot,
        re.compile(
            rf"\b(?:my|our|his|her) (?:{words})\b|(?:\bhave|'ve)(?: got)? (?:a|an|one|two|three|four|\d) "
            rf"(?:(?:older|younger|little|big|baby|twin|step|half)[ -])?(?:{words})\b|"
            rf"(?:{'|'.join(w for w in words.split('|') if re.match(r'[^a-z]', w))})",
            re.I,
        ),
    )
    for slot, words in _KIN
]
# A child by birth order alone ("my youngest, Ellie, ...", "our eldest starts school"), not "my oldest friend".
_BIRTH_ORDER = (
    r"\b(?:my|our) (?:youngest|eldest|oldest|middle one|little one|\d{1,2}[- ](?:week|month|year)[- ]old)"
    r"(?=\s*[,.;:!?]|\s*$|'s\b|\s+(?:is|was|has|had|still|keeps|fights|sleeps|eats|wakes|"
    r"just|won't|will|starts?|started|got|gets|turned|turns|loves?|hates?|can'?t|doesn'?t|didn'?t|goes|went|needs|wants)\b)"
)
_KIN_RE.insert(1, ("child", re.compile(_BIRTH_ORDER, re.I)))
_AGE = r"\bi'?m \d{2}\b|\bturning \d{2}\b|\d{2} years old|[二三四五六七八九]十[一二三四五六七八九]?(?:岁|了)|\d{2}岁"
# Slot families the slot rules do not name, recognised by their values' shapes.
_FAMILY_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("email", re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}\.[\w.]+")),  # bounded: linear
    (
        "phone",
        re.compile(
            r"\b1[3-9]\d{9}\b|\b0\d{4} ?\d{6}\b|\b07\d{3} \d{3} \d{3}\b|\bmy (?:phone )?number\b|手机号|号码是", re.I
        ),
    ),
    (
        "residence",
        re.compile(
            r"\b\d+[a-z]? [A-Z][a-z]+ (?:Road|Street|St|Grove|Avenue|Ave|Lane|Close|Drive|Way|Place)\b|\bFlat \d+|"
            r"(?:市|区|镇).{0,12}(?:路|街|(?<![的挂])号|小区|栋|单元|号楼)|住(?:在)?[\u4e00-\u9fff]{2,6}(?:那边|区)|搬(?:到|去)了?[\u4e00-\u9fff]{2,4}"
        ),
    ),  # fmt: skip
    ("age", re.compile(_AGE)),
    ("hometown", re.compile(r"\bi'?m (?:originally )?from\b|\bi grew up in\b|我(?:的)?老家|我(?:的)?家乡", re.I)),
    ("name", re.compile(r"\b(?:it'?s under|my name'?s|call me) [A-Z]|我叫|名字是|就是我本人|是本人", re.I)),
    ("language", re.compile(r"\bi (?:speak|am fluent in)\b|\bi'?m fluent in\b|普通话|粤语|会说|母语", re.I)),
    ("vehicle", VEHICLE_NAMED_RE),
    (
        "pet",
        re.compile(
            r"\b(?:my|our) (?:[\w-]+ )?(?:dog|cat|puppy|kitten|rabbit|hamster|parrot|lurcher|greyhound|collie|spaniel|labrador|terrier|cockapoo|tortoise|guinea pig)s?\b|撸猫|遛狗|兽医|狗狗|猫咪|我的(?:狗|猫)|"
            r"我(?:们)?家(?:的)?(?:那只|这只|那条|这条|小)?(?:狗|猫|金毛|柯基|泰迪|柴犬|橘猫|布偶|英短|兔子|仓鼠|边牧)",
            re.I,
        ),
    ),
    (
        "employer",
        re.compile(
            r"\b(?:i start at|i'?m joining|i work at|i work for)\b|跳槽|入职|在[\u4e00-\u9fffA-Za-z]{2,8}(?:工作|上班)",
            re.I,
        ),
    ),
    (
        "school",
        re.compile(
            r"\b(?:i study at|i'?m studying at|offer from|(?:going|off|moving|heading) (?:to|abroad to) (?:study|uni|"
            r"university|college)|start(?:ing)? (?:uni|university|college|my (?:degree|master'?s|phd)))\b|大学的offer|"
            r"读研|读博|入学|留学|去\S{1,6}(?:读书|上学|念书|读大学|上大学|读本科)",
            re.I,
        ),
    ),
]
_STATUS_RE = re.compile(
    r"\b(got engaged|proposed|broke up|split up|got married|divorced|called it quits)\b|"  # single: a status, not "every single"
    r"\b(?:i'?m|i am|i was|been|being|still|happily|newly|back to being) single\b|\bsingle (?:again|mum|mom|dad|parent)\b|"
    r"求婚|订婚|分手|(?:和|跟)\S{1,4}分了|单身|离婚|要结婚|结婚了|领(?:完|了)?证(?!明|件|书)|分居|婚不结了|退婚|相亲|交友软件|\b(?-i:Hinge|Tinder|Bumble)\b|\b(?:on|deleted|downloaded) (?:hinge|tinder|bumble)\b|\b(?:dating apps?|started dating|dating again)\b|\bmov(?:e|ing) in together\b|\basked me to be (?:his|her) (?:girlfriend|boyfriend|partner)\b|\b(?:made it|we'?re) official\b|(?:和|跟)\S{1,6}在一起了|确定(?:了)?关系|脱单",
    re.I,
)
_BIRTH_RE = re.compile(
    r"\b(was born|gave birth|had a baby|(?:just )?had (?:twins|triplets|a (?:baby )?(?:boy|girl)))\b|出生了|生了(个|一个|双胞胎)|"
    r"生\S{0,16}是个(?:女|男)(?:娃|孩|宝|儿)|生了(?:女|男)(?:娃|孩|儿)|(?:周[一二三四五六日天]|礼拜[一二三四五六天]|星期[一二三四五六天]|昨天|前天|凌晨|(?:上个?|这个?|本)月\S{0,4}[号日])生的",
    re.I,
)
_FAMILY_ZH = re.compile(r"(?:住在|搬到|搬去|家在)|(?:养了|我家)(?:一只|只)?(?:狗|猫)|它叫|驾照|提车|买了辆|辆")
_PAST_EVENT_RE = re.compile(
    r"\b(yesterday|last (week|weekend|night|month|year|summer|winter|spring|autumn|fall|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|mon|tues?|weds?|thur?s?|fri|sat|sun)|"
    r"ago|this morning|on (monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b|昨天|前天|上周|上个月|去年|上周末|今天早上|"
    # Today with a thing done ("我今天去健身房办了卡", "今天收到offer了").
    r"今天(?:去|在|把|做|办|买|收到|拿到|领到|考)[^，,。！!？?\n]{0,16}?了",
    re.I,
)
_PROFILE_RE = re.compile(
    r"\b(i work|i'?m an? |i live|i'?m from|i grew up|i study|i'?m studying|my job|i speak|i drive|i have an? )|"
    r"我(是|在|住|做|会说|有一)",
    re.I,
)


def slot_family(slot: Slot | None, sentence: str) -> str | None:
    """The corpus's slot name for a sentence: from the slot rules' predicate, else a relative it names."""
    if slot is not None:
        family = slot.predicate.split(":", 1)[0]
        if family == "order_status":
            return "order_status"
        profile = _FAMILY_TYPE.get(family) == "profile" and _STATUS_RE.search(sentence)  # married, and where one lives
        return "relationship_status" if profile else family if family in _FAMILY_TYPE else None
    if _STATUS_RE.search(sentence):
        return "relationship_status"
    for name, pattern in _FAMILY_PATTERNS:
        if pattern.search(sentence):
            return name
    gained = possession_change(sentence)  # "we rescued a greyhound", "那辆旧车我卖掉了": the pet or vehicle family
    if gained in {"pet", "vehicle"}:
        return gained
    for name, pattern in _KIN_RE:
        if pattern.search(sentence):
            return name
    return None


# Chinese marks no future: a day or month ahead with a going ("这周六我回去一趟", "二月份过去办"), no done 了 ("爬了").
_ZH_AHEAD = (
    r"(?:(?:这|本)(?:个)?(?:周|星期|礼拜)[一二三四五六日天末]|(?:[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九]|"
    r"\d{1,2})(?:号|月份)我?(?:去|回|过去|过来))(?![^，,。！!？?]{0,12}了)"
)
_FUTURE_RE = re.compile(
    r"\b(next (?:week|month|year|\w+day)|tomorrow|tonight|this (?:weekend|summer|autumn|fall|winter|spring)|"
    r"by (?:january|february|march|april|may|june|july|august|september|october|november|december)|"
    r"i'?m (?:going|doing|presenting|flying|taking|getting|travell?ing|visiting)|i'?d like to book|"
    r"(?:we|i) are going|we'?re going|(?<!been )going to|i'?ll(?! always l| never l)|i will(?! always l| never l)|i plan|signed up|exam|saving for|on the \d+(?:st|nd|rd|th)|"
    r"(?:i'?m|we'?re) off to|flight'?s on|over (?:christmas|easter|new year|the holidays|half-term))\b|"
    r"下周|下个月|明年|明天|后天|今年|国庆|春节|要办|出发|预约|约了|打算|计划|准备|想订|订了|报名|考试|目标|"
    + _ZH_AHEAD,
    re.I,
)


# A request to look something up, without a question mark ("帮我查一下快递", "please check my order").
_REQUEST_RE = re.compile(
    r"\b(?:please (?:check|track|look up)|can you (?:check|track|look up)|help me (?:check|track)|"
    r"i'?d like to (?:check|know)|i want to (?:check|know))\b|帮我查|帮忙查|查一下|查询|看一下我的|想问(?:一)?下",
    re.I,
)
# A relative named as a subject ("my sister is ...", "我妹今年...") and the speaker as one ("I", "we", "帮我").
_RELATIVE_RE = re.compile(
    r"\b(?:my|our) (?:(?:[\w.]+[- ](?:day|week|month|year)s?[- ]old|\w+) )?(?:wife|husband|partner|boyfriend|girlfriend|fianc[eé]e?|sons?|daughters?|kids?|"
    r"children|baby|stepsons?|stepdaughters?|mum|mom|mother|dad|father|parents|brothers?|sisters?|siblings?|gran|grandad|granddad|grandpa|"
    r"grandma|nan|nana|grandmother|grandfather|grandparents|aunt(?:ie)?|uncle|cousin|niece|nephew|in-laws)\b"
    r"(?! and (?:i|me)\b)(?!'s (?:place|house|flat))|"
    # A parent named by the kinship word alone, capitalised as a name ("Mum finally got a puppy").
    r"\b(?-i:Mum|Mom|Mam|Dad|Nan|Gran|Grandma|Grandpa)\b(?! and (?:i|me)\b)(?!'s (?:place|house|flat))|"
    rf"我(?:们)?(?:的|家)?{ZH_AGED}?(?:那口子|{_ZH_PARTNER}|"
    + ZH_CHILD_WORDS
    + r"|妈妈|妈|爸爸|爸|父母|哥哥|姐姐|弟弟|妹妹|哥|姐|弟|妹|"
    r"爷爷|奶奶|外公|外婆|姥姥|姥爷|姑姑|舅舅|叔叔|阿姨|表哥|表姐|表弟|表妹|堂哥|堂姐)"
    r"(?!和我|跟我|(?:那儿|那里|那边|家))|" + ZH_EN_KIN + "|" + _BIRTH_ORDER + "|"
    # A child called by name at a stage of school ("Theo's first week of reception done", "我们朵朵上中班了").
    r"(?-i:\b[A-Z][a-z]{2,})(?:'s|\s(?:is|has|was|starts|started|loves|hates|goes|went|got))\b(?=\s?reception\b|[^.!?]{0,50}\b(?:(?:in|starts?|started|starting|of) reception|"
    r"nursery|pre-?school|kindergarten|infants|year [1-6]\b(?! of)))|(?:^|我们|我家|[，,\s])(?![天常慢刚好人偷渐早试看想谢哈呵嘿嘻呜嗯啊哦噢呃喔诶对是行默"
    r"稍轻悄紧乖快每处家年个星样点些一宝妈爸哥姐弟妹爷奶])(?P<twice>[\u4e00-\u9fff])(?P=twice)(?=\S{0,16}(?:幼儿园|托班|[小中大]班|[一二三四五六]年级|小学))",
    re.I,
)
_SPEAKER_RE = first_person_re(I_WORDS, WE_WORDS, ("me",), zh="我(?!的)")
# Words of a plan the speaker makes (not a month alone, which a past event has too).
_PLAN_RE = re.compile(
    r"\b(?:i'?ll|i will|we'?ll|we will|going to|gonna|have to|need to|next (?:week|weekend|month|year|\w+day)|"
    r"tomorrow|"
    r"this (?:weekend|summer|autumn|fall|winter|spring)|plan\w*|book(?:ed|ing)?|i'?m (?:going|taking|flying|"
    r"travell?ing|visiting|bringing|giving|hosting)|we'?re (?:going|taking|flying|travell?ing|visiting))\b|"
    r"下周|下个月|明年|明天|后天|国庆|春节|出发|打算|计划|准备|规划|行程|要去|带.{1,4}去|" + _ZH_AHEAD,
    re.I,
)


# A relative only the speaker's companion or a place ("with my husband", "带爸妈", "at my gran's"): still the speaker's.
_KIN_EN = (
    r"wife|husband|partner|boyfriend|girlfriend|sons?|daughters?|kids?|children|mum|mom|mother|dad|father|parents|"
    r"brothers?|sisters?|gran\w*|grand\w+|nan|aunt\w*|uncle|cousin|family|in-laws"
)
_KIN_ZH = rf"{_ZH_PARTNER}|儿子|女儿|孩子|宝宝|娃(?!娃)|爸妈|妈妈|妈|爸爸|爸|父母|哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|外公|外婆|姥姥|姥爷"
_COMPANION_RE = re.compile(
    rf"\b(?:with|along with|taking|take|took|bring|bringing|brought) (?:my|our) (?:\w+ )?(?:{_KIN_EN})\b|"
    rf"\b(?:at|to|from) my (?:{_KIN_EN})'s\b|(?:和|跟|带|陪|带着)(?:我)?(?:的)?(?:{_KIN_ZH})|(?:{_KIN_ZH})(?:那儿|那里|那边|家里?)",
    re.I,
)


def _relative_named(text: str) -> bool:
    return bool(_RELATIVE_RE.search(text) or _ANY_KIN_RE.search(text) or _RELATION_SIGNAL_RE.search(text))


_ANY_KIN_RE = re.compile("|".join(p.pattern for _slot, p in _KIN_RE), re.I)
_RELATION_SIGNAL_RE = dict(STRONG)["relationship"]
_COMPLAINT_SIGNAL_RE, _HEALTH_SIGNAL_RE = dict(STRONG)["complaint"], dict(STRONG)["health"]


def _own_or_relative(sentence: str, family: str | None) -> str:
    """A sentence naming a relative: the speaker's own plan or past outing with them ("I'm taking my mum to Rome",
    "上周我们带孩子去了动物园") is the speaker's commitment or event; the relative as subject, or the speaker's
    engagement or breakup, a relationship fact; a relative as companion or place, or beside the speaker's body: ""."""
    if family == "relationship_status" or _STATUS_RE.search(sentence):
        return "relationship"
    if own_health(sentence, _HEALTH_SIGNAL_RE):
        return ""
    if not _relative_named(_COMPANION_RE.sub(" ", strip_chatter(sentence))):
        if _PAST_EVENT_RE.search(sentence):
            return "event"
        return _planned(sentence) if _PLAN_RE.search(sentence) else ""
    if not _speaker_first(sentence):
        return "relationship"
    if _PAST_EVENT_RE.search(sentence):
        return "event"
    plan = _PLAN_RE.search(sentence) or ELIDED_PLAN_ZH_RE.match(strip_chatter(sentence))
    return _planned(sentence) if plan else "relationship"


def _planned(sentence: str) -> str:
    """The speaker's plan: work, study or a home ahead is who the speaker is next ("下个月返岗，孩子交给婆婆")."""
    return "profile" if WORK_RE.search(sentence) or MOVED_RE.search(sentence) else "commitment"


def _relative_is_subject(sentence: str) -> bool:
    """A relative is named, not only as a companion or a place, before the speaker."""
    return _relative_named(_COMPANION_RE.sub(" ", strip_chatter(sentence))) and not _speaker_first(sentence)


def _speaker_first(sentence: str) -> bool:
    """True when the speaker is named before any relative: the sentence is the speaker's own."""
    body = strip_chatter(sentence)  # "我跟你讲，我姐下个月生二胎": the lead-in is no subject
    if ELIDED_PLAN_ZH_RE.match(body):
        return True
    speaker, relative = _SPEAKER_RE.search(body), _RELATIVE_RE.search(body) or ZH_KIN_OPENS_RE.search(body)  # (老婆…)
    return speaker is not None and (relative is None or speaker.start() < relative.start())


def rule_type(sentence: str, slot: Slot | None, family: str | None) -> str:
    """The type rules are sure of, or ""."""
    return firm_type(sentence, slot, family) or cue_type(sentence)


_OWN_TYPE = {"legal", "health"}  # a claim on a policy, a harm to the body: what a crime told beside them leaves them


def firm_type(sentence: str, slot: Slot | None, family: str | None) -> str:
    """The type a word makes sure of (a slot, a relative, a complaint, a decision, health, legal), or ""."""
    signal = strong_signal(uncrimed := CRIME_RE.sub(" ", sentence))  # (a door broken into: no fault of a thing's)
    asks = is_question(sentence) or _REQUEST_RE.search(sentence)
    family = None if family == "vehicle" and slot is None and not vehicle_owned(sentence) else family  # a make alone
    # A refund asked about with no trouble of the speaker's asks the terms ("What's your refund policy?"), not a grievance.
    terms = signal == "complaint" and asks_terms(sentence)
    # A health word in a question to the business asks for its service ("想约个洗牙，这周末还有号吗", "do you sell
    # blood pressure monitors in store?"); a symptom stated before the question keeps the health type (below).
    service = asks and _SERVICE_RE.search(sentence) and (signal != "complaint" or terms)
    stated = DECISION_RE.search(sentence) or statement_beside_question(sentence) or uncrimed != sentence  # (a crime)
    if service and not stated or ASKS_ABOUT_RE.match(sentence) and uncrimed == sentence:
        return "inquiry"  # (a fact stated before the question types it: "I'm moving to Leeds, do you deliver there?")
    if REMIND_RE.search(sentence):
        return "commitment"  # a reminder asked for: the plan is the speaker's, whatever it is about
    if ID_ONLY_RE.match(sentence) and not re.search(r"(?:\+\d|\b0\d|\b1[3-9])[\d -]{8,}\d", sentence):
        return "other"  # a bare order or membership number given when asked ("0041927", "订单号2026113088417")
    if _BIRTH_RE.search(sentence):
        return "event"
    wedding = WEDDING_RE.search(sentence) and WHEN_OR_WHERE_RE.search(sentence) and _SPEAKER_RE.search(sentence)
    if wedding and not _relative_is_subject(sentence):
        return "commitment"  # the wedding with its date or place; "we're getting married!" alone is the relationship
    if LAW_RE.search(sentence):  # a court, a lawyer, arbitration: legal before a decision or an amount
        return "legal"
    if signal == "complaint" and names_a_fault(uncrimed):
        return "complaint"  # what went wrong comes before the remedy chosen ("it's cracked, I'd like a refund")
    if decided(sentence):
        return "decision"
    if ACHIEVED_RE.search(sentence) or uncrimed != sentence and signal not in _OWN_TYPE:  # a test passed, a crime
        won = "profile" if WON_A_PLACE_RE.search(sentence) else "event"  # (a job or a home won: who one is, README)
        return "relationship" if _relative_is_subject(sentence) else won  # (a relative's: "我表弟考上研究生了")
    if signal == "legal" and INCOME_RE.search(sentence):
        return "other"  # "我月薪两万，每个月房贷六千": the income is the amount, the loan its context
    if signal == "complaint" or signal == "legal" and _COMPLAINT_SIGNAL_RE.search(sentence):
        return "complaint"  # a complaint comes before a lease or a landlord ("the rent to my landlord went out twice")
    booked = BOOKED_RE.search(sentence) and WHEN_OR_WHERE_RE.search(sentence) and not asks
    if booked and signal not in {"health", "legal", "complaint"}:  # (a doctor's appointment is health)
        return "commitment"  # a booking with its date or place is a plan, whatever was booked (a room, a table)
    if family in {"partner", "child", "sibling", "parent", "relationship_status"}:
        # The speaker's own plan with a relative ("I'm taking my mum to Rome in May") is the speaker's commitment;
        # a fact whose subject is the relative ("my sister starts uni next year") is a relationship fact.
        own = _own_or_relative(sentence, family)
        if own:
            return own
        family = None
    if family is not None and slot is None and _relative_is_subject(sentence):
        return "relationship"  # "我妹明年要去日本留学": the relative's school, not the speaker's
    if family in {"preference", "favorite", "diet"} and _relative_is_subject(sentence):
        return "relationship"  # "My youngest won't touch mushrooms": the child's taste, a fact about the child
    if family in {"preference", "favorite"} and WORK_RE.search(sentence):
        return "profile"  # "I quit the bank and started an apprenticeship": work news, not a dislike of banks
    if signal == "health" and (someone_elses_body(sentence, _HEALTH_SIGNAL_RE) or ZH_KIN_OPENS_RE.match(sentence)):
        return "relationship"  # "Tom's got a proper allergy", "She had a fall and broke her wrist": not the speaker's
    if family is not None:
        if family == "order_status" and slot is not None:  # an order's number alone is an id (cue_type's other)
            bare = slot.object_value == "mentioned" and not says_more_than_amount(sentence)
            return slot.type if slot.type in {"complaint", "event"} and not bare else "other"
        # A diet with its medical reason, a car crash that left an injury: the condition is the durable fact.
        if (
            signal == "health"
            and _FAMILY_TYPE.get(family) == "preference"
            or signal in OF_A_CAR
            and family == "vehicle"
        ):
            return signal
        return _FAMILY_TYPE.get(family, "profile")
    if signal == "health" and (VET_RE.search(sentence) or pet_named(sentence) and not _SPEAKER_RE.search(sentence)):
        return "commitment" if _FUTURE_RE.search(sentence) or _PLAN_RE.search(sentence) else "profile"
    if signal == "health" and ACCOMPANY_RE.search(sentence):
        planned = _FUTURE_RE.search(sentence) or _PLAN_RE.search(sentence)
        return "event" if _PAST_EVENT_RE.search(sentence) and not planned else "commitment"  # with someone else
    if signal in {"health", "legal"}:
        return signal
    if signal == "possession":  # a pet or a thing gained or given up: who the speaker is, unless a relative's
        return "relationship" if _relative_is_subject(sentence) else "profile"
    if signal == "relationship" or _relative_is_subject(sentence):
        return _own_or_relative(sentence, None)
    if PRONOUN_SUBJECT_RE.match(strip_chatter(sentence)):  # "he" or "she": a relative, or the pet the sentence names
        return "profile" if pet_named(sentence) and not _RELATIVE_RE.search(sentence) else "relationship"
    return ""


def cue_type(sentence: str) -> str:
    """The type a weaker cue suggests (a future word, a hint, a way of working, an amount, a past date), or ""."""
    signal = strong_signal(sentence)
    # What it is about (work, body, a move) comes before its tense, which says when ("我被调到杭州了，下周就过去": work).
    if WORK_RE.search(sentence) or ATTENDS_RE.search(sentence):
        return "profile"  # work and study, classes and clubs attended
    if BOUGHT_FROM_LISTENER_RE.search(sentence) and not is_question(sentence):
        return "complaint"  # a customer tells the business what they bought from it: what went wrong comes next
    if BODY_RE.search(sentence):
        return "profile"  # height and weight ("I'm 6'1", "我一米七五，一百八十斤")
    if MOVED_RE.search(sentence) or HOME_RE.search(sentence) and signal not in {"amount", "id"}:
        return "profile"  # a move or the home one rents is a residence, even without a place or with a date
    if INCOME_RE.search(sentence):
        return "other"  # what the speaker earns is an amount, also beside a rent or a loan
    if DIET_CHANGE_RE.search(sentence):
        return "preference"  # a diet taken up or given up ("戒糖三个月了", "meat's back on the menu")
    if REMEMBERED_RE.search(sentence):
        return "event"  # a memory vowed ("I'll always remember that summer"), not a plan: what it keeps happened
    if _FUTURE_RE.search(sentence):
        return "commitment"
    if wished := wish(sentence):
        return wished  # "一直想学钢琴" a preference; "I want to reach B2 by May" a plan
    hint = keep_hint(sentence)
    if hint in {"decision", "commitment", "preference"}:
        return hint
    if signal == "amount" and possession_change(sentence) or BACK_FROM_RE.search(sentence):
        return "profile" if signal == "amount" else "event"  # "sold the corsa for 900 quid", "back from Crete"
    if signal in {"amount", "id"} and not says_more_than_amount(sentence):
        return "other"  # an amount or an id with no slot and nothing else (income, rent, a membership number)
    if _PAST_EVENT_RE.search(sentence) and _SPEAKER_RE.search(sentence):
        return "event"  # something the speaker did, dated in the past
    return ""


def fallback_type(sentence: str) -> str:
    """A type by the sentence's shape when neither rules nor the classifier are sure."""
    hint = keep_hint(sentence)
    if hint:
        return hint
    signal = strong_signal(sentence)
    if signal in {"amount", "id"} and not says_more_than_amount(sentence):
        return "other"
    if _PAST_EVENT_RE.search(sentence):
        return "event"
    if ROUTINE_RE.search(sentence) or _PROFILE_RE.search(sentence) or _FAMILY_ZH.search(sentence):
        return "profile"  # a routine says how the speaker lives ("每周大概跑三次", "I'm on nights most days")
    if is_question(sentence):
        return "inquiry"
    if detect_language(sentence) == "zh":
        # Chinese drops the subject (a user's statement is the speaker's) and marks states with 了 as much as
        # happenings ("养了十二年了", "房子租好了"): only a dated past (above) makes an event by its shape. What
        # the sentence is about, its characters tell (hanzi.py), where a type by them can stand.
        return _by_characters(sentence)
    if not has_first_person(sentence):
        return "other"
    return "event" if _HAPPENED_RE.search(sentence) or any(map(is_past_form, sentence.split())) else "profile"


def _by_characters(sentence: str) -> str:
    """The type a Chinese sentence's meaning and characters tell (zh_types.py) where it can stand, else profile: an
    inquiry needs a question (the shape looked first), an event a happening, legal a law's word, a plan a doing."""
    guess = classifier.chinese_type(sentence)
    stands = {"inquiry": False, "event": bool(_HAPPENED_RE.search(sentence)), "legal": legal_words(sentence)}
    return guess if guess and stands.get(guess, guess != "commitment" or not only_describes(sentence)) else "profile"


def type_of(sentence: str, slot: Slot | None, family: str | None, predicted: tuple[str, float] | None) -> str:
    """Rules, then the type by definition (the nearest exemplars written from the corpus README), then the
    classifier's most likely type, then the sentence's shape (the embedder down, or Chinese under an English-only
    embedder: where its shape says nothing, its characters do).

    Where no rule is sure, the classifier's type head (fitted on train turns) generalises poorly to phrasings and
    registers it never saw; the exemplars of each type's definition are nearer the type than the train turns'
    topics are (facts/extraction/type_definitions.py). The head stays for an embedder the exemplars cannot use."""
    near = predicted[0] if predicted is not None and nearness_speaks(sentence) else None
    found = rule_type(sentence, slot, family) or (
        _standing(nearest_type(sentence) or near, sentence) if near else fallback_type(sentence))  # fmt: skip
    return "event" if found == "commitment" and told_as_past(sentence) else found  # what it tells happened


def _standing(type_: str, sentence: str) -> str:
    """A type by nearness alone stands unless it needs a word the sentence lacks: an inquiry needs a question or a
    request ("we live next to your branch" is near "is there a branch near...?" and asks nothing), legal needs a word
    of the law or a legal document (a palliative care certificate is not one)."""
    if type_ == "inquiry" and not (is_question(sentence) or _REQUEST_RE.search(sentence)):
        return fallback_type(sentence)
    if type_ == "legal" and not legal_words(sentence):
        return fallback_type(sentence)
    if type_ == "event" and not _HAPPENED_RE.search(sentence) and not any(map(is_past_form, sentence.split())):
        return "commitment" if _FUTURE_RE.search(sentence) else keep_hint(sentence) or "profile"
    if type_ in {"event", "commitment", "complaint"} and ROUTINE_RE.search(sentence):
        # A routine is how the speaker lives, not a happening, a plan or a grievance, unless it is a plan's.
        return "commitment" if _FUTURE_RE.search(sentence) else "profile"  # ("I have to do the M62 every day")
    return type_


# Something happened (a date, a number, a past word, a done aspect): else a sentence near an event tells a state.
_HAPPENED_RE = re.compile(
    r"\d|\b(?:ago|yesterday|last \w+|just|finally|got|went|was|were|had|did|made)\b|了|过|曾|刚", re.I
)
