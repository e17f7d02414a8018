"""Talk that only keeps a conversation going, said in more words than a greeting or a thank-you: a picture shown, the
listener asked to show or tell, the talk left for an errand of the moment, a lesson about life in general, what the
speaker feels for the listener, nothing new, someone missed, luck for one's people (`talk_only`: the corpus README's
reactions, sign-offs and small talk). Linear-time patterns over the sentence's head only."""

from __future__ import annotations

import re

from facts.extraction.base import sentence_memo
from facts.extraction.chatter import (
    I_WORDS,
    NOT_SETTLED_RE,
    WE_WORDS,
    first_person_re,
    has_first_person,
    strip_chatter,
)

# What only keeps the talk going, said in more words (the corpus README's reactions, sign-offs and small talk): a
# picture shown ("这张是凌晨四点出发的时候拍的", "here's another one, that's the harbour at six"), ...
_SHOWN_RE = re.compile(
    r"^(?:发你了[，,]?\s{0,2})?(?:给你看看?[，,]?\s{0,2})?这(?:张|个视频|段视频)(?:照片)?是|^(?:发你了|给你看)|"
    r"^(?:(?:aw+|ok(?:ay)?|so|and|ooh)[,!.\s]{1,3})*(?:here'?s|here is) (?:another one|the (?:view|pic|photo)|a (?:pic|photo|shot))\b",
    re.I,
)
# ... the listener asked to show or tell ("send pictures immediately", "给我多发几张照片", "let me know when he's home"),
_ASKS_TO_SEE_RE = re.compile(
    r"^(?:please |pls |so )?(?:send|show) (?:me |us )?(?:pics|pictures|photos|a pic|a photo)\b|^(?:let me know|keep me "
    r"posted)\b|^(?:快|赶紧)?(?:给我|让我)多?(?:发|看|瞧)|(?:^|[，,]\s{0,2})等你[\u4e00-\u9fff]{1,10}(?:给我|带我)|"
    # ... or a get-together proposed to the listener ("那我走之前我们去吃一次素食自助吧？", "shall we grab lunch?").
    r"(?:我们|咱们?)[\u4e00-\u9fff\w]{1,16}吧\s{0,2}[？?]\s{0,2}$|^shall we\b[^?]{1,40}\?\s{0,2}$|"
    # ("下周末去南山公园野餐呗，带上朵朵": a suggestion with 呗, nobody's plan yet)
    r"^[^我，,。！？]{0,12}去[\u4e00-\u9fff]{1,12}呗(?=[\s，,。！!~～]|$)|"
    # ... or good wishes passed on through the listener ("tell him congrats from me", "替我跟阿姨问声好").
    r"\btell (?:him|her|them|(?-i:[A-Z])\w{1,20}) (?:congrats|congratulations|happy birthday|i said hi|hi|hello)\b|"
    r"(?:替|帮)我(?:向|跟|和|给)[\u4e00-\u9fff]{1,6}(?:问(?:声|个)?好|说(?:声|一声)?(?:恭喜|生日快乐|谢谢))",
    re.I,
)
# ... or the listener praised against someone else ("you explain it better than my teacher lol", "你比我之前那个老师靠谱多了").
_BETTER_THAN_RE = re.compile(
    r"\byou(?:'re| are)? (?:\w{2,12} ){0,2}(?:so much |way |much |a lot |far )?better than\b|"
    r"(?:^|[，,]\s{0,2})(?:你|您)比[^，。！？]{1,14}(?:靠谱|强|厉害|好|专业|清楚|耐心|细心)多了",
    re.I,
)
# ... the talk left for a chore of the moment ("I'm off to the gym now", "我得先去接孩子放学了，晚点聊", "先溜了"),
_LEAVING_RE = re.compile(
    r"\b(?:i'?m|i am) off to (?:the |a )?[a-z]{2,15}(?: [a-z]{2,15}){0,3} now\b|\b(?:i'?m|i am) off to go (?:swimming|"
    r"shopping|running|walking|walk|swim|shop|grab|get|make|cook|pick|fetch|meet|play|watch|eat|sleep|do)\b|"
    r"\bi'?ve got to (?:go|run|dash|jump on|hop on)\b|先(?:溜|撤|下)了",
    re.I,
)
# (a Chinese errand only with a sign-off, or 先去 to anything but work or study: "毕业后我先去上海工作了" tells a move)
# (not 去不了, "can't go": "一年也去不了几次" is a reason, not an errand)
_LEAVING_THEN_RE = re.compile(r"(?:我)?(?:得|要|还得)?先?去(?!不|没|把)[\u4e00-\u9fff]{1,10}了(?<!不了)")
_SIGN_OFF_CUE_RE = re.compile(
    r"(?:晚点|下次|回头|改天)(?:再)?聊|再聊|拜拜|^(?:好了?|好啦|不说了|不聊了|那我)|"
    r"先去(?!把)(?![\u4e00-\u9fff]{0,6}(?:工作|上班|读书|上学|实习|发展|定居|读研|留学|生活))|\b(?:talk|speak|chat) (?:soon|later)\b|"
    r"\bttyl\b",
    re.I,
)
# ... a lesson about life in general ("人生就是要对自己好一点", "life's too short, right?", "the lesson is ..."), or
# what the speaker thinks of the listener ("你一直都是那种特别懂得珍惜的人，这点我真的很佩服你").
_LESSON_RE = re.compile(
    r"人生(?:就是|很短|苦短)|人(?:这辈子|还是要|真的要|就是要|要多|在年轻的时候)|每个(?:小生命|人)都|谁都可以|"
    r"健康(?:真的)?是第一位|有些(?:人|事情?)就是|\blife'?s too short\b|\bthe lesson is\b|\beveryone (?:says|should)\b|"
    r"\bit'?s funny what\b",
    re.I,
)
_FRAME_ONLY_RE = re.compile(
    r"^[\u4e00-\u9fff]{0,10}(?:才发现|发现|觉得|明白|意识到|感觉|说真的|说实话|其实)$|^(?:honestly|i think|you know|right|i guess|"
    r"but|so)[?!.\s]*$",
    re.I,
)
# ... or something to do together some day, proposed to the listener ("perhaps we could try the climbing wall together",
# "we should grab coffee sometime", "改天我们一起去爬山吧"): a meet-up not made (the corpus README's "casual meet-ups").
_SOME_DAY_TOGETHER_RE = re.compile(
    r"^(?:maybe|perhaps)[,\s]{1,3}(?:we|you and i|you and me) (?:can|could|should) |^(?:we|you and i|you and me) "
    r"(?:can|could|should) (?!not\b)[^.!?]{0,80}?\b(?:together|some ?time|one of these days|one day|at some point|"
    r"some ?day)\b|^(?:改天|下次|有空|哪天|回头|以后)(?:我们|咱们?)(?:一起|再)|"
    r"^(?:我们|咱们?)(?:改天|下次|有空(?:的话)?|哪天|回头|以后)[^，,。！？!?]{1,20}吧",
    re.I,
)
# ... or a resolve to do more of something ("I should call my nan more", "我真该多运动运动").
_OUGHT_MORE_RE = re.compile(
    r"^(?:yeah,? )?i (?:really |probably )?should (?:[a-z']{1,15} ){1,5}more\b|^我(?:真|真的|是)?(?:应该|该)多", re.I
)
# ... what the speaker feels for the listener ("我也舍不得你", "你一定要来深圳找我玩"), or thinks of things in general with
# nothing of their own in it ("我觉得好的书就是这样", "我现在觉得健康真的是第一位的").
_TO_YOU_ZH_RE = re.compile(r"^我(?:也|真的|好|真)?(?:舍不得|好想|想死|佩服|羡慕|心疼|为)你|^你(?:一定|有空)?要来")
_OPINION_ZH_RE = re.compile(
    r"^(?:其实|说真的|说实话|是啊|对啊)?[，,]?\s{0,2}我(?:现在|一直|也|还是|真的)?(?:觉得|感觉|认为|意识到)"
)
_OWN_ZH_RE = re.compile(
    r"我|老公|老婆|妈|爸|儿子|女儿|孩子|哥|姐|弟|妹|爷|奶|男朋友|女朋友|对象|家里|准备|打算|计划|报名|报了|买了|下周|下个月|明年"
)
# ... nothing new ("我还是老样子，每天上班下班", "same old, same old"), or missing someone or something said before
# ("突然好想你", "I'm going to miss that so much"), or what the speaker could never do (这种事我这辈子都做不到).
_SAME_OLD_RE = re.compile(
    r"^(?:我)?(?:还是|也还是|就)?老样子|^same old\b|^nothing new\b|这辈子(?:估计|肯定)?都?做不到", re.I
)
# Steering the talk of the moment, no fact ("I'd rather not talk about work today", "let's change the subject",
# "今天不想聊工作", "换个话题吧"); a lasting wish about a topic ("I don't like talking about my divorce") stays.
_NOT_NOW_TOPIC_RE = re.compile(
    r"^(?:(?:i'?d|i would) rather not|i (?:don'?t|do not) (?:really )?(?:want|wanna|feel like)(?: to)?|let'?s not|can we "
    r"not) (?:talk|chat|think|get into|go into)\b[^.!?]{0,40}?\b(?:today|tonight|right now|now|at the moment|just yet)\b|"
    r"^(?:can we |let'?s )(?:change the subject|talk about something else)\b|^(?:(?:ok(?:ay)?|anyway),? )?enough "
    r"(?:about|of) (?:me|my \w+(?: \w+)?|the heavy stuff|that|this)\s?[.!,]|"
    r"^(?:我)?(?:今天|现在|暂时|先)(?:不想|不太想|别)(?:聊|说|谈|提)|^(?:咱们?|我们)?(?:先)?(?:换个话题|聊点别的|不聊这个了|别聊这个了)|"
    r"^(?:我)?不想(?:聊|说|谈)了",
    re.I,
)
# ... or feeling lucky for one's people ("feeling blessed to have such good friends", 有你们真好, 我真的觉得很幸运).
_LUCKY_RE = re.compile(
    r"^(?:i'?m|i am|i feel|feeling) (?:so |really |truly |very |just )*(?:lucky|blessed|grateful|thankful|fortunate) "
    r"(?:to have|for) (?:my |our |such |the |a )?(?:amazing |great |wonderful |lovely |supportive )?(?:family|fam|friends?|"
    r"kids|children|parents|husband|wife|partner|people|you|them|him|her)\b|^有你们?(?:这样的朋友)?(?:真好|真幸福)|"
    r"^(?:我)?(?:真的|真)?(?:觉得)?(?:很|好|特别|太)?幸运[了啊呀]?$",
    re.I,
)
# ... something forwarded, not the speaker's own ("【转】每天一杯温开水…", "转给孩子们看看", "saw this on Facebook ...
# [link]"), or a suggestion to the listener ("要不找房东说说", "要不请个护工") or where to meet ("我在你小区门口等你"):
# nothing of the speaker's to keep.
_FORWARDED_RE = re.compile(
    r"^\W{0,3}【[^】]{1,8}】|转给(?:你|孩子们|大家|你爱的人|家人)|\[link\]|\bsaw this on (?:facebook|insta\w*|tiktok|twitter|x)\b|"
    r"^\W{0,3}(?:\[?转发\]?|转发[:：])|^(?:did|have) (?:u|you) see\b|^(?:yeah,? )?saw it on the (?:group|chat|news)|"
    # ... or hearsay with nothing of the speaker's in it ("听说针灸挺管用的").
    r"^我?听(?:说|人说|别人说)[^我]{1,40}$",
    re.I,
)
# ... or the listener's draft judged ("写得正式一点，我们领导比较古板", "too stiff, make it casual"): a request, no fact.
_DRAFT_FEEDBACK_RE = re.compile(
    r"^(?:语气|写得|改得)?(?:再)?(?:太|有点|稍微)?(?:正式|随意|客气|官方|口语化?|书面|简短|啰嗦|生硬)(?:一点|一些|点|了)|"
    r"^(?:(?:can you )?make it|a bit|bit) (?:more |less |a bit )?(?:formal|casual|shorter|longer|friendlier|punchier)\b|"
    r"^(?:too|way too|a bit too|bit too) (?:formal|stiff|casual|long|wordy|stuffy|corporate)\b",
    re.I,
)
_SPEAKER_AFTER_RE = first_person_re(I_WORDS, zh="我(?!们)")

