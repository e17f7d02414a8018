"""Chatter around what a sentence says: leading interjections and advice openers, encouragement that says nothing
of anyone, and whether the speaker speaks of themself."""

from __future__ import annotations

import re

from facts.extraction.base import sentence_memo
from facts.text import upper_first

# The first person's English words by role; each reader takes the roles it means (who acts, who is acted on, whose).
I_WORDS = ("i", "i'm", "i've", "i'd", "i'll", "im", "ive")
WE_WORDS = ("we", "we're", "we've", "we'll")
ME_WORDS = ("me", "myself", "us")
MY_WORDS = ("my", "mine", "our")


def first_person_re(*roles: tuple[str, ...], zh: str = "我", more: str = "") -> re.Pattern[str]:
    """The first person as a reader means it: the English words of `roles` (whole words), `more` (an alternative
    with a condition of its own, such as a possessive not of a person's) and the Chinese pronoun as `zh` spells it,
    its look-arounds included ("我(?!的)": the speaker acting, not owning)."""
    words = "|".join(w for role in roles for w in role)
    parts = [rf"\b(?:{words})\b" if words else "", more, zh]
    return re.compile("|".join(p for p in parts if p), re.I)


_FIRST_PERSON_RE = first_person_re(I_WORDS, WE_WORDS, ME_WORDS, MY_WORDS)


def has_first_person(sentence: str) -> bool:
    return bool(_FIRST_PERSON_RE.search(sentence))


# The listener, one person, as what the sentence is about (你, 您; not 你们 nor 你家, a business as its customers
# address it), not as whom the speaker acts for or invites ("给你带", "叫你来暖房", "你来不来", "你觉得值不值").
_YOU_ONE_ZH_RE = re.compile(r"(?<![给叫请陪带帮跟和按让替为])[你您](?![们家]|觉得|来不来|必须来|也来|说的|要不要)")


def about_listener_zh(sentence: str) -> bool:
    """A Chinese statement whose only person is the listener: advice, praise or their news ("你赶紧去投诉，别便宜了他",
    "那些爷爷奶奶肯定特别喜欢你"). Chinese drops the speaker's subject, but not beside a 你 it does not name."""
    return bool(_YOU_ONE_ZH_RE.search(sentence)) and "我" not in sentence and "咱" not in sentence


# The last talk and the news since, as a catch-up says them ("since we last spoke", 上次聊完之后, 发生了好多事): shared
# by the openers below and the catch-ups with no news.
_SINCE_TALKED_EN = (
    r"since (?:(?:we|i|you)(?: last)? (?:spoke|talked|chatted|caught up|saw each other)|"
    r"(?:our|my|your) last (?:chat|talk|conversation|catch-?up|call))"
)
_SINCE_TALKED_RE = re.compile(_SINCE_TALKED_EN, re.I)
_SINCE_LAST_ZH = r"(?:自从)?上次(?:聊|见面|联系)(?:完|过)?(?:之后|以后)?"
_LOTS_HAPPENED_ZH = r"(?:发生了|出了)(?:好多|很多|不少|一堆)(?:事|事情)"

