"""Small-talk pieces (greetings, thanks, sign-offs, agreement, reactions, compliments, filler) by reason: a sentence
made only of them says nothing (`small_talk_reason`), and a fact does not open with them
(`without_opening_reaction`)."""

from __future__ import annotations

import re

# Small-talk pieces by reason; a sentence made only of such pieces (and a name or an emoji) is dropped.
_PIECES: dict[str, str] = {
    "greeting": r"hi+|hello+|hey+|heyy+|hiya|yo|howdy|morning|good (morning|afternoon|evening)|long time no (?:see|talk|chat|speak)|"
    r"hey stranger|heyy+ stranger|how'?ve you been|how have you been|how are you( doing)?|how'?s it going|"
    r"what'?s up|sup|你好|您好|哈喽|嗨|早|早上好|早安|下午好|晚上好|好久不见|在吗|在忙吗|最近怎么样|最近好吗|最近忙啥呢|"
    # Catch-up questions: they ask for news and carry none.
    r"long time|what(?:'?ve| have) you been (?:up to|doing)(?: lately| recently| these days)?|what'?s new(?: with you)?|how'?s life|"
    r"how(?:'?s| is| are| have) (?:everything|things)(?: been| going)?|how'?s it been|近来可好|最近还好吗|最近(?:在)?忙(?:什么|些什么)呢?|"
    r"最近(?:过得)?(?:咋样|如何|怎样)|最近过得怎么样|这阵子怎么样|最近还行吗",
    "thanks": r"thanks?( (you|so much|a lot|a bunch|again|for (your|the|all)( \w+){0,4}))*|thank you( (so|very) much)?"
    r"( for (your|the|all|sorting|helping)( \w+){0,4})?|thx|ty|cheers|(i )?(really )?appreciate (it|that|you)|"
    r"much appreciated|谢谢(你|您|啦|了)?|多谢啦|多谢|感谢|太感谢了|非常感谢|辛苦(了|啦)|麻烦(你|您)了|谢啦",
    "sign_off": r"bye+|goodbye|bye bye|see (you|ya)( (later|soon|there|then|tomorrow))?|talk (soon|later)|"
    r"(?:i'?m|i am) (?:away|off) (?:to|tae) (?:get|make|start|put|cook) (?:the |my )?(?:dinner|tea|lunch)(?: on)?|"
    r"take care|good ?night|night( night)?|nite|gotta (run|go)|have a (good|great|nice) (one|day|night|evening|"
    r"weekend)|catch you later|ttyl|later|laters|(?:duty|work|bed|(?:\w{1,20} ){0,2}homework) calls|that'?s all|no,? that'?s all|safe travels|(?:that'?s|that is) (?:me|us|everything|"
    r"all|it all) (?:sorted|done|set)|all sorted|再见|拜拜|晚安|回头聊|下次聊|"
    r"先这样|先这样吧|就这样|没有了|没别的了|回聊|改天聊",
    "agreement": r"ok+|okay|k|sure|yes|yeah|yep|yup|ya|deal|fair( enough)?|right|exactly|totally|absolutely|agreed|"
    r"of course|for sure|sounds (good|great|like a plan)|works( for me)?|will do|got it|noted|me too|same( here)?|"
    r"no problem|np|you too|i agree|makes sense|grand|好|好的|好嘞|好呀|好吧|行|可以|没问题|嗯+|对|对啊|是的|是啊|收到|"
    r"明白|明白了|知道了|记住了|必须的|当然|一言为定|同意|ok没问题",
    "reaction": r"wow+|whoa|oh (?:no|dear|man)|oh+|och|ach|ooh+|aw+|omg|oh my god|haha+|hahaha+|ha+|lol|lmao|no way|yay+|woo+|nice|cool|great|"
    r"awesome|amazing|incredible|brilliant|perfect|lovely|congrats|congratulations|good luck|wishing you( the best)?|"
    r"that'?s (so |really )?(great|amazing|awesome|wonderful|cool|nice|exciting|impressive|sweet|fun|sad|tough|"
    r"hard|rough|brutal|rotten|awful|terrible|horrible|gutting|grim|pants|a shame|a pity)|how (cool|nice|awesome|sweet|fun|exciting)|so (cool|true|fun|exciting|proud of you)|"
    r"glad to hear( that)?|good to hear|sorry (?:to|tae) hear( that| it)?|that sucks|ugh|oof|yikes|damn|"
    r"(?:i'?m|i am) (?:so |really |very |truly )?sorry(?: (?:to|tae) hear(?: that| this| it)?| for your loss)?|"
    r"我的(?:妈|天|老天|妈呀|天哪)(?:呀|啊)?|抢钱(?:嗦|啊|呢|吧)?|哇+|哇塞|天哪|天啊|哈+|哈哈+|嘿嘿|恭喜|恭喜恭喜|太好了|太棒了|真棒|厉害|太厉害了|牛|牛啊|卧槽|羡慕|好可爱|可爱|"
    r"抱抱|加油|辛苦|不错|挺好|真好|(?:比[^，。！？\s]{1,8})?(?:好|强|舒服)(?:多|点|些)了|太惨了|唉|啊+|呜呜|吓死(?:我|人)了|吓我一跳|好家伙|救命|嘶|(?:有点)?肉疼|(?:都)?起鸡皮疙瘩|好甜|太坑了吧?|好坑啊?|真坑|太离谱了吧?|离谱|"
    r"what a rip-?off|that'?s (?:such )?a rip-?off|no+o(?=\s*(?:$|[,，.。!！?？]))|"
    # Missing a thing of the past, a comfort ("I'll miss the free croissants tbh", "at least it's not surgery").
    r"(?:i'?ll|i will|gonna) (?:really )?miss (?:the|that|those|this|it|them|you|our)(?: [\w' ]{1,40})?|"
    r"at least (?:it'?s|it was|it isn'?t|it wasn'?t|you'?re|nobody'?s|no one'?s) [\w' ]{1,30}",
    "compliment": r"you'?re (a star|amazing|the best|a legend|so kind|a lifesaver)|you earned it|well done|"
    r"good job|nice work|你真棒|你太好了|你最好了",
    "filler": r"hmm+|um+|uh+|well|anyway|so|let me think|let me see|one sec|hold on|we'?ll see|i'?ll see|"
    r"let me think about it|嗯嗯|那个|这个嘛|我想想|等一下|我再想想|再想想|(?:我)?(?:先)?看看再说(?:吧)?|再说吧|我考虑一下|"
    r"(?:我)?回头(?:再)?(?:看看|说|聊)(?:吧)?|(?:i'?ll|let me) have a (?:look|think)",
}
_REASON_OF = {name: re.compile(rf"^(?:{body})$", re.I) for name, body in _PIECES.items()}
_ALL_PIECES = "|".join(f"(?:{body})" for body in _PIECES.values())
_PIECE_RE = re.compile(rf"(?:{_ALL_PIECES})(?=$|[\s,，.。!！?？~～、…;；:)\-]|[\U0001F300-\U0001FAFF])", re.I)
_SEP_RE = re.compile(r"^[\s,，.。!！?？~～、…;；:()\-\"'x]*|^[\U0001F300-\U0001FAFF\u2600-\u27BF]+", re.I)
_NAME_RE = re.compile(
    r"^(?:[A-Z][a-z]+|(?i:mate|buddy|dude|pal|man|babe|hun|guys|all)|宝|亲|兄弟|姐妹|哥们|老铁|老周|亲爱的)(?=$|[\s,，.。!！?？~～])"
)
_MARK_RE = re.compile(r"[,，.。!！~～…]")
_AFTER_PIECE_RE = re.compile(r"\s*[,，.。!！~～…]+\s*|\s+")


