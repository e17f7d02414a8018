"""The entity whitelist: details a summary must keep verbatim (names, places, dates, amounts, order numbers,
medical and legal details), found by deterministic rules in English and Chinese.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

from conversations.postag import pos_tags

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?"
    r"|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_DATE_RES = [
    re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}\b"),
    re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b"),
    re.compile(rf"\b{_MONTH}\.? \d{{1,2}}(?:st|nd|rd|th)?(?:,? \d{{4}})?\b"),
    re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{_MONTH}(?:,? \d{{4}})?\b"),
    re.compile(rf"\b{_MONTH} \d{{4}}\b"),
    re.compile(r"\b(?:19|20)\d{2}\b"),
    re.compile(r"\b\d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)", re.IGNORECASE),
    re.compile(r"\d{2,4}年(?:\d{1,2}月)?(?:\d{1,2}[日号])?"),
    re.compile(r"\d{1,2}月\d{1,2}[日号]"),
    re.compile(r"(?:上|下|这)?(?:周|星期|礼拜)[一二三四五六日天]"),
]
_AMOUNT_RES = [
    re.compile(r"[$€£¥￥]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|K|million|billion|万|元))?"),
    # A number reads at most 31 digits and commas: unbounded, a try from every digit of a long run read the rest of
    # the run (quadratic).
    re.compile(r"\b\d[\d,]{0,30}(?:\.\d+)?\s?(?:dollars|usd|eur|euros|rmb|yuan|pounds|cny|bucks)\b", re.IGNORECASE),
    re.compile(r"\d[\d,]{0,30}(?:\.\d+)?\s?(?:万元|万|元|块钱|块|美元|欧元|英镑|人民币)"),
    re.compile(r"\b\d+(?:\.\d+)?\s?%"),
]
_ORDER_RES = [
    re.compile(
        r"(?i:order|invoice|ticket|case|ref(?:erence)?|tracking|booking|confirmation|policy|account)"
        # One optional whitespace run after each optional part, never two runs side by side: "\s*A?\s*B?\s*" split a
        # long run of spaces three ways (cubic); this matches the same strings in linear time.
        r"\s*(?:(?i:no\.?|number|#|id)\s*)?(?:[:#]\s*)?([A-Za-z]{0,40}\d[A-Za-z0-9-]{2,})"
    ),
    re.compile(r"#[A-Za-z0-9-]*\d[A-Za-z0-9-]*"),
    re.compile(r"(?:订单号?|单号|工单号?|案号|编号|快递单号|保单号)(?:是|为)?[:：\s]*([A-Za-z0-9-]{4,})"),
    # The lookaheads read at most 64 characters (an id is shorter): unbounded, each word start of a long dashed run
    # read the rest of it (quadratic).
    re.compile(r"\b(?=[A-Z0-9-]{0,63}\d)(?=[A-Z0-9-]{0,63}[A-Z])[A-Z0-9]{2,}(?:-[A-Z0-9]+)+\b"),
    re.compile(r"(?<![A-Za-z0-9])[A-Z]{1,4}\d{4,}(?![A-Za-z0-9])"),
]
_MEDICAL_RES = [
    re.compile(r"\b\d+(?:\.\d+)?\s?(?:mg|mcg|ml|iu)\b", re.IGNORECASE),
    re.compile(r"\ballergic to [a-z]+", re.IGNORECASE),
    re.compile(r"\bdiagnosed with [A-Za-z]+", re.IGNORECASE),
    re.compile(
        r"\b(?:diabetes|asthma|hypertension|high blood pressure|cancer|depression|anxiety|migraines?|arthritis"
        r"|pregnan(?:t|cy)|surgery|insulin|penicillin|ibuprofen|chemotherapy|adhd|ptsd|allerg(?:y|ies)"
        r"|heart disease|stroke|concussion|fracture|therapy|therapist)\b",
        re.IGNORECASE,
    ),
    re.compile(r"对[\u4e00-\u9fff]{1,6}过敏"),
    re.compile(r"(?:糖尿病|高血压|哮喘|抑郁症|焦虑症|癌症|手术|怀孕|胰岛素|青霉素|偏头痛|心脏病|过敏|骨折|化疗)"),
]
_LEGAL_RES = [
    re.compile(
        r"\b(?:lawsuit|sued|suing|divorce|custody|contract|lease|court|attorney|lawyer|visa|green card|patent"
        r"|restraining order|bankruptcy|settlement|arbitration|subpoena|will and testament)\b",
        re.IGNORECASE,
    ),
    re.compile(r"(?:诉讼|起诉|离婚|抚养权|合同|律师|法院|仲裁|签证|遗嘱|判决|租约)"),
]
_NAME_RE = re.compile(r"\b[A-Z][a-z]+(?:[ -](?:[A-Z][a-z]+|de|van|von|da))*(?: [A-Z][a-z]+)*\b")
_NOT_NAMES_TEXT = """I I'm I've I'll I'd The A An My We It It's This That That's These Those Yes No Hi Hello Hey Thanks Thank Oh Wow
    What How Why When Where Who Which Sure Okay Ok Well So And But Also Do Did Does Is Are Was Were Can Could Would
    Will Have Has Had Just Really Let Let's Good Great Sounds Glad Yeah Me You You're Your He She They Our Their His
    Her If Not Of In On At For To Be Any All As Nice Awesome Love Congrats Congratulations Maybe Please Sorry Haha
    Lol Absolutely Definitely Totally Exactly Yep Nope There Here Today Tomorrow Yesterday Then Now Still Anyway
    Btw By With From Into About After Before Since Until While Once Some Every Each Most More Much Many Being Keep
    Take Make Got Get Go Going Went Look Looks See Saw Thats Cool Amazing Wonderful Right True Agreed Hope Happy
    Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August
    September October November December Assistant User System Key Note Summary One Two Three First Last Next
    Invoice Order Ticket Case Dr Mr Mrs Ms Ah Aw Hmm Um Uh Yay Woah Whoa Indeed Definitely Speaking Talking Thinking Remember"""
_NOT_NAMES = frozenset(_NOT_NAMES_TEXT.split())
_NAME_TAGS = {"nr": "name", "nrfg": "name", "nrt": "name", "ns": "place", "nt": "name"}

_posseg_lock = threading.Lock()


@dataclass(frozen=True)
class Entity:
    text: str
    kind: str  # name, place, date, amount, order, medical, legal


def _regex_hits(text: str, patterns: list[re.Pattern[str]], kind: str) -> list[Entity]:
    out = []
    for pattern in patterns:
        for m in pattern.finditer(text):
            value = (m.group(1) if m.groups() and m.group(1) else m.group(0)).strip(" ,.;:，。")
            if value:
                out.append(Entity(value, kind))
    return out


def _english_names(text: str) -> list[Entity]:
    out = []
    for m in _NAME_RE.finditer(text):
        words = m.group(0).split(" ")
        while words and words[0] in _NOT_NAMES:
            words.pop(0)
        while words and words[-1] in _NOT_NAMES:
            words.pop()
        value = " ".join(words)
        if len(value) >= 2 and value not in _NOT_NAMES:
            out.append(Entity(value, "name"))
    return out


def _chinese_names(text: str) -> list[Entity]:
    if not re.search(r"[\u4e00-\u9fff]", text):
        return []
    with _posseg_lock:
        pairs = pos_tags(text)  # bounded in time (conversations.postag)
    return [Entity(word, _NAME_TAGS[flag]) for word, flag in pairs if flag in _NAME_TAGS and len(word) >= 2]


def extract_entities(text: str) -> list[Entity]:
    """Whitelisted entities in text, in order of first appearance, each once; every one occurs verbatim in text."""
    found = (
        _regex_hits(text, _ORDER_RES, "order")
        + _regex_hits(text, _AMOUNT_RES, "amount")
        + _regex_hits(text, _DATE_RES, "date")
        + _regex_hits(text, _MEDICAL_RES, "medical")
        + _regex_hits(text, _LEGAL_RES, "legal")
        + _english_names(text)
        + _chinese_names(text)
    )
    seen: dict[str, Entity] = {}
    for entity in sorted(found, key=lambda e: text.find(e.text)):
        if entity.text in text and entity.text not in seen:
            seen[entity.text] = entity
    # An entity inside a longer one ("2024" in "March 4, 2024") is kept verbatim by keeping the longer one.
    texts = list(seen)
    return [e for e in seen.values() if not any(e.text != t and e.text in t for t in texts)]


def entities_union(*groups: list[dict[str, str]]) -> list[dict[str, str]]:
    """Merge entity lists (as stored in Summary.entities), first occurrence wins, order kept."""
    seen: dict[str, dict[str, str]] = {}
    for group in groups:
        for item in group:
            seen.setdefault(item["text"], {"text": item["text"], "kind": item.get("kind", "")})
    return list(seen.values())