_LEAD_RE = re.compile(
    r"^(?:(?:oh|ah|hmm+|hm+|umm*|erm|ha+|haha+|lol|yeah|yes|yep|yup|you know what|you know|what can i say|i mean|sure(?=[,!])|no worries|no problem|no biggie|no(?=[,.!]|\s[-–—]|\s(?:i|i'm|i've|we|it|it's|that|that's|he|she|they|you|my|not)\b)|nah|nope|well|so(?! far\b)|and|but|anyway|honestly|actually|okay|ok|also|"
    r"btw|by the way|i see(?=[,!.])|speaking of (?:which|changes)|(?:a lot|so much|much|lots)(?:'s| has)? happened "
    + _SINCE_TALKED_EN
    + r"(?=\s?[-–—:,;.!])|(?:(?:it'?s|it has) )?been (?:a|an|such a) (?:\w+ ){0,2}?(?:day|week|month|year|while|time) "
    + _SINCE_TALKED_EN
    + r"(?=\s?[-–—:,;.!])|long time no (?:see|talk|chat|speak)(?=[,!.])|(?:we )?haven'?t (?:talked|spoken|chatted) (?:in|for) (?:\w+ ){0,3}?(?:days?|weeks?|months?|ages|a while)(?=[,!.]+\s*\w)|guess what|big news(?: on my end)?|one (?:more|last|other) thing|dude|"
    # The news announced before it is told ("The bigger news is that ...", "Less glamorous update: ...", "turns out").
    r"(?:the |some |my |more |other |a )?(?:\w+ ){0,2}?(?:news|update)(?: on my end| from me| from my end)?"
    r"(?: is that|(?=\s?[:!,.–—-]))|(?:it )?turns out(?: that)?|(?:告诉你|跟你说)?(?:一?个)?(?:好|坏|大)消息|fun fact|save the date|"
    r"real question|oh and|not gonna lie|not going to lie|ngl|tbh|to be honest|truth be told|(?:hey|hi|hello|hiya)(?: there| [a-z]+)?(?=[,!])|hey|hi|hello|hiya|嗨|哈喽|嘿|喂|你好|您好|在吗|对了|还有(?:个|件)事|我跟你(?:说|讲)|跟你讲|告诉你|你知道吗|你知道|我是说|对|嗯|哈哈+|哈+|啊|哎|唉|是啊|对啊|其实|话说|跟你说|对了跟你说|没错|不过|好呀|好啊|我靠|卧槽|我去(?=[，！,!])|天哪|天啊|我的天|"
    r"好的|可以|宝|兄弟|(?:你)?说[得的](?:对|是|有道理)|说的是|有道理|确实|"
    # Openers that answer or frame, not tell ("Thanks for asking, all good - ...", "Since we last talked, ...",
    # "Speaking of trips, ...", "借你吉言，...").
    r"thanks for asking|thanks(?: so much| a lot)?|thank you|(?:i'?m|we'?re|they'?re|all|things are|doing|it'?s all) "
    r"(?:good|great|fine|well|okay|ok)(?: thanks)?|since (?:we|i) last (?:spoke|talked|chatted|caught up)|"
    r"speaking of [\w' ]{1,30}?(?=[,，])|check (?:it|this) out|you won'?t believe (?:it|this)|taking your advice|"
    r"long story short|while i (?:think of it|remember)|before i forget|(?:oh )?forget it(?: then)?(?=[,.!])|never ?mind(?=[,.!])|我?忘(?:记|了)(?:跟你|和你)?说了?|我?忘了告诉你|跟你说个事|趁我还记得|借你吉言|说起来|说实话|说真的|不瞒你说|讲真|我明白了|明白了|"
    # How one is, said before one's news ("Can't complain, ...", "还行，我..."): the answer to a greeting, not a fact.
    # Words that also judge a thing ("还行，就是有点贵") only before the speaker's own news.
    r"can'?t complain|could be worse|same old(?:,? same old)?|(?:not bad|pretty good)(?=,\s?(?:i|we|my)\b)|"
    r"一切都好|老样子|(?:还行|还好|还可以|还不错|挺好的?|都挺好的?)(?=[，,]\s?我)|"
    # A change of topic, or a date declined before the news that says why ("unrelated but", "这周不行，...").
    r"(?:totally |completely )?(?:unrelated|random|off[- ]topic)(?: question| thought)?,? but|on (?:a|another|an unrelated) "
    r"note|(?:this|next) (?:week|weekend)(?:'s| is) (?:no good|out|a no)|(?:the )?\d{1,2}(?:st|nd|rd|th)(?:'s| is) (?:no good|out)"
    r"(?: for me)?(?: either)?(?: actually)?|(?:today|tomorrow|tonight)(?:'s| is) (?:no good|out)|"
    r"can'?t (?:make it )?(?:this|next) (?:week|weekend)|题外话|说个题外话|换个话题|"
    r"(?:这周|这个周末|周末|今天|明天|今晚|这几天|那天)(?:不行|没空|去不了|来不了|不方便)|"
    + _SINCE_LAST_ZH
    + _LOTS_HAPPENED_ZH
    + r")(?:\s?[-–—]+\s|[\s,，.。!！~～:：;；]+|$))+",
    re.I,
)


# An advice opener before the speaker's own news ("You should know that I'm on insulin now", "建议你存一下我的新号码"):
# the fact is the news. Only stripped when the speaker follows; advice about anything else stays as said.
_ADVICE_OPENER_RE = re.compile(
    r"^(?:you should (?:know|remember|note)(?: that)?|(?:just )?so you know|fyi|for your information|for the record|"
    r"(?:just )?(?:a )?(?:quick )?heads[- ]up|(?:just )?to let you know|提醒一下|先说一下|先跟你说一下|"
    # A frame of telling or of being reminded: the news is what follows ("I wanted to tell you that I got the job",
    # "That reminds me why nursing suits me", "这让我想起我小时候也学过琴").
    r"(?:i (?:just |really )?(?:wanted|want|had|have|need(?:ed)?)|(?:just )?wanted) to (?:tell you|let you know|say)(?: that)?(?! about)|"
    r"(?:it|this|that) (?:reminds|reminded|makes|made) me (?:why|that|reali[sz]e(?: that)?)|"
    # Joy at telling ("I'm thrilled to share that ...", "我特别高兴地告诉你，..."): the news follows.
    r"i'?m (?:so |really |super |just )?(?:excited|happy|thrilled|glad|stoked|pleased|proud|delighted) to "
    r"(?:tell you|let you know|share(?: with you)?|announce|say)(?: that|(?=[:,]? (?:i|we)\b))|"
    r"我(?:很|特别|超|真的|非常)?(?:高兴|开心|激动|兴奋)(?:地)?(?:告诉你|跟你说|和你分享)(?:一下)?|"
    r"我(?:就是|只是)?想(?:跟|和)你说(?:一下)?|(?:这|那|它)让我(?:想起|意识到)(?:了)?|"
    r"建议你(?:(?:记|存|留|保存|备注)(?:一下)?)?|提醒你(?:一下)?|你(?:记|存)一下|"
    # A liking for the listener's before the speaker's own news ("I love your idea, I'm booking ...", "我也喜欢你的穿搭，我...").
    r"(?:i )?(?:really |just |totally |so )?(?:love|like|adore) (?:your|ur) [\w' -]{1,30}?(?=[,，])|"
    r"我?也?(?:好|超|真|太|很|特别)?喜欢你(?:的|做的|拍的|家的)[\u4e00-\u9fff]{1,10}(?=[,，]))[\s,，:：]*",
    re.I,
)


# Whoever the speaker calls before their own 我 ("姐妹我跟他分了": "Sis, I ...", "妈妈我搬到杭州了").
_CALLED_RE = re.compile(r"^(?:(?:姐妹们?|家人们|亲爱的|宝子|哥们|妈妈?|爸爸?|老公|老婆)[，,\s]*|亲[，,\s]+)(?=我)")