# A liking for what is the listener's ("I adore your garden", "I love it when you bake those buns", "dying to read your
# story", "我超喜欢你做的蛋糕"): what the speaker thinks of the listener's, not a taste of their own, even where a
# liking's object was found. Only when nothing of the speaker's and no "but" follows ("I love your app but ...").
_LIKE_YOURS_RE = re.compile(
    r"^(?:(?:aw+|ooh+|oh+|wow+|omg|honestly|yeah|and)[,!.\s]{1,3})*(?:i |we )?(?:really |just |totally |absolutely |so )?"
    r"(?:love|loved|like|liked|adore|dig|enjoy|enjoyed) "
    r"(?:(?:it|that) )?(?:your|ur|that \w+ of yours|when you|how you)\b|^(?:i'?m |i am |i'?ve been |i have been )?"
    r"(?:so |really )?(?:keen|dying|eager|wanting|itching) to (?:try|taste|see|read|hear) (?:some of |one of )?your\b|"
    r"^我?也?(?:好|超|真|太|很|特别|超级)?(?:喜欢|爱)死?(?:你(?:的|这|那|做的|拍的|画的|写的|家的|选的)|你们家的)|"
    r"^我?(?:好|真|超|特别)?想(?:尝尝|尝一下|试试|看看)你(?:做|拍|画|写)的",
    re.I,
)
_BUT_RE = re.compile(r"\b(?:but|though|although|however|except)\b|但|可是|不过|就是", re.I)


