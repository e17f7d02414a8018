"""Whose body a health fact is about: the speaker's, or someone else's in the speaker's life.

"Tom's got a proper allergy", "Ron's knees permitting ... he needs another six weeks", "her surgery was done in
October", "他海鲜过敏", "老张上个月又住院了": the condition belongs to a third person, named, pointed at by a pronoun or by a
possessive; the one kind of other person a kept fact is about is a relative or partner (the corpus README's
`relationship`). The speaker's own ("I broke my wrist", "腰疼了好几天了", "I've told him I'm allergic") stays `health`.

Read clause by clause: a health word's clause (up to the comma or full stop around it) belongs to a third person when
it names one (he, she, his, her, a name's, 他, 她, 老张, 豆豆) and not the speaker (I, my, me, 我).
"""

from __future__ import annotations

import re

from facts.extraction.chatter import I_WORDS, ME_WORDS, WE_WORDS, first_person_re
from facts.extraction.gate import strip_chatter
from facts.extraction.lexicon import ZH_AGED, ZH_KIN_OPENS_RE
from facts.extraction.possession import pet_named, possession_change
from facts.extraction.signals import VET_RE

# A third person as the subject of a kept sentence ("She's allergic to shellfish", "他最近升了经理"): someone in the
# speaker's life, and the one kind of other person a kept fact is about is a relative or partner.
PRONOUN_SUBJECT_RE = re.compile(r"^(?:he|she|he's|she's|he'll|she'll|he'd|she'd)\b|^(?:他|她)(?!们|说|讲)", re.I)
# Going with someone to their appointment: the speaker's plan, not the speaker's health ("陪她去复查").
ACCOMPANY_RE = re.compile(
    r"陪(?:着)?(?:她|他|它|你|老人|孩子|我?[爸妈]|老公|老婆)(?:去|到|做|看病|住院|复查)|\b(?:taking|take|drive|driving|go(?:ing)? with) (?:her|him) (?:to|for) (?:her|his) ",
    re.I,
)

_CLAUSE_RE = re.compile(r"[^,.;:!?，。；：！？\n]+")
_PERSON = (
    r"(?:wife|husband|partner|boyfriend|girlfriend|fianc[eé]e?|son|daughter|kid|child|baby|mum|mom|mother|dad|father|"
    r"brother|sister|gran|grandad|granddad|grandpa|grandma|nan|nana|aunt|auntie|uncle|cousin|niece|nephew|friend|"
    r"flatmate|neighbour|neighbor|boss|colleague|youngest|eldest|oldest|little one|twins|toddler|newborn|infant|teen|teenager|(?:\d{1,2}[- ])?(?:year|month|week)s?[- ]old|\d{1,2} ?yo)"
)
# ("my sister's knee" is the sister's, and so is "my 3-year-old son" with a rash: "my" before a person names that
# person, not the speaker; "my knee's")
_ZH_KIN = r"女儿|儿子|孩子|宝宝|娃|闺女|老公|老婆|妻子|丈夫|对象|爱人|先生|太太|媳妇|男朋友|女朋友|妈|爸|父母|哥|姐|弟|妹|爷爷|奶奶|外公|外婆|姥|婆婆|公公"
_SPEAKER_RE = first_person_re(
    I_WORDS,
    WE_WORDS,
    ME_WORDS,
    zh=rf"我(?!们|家|的?(?:{_ZH_KIN}))",
    more=rf"\b(?:my|our)\b(?! (?:[\w-]+ ){{0,3}}{_PERSON}s?\b)",
)
# A third person: a pronoun, a name's ("Tom's", "Ron's knees") or a kinship word's ("mum's test results").
_OTHER_RE = re.compile(
    r"\b(?:he|she|he's|she's|his|her|him|hers)\b|"
    r"\b(?!(?:It|That|There|What|Here|Who|Where|How|Let|Today|Everyone|Everything|Nothing|Something|Nobody|Somebody|"
    r"Life|Work|Sleep|Back|Knee|Hip|Head|Chest|Stomach|Tummy|Neck|Shoulder|Foot|Leg|Arm|Eye|Ear|Tooth|Skin|Heart|Blood|"
    r"Pain|Weight|Diet|Health|Recovery|Treatment|Surgery|Physio|Rehab)'s\b)(?-i:[A-Z][a-z]{1,15})'s\b|"
    r"\b(?:mum|mom|mam|dad|nan|gran|grandma|grandpa)'s\b|\b(?:my|our) (?:[\w-]+ ){0,3}?"
    + _PERSON
    + rf"(?:'s|s)?\b|(?<![其吉])他(?!们|汀|定)|她(?!们)|我(?:们)?家?的?(?:{_ZH_KIN})",
    re.I,
)
_OTHER_LEAD_RE = re.compile(r"(?:he|she|he's|she's|his|her)\b|(?<![其吉])他(?!们|汀|定)|她(?!们)", re.I)
# A Chinese clause opening with a person's name and a word of time or manner: 老张, 小王, 阿强, a doubled given name
# (豆豆, 婷婷), also after 我家 ("我家豆豆最近吃芒果过敏"), not a doubled adverb (天天, 常常). Two plain characters are
# not read as a name: they may as well be a body part (腰椎).
_ZH_NAME_LEAD_RE = re.compile(
    r"^我家(?:[老小阿][\u4e00-\u9fff]|([\u4e00-\u9fff])\1)|^(?!天天|常常|刚刚|慢慢|偏偏|渐渐|好好|明明|往往|早早|久久|人人|家家|时时|每每|年年|月月|夜夜|个个|样样|处处|隐隐)"
    r"(?:[老小阿][\u4e00-\u9fff]|([\u4e00-\u9fff])\2)"
    r"(?=又|也|最近|前几天|上个?月|上周|去年|刚|还|今年|小时候|对|吃|做|住|得|确诊|查出)"
)