@sentence_memo
def strip_chatter(sentence: str) -> str:
    """The sentence without leading interjections, discourse words and advice openers ("Oh and I'm..." -> "I'm...")."""
    rest = _CALLED_RE.sub("", sentence.strip(), count=1)
    for _ in range(4):
        m = _LEAD_RE.match(rest) or _ADVICE_OPENER_RE.match(rest)
        if not m or not m.group(0) or m.end() >= len(rest):
            break
        if m.re is _ADVICE_OPENER_RE and not has_first_person(rest[m.end() :]):
            break
        rest = rest[m.end() :].lstrip()
    return upper_first(rest) if rest[:1].isalpha() and rest[:2] != "i " else rest


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


# A hand-over or a word to the listener promised, the conversation's own business ("I'll send you the pics tonight",
# "will keep you updated on how it goes", "see you soon", "回头把照片发你看看", "到时候告诉你"): nothing to remember.
# A document handed over ("I'll email it to you tonight", the contract) stays: only pictures, clips, links, recipes.
_MEDIA = r"(?:pics?|pictures?|photos?|snaps?|videos?|clips?|links?|recipes?|screenshots?)\b"
_HANDOVER_RE = re.compile(
    r"^(?:[^,，。.]{1,16}[,，]\s?)?(?:(?:i|we)(?:'ll| will|'m gonna|'m going to| am going to)|will|gonna)\s{1,3}(?:\w+\s{1,3}){0,2}?(?:"
    r"(?:send|show|get|forward|text|email|bring)\s(?:you|ya|u)\s(?:\w+\s){0,4}?" + _MEDIA + r"|(?:send|show|get|share|"
    r"forward|text|email|post|bring)\s(?:\w+\s){0,4}?"
    + _MEDIA
    + r"\s(?:\w+\s){0,3}?(?:to|with|for) (?:you|ya|u)\b|(?:keep|let) you (?:updated|posted|in the loop|know)\b|"
    r"see you (?:soon|around|there|then|later|next \w+|tomorrow)\b)|"
    r"^(?:[^,，。.]{1,16}[,，]\s?)?(?:我)?(?:回头|等会儿?|晚点|待会儿?|到时候?|改天|明天|今晚)?(?:再)?(?:把)?\S{0,6}?(?:照片|图|视频|链接|菜谱|截图)?"
    r"(?:发|传|拿)(?:给)?你(?:看看?|瞧瞧)?|^(?:我)?(?:回头|到时候?|有消息|有结果)(?:了)?(?:再)?(?:告诉|通知)你",
    re.I,
)
_HANDOVER_TIME_RE = re.compile(
    r"\d|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|"
    r"august|september|october|november|december|next (?:week|month|year))\b|下(?:周|个月)|明年|[一二三四五六七八九十]月",
    re.I,
)


def handover_only(sentence: str) -> bool:
    """A promise to hand the listener pictures or news, or to see them, with no date or figure of its own."""
    text = sentence.strip()[:200]
    m = _HANDOVER_RE.match(text)
    if m is None or _HANDOVER_TIME_RE.search(text):
        return False
    # News promised of a thing of the speaker's ("...when the dentist confirms my crown appointment") names it.
    return not re.search(r"\b(?:keep|let) you\b", m.group(0), re.I) or not re.search(r"\bmy\b", text[m.end() :], re.I)


# Thanks said in words: the listener's help or support is the subject and the speaker only feels it ("Your
# encouragement really keeps me going", "你的建议对我帮助太大了").
_THANKS_IN_WORDS_RE = re.compile(
    r"^(?:your|ur) (?:\w+ ){0,2}?(?:support|help|encouragement|advice|kind words|words|friendship|message|feedback|"
    r"kindness)\b(?: \w+){0,4}? (?:means|meant|motivates?|motivated|motivating|helps?|helped|inspires?|inspired|"
    r"inspiring|keeps? me|kept me|made my day|makes? (?:me|my|all)|gives? me|gave me)\b|"
    r"^你(?:的|说的)(?:\S{0,4}?)(?:鼓励|支持|建议|话|帮助|安慰)(?:对我)?(?:真的|太|很|特别|一直)?(?:重要|有用|管用|有帮助|帮(?:了|助)|给了我|让我)",
    re.I,
)


def thanks_in_words(sentence: str) -> bool:
    return bool(_THANKS_IN_WORDS_RE.match(sentence.strip()[:200]))


