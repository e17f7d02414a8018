"""Slots (subject_entity / predicate / object_value), types and entities found by rules, in English and Chinese."""

from __future__ import annotations

import re
from dataclasses import dataclass

from facts.extraction.families import family_of
from facts.extraction.signals import CLASS_WORDS
from facts.text import has_cjk, keywords

# Predicates with one current value: a new value supersedes the old one.
SINGLE_VALUED = {"residence", "job", "employer", "diet", "name", "age", "relationship_status", "hometown", "phone",
                 "email", "school"}  # fmt: skip
# Predicates whose value is a polarity: a flip the rules cannot settle is a conflict.
POLAR_PREFIXES = ("preference:", "subscription")


@dataclass
class Slot:
    predicate: str
    object_value: str
    type: str
    entity_kind: str = ""  # the kind of entity the object is, if any
    weak: bool = False  # read from a cue with other senses: the embedding's second opinion may overrule it


_PLACE = r"([A-Z\u4e00-\u9fff][\w'-]*(?:[ ,]+[A-Z][\w'-]*){0,3})"
_ZH_OBJ = r"([\u4e00-\u9fffA-Za-z0-9]{1,12}?)"
_ZH_END = r"(?=[，。！？,.!?了的啦呢吧]|$)"

_EN_SLOTS: list[tuple[re.Pattern[str], str, str, str]] = [
    (re.compile(r"\bmy name is ([A-Z][\w'-]+(?: [A-Z][\w'-]+)?)", re.I), "name", "profile", "person"),
    (re.compile(r"\b(?i:i'?m (?:originally )?from) (?:the )?" + _PLACE), "hometown", "profile", "place"),
    (re.compile(r"\bi'?m (\d{1,3}) years? old\b", re.I), "age", "profile", ""),
    # ... or said with the age alone ("I'm 47, is that mad", "I am 52 now"): a grown-up's age, the sentence's last word.
    (re.compile(r"\bi(?:'?m| am) (1[6-9]|[2-9]\d)(?= ?(?:[,.!?;]|$|now\b|this year\b))", re.I), "age", "profile", ""),
    (
        re.compile(r"\b(?:i )?(unsubscribed|cancell?ed my (?:subscription|membership|account))\b", re.I),
        "subscription",
        "decision",
        "",
    ),
    # (Signing up for a class, a race or a trip is no subscription: a class attended is how one lives, a race a plan.)
    (
        re.compile(
            r"\bi (?:just )?(ordered|subscribed|signed up|renewed)\b(?! (?:for|to) (?:a |an |the |my |some )?[\w'-]{0,20}"
            r"(?: [\w'-]{1,20}){0,3}? ?(?:" + CLASS_WORDS + r"|lesson|workshop|team|marathon|race|"
            r"10k|5k|half|triathlon|exam|test|trip|tour|retreat|camp)\b)",
            re.I,
        ),
        "subscription",
        "event",
        "",
    ),
]

# When-words a Chinese sentence puts between 我 and its verb ("我最近开始喜欢咖啡", "我现在不喝了").
_ZH_WHEN = r"(?:上个?月|上周|最近|这阵子|这段时间|现在|如今|已经|其实|还是|也|都|又|开始|渐渐)*"

_ZH_SLOTS: list[tuple[re.Pattern[str], str, str, str]] = [
    (re.compile(r"(?<![着跟和给对让帮陪带找问教同])我叫" + _ZH_OBJ + _ZH_END), "name", "profile", "person"),
    (re.compile(r"我(?:来自|是)([\u4e00-\u9fff]{2,6})人"), "hometown", "profile", "place"),
    (re.compile(r"我今年(\d{1,3}|[一二三四五六七八九十]{1,3})岁"), "age", "profile", ""),
    (re.compile(r"^我(?:今年|都|已经|也)?(1[6-9]|[2-9]\d)岁?了(?=$|[，,。！!~～\s…])"), "age", "profile", ""),
    (re.compile(r"(退订了|取消了订阅|取消订阅|退了会员)"), "subscription", "decision", ""),
    # (a home, a car or a pet bought is a possession, not an order: "刚买了套两居室", "刚买了辆二手车")
    (re.compile(r"(刚下单|刚买了(?![一两]?[套辆只条台栋间处])|订阅了|下单了)"), "subscription", "event", ""),
]