def someone_elses_body(sentence: str, health: re.Pattern[str]) -> bool:
    """A health fact about someone else in the speaker's life: a third person its subject or the owner of every clause
    with a word of `health`; not a pet's care (a vet, a pet named or just gained) nor an appointment the speaker goes to with
    someone (the speaker's plan)."""
    pet = VET_RE.search(sentence) or possession_change(sentence) == "pet" or pet_named(sentence)
    if pet or ACCOMPANY_RE.search(sentence):
        return False
    body = strip_chatter(sentence)  # (a kin word opening it, after 我 too: "我外公82了，医生说可以做")
    return bool(PRONOUN_SUBJECT_RE.match(body) or ZH_KIN_OPENS_RE.match(body.removeprefix("我"))) or others_health(
        sentence, health
    )


def others_health(sentence: str, health: re.Pattern[str]) -> bool:
    """True when no clause with a word of `health` names the speaker and one names a third person, or, where none
    names anyone ("Chemo round four was last week, he's wiped out"), a clause of the sentence opens with a third person
    and none names the speaker ("The surgery went well, the nurse said she was pleased" opens with no one)."""
    named = False
    for clause in _CLAUSE_RE.findall(sentence):
        if not health.search(clause):
            continue
        if _SPEAKER_RE.search(clause):
            return False
        named = named or bool(_OTHER_RE.search(clause) or _ZH_NAME_LEAD_RE.match(clause.strip()))
    if named or _SPEAKER_RE.search(sentence):
        return named
    return any(_OTHER_LEAD_RE.match(clause.strip()) for clause in _CLAUSE_RE.findall(sentence))


def own_health(sentence: str, health: re.Pattern[str]) -> bool:
    """True when the first clause with a word of `health` opens with the speaker as its subject ("my knee is killing me
    since I carried my son", "我腰疼，天天抱孩子抱的"): the body is the speaker's, whoever else it names. Not "me and the
    kids", nor a frame of telling ("I should mention my daughter has ...")."""
    clause = next((c for c in _CLAUSE_RE.findall(sentence) if health.search(c)), "")
    return bool(_OWN_LEAD_RE.match(strip_chatter(clause.strip())))


_OWN_LEAD_RE = re.compile(
    rf"(?:my|i|i'?m|i'?ve|i'?d)\b(?! (?:[\w-]+ ){{0,3}}{_PERSON}s?\b)(?! and\b)"
    r"(?! (?:should|must|have to|need to|forgot to|wanted to|want to|meant to) (?:mention|say|tell))|"
    rf"我(?!们|家|和|跟)(?!的?{ZH_AGED}?(?:{_ZH_KIN}))(?![^，。]{{0,6}}?(?:带|陪))",
    re.I,
)