def praise_of_yours(sentence: str) -> str:
    """ "compliment" when the sentence likes what is the listener's and says nothing of the speaker's, else ""."""
    text = strip_chatter(sentence.strip())[:200]
    m = _LIKE_YOURS_RE.match(text)
    if m is None or _SPEAKER_AFTER_RE.search(text[m.end() :]) or _BUT_RE.search(text[m.end() :]):
        return ""
    return "compliment"


_SUGGESTION_ZH_RE = re.compile(
    r"^(?:那|那就|其实)?要不(?!是|要)(?:然|咱们?|我们|你们?)?[\u4e00-\u9fff]|(?:在|到)\S{1,12}(?:门口|楼下|路口|站口?)等你"
)
_MISS_RE = re.compile(
    r"(?:好想你|想死你了?|想你了)[\s！!。~～]{0,3}$|\bi'?m (?:going to|gonna) miss (?:that|it|this|them|you)\b", re.I
)
_ME_OF_YOU_ZH_RE = re.compile(r"(?<!换)我(?![^，,。！!？?]{0,8}?[你您])")
# Money passed between the people talking, to settle up ("我转你206", "just transfer me the 12 quid", "你给我250就行"):
# the talk's own business, as a meeting time is.
_SETTLING_RE = re.compile(
    r"转(?:给)?你[\d一二三四五六七八九十两百]|(?:你|您)转(?:给)?我|(?:你|您)给我[\d一二三四五六七八九十两百]+(?:块|元)?就行|"
    r"\b(?:transfer|send|venmo|paypal) (?:me|you) (?:the |back )?(?:[£$€]|\d)|\bpay (?:me|you) back\b",
    re.I,
)
# The group asked who will come, help or want something ("对了谁晚上帮我带个饭", "周末谁要去看live", "who's up for ..."):
# a question to the listeners whatever its mark.
_WHO_WILL_RE = re.compile(
    r"^[^，,。！!？?]{0,6}谁(?:晚上|明天|今天|今晚|周末|有空)?(?:要|能|可以|帮|想|去|来|有)|"
    r"^(?:so |ok |anyway )?who(?:'s| is)? (?:up for|coming|in for|wants?|can|could|fancies|free)\b",
    re.I,
)