# Words that say a view changed: the newer statement replaces the older one instead of contradicting it.
_CHANGE_RE = re.compile(
    r"\b(these days|nowadays|now|lately|recently|any ?more|no longer|used to|started|starting|begun|began|"
    r"changed (?:my|his|her|their) mind|have come to|has come to|finally|since)\b"
    r"|现在|最近|这阵子|这段时间|近来|如今|开始|不再|以前|已经不|后来|改成|变得|渐渐|慢慢|了$|了[。！!.]?$",
    re.I,
)


def states_a_change(text: str) -> bool:
    """True when a sentence says its view is new ("these days I want to try ...", "我最近开始吃辣了")."""
    return bool(_CHANGE_RE.search(text))


_EN_PREF_POS = re.compile(
    r"\bi(?:'ve| have)? ?(?:really |absolutely |also |just |now |actually |kind of |totally |been |started |begun )*"
    r"(?:love|loving|like|liking|enjoy|enjoying|adore|prefer|am into|'m into|want to try|wanna try|'d like to try|"
    r"would like to try|'m keen on|am keen on|'m keen to try|am keen to try|fancy|crave|'m craving|am craving|"
    r"'m fond of|am fond of|'m (?:a )?(?:big |huge )?fan of|am (?:a )?(?:big |huge )?fan of|'m getting into|"
    r"got into|can'?t get enough of) ([\w' -]{2,40}?)(?=[.,!?;]| and | but | because |$)",
    re.I,
)
_EN_PREF_NEG = re.compile(
    # The speaker among others ("neither of us can stand mushrooms", "we both hate camping").
    r"\b(?:(?:neither|none) of us (?:can stand|likes?|eats?|drinks?|enjoys?)|(?:we|we both|both of us) (?:really |just |all )?"
    r"(?:hate|can'?t stand|don'?t (?:eat|like|drink))|"
    r"i ?(?:really |just |totally |absolutely |now |still )?(?:hate|dislike|can'?t stand|don'?t like|do not like|"
    r"don'?t eat|do not eat|never eat|avoid|can'?t eat|don'?t drink|do not drink|never drink|stopped eating|"
    r"stopped drinking|gave up|quit|'m not (?:a )?(?:big )?fan of|am not (?:a )?(?:big )?fan of|'m not into|"
    r"am not into|no longer (?:eat|drink|like|enjoy)|don'?t (?:eat|drink|like|enjoy) (?:any|much))) "
    r"([\w' -]{2,40}?)(?=[.,!?;]| and | but | because |$)",
    re.I,
)
_EN_FAVORITE = re.compile(r"\bmy fav(?:ou?rite|e) ([\w -]{2,30}?) is ([\w' -]{2,40}?)(?=[.,!?;]|$)", re.I)
_ZH_PREF_POS = re.compile(
    r"我"
    + _ZH_WHEN
    + r"(?:很|非常|特别|超级|也|最|还挺|挺|越来越|开始|又)?(?:喜欢|爱吃|爱喝|爱上了?|迷上了?|想尝尝|想尝试|"
    r"想试试|想试一下|想吃|想要|馋|能吃|敢吃)([\u4e00-\u9fffA-Za-z0-9]{1,10}?)" + _ZH_END
)
_ZH_PREF_NEG = re.compile(
    r"我"
    + _ZH_WHEN
    + r"(?:很|非常|特别|最|一点都|一点也|从来|完全|根本|再也|已经)?(?:不喜欢|讨厌|不吃|不能吃|不爱吃|不爱|"
    r"受不了|不喝|不碰|吃不了|不敢吃|戒了)([\u4e00-\u9fffA-Za-z0-9]{1,10}?)"
    + _ZH_END
    + r"|我(?:一点|一口|从来)?(?!婆婆|公公|老公|老婆|儿子|女儿|闺女|孩子|宝宝|娃|爷爷|奶奶|外公|外婆|姥|[爸妈哥姐弟妹家们])"
    r"([\u4e00-\u9fffA-Za-z]{1,6}?)(?:都|也|从来)?不(?:吃|碰|喝|沾)"
)

