"""Who a turn's opening he or she is, when the turn before named the relative: said as that relative.

"My brother's been unwell." ... "He's having heart surgery next week." The second turn alone is a pronoun a month
later ("He is having heart surgery"); said of its antecedent it is a fact about the speaker's brother, and it is typed
and slotted as one (`relationship`). The same for "How's your mum?" / "她下周要做手术": the one asking names the
speaker's mother. A relative counts when its word says the pronoun's sex (brother, 妈, 儿子) or none (child, partner,
孩子), named as the speaker's: "my ..." / 我(家)... in the speaker's own last turns among the four before (the newest
first, read back past a turn that went on about the same he or she or named no one), "your ..." / 你(家)... in the turn
just before by someone else (that one first: it is the nearer). It must be the only such relative there: "my son and my
daughter" leave "she" as said (two would be a guess), and so does a relative named by someone else's "my".

Only clauses that open with the pronoun are read, up to the first clause that names a relative of its own (the turn
has moved to someone else, or names its own antecedent). A named friend (Leo, Dev) is no antecedent: a name does not
say its sex.
Linear-time patterns, each anchored at the clause's start or on a literal.
"""

from __future__ import annotations

import re

from facts.extraction.gate import rule_verdict
from facts.extraction.possession import PET_WORDS, pet_named

_HE_EN = (
    r"brother-in-law|father-in-law|step-?dad|step-?son|brother|dad|daddy|father|son|husband|boyfriend|fianc[eé]|"
    r"grandad|granddad|grandpa|grandfather|grandson|uncle|nephew"
)
_SHE_EN = (
    r"sister-in-law|mother-in-law|step-?mum|step-?mom|step-?daughter|sister|mum|mummy|mom|mother|daughter|wife|"
    r"girlfriend|fianc[eé]e|gran|granny|grandma|grandmother|granddaughter|nan|nana|aunt|auntie|niece"
)
_EITHER_EN = r"partner|kid|child|baby|toddler|teenager|little one|eldest|youngest|oldest"
_HE_ZH = r"爸爸|老爸|爸|父亲|哥哥|哥|弟弟|弟|儿子|老公|男朋友|男友|爷爷|外公|姥爷|叔叔|舅舅|伯伯|侄子|公公|岳父|孙子"
_SHE_ZH = (
    r"妈妈|老妈|妈|母亲|姐姐|姐|妹妹|妹|女儿|闺女|老婆|女朋友|女友|奶奶|外婆|姥姥|姑姑|姨妈|阿姨|侄女|婆婆|岳母|孙女"
)
_EITHER_ZH = r"孩子|小孩|宝宝|娃|对象"
_ADJ = r"(?:(?:little|big|older|younger|baby|eldest|youngest|oldest|new|foster|adopted) ){0,2}"


def _kin_re(owner_en: str, owner_zh: str) -> re.Pattern[str]:
    """A relative named as `owner_en`'s / `owner_zh`'s, its word in group `en` or `zh`."""
    en = rf"\b(?:{owner_en}) {_ADJ}(?P<en>{_HE_EN}|{_SHE_EN}|{_EITHER_EN})\b(?!-in-law)"
    zh = rf"(?:{owner_zh})(?:的|家的?)?(?P<zh>{_HE_ZH}|{_SHE_ZH}|{_EITHER_ZH})"
    return re.compile(f"{en}|{zh}", re.I)


_MINE_RE = _kin_re("my|our", "我们|我(?!们)")
_YOURS_RE = _kin_re("your", "你们|你(?!们)|您")
_KIN = rf"\b(?:{_HE_EN}|{_SHE_EN}|{_EITHER_EN})s?\b|{_HE_ZH}|{_SHE_ZH}|{_EITHER_ZH}"
_ANY_KIN_RE = re.compile(_KIN, re.I)
_HE_RE = re.compile(rf"^(?:{_HE_EN}|{_HE_ZH})$", re.I)
_SHE_RE = re.compile(rf"^(?:{_SHE_EN}|{_SHE_ZH})$", re.I)