# What an unnamed thing does to the speaker ("It really reminds me why I started", "That made my week", "这让我想起
# 小时候"): the thing is in another turn, the feeling alone is not worth keeping unless a date or a figure is in it.
_PRONOUN_EFFECT_RE = re.compile(
    r"^(?:it|this|that|these|those)(?:'s| has| have| had)?(?: (?:really|also|just|always|still|truly|so|totally))? "
    r"(?:(?:remind|inspir|motivat|mean)\w*|meant) (?:me|us)\b|^(?:it|this|that)(?:'s| has)?(?: (?:really|also|just|always|"
    r"so))? (?:(?:makes?|made) (?:me|us) (?:feel|appreciate|realis|realiz|think|smile|happy|so|reflect|want|grateful|proud|"
    r"laugh|cry)|(?:keeps?|kept) (?:me|us) (?:going|motivated|sane|grounded|positive|happy)|(?:gives?|gave) (?:me|us) "
    r"(?:hope|strength|peace|joy|energy|motivation|a (?:sense|boost)))|"
    r"^(?:这|那|它)(?:个|件事|些|样)?(?:真的|总是|一直|也|还|确实)?(?:让我|提醒我|帮我|给了我|使我|教会我|激励我)",
    re.I,
)
# A catch-up that tells nothing yet ("Something big happened since we last talked", "It's been a crazy week since we
# spoke", "上次聊完之后发生了好多事"): what happened is in the next sentence, if anywhere.
_CATCH_UP_RE = re.compile(
    r"^(?:(?:so )?(?:something|a lot|so much|lots|loads|tons|(?:a |one |some )?(?:crazy|wild|funny|big|weird|exciting|cool|"
    r"amazing) things?)(?: \w+){0,2} (?:has |have )?happened|(?:it'?s|it has) been "
    r"(?:\w+ ){0,4}?(?:days?|weeks?|months?|years?|while|ages|time)|been (?:a|an|such a) (?:\w+ ){0,2}?(?:days?|weeks?|"
    r"months?|years?|while|time)|(?:i'?ve|we'?ve|i have|we have) had (?:\w+ ){0,3}?(?:days?|weeks?|"
    r"time))\s(?:\w+ ){0,2}?" + _SINCE_TALKED_EN + r"\b|"
    # News announced, and none told ("Something big happened to me today!").
    r"^(?:so )?something (?:\w+ ){0,2}?happened(?: (?:to|for) me)?(?: recently| lately| this week| today)?(?: (?:to|for) me)?"
    r"[\s!.~]{0,4}$|"
    # Not talked for a while, or surprised how long ("We haven't talked in ages!", "Can't believe it's been six weeks").
    r"^(?:we |i )?(?:haven'?t|have not) (?:properly |really )?(?:talked|spoken|chatted|caught up)(?: properly)? (?:in|for) "
    r"(?:over |about |like )?(?:\w+ ){0,2}?(?:days?|weeks?|months?|years?|ages|a while|forever)[\s!.~]{0,4}$|"
    r"^(?:i )?can'?t believe it'?s been (?:\w+ ){0,2}?(?:days?|weeks?|months?|years?|ages|so long)(?: already| now)?[\s!.~]{0,4}$|"
    # Busy or well since the last talk, and nothing more ("We've been flat out since we last spoke!").
    r"^(?:(?:oh|well|yeah|so)[, ]{1,2})?(?:i'?ve|we'?ve|i have|we have) been (?:keeping |staying )?(?:pretty |so |really )?"
    r"(?:busy|good|well|great|fine|ok|okay|alright|swamped|flat out)(?: \w+){0,2}? "
    + _SINCE_TALKED_EN
    + r"[\s!.~]{0,4}$|^"
    + _SINCE_LAST_ZH
    + r"[，,]?(?:我|我们)(?:这边)?(?:一直)?(?:都)?(?:挺|很|特别|超|蛮)?"
    r"(?:忙|好|不错|还行)(?:的|啊|呀)?[\s!！。~～]{0,4}$|"
    r"^" + _SINCE_LAST_ZH + r"(?:\S{0,4}?)" + _LOTS_HAPPENED_ZH + r"|"
    # Busy news with no news in it ("So much has been happening on our side!", "最近我这边发生了好多事").
    r"^(?:(?:so|wow|oh|man)[, ]{1,2})?(?:a lot|so much|lots|loads|tons|quite a bit)(?:'s| has| have| is)? (?:been )?(?:going on|"
    r"happening|happened)(?: (?:in|with|at|on) (?:my|our) (?:life|lives|end|side|place))?(?: lately| recently| these days)?"
    r"[\s!.~]{0,4}$|^最近(?:我|我这边|我们)?" + _LOTS_HAPPENED_ZH + r"(?:啊|呀)?[\s!！。~～]{0,4}$",
    re.I,
)


def says_only_effect(sentence: str) -> str:
    """ "reaction" for what an unnamed thing did to the speaker, "greeting" for a catch-up with no news, else ""."""
    text = sentence.strip()[:200]
    if _CATCH_UP_RE.match(text) or _LEAD_RE.fullmatch(text) and _SINCE_TALKED_RE.search(text):
        return "greeting"  # (openers only: "Long time no chat, loads has happened since our last call.")
    if _PRONOUN_EFFECT_RE.match(text) and not _HANDOVER_TIME_RE.search(text):
        return "reaction"
    return ""


# A non-commitment or a shrug: nothing decided, nothing promised ("I'll keep an eye out", "let me sleep on it", "I
# could never", "我再考虑考虑", "等放假再说", "我可坚持不了"). What is left of the sentence decides (only chatter: dropped).
_VAGUE_RE = re.compile(
    r"\b(?:(?:i'?ll|we'?ll|i will|we will|let me|let us|let'?s|i need to|i have to|i'?d have to|i'?m gonna|i might)\s{1,3})?"
    r"(?:keep an eye out|keep (?:it|that) in mind|think (?:about it|it over)|have a think|sleep on it|see how it goes|"
    r"see what happens|wait and see|play it by ear|get back to you|"
    r"look into (?:it|that|this|those|them|the [\w-]{1,20}(?: [\w-]{1,20})? one))\b|\bmaybe (?:another|next|some other) time\b|"
    r"\bi (?:could|can) never\b|\b(?:rather you than me|better you than me)\b|"
    r"(?:我)?(?:回去|回头|先)?(?:还)?(?:得|要)?再?(?:考虑考虑|考虑一下|想一想|想想看|(?<=再)想想|琢磨琢磨|琢磨一下|斟酌一下)(?:吧|啊)?|等[^，,。.！!？?]{1,8}?再(?:说|看|定)|"
    r"到时候?再(?:说|看|定)|改天吧|下次(?:再说)?吧|还不(?:知道|确定|好说)|我可(?:\S{1,3})?不了|换(?:我|成我)(?:早)?(?:就)?"
    r"(?:放弃|疯)了|"
    # Doing something together some day, proposed to the listener ("咱俩一块儿报个班呗", "let's do it together sometime").
    r"(?:等[^，,。.！!？?]{1,10}?[，,]\s{0,2})?咱(?:们|俩)[^，,。.！!？?]{0,16}?(?:一块儿?|一起)[^。.！!？?]{0,24}?(?:呗|吧)|"
    r"\blet'?s (?:[\w'-]{1,15} ){1,8}?(?:sometime|some time|one day|one of these days)\b",
    re.I,
)