_ORDER_RE = re.compile(
    # One whitespace run after each optional part ("\s*[#:]?\s*" split a run of spaces in all ways: quadratic).
    # An id has a digit in it: "order altogether", "order online" are words.
    r"(?:\border(?: number| no\.?| id)?|订单(?:号)?)\s*(?:is\s*)?(?:[#:：]\s*)?(?=[A-Z-]*\d)([A-Z0-9][A-Z0-9-]{3,})",
    re.IGNORECASE,
)
_ORDER_BAD_RE = re.compile(
    r"never arrived|hasn'?t arrived|not arrived|didn'?t arrive|(?:still )?(?:not|hasn'?t been|wasn'?t) (?:shipped|"
    r"dispatched|sent)|late|broken|damaged|cracked|wrong|missing|refund|faulty|\bdead\b|no sound|won'?t (?:turn|switch) on|"
    r"(?:doesn'?t|does not|isn'?t|is not|stopped) work|"
    r"没收到|还没到|没到|(?:还)?没(?:有)?发货|一直不发|坏了|破损|碎了|错了|退款|退货|延迟|没声音?|开不了机|不(?:亮|响|工作)|都一样",
    re.I,
)
_ORDER_GOOD_RE = re.compile(r"arrived|delivered|received|got it|收到了|到了|已签收", re.I)

_REL_EN = re.compile(
    r"\bmy (wife|husband|son|daughter|mom|mother|dad|father|sister|brother|friend|best friend|partner|boyfriend|"
    r"girlfriend|grandma|grandmother|grandpa|grandfather|aunt|uncle|cousin|boss|colleague|coworker|roommate|"
    r"neighbou?r)(?:,)? (?:is |named |called )?([A-Z][\w'-]+)?",
    re.I,
)
_REL_ZH = re.compile(
    r"我(?:的)?(老婆|老公|妻子|丈夫|儿子|女儿|闺女|妈妈|爸爸|母亲|父亲|姐姐|妹妹|哥哥|弟弟|朋友|男朋友|女朋友|"
    r"奶奶|爷爷|外婆|外公|同事|老板|室友)(?:叫|是)?([\u4e00-\u9fff]{2,3})?"
)
# "we have a ginger cat called Niangao", "my dog is a golden retriever named Cola": up to two lower-case words
# describe the animal, and "is a ..." may come before its name (bounded: linear on any input).
_PET_EN = re.compile(
    r"\b(?i:i have|i've got|i got|we have|we've got|i adopted|we adopted|my|our) (?i:a |an |two |three )?"
    r"(?:[a-z-]{3,15} ){0,2}"
    r"(?i:(dog|cat|puppy|kitten|corgi|labrador|retriever|poodle|terrier|beagle|husky|spaniel|hamster|parrot|"
    r"budgie|rabbit|bunny|turtle|tortoise|goldfish|fish|pet)s?)"
    r"(?: (?:is|was) (?i:a|an) (?:[a-z-]{2,15} ){0,3}?(?:named|called)| named| called|,)? ?"
    r"([A-Z\u4e00-\u9fff][\w\u4e00-\u9fff'-]*)?"
)
_PET_ANIMAL_ZH = r"(狗|猫|柯基|小狗|小猫|金毛|泰迪|仓鼠|兔子|鹦鹉)"
_PET_ZH = re.compile(
    r"(?:我|我们)(?:家)?(?:有|养了|养)(?:一只|只|一条|条|两只)?[\u4e00-\u9fff]{0,2}?"
    + _PET_ANIMAL_ZH
    + r"(?:，)?(?:叫|名叫|名字叫)?([\u4e00-\u9fffA-Za-z]{1,4})?"
)
# "我的狗是一只金毛，叫可乐", "我家的猫叫年糕": after 我的 a name needs its naming word.
_PET_ZH_MINE = re.compile(
    r"(?:我|我们)(?:家)?的"
    + _PET_ANIMAL_ZH
    + r"(?:是(?:一只|只|一条|条)?[\u4e00-\u9fff]{1,4}?)?，?(?:叫|名叫|名字叫)([\u4e00-\u9fffA-Za-z]{1,4})"
)
_ALLERGY_EN = re.compile(r"\b(?:i'?m|i am) allergic to ([\w -]{2,30}?)(?=[.,!?;]| and |$)", re.I)
_ALLERGY_ZH = re.compile(r"我对([\u4e00-\u9fffA-Za-z]{1,8}?)过敏")