def _told_after(text: str, start: int) -> bool:
    """Whether the speaker tells something of theirs after the first break past `start`, the end of a request or a
    question ("谁能跟我换下周三的夜班😭 我儿子那天开家长会": the son's meeting is told; "写得正式一点，我最烦感叹号": a dislike)."""
    rest = re.split(r"[\s，,。！!？?]+", text[start:], maxsplit=1)
    return len(rest) > 1 and bool(_SPEAKER_AFTER_RE.search(rest[1]))


# Advice to the listener, opening the sentence ("Take it easy with that knee", "Don't rush back before the physio says
# so", "Make sure you rest"), or praise closing a sentence with no 我 ("一个月净赚一万二可以啊！", "小满好棒"): what the
# listener should do or has done, nothing of the speaker's.
_ADVICE_RE = re.compile(
    r"(?:(?:seriously|honestly|please|and|but|just),? )?(?:take it easy|don'?t (?:rush|push|overdo|worry|forget|stress)|"
    r"make sure (?:you|to)|look after (?:yourself|that)|rest up|be careful|go easy on|mind (?:your|how you))\b",
    re.I,
)
_PRAISE_END_ZH_RE = re.compile(
    r"(?:可以啊|可以呀|厉害(?:了)?啊|牛啊|太牛了|真棒|好棒|不错嘛|强啊|很强了|真行啊)[！!~～。]{0,4}$"
)