def without_vague(sentence: str) -> str | None:
    """The sentence without its non-commitments (marks squeezed), or None when it has none."""
    head = sentence.strip()[:200]
    rest, n = _VAGUE_RE.subn(" ", head)
    return re.sub(r"[\s,，.。!！~～、…;；:：]+", " ", rest).strip() if n else None


# Effort promised with nothing to do it on ("I'll keep going!", "we'll make it happen", "我会继续努力的"), or a
# reminder kept of a pronoun ("I'll bear it in mind", "我会记住的"): self-encouragement, the speaker's own "加油".
# A plan names what: "I'll keep training for the marathon" stays.
_EFFORT = (
    r"keep (?:on )?(?:going|pushing|trying|working(?: hard)?|at it|grinding|hustling|moving (?:forward|ahead|on)|"
    r"it up|on keeping on)(?: and working)?(?: (?:on|at|with) (?:it|that|this))?|"
    r"never give up|not give up|(?:not|never) giving up|never (?:quit|stop)|not (?:quit|stop)|do (?:my|our) best|"
    r"stay (?:positive|motivated|focused|strong|determined)|make (?:my|our) dreams? (?:come true|happen)|"
    r"(?:keep )?(?:reach(?:ing)?(?: for)?|chas(?:e|ing)|follow(?:ing)?|achiev(?:e|ing)|pursu(?:e|ing)|pushing for) "
    r"(?:my |our |those |these |the |new |big |bigger )*(?:dreams?|goals?)|"
    r"make (?:it|things) (?:work|happen)|make it|work hard(?:er)?|(?:moving|pushing) (?:forward|ahead|on)|"
    r"give it a (?:shot|go|try|whirl)|(?:keep|bear) (?:that|this|it|those|these) in mind|"
    r"(?:make sure to )?remember (?:that|this|it)"
)
# "the move was rough, but we'll make it happen": a hardship named only to say the effort goes on.
_HARD_BUT = r"(?:[^,.!?]{0,50}?(?:tough|hard|rough|bumpy|a struggle|a roller ?coaster|a (?:wild|crazy|long) ride),? but\s{1,3})?"
_SELF_PEP_RE = re.compile(
    r"(?:(?:i (?:totally |completely |fully )?agree|you'?re right|true|exactly|for sure|(?:good|fair) point|noted|that'?s (?:cool|great|fair|"
    r"true)),?\s{1,3})?(?:so |and |then )?"
    + _HARD_BUT
    + r"(?:(?:i|we)(?:'ll| will|'m gonna|'m going to| am going to| are going to|'re going to|'re gonna| gotta| have to| want to|'m| am|"
    r"(?:'m| am)(?: feeling)?(?: motivated| pumped| determined)?(?: and)? ready to)?\s{1,3})?"
    r"(?:just |definitely |totally |always |really |still )?(?:" + _EFFORT + r")"
    r"(?:(?:,|,? and|,? to) (?:" + _EFFORT + r"))*(?:,? no matter what|,? for sure|,? and see (?:what happens|how it "
    r"goes)| (?:next time|when(?:ever)? i need|as i (?:continue|go on))(?: [^.!?]{0,60})?)?[\s.!~]*|"
    r"我(?:会|要|一定会|一定要|还会|还要)?(?:继续)?(?:努力|加油|坚持(?:下去)?|追梦|追逐梦想|记住|记着)(?:的|了)?"
    r"(?:[，,]\s*(?:永不|绝不|不会)放弃)?[\s！!。~～]*|我?(?:永不|绝不|不会)放弃[\s！!。~～]*",
    re.I,
)


def self_pep_only(sentence: str) -> bool:
    """Whether the sentence only promises effort, on nothing named."""
    return bool(_SELF_PEP_RE.fullmatch(strip_chatter(sentence).strip()[:200]))


# Asking after the listener's venture ("How's the store going?", "How did the gig go?"), with no word of the
# speaker's own: a catch-up in a chat, even when the thing is a shop (a customer asks about "my order").
_HOW_IS_IT_GOING_RE = re.compile(
    r"how(?:'s| is| are| was| were| did| has| have)\s(?:the|your|ur|that|things|everything|it|work|business|biz)\b"
    r"(?! (?:order|delivery|refund|parcel|package|repair|claim|booking|application|ticket|installation|return|"
    r"exchange|shipment|complaint|case)\b)[^?]{0,40}?\b(?:going|doing|coming along|go|went|been|turn(?:ed|ing)? out)\b[^?]{0,20}\?",
    re.I,
)