_TYPE_RULES: list[tuple[str, re.Pattern[str]]] = [
    (
        "legal",
        re.compile(
            r"\b(lawyer|attorney|court|contract|lawsuit|sued|divorce|visa|lease(?! of life)|custody|legal)\b"
            r"|律师|法院|合同|起诉|离婚|签证|法律|租约",
            re.I,
        ),
    ),
    (
        "health",
        re.compile(
            r"\b(allerg\w*|doctor|hospital|medic\w*|diagnos\w*|surgery|pregnan\w*|sick|illness|"
            r"therap\w*|disease|injur\w*|symptom\w*|blood pressure|diabet\w*|asthma|pills?)\b"
            r"|过敏|医生|医院|吃药|药|生病|手术|怀孕|血压|糖尿病|(?<!不)(?<!不太)(?<!不怎么)感冒|发烧|哮喘",
            re.I,
        ),
    ),
    (
        "complaint",
        re.compile(
            r"\b(complain\w*|refund|never arrived|hasn'?t arrived|broken|damaged|terrible service|"
            r"unacceptable|disappointed with)\b|投诉|退款|没收到|坏了|破损|太差|差评|不满意",
            re.I,
        ),
    ),
    (
        "commitment",
        re.compile(
            r"\b(i'?ll|i will|i promise|i'?m going to|i am going to|i plan to|i'?m planning to|"
            r"i intend to|i have to|i need to|i must)\b|我会|我答应|我保证|我一定|我打算|我计划|我准备|我要",
            re.I,
        ),
    ),
    (
        "decision",
        re.compile(
            r"\b(decided|i chose|going with|settled on|made up my mind|i'?ve chosen)\b"
            r"|决定|选择了|定了",
            re.I,
        ),
    ),
    (
        "relationship",
        re.compile(
            r"\b(wife|husband|son|daughter|mom|mother|dad|father|sister|brother|friend|partner|"
            r"boyfriend|girlfriend|kids?|children|married|grandma|grandpa|family)\b"
            r"|老婆|老公|妻子|丈夫|儿子|女儿|闺女|妈妈|爸爸|姐姐|妹妹|哥哥|弟弟|朋友|孩子|家人|结婚",
            re.I,
        ),
    ),
    (
        "preference",
        re.compile(
            r"\b(love|like|enjoy|prefer|hate|dislike|favou?rite|can'?t stand|into|fan of)\b"
            r"|喜欢|爱吃|爱喝|讨厌|最爱|不吃|偏好|想尝",
            re.I,
        ),
    ),
    (
        "event",
        re.compile(
            r"\b(went|visited|attended|started|finished|joined|met|got|took|bought|ordered|moved|"
            r"travell?ed|celebrated|graduated|ran|painted|won|lost|yesterday|last|ago|next|tomorrow|"
            r"on \d{1,2} [A-Z][a-z]+ \d{4}|\w+ed)\b|去了|参加了|买了|开始|完成|见了|昨天|上周|明天|下周|"
            r"\d{4}年",
            re.I,
        ),
    ),
    (
        "profile",
        re.compile(
            r"\b(live|lives|work|works|job|years old|name is|from|born|study|studying)\b"
            r"|住|工作|叫|岁|出生|学习|专业",
            re.I,
        ),
    ),
]


def slot_of(sentence: str) -> Slot | None:
    """The slot a first-person sentence fills, if one is clear."""
    family = family_of(sentence, has_cjk(sentence))
    if family is not None:
        return Slot(family.predicate, family.value, family.type, family.entity_kind, weak=family.weak)
    for pattern, predicate, type_, kind in (_ZH_SLOTS + _EN_SLOTS) if has_cjk(sentence) else _EN_SLOTS:
        m = pattern.search(sentence)
        if m:
            value = m.group(1).strip(" ,")
            if predicate == "subscription":
                bad = re.search(r"unsub|cancel|退订|取消|退了", value, re.I)
                value = "cancelled" if bad else "active"
            return Slot(predicate, value, type_, kind)
    order = _ORDER_RE.search(sentence)
    if order:
        status = (
            "problem" if _ORDER_BAD_RE.search(sentence) else ("delivered" if _ORDER_GOOD_RE.search(sentence) else "")
        )
        return Slot(f"order_status:{order.group(1).upper()}", status or "mentioned",
                    "complaint" if status == "problem" else "event")  # fmt: skip
    for pattern in (_ALLERGY_EN, _ALLERGY_ZH):
        m = pattern.search(sentence)
        if m:
            return Slot(f"allergy:{_topic(m.group(1))}", m.group(1).strip(), "health")
    for pattern, polarity in ((_EN_PREF_NEG, "negative"), (_ZH_PREF_NEG, "negative"), (_EN_PREF_POS, "positive"),
                              (_ZH_PREF_POS, "positive")):  # fmt: skip
        m = pattern.search(sentence)
        if m:
            topic = _topic(next(g for g in m.groups() if g))
            if topic:
                return Slot(f"preference:{topic}", polarity, "preference")
    m = _EN_FAVORITE.search(sentence)
    if m:
        return Slot(f"favorite:{_topic(m.group(1))}", m.group(2).strip(), "preference")
    return None