@sentence_memo
def talk_only(sentence: str) -> str:
    """The reason code when the sentence only keeps the talk going (shows a picture, asks to see one, leaves for a
    chore of the moment, draws a lesson about life, says what the speaker thinks of the listener), else ""."""
    text = strip_chatter(sentence.strip())[:200]
    if _SHOWN_RE.search(text) or _ASKS_TO_SEE_RE.search(text):
        return "reaction"
    if _LEAVING_RE.search(text) or _LEAVING_THEN_RE.search(text) and _SIGN_OFF_CUE_RE.search(text):
        return "sign_off"
    if (
        _BETTER_THAN_RE.search(text)
        or text.startswith(("你", "您"))
        and "我" in text
        and not _ME_OF_YOU_ZH_RE.search(text)
        or _TO_YOU_ZH_RE.match(text)
    ):
        return "compliment"
    opinion = _OPINION_ZH_RE.match(text)
    if opinion and not _OWN_ZH_RE.search(text[opinion.end() :]):
        return "small_talk"
    if _FORWARDED_RE.search(text):
        return "small_talk"
    feedback = _DRAFT_FEEDBACK_RE.match(text)
    if feedback and not _told_after(text, feedback.end()):  # (not "…，我最烦感叹号满天飞": a dislike)
        return "empty_question"
    if any(r.search(text) for r in (_OUGHT_MORE_RE, _SAME_OLD_RE, _SUGGESTION_ZH_RE, _SOME_DAY_TOGETHER_RE)):
        return "vague"
    if _SETTLING_RE.search(text):
        return "agreement"
    if _NOT_NOW_TOPIC_RE.search(text):
        return "small_talk"
    who = _WHO_WILL_RE.search(text)
    if who and not _told_after(text, who.end()):
        return "empty_question"
    if _MISS_RE.search(text) or _LUCKY_RE.search(text):
        return "reaction"
    if _ADVICE_RE.match(text) and not has_first_person(text) or _PRAISE_END_ZH_RE.search(text) and "我" not in text:
        return "about_other"  # "Take it easy with the knee, don't rush back", "一个月净赚一万二可以啊！"
    pieces = [p for p in re.split(r"[，,;；]\s{0,2}", text) if p.strip()]
    said = [p.strip() for p in pieces if _LESSON_RE.search(p) or _LUCKY_RE.search(p.strip())]
    rest = [p for p in pieces if p.strip() not in said and not _FRAME_ONLY_RE.match(p.strip())]
    return "small_talk" if said and not rest else ""


# A request for a piece of work ("Give me ...", "Write me ...", "帮我写...", "给我推荐..."): it tells what the speaker
# wants done now, not something about them, unless the speaker appears again after the request.
_REQUEST_ONLY_RE = re.compile(
    r"^(?:(?:ugh|um|erm|ok|okay|so|hey|right)[,\s]{1,3})?(?:(?:please|pls|can you|could you)\s+)?(?:(?:give|show|write|make|draft|suggest|recommend|find|send|do) me|(?:draft|write|compose) (?:a|an) (?:[\w-]+ )?(?:note|letter|email|message|msg|text|reply|speech|post|toast)|"
    r"help me (?:write|plan|draft|make|pick|choose|come up with|work out|sort out|organi[sz]e)|help me with my (?:cv|resume|essay|speech|letter|cover letter|budget|homework|presentation)|"
    r"help me with (?:this|these|the) (?:\w+ )?(?:question|problem|sum|equation|exercise|homework|form)|(?:compare|plan(?! to\b| on\b)|explain|summari[sz]e|translate|proofread|rewrite|calculate)(?= ))\b|^(?:那就?)?(?:你|您)?(?:请|麻烦)?(?:你|您)?(?:帮我|给我)(?:一个|一份|(?:再)?改|对比|比较|比一下|算|写|想|规划|列|设|推荐|"
    r"做|起|翻译|改|出|整理|整|排|安排|制定|拟|设计|挑|选)",
    re.I,
)
I_SUBJECT_RE = first_person_re(I_WORDS, WE_WORDS, ("our", "us"), zh="(?<![给帮替陪跟])我(?!们?的)")


def request_only(text: str) -> bool:
    """A request for a piece of work and nothing of the speaker's after it ("... to my manager": a possessive is the
    request's, no fact of the speaker's)."""
    m = _REQUEST_ONLY_RE.match(text[:200])
    return m is not None and not I_SUBJECT_RE.search(text[m.end() : 200])


def unsettled_only(plain: str, signal: str) -> bool:
    """A plan said not to be made ("nothing decided", 还没定): nothing to keep, unless a health or a relative's fact is
    told in a clause before the hesitation ("我爸胰腺癌晚期，医生说就一两个月了，我们在纠结要不要转安宁病房")."""
    hedge = NOT_SETTLED_RE.search(plain)
    if hedge is None:
        return False
    return not (signal in {"health", "relationship"} and re.search(r"[，,;；]", plain[: hedge.start()]))