# The listener's own venture named as one person's ("你那家店", "你的工作室", "你这个摊子"): a business is addressed as
# 你们 (or 你家, 贵店) by its customers, so a question on it asks after the listener's affairs ("你那家店周末开门吗").
_YOUR_OWN_VENTURE_ZH_RE = re.compile(
    r"(?:你|您)(?:(?:那|这)(?:家|个|间)?|的)(?:小)?(?:店|铺子|饭馆|餐馆|餐厅|咖啡馆|面包店|花店|工作室|摊子?|民宿|诊所)"
)


# The listener's own errand asked after ("那你 visa 办了没", "你驾照考了吗", "你搬完家没有"): their news, not the speaker's.
_YOUR_DOING_ZH_RE = re.compile(
    r"^(?:那|所以|对了)?[，, ]?(?:你|您)(?![们家])[^，。！？我]{1,14}(?:了没有?|了吗|没有)\s*[?？]?\s*$"
)


# The listener's own life asked about: what brought them to a thing, their plans ahead, what they like best in it
# ("What made you open the shop?", "What are your plans for next year?", "What's your favourite part about
# running the store?"): a friend's interest, not a customer's question of a business (its plans, its stores).
_ASKS_LISTENER_LIFE_RE = re.compile(
    r"(?:what|who)(?: \w+){0,2} (?:made|gave|got|inspired|led|drew|prompted|pushed|brought|convinced) (?:you|u)\b|"
    r"how did (?:you|u) (?:come up with|get into|get the idea|end up|decide|manage)\b|"
    r"what(?:'s| is| are| were) (?:your|ur) (?:plans?|goals?|dreams?|hopes?|next steps?|next move) "
    r"(?:for (?:the )?(?:future|weekend|summer|winter|holidays?|next year|this year)|now|after|next)\b|"
    r"what(?:'s| is| was) (?:your|ur) (?:favou?rite|best|hardest) (?:part|thing|bit|moment)\b",
    re.I,
)


def asks_after_listener(sentence: str) -> bool:
    """Whether the sentence only asks after the listener's venture or life ("How's the studio coming along?",
    "你那家店周末开门吗", "What made you want to open a bakery?")."""
    plain = strip_chatter(sentence)
    return bool(
        _HOW_IS_IT_GOING_RE.match(plain)
        or _ASKS_LISTENER_LIFE_RE.match(plain)
        or _YOUR_OWN_VENTURE_ZH_RE.search(plain[:200])
        or _YOUR_DOING_ZH_RE.match(plain[:60])
    )


# What an unnamed thing is worth to the speaker, and nothing else ("It's part of my routine now", "It means the world
# to me", "It's like therapy for us", "这已经成了我每天的习惯", "它对我意义很大"): what "it" is was said in another turn
# or not at all, and the worth alone tells nothing a month later. The whole sentence must be this: a name, a date or
# a clause of its own keeps it ("It meant so much to me that Dad came along").
_WORTH = (
    r"(?:an? )?(?:big |huge |important |key |essential |real )?part of (?:my|our) (?:\w+ )?(?:routine|life|lives|days?|"
    r"weeks?|mornings|evenings|nights|weekends|identity)|(?:like )?(?:therapy|meditation|a lifesaver|a life saver|a game ?changer|my happy place|my escape|"
    r"an escape|a release|an outlet|a lifeline|my sanctuary)(?: for (?:me|us))?|(?:so |really |super |very )?"
    r"(?:important|special|helpful|meaningful|precious|dear|a big deal) (?:to|for) (?:me|us)|"
    r"means? (?:a lot|so much|the world|everything|a great deal) to (?:me|us)|"
    r"helps? (?:me|us) (?:relax|unwind|de-?stress|switch off|clear (?:my|our) heads?|chill|cope|focus|recharge|"
    r"stay (?:sane|calm|grounded|balanced|focused|motivated|positive))|on (?:my|our) (?:bucket|wish|to-?do) list"
)
_PRONOUN_WORTH_RE = re.compile(
    r"(?:(?:and|but|so|honestly|now),? )?(?:it|this|that|these|those|they)(?:'s|'re| is| are| has| have| was)?"
    r"(?: (?:really|truly|honestly|just|become|becomes|been|now|already|totally|kind of|kinda|sort of|so|such|"
    r"also|always|definitely|like)){0,3} (?:" + _WORTH + r")(?: (?:now|these days|lately|for sure|too|as well))?"
    # and what it lets the speaker do, still of "it" ("..., letting me switch off for an hour").
    r"(?:,? (?:letting|helping|making|giving) (?:me|us)\b[^.!?]{0,60})?[\s.!~]{0,4}|"
    r"(?:这|那|它)(?:个|件事|些)?(?:已经|现在|真的|也|确实|简直)?(?:就)?(?:(?:成了|成为了?|变成了?)(?:我|我们)?"
    r"(?:每天|日常|生活)?(?:的)?(?:习惯|一部分|日常)|对(?:我|我们)(?:来说)?(?:意义(?:很大|重大|非凡)|(?:很|特别|非常|太)"
    r"(?:重要|特别|有意义))|(?:像|是)(?:我的)?(?:心理)?(?:治疗|疗愈|解压方式|避风港))(?:了|啊|呢|呀|啦){0,2}[\s！!。~～]{0,4}",
    re.I,
)


def worth_only(sentence: str) -> bool:
    """Whether the sentence only says what an unnamed thing is worth to the speaker."""
    return bool(_PRONOUN_WORTH_RE.fullmatch(strip_chatter(sentence).strip()[:200]))


