"""Chatter around what a sentence says: leading interjections and advice openers, encouragement that says nothing
of anyone, and whether the speaker speaks of themself."""

from __future__ import annotations

import re

_FIRST_PERSON_RE = re.compile(r"\b(i|i'm|i've|i'd|i'll|im|ive|my|me|mine|myself|we|we're|our|us)\b|我", re.I)


def has_first_person(sentence: str) -> bool:
    return bool(_FIRST_PERSON_RE.search(sentence))


_LEAD_RE = re.compile(
    r"^(?:(?:oh|ah|ha+|haha+|lol|yeah|yes|yep|yup|you know what|you know|what can i say|i mean|sure(?=[,!])|no worries|no problem|no biggie|no|nah|nope|well|so(?! far\b)|and|but|anyway|honestly|actually|okay|ok|also|"
    r"btw|by the way|speaking of (?:which|changes)|guess what|big news(?: on my end)?|fun fact|save the date|"
    r"real question|oh and|(?:hey|hi|hello|hiya)(?: there| [a-z]+)?(?=[,!])|hey|hi|hello|hiya|嗨|哈喽|嘿|对了|我跟你(?:说|讲)|跟你讲|告诉你|你知道吗|你知道|我是说|对|嗯|哈哈+|哈+|啊|哎|唉|是啊|对啊|其实|话说|跟你说|对了跟你说|没错|不过|好呀|好啊|"
    r"好的|可以|宝|兄弟)(?:[\s,，.。!！~～:：;；]+|$))+",
    re.I,
)


# An advice opener before the speaker's own news ("You should know that I'm on insulin now", "建议你存一下我的新号码"):
# the fact is the news. Only stripped when the speaker follows; advice about anything else stays as said.
_ADVICE_OPENER_RE = re.compile(
    r"^(?:you should (?:know|remember|note)(?: that)?|(?:just )?so you know|fyi|for your information|for the record|"
    r"建议你(?:(?:记|存|留|保存|备注)(?:一下)?)?|提醒你(?:一下)?|你(?:记|存)一下)[\s,，:：]*",
    re.I,
)


def strip_chatter(sentence: str) -> str:
    """The sentence without leading interjections, discourse words and advice openers ("Oh and I'm..." -> "I'm...")."""
    rest = sentence.strip()
    for _ in range(4):
        m = _LEAD_RE.match(rest) or _ADVICE_OPENER_RE.match(rest)
        if not m or not m.group(0) or m.end() >= len(rest):
            break
        if m.re is _ADVICE_OPENER_RE and not has_first_person(rest[m.end() :]):
            break
        rest = rest[m.end() :].lstrip()
    return rest[:1].upper() + rest[1:] if rest[:1].isalpha() and not rest[:1].isupper() and rest[:2] != "i " else rest


# Encouragement and reassurance: a resolve that things will be fine, with nothing said of what ("you'll figure it
# out", "I'm sure it'll all work out", "我相信会好起来的", "加油，你一定可以的").
_RESOLVE_RE = re.compile(
    r"(?:(?:i'?m|i am) (?:sure|certain|confident)|i (?:bet|know|reckon|think)|trust me|honestly)?,?\s{0,3}(?:that )?"
    r"(?:it'?ll|it will|it'?s going to|things(?:'ll| will)|everything(?:'ll| will)|you'?ll|you will|you'?re going to|"
    r"you can)\s{1,3}(?:all |totally |definitely |so )?(?:work out|be (?:fine|ok|okay|alright|all right|great)|turn out "
    r"(?:fine|ok|okay|well|great)|figure (?:it|this|that) out|sort (?:it|this|that) out|work (?:it|this|that) out|"
    r"smash it|nail it|ace it|crush it|get through (?:it|this)|do (?:great|fine|brilliantly|well|it))"
    r"(?: (?:in the end|as you go|eventually|somehow|for sure|no problem))?|you'?ve got this|you got this|"
    r"hang in there|don'?t give up|chin up|keep (?:going|at it)|"
    r"(?:我)?(?:相信|觉得|知道)?你?(?:一定|肯定)(?:可以|行|能行|没问题|能搞定|能过)的?|你(?:可以|行)的|你能行|"
    r"(?:我)?(?:相信|觉得)?(?:一切)?(?:都)?会(?:好起来|没事|顺利|过去)的?|相信你|别灰心|别放弃|"
    r"(?:一定要)?坚持(?:住|下去)|一定要坚持|挺住|加油",
    re.I,
)


def without_resolve(text: str) -> str | None:
    """The sentence without its encouragement (marks squeezed), or None when it carries none."""
    if not re.search(
        r"work out|fine|ok|okay|alright|right|great|figure|sort|smash|nail|ace|crush|get through|do |"
        r"got this|hang in|give up|chin up|keep|可以|行|没问题|搞定|能过|好起来|没事|顺利|相信你|灰心|放弃|坚持|挺住|加油",
        text,
        re.I,
    ):
        return None
    rest, n = _RESOLVE_RE.subn(" ", text[:200])
    if not n or rest == text[:200]:
        return None
    return re.sub(r"[\s,，.。!！~～、…;；:：]+", " ", rest).strip()