_TOPIC_STRIP_ZH = re.compile(r"(的东西|的菜|的食物|的|东西|菜|食物|一下|点)$")
_TOPIC_STRIP_EN = {
    "food",
    "foods",
    "dishes",
    "dish",
    "stuff",
    "things",
    "a",
    "the",
    "some",
    "very",
    "much",
    "lot",
    "lots",
    "at",
    "all",
    "any",
    "anymore",
    "more",
    "eating",
    "drinking",
}


_NO_TOPIC_EN = frozenset(  # compared as topics are, without a final "s" ("this" -> "thi")
    w.rstrip("s")
    for w in [
        "it",
        "them",
        "that",
        "this",
        "those",
        "these",
        "him",
        "her",
        "one",
        "everything",
        "something",
        "anything",
        "nothing",
        "make",
        "do",
        "get",
        "go",
        "around",
        "out",
        "up",
    ]
)
_LIGHT_GERUNDS = frozenset(
    [
        "playing",
        "watching",
        "getting",
        "doing",
        "making",
        "having",
        "going",
        "taking",
        "trying",
        "eating",
        "drinking",
        "listening",
        "hanging",
        "seeing",
        "being",
        "letting",
        "using",
    ]
)


def _topic(phrase: str) -> str:
    """The key of a preference: '辣的' and '辣' are one topic; 'spicy food' and 'spicy' too."""
    phrase = phrase.strip()
    if has_cjk(phrase):
        phrase = _TOPIC_STRIP_ZH.sub("", phrase) or phrase
        phrase = re.sub(r"^(?:吃|喝|点|些|一些|一点)", "", phrase) or phrase
        return phrase[:8]
    words = [w for w in keywords(phrase) if w not in _TOPIC_STRIP_EN]
    if not words:
        words = [w.lower() for w in re.findall(r"[\w'-]+", phrase) if w.lower() not in _TOPIC_STRIP_EN]
    # "playing guitar" is about the guitar, "getting outdoors" about the outdoors: a gerund before its object is
    # not the topic. A pronoun or a bare verb names none: "I love it" is no slot (two such facts about different
    # things would share the slot "preference:it" and be reconciled as one preference).
    while len(words) > 1 and words[0] in _LIGHT_GERUNDS:
        words = words[1:]
    topic = (words[0] if words else "").rstrip("s")[:40]
    return "" if topic in _NO_TOPIC_EN or topic in _LIGHT_GERUNDS else topic


def type_of(sentence: str, slot: Slot | None, is_question: bool) -> str:
    if slot is not None and not is_question:
        return slot.type
    if is_question and not re.search(r"\b(i|my)\b|我", sentence, re.I):
        return "inquiry"
    for type_, pattern in _TYPE_RULES:
        if pattern.search(sentence):
            return type_
    return "inquiry" if is_question else "other"


def relationship_entities(sentence: str) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for m in _REL_EN.finditer(sentence):
        if m.group(2):
            out.append({"text": m.group(2), "kind": "person", "role": m.group(1).lower()})
    for m in _REL_ZH.finditer(sentence):
        if m.group(2):
            out.append({"text": m.group(2), "kind": "person", "role": m.group(1)})
    for m in [*_PET_EN.finditer(sentence), *_PET_ZH.finditer(sentence), *_PET_ZH_MINE.finditer(sentence)]:
        if m.group(2) and m.group(2).lower() not in {"and", "but", "who", "that", "which"}:
            out.append({"text": m.group(2), "kind": "pet", "role": m.group(1).lower()})
    return out


def pet_slot(sentence: str) -> Slot | None:
    for pattern in (_PET_EN, _PET_ZH, _PET_ZH_MINE):
        m = pattern.search(sentence)
        if m and m.group(2):
            return Slot(f"pet:{m.group(2).lower()}", m.group(1).lower(), "relationship", "")
    return None


def order_numbers(sentence: str) -> list[str]:
    return [m.group(1).upper() for m in _ORDER_RE.finditer(sentence)]