# A plan the speaker has not made: left to free time ("if I'm free", 有空的话), or hedged ("might", "maybe", 可能, 说不定)
# and for the next few days ("Might pop over to the market on Saturday", "I might hit the gym later", "周末可能去爬山").
# Nothing is decided and nothing lasts: what it would change is said when it happens. A hedged plan further off or
# with weight ("we might move to Leeds next spring", a slot, a health word) is the gate's to keep.
UNDECIDED_RE = re.compile(
    r"\b(?:might|maybe|perhaps|possibly|prob(?:ably)? not|not sure (?:if|whether))\b|(?<!不)可能|也许|或许|说不定|没准儿?|"
    r"还没(?:想好|决定)|不确定",
    re.I,
)
_FREE_TIME_RE = re.compile(
    r"\bif (?:i'?m|i am|we'?re|i get|i have|i find|there'?s) (?:free|off|a (?:chance|minute|moment|sec)|"
    r"(?:the |some )?time|up to it|the energy)\b|\bweather permitting\b|(?<!没)有(?:空|时间)(?:的话|再)",
    re.I,
)
_WISH_WORD_RE = re.compile(
    r"\b(?:want(?:ed)? to|wanna|'d love to|would love to|'d like to|would like to|hope to)\b|想|希望", re.I
)
_SOON_RE = re.compile(
    r"\b(?:later(?! (?:this|next|in the) (?:year|month|spring|summer|autumn|fall|winter))|tonight|today|tomorrow|"
    r"this (?:morning|afternoon|evening|weekend|week)|(?:at|on|over) the weekend|after (?:work|lunch|dinner|school)|"
    r"for (?:lunch|dinner|a drink|a coffee|a bit)|(?:on )?(?:mon|tues|wednes|thurs|fri|satur|sun)day(?! (?:week|fortnight))|"
    r"in a (?:bit|while))\b|今晚|今天|明天|后天|周末|这周|这个?星期|下午|晚上|待会儿?|一会儿|回头|改天|下班后?|"
    r"周[一二三四五六日天]|星期[一二三四五六日天]|礼拜[一二三四五六日天]",
    re.I,
)


def hedged_outing(sentence: str) -> bool:
    """Whether the sentence is a plan left to free time, or a hedged one for the next few days."""
    head = sentence[:200]
    if _FREE_TIME_RE.search(head) and not _WISH_WORD_RE.search(head):
        return True  # "I'll come along if I'm free": a wish the speaker has is theirs ("有空的话想学吉他")
    return bool(UNDECIDED_RE.search(head) and _SOON_RE.search(head))


# A plan said not to be made ("we're looking at carers, nothing decided", "婚礼还没定，可能明年，也可能不办了"): what
# would change is said when it is settled.
NOT_SETTLED_RE = re.compile(
    r"\bnothing(?:'s| is)? (?:decided|settled|set in stone|confirmed|fixed|final)\b|"
    r"\b(?:it'?s |that'?s )?not (?:decided|settled|set in stone|final) yet\b|\bhaven'?t decided (?:yet|anything)\b|"
    r"\bor maybe not\b|\bwe'?ll see (?:how|if|whether)\b|\b(?:might|may|maybe|probably)(?: i'?ll| we'?ll)? (?:take you up on|hold you to)\b|^(?:还)?在考虑[，,]\s{0,2}(?:可能|也许|或许)|还没(?:定|敲定|决定|想好)(?:下来)?|没定下来|也可能不(?=[\u4e00-\u9fff])|"
    # Torn between two, nothing chosen ("no idea yet, might do X, might just Y", "还在纠结，到底买车还是继续打车").
    r"^(?:\W{0,3}(?:honestly|tbh|um|erm|ha)\W{1,3})?no idea yet\b|\bmight [^.!?]{1,60}\bmight (?:just |also )?[a-z]|"
    r"(?:在|很|挺|有点|还)纠结|到底[\u4e00-\u9fff]{1,12}还是|(?:我|^|[\s，,])再(?:想想|考虑(?:考虑|一下)|琢磨琢磨)(?:吧|啊)?[\s。！!~～]*$",
    re.I,
)
# Not knowing a detail of one's own ("我也不知道啥型号", "no idea what model it is"): nothing to keep of it.
DONT_KNOW_RE = re.compile(
    r"^(?:我)?(?:也|都|真|还|实在)?不(?:知道|清楚|记得)(?:是)?(?:啥|什么|哪|几|多少|能不能|会不会|行不行)|"
    r"^(?:(?:i )?(?:have )?no idea|i (?:don'?t|do not) (?:know|remember)|not sure) (?:what|which) (?:\w+ )?(?:model|brand|make|"
    r"size|type|kind|version|one)\b",
    re.I,
)
# An offer left to the listener ("come work from mine friday if u want", "我那有多的，你要的话拿去"): their choice, no
# fact of the speaker's.
LISTENERS_CHOICE_RE = re.compile(
    r"\bif (?:u|you)(?:'d like| would like|'re interested| are interested| (?:want|like|fancy|wanna|need|feel like))"
    r"(?: (?:to|it|one))?[\s.!~)]*$|你(?:要|想)(?:的话|要的话)",
    re.I,
)