_CHATTER = {"filler", "agreement", "reaction", "thanks", "greeting", "sign_off", "compliment", "vague", "small_talk"}
_PET_RE = re.compile(rf"\b(?:{PET_WORDS}|labs?)\b|猫|狗|宠物", re.I)  # a he or she beside a pet may be the pet
# The pronoun that opens a clause, after a word of lead-in ("and he's ...", "嗯，她 ..."); 他们 / 她们 are others.
_LEAD = r"(?:(?:and|so|but|oh|yeah|yes|well|now|also|still|though)[, ]{1,3}){0,2}"
_OPENS_EN_RE = re.compile(rf"^(?P<lead>{_LEAD})(?P<pronoun>he|she|his|her)(?=\b(?!-))(?P<rest>.*)$", re.I | re.S)
_OPENS_ZH_RE = re.compile(
    r"^(?P<lead>(?:(?:[嗯对哦唉哎]+|还有|而且|然后|对了|就是|不过|但是|可是)[，, ]?){0,2})(?P<pronoun>[他她])(?![们说觉认想])(?P<rest>.*)$",
    re.S,
)
_NAME_GIVEN_RE = re.compile(r"^ name\b", re.I)
# "her" opens a clause as a possessive ("her school rang"), not as an object ("her? no").
_POSSESSED_RE = re.compile(r"^ (?:[a-z-]+ ){0,2}[a-z-]+(?:'s)? (?!\?)", re.I)


def _sex(word: str) -> str:
    return "he" if _HE_RE.match(word) else "she" if _SHE_RE.match(word) else "either"


def _relative(text: str, pattern: re.Pattern[str], sex: str) -> str | None:
    """The one relative `text` names through `pattern` whose word fits `sex` ("he" / "she"), or None (none, or two)."""
    found = {
        (m.group("en") or m.group("zh")).lower()
        for m in pattern.finditer(text)
        if _sex(m.group("en") or m.group("zh")) in {sex, "either"}
    }
    return found.pop() if len(found) == 1 else None


def _antecedent(sex: str, own: str, other: str) -> str | None:
    """The relative named as the speaker's: by the other's turn just before, else by the speaker's own last turns
    (newest first, one a line), read back over turns that went on about the same he or she ("她下周要做手术")."""
    found = _relative(other, _YOURS_RE, sex) if other else None
    for turn in own.splitlines() if found is None else []:
        found = _relative(turn, _MINE_RE, sex)
        opens = _OPENS_EN_RE.match(turn) or _OPENS_ZH_RE.match(turn)
        same = opens is not None and _SEX_OF_PRONOUN.get(opens.group("pronoun").lower()) == sex
        if found is not None or not (same or not _SOMEONE_RE.search(turn)):
            break
    return found


# A turn that names someone (a relative, a he or she, a name inside a sentence) is about them: the search for the
# antecedent stops there; one that names no one ("新的出生证明还没出来") is passed over.
_SOMEONE_RE = re.compile(rf"{_KIN}|\b(?:he|she|him|her|his)s?\b|[他她]|(?<=[a-z,] )(?-i:[A-Z][a-z]{{1,15}})\b", re.I)


_SEX_OF_PRONOUN = {"he": "he", "his": "he", "他": "he", "she": "she", "her": "she", "她": "she"}


def _said_as(clause: str, own: str, other: str) -> str | None:
    """`clause` with its opening pronoun said as the relative it stands for, or None (no pronoun, no one relative,
    or a clause that is chatter whoever it is about: "she really is", or about a pet: "he's a 9 year old lab")."""
    en, zh = _OPENS_EN_RE.match(clause), _OPENS_ZH_RE.match(clause)
    if en is None and zh is None or pet_named(clause) or _PET_RE.search(clause):
        return None
    verdict = rule_verdict(clause, has_slot=False)
    if verdict.keep is False and verdict.reason in _CHATTER:
        return None
    if en is not None:
        pronoun, rest = en.group("pronoun").lower(), en.group("rest")
        if pronoun == "her" and not _POSSESSED_RE.match(rest) or _NAME_GIVEN_RE.match(rest):
            return None  # (a name given by "her name's ..." is a pet's or a newcomer's: "her name's Biscuit btw")
        kin = _antecedent(_SEX_OF_PRONOUN[pronoun], own, other)
        if kin is None:
            return None
        owner = f"my {kin}" + ("'s" if pronoun in {"his", "her"} else "")
        return en.group("lead") + (owner[0].upper() + owner[1:] if not en.group("lead") else owner) + rest
    if zh is not None:
        kin = _antecedent(_SEX_OF_PRONOUN[zh.group("pronoun")], own, other)
        return None if kin is None else f"{zh.group('lead')}我{kin}{zh.group('rest')}"
    return None


def with_referents(clauses: list[tuple[str, int, int]], own: str, other: str) -> list[tuple[str, int, int]]:
    """The turn's clauses with each opening he or she said as the relative the turns before named (`own`: the
    speaker's own last turns, newest first, one a line; `other`: the turn just before by someone else), up to the
    first clause that names a relative of its own. The spans stay the clauses' as said."""
    if not (own or other):
        return clauses
    out = list(clauses)
    for i, (clause, start, end) in enumerate(clauses):
        said = _said_as(clause, own, other)
        if said is None:
            if _ANY_KIN_RE.search(clause):
                break
            continue
        out[i] = (said, start, end)
    return out