def small_talk_reason(sentence: str) -> str:
    """The reason code when the sentence is nothing but greetings, thanks, sign-offs, reactions..., else ""."""
    rest = sentence.strip()
    reasons: list[str] = []
    for _ in range(12):
        rest = _SEP_RE.sub("", rest, count=1).strip()
        if not rest:
            break
        m = _PIECE_RE.match(rest)
        if m and m.group(0):
            piece = m.group(0)
            reasons.append(next((r for r, p in _REASON_OF.items() if p.match(piece)), "reaction"))
            rest = rest[m.end() :]
            continue
        name = _NAME_RE.match(rest)
        if name and reasons:
            rest = rest[name.end() :]
            continue
        return ""
    if rest or not reasons:
        return ""
    return main_reason(reasons)


def without_opening_reaction(sentence: str) -> str:
    """The sentence without the reactions, agreement or thanks it opens with, up to their last mark ("Perfect, I'll
    get the green one" -> "I'll get the green one", "太好了，我下周一入职" -> "我下周一入职"); a fact is not its lead-in.
    A sign-off word is kept ("Later, I'll ring the bank"), and so is a word without a mark after it ("Great Yarmouth")."""
    rest, cut = sentence.strip(), 0
    for _ in range(6):
        m = _PIECE_RE.match(rest, cut) if rest[cut:] else None
        if m is None or not m.group(0) or _REASON_OF["sign_off"].match(m.group(0)):
            break
        sep = _AFTER_PIECE_RE.match(rest, m.end())
        if sep is None:
            break
        if _MARK_RE.search(sep.group(0)) and re.search(r"\w", rest[sep.end() :]):
            rest, cut = rest[sep.end() :], 0  # up to a mark: cut
        else:
            cut = sep.end()  # a space: go on only if another piece and a mark follow
    return rest


def main_reason(reasons: list[str]) -> str:
    for preferred in ("thanks", "sign_off", "greeting", "compliment", "agreement", "reaction", "filler"):
        if preferred in reasons:
            return preferred
    return reasons[0]