# Something that has not happened, or would follow one ("if I won the lottery I'd...", "要是明年又降息了呢").
HYPOTHETICAL_RE = re.compile(
    r"^\s*(?:(?:ugh|oh|well|honestly|man|god|tbh|sigh|hmm+|so|ok(?:ay)?|quick one|quick q(?:uestion)?|random q(?:uestion)?)\W{1,3})?"
    r"(?:if|imagine if|suppose|what if)\b.*\b(would|could|'d)\b|"
    r"^(?:\W{0,3}(?:hmm+|but|ok|so|and)\W{1,3}){0,2}what (?:if|happens if)\b|^if (?!i (?:can|could)\b|i'?m (?:honest|being honest)\b|you (?:remember|ask me|must know)\b)[^.!?]{1,60}?(?:\bagain\b|,? (?:i'?m|i am) (?:just |so |totally )?(?:going to|gonna)\b)|"
    r"(?<![还就也都须得要只主])要是[^，。！？]{1,24}(?:能不能|可不可以|会不会|行不行|做梦都|就好了|该多好)|\bit'?s like if\b|"
    r"^(?:\S{0,2}\s)?(?:要是|如果)(?:当初|去年|前年|那时候?|早(?:点|些))|\bif i (?:ever )?(were|was|had|won|weren'?t|wasn'?t|hadn'?t)\b|"
    # "what if I just walked the last 5k": a past after "what if" is a thing not done.
    r"^\s*what if (?:i|we) (?:just |simply |instead |only |actually )?(?:[a-z]{2,20}ed|went|took|quit|left|got|ran|did|"
    r"had|were|was|sold|bought|made|gave|came|drove|flew|kept|told|spent|paid)\b|"
    r"^(?:要是|如果|假如|假设)(?:我|咱).*(?:就|会|的话|肯定)|^(?:[^，。！？]{1,4}[，,]\s?)?[^，。！？]{0,6}(?<![还就也都须得要只主])要是[^，。！？]{1,24}(?:[，,]|[呢吗]\s*[?？]?\s*$)|^(?:\S{0,3}[，,])?(?:这次|这回|下次)再\S{0,8}(?:我)?就|^(?:我|咱)(?:要是|如果|假如)[^，。！？]{1,20}[，,]|^(?:[^\s，,]{0,4}[\s，,]\s?)?(?:要是|假如|如果)[^，。！？]{1,20}?[，,]?\s?(?:我|咱)们?(?:就|肯定|早就)|^(?:要是|如果|假如)咱们?[^，。！？]{1,20}[，,]\s?(?:我|咱)|^(?:要是|如果|假如)(?:能|可以)[^，。！？]{1,16}[，,]\s?(?:我|咱)|^(?:要是|如果|假如|万一)[^，。！？]{0,20}呢\s*[?？]?\s*$|"
    r"\bwould (?!love|like|prefer|rather)[^.!?]{0,40}\bif (?:i|we) (?:ever |just )?(?:[a-z]{2,20}ed|were|was|had|did|went|took|"
    r"lost|quit|left|got|ran)\b|"  # ("...would lose it if I quit"), and what one would have done ("I'd have gone")
    r"\b(?:i|we)(?:'d| would) have (?:done|been|gone|said|made|taken|known|had|got|gotten|thought|[a-z]+ed)\b|"
    # What one would have to do, with nothing done ("ugh I'd have to dig out the statement").
    r"^(?:\W{0,3}(?:ugh|hmm|um|oh|well|honestly)\W{1,3})?(?:i|we)(?:'d| would) have to\b|"
    # A condition on something that has not happened ("if it happens again I'm off", "要是再这样我就换一家").
    r"^(?:honestly,? |seriously,? )?if (?:it|this|that) (?:happens|goes wrong|breaks) again\b|^(?:要是|如果|万一)再\S{0,8}(?:我)?就",
    re.I,
)


# Support for the listener, whatever else the sentence says ("I'm right behind you", "I'll check out your podcast",
# "your revision will pay off", 我支持你): about the listener's affairs, nothing of the speaker's to keep.
SUPPORT_RE = re.compile(
    r"\b(?:i'?m|i am) (?:\d+ ?% |totally |always |right |all |so )*(?:behind|rooting for|proud of|here for) you\b|"
    r"\bcheer(?:ing)? you on\b|\bi'?ll (?:definitely |be sure to |make sure to )?(?:watch|check out|read|listen to) your\b|"
    r"^(?:\W*\w+,\s)?your [\w ]{1,30}? (?:will|is going to|'ll) (?:pay off|be (?:fine|great|amazing|worth it))\b|"
    r"\bi'?ll (?:definitely |be sure to |make sure to |totally )?(?:be )?(?:tun(?:e|ing) in|watching|following along)"
    r"(?: to (?:it|that|your\b[^.!?]{0,30}))?[\s!.~]*$|"  # to the listener's show: "Congrats..., I'll be tuning in!"
    # Sympathy for the listener's misfortune, named as theirs or "the" one just told ("Ouch, bummer about the knee").
    r"^(?![^.!?]{0,200}\b(?:i|i'm|i've|we|we're|our|my|me|us)\b)(?:(?:ouch|oof|oh no|oh man|aw+|ugh|yikes|dang)[,!.\s]+)?(?:what a |such a |total )?(?:bummer|that sucks|too bad|"
    r"what a shame|so sorry|sorry to hear|gutted to hear)(?: about| for| to hear about)? (?:the|your|that)\b|"
    r"我(?:永远|一直|都|会)?(?:支持|挺)你|恭喜你[^。！？]{0,20}我(?:一定|肯定|也)?(?:会)?去?(?:追|捧场|看|听)",
    re.I,
)
