"""A user's bare confirmation of the assistant's read-back is a fact about the user; nothing else an assistant says is.

"So your new address is Flat 5, 9 Cheltenham Road?" / "That's right." keeps the address (from the user's
turn, which confirms it); "Want a printable schedule?" / "Sure, why not." confirms nothing about the user: the
assistant's question must carry a concrete detail (a number, a name, an address, a date) to be confirmed.
"""

from __future__ import annotations

import functools
import re

from facts.extraction.enumerated import EITHER_NUMBER_RE, number_chosen, option_picked, options_of, place_of
from facts.extraction.person import UNNAMED, third_person_en
from facts.extraction.person_zh import third_person_zh
from facts.extraction.sentences import split_sentences
from facts.extraction.signals import DECISION_RE, strong_signal
from facts.extraction.slots import pet_slot, slot_of
from facts.extraction.typer import rule_type, slot_family
from facts.text import has_cjk

_ACCEPT = (
    r"yes|yeah|yep|yup|correct|exactly|right|that'?s (?:right|correct|it|the one|my number|me|fine|great|perfect|good|ok(?:ay)?)|"
    r"yes,? please|(?:then )?i accept|please do|"
    r"sure|perfect|fine|ok(?:ay)?|sounds good|please do|go ahead|go on(?: then)?|go for it|do it|let'?s do (?:that|it)(?: one)?|that one|"
    r"确认|确定|对对对?|是是是?|嗯嗯|好好|对|对的|对啊|是的|是|没错|行|行吧|好的|好|嗯|可以|就这样|就这个|就它了|要的|都要|没问题"
)
_CONFIRM_RE = re.compile(
    rf"^(?:{_ACCEPT})"
    # Accepting in more words, or with only a start added ("Fine, do it.", "Yes please, from the 1st.", "行，下周一开始").
    rf"(?:[\s,，.。!！~～、]+(?:{_ACCEPT}|please|that'?s my number|"
    r"(?:starting|from) (?:the \d{1,2}(?:st|nd|rd|th)?|\w{3,9}day|next \w{3,9}|tomorrow)|"
    r"现在付|付吧|办吧|改吧|(?:从)?(?:下周|明天|下个月|\d{1,2}号)\S{0,3}开始|thanks?|谢谢|"
    # The detail read back, said to suit ("Yes, 11 is fine.", "Thursday works"), or the change named (可以 就改这班).
    r"(?:the )?[\w:]{1,10}(?: [\w:]{1,10})? (?:is|'s|works|suits(?: me)?)(?: (?:fine|good|great|perfect|ok(?:ay)?))?|"
    r"就(?:改|订|换|办|约)(?:这|那)(?:班|个|趟|天|家|款)))*[\s,，.。!！~～]*$",
    re.I,
)
_DETAIL_RE = re.compile(
    # Runs are read from their first character, and an address's name part at most 64 long: linear on long runs.
    r"\d|(?<![\w.+-])[\w.+-]{1,64}@[\w-]+\.|(?<!^)(?<![.?!] )\b[A-Z][a-z]+|"
    r"(?<![一二三四五六七八九十两])[一二三四五六七八九十两]{1,8}(?:月|号|点|天|晚|元|块)|"
    r"地址|号码|手机|航班|改签|退款|换货|预订|预约|套餐|尾号|改到|改成|换成|(?:周|星期|礼拜)[一二三四五六日天末]|"
    # A remedy offered for what went wrong: accepting it is the customer's choice ("Would you like a replacement?").
    r"(?i:\b(?:refund|replacement|exchange|repair|store credit|voucher|cancel\w*)\b)|补发|维修|重新发|取消|退订",
)
_LEAD_EN = re.compile(
    r"^(?:so,?|okay,?|ok,?|great,?|just to (?:confirm|check),?|to confirm,?|can i confirm|let me confirm|(?:please|can you|"
    r"could you) confirm(?: that)?,?|"
    r"and|alright,?)\s+",
    re.I,
)
_LEAD_ZH = re.compile(
    r"^(?:好的|那|请问|跟您确认一下|确认一下|和您确认一下|我再确认一下|请(?:您)?(?:再)?确认(?:一下)?)[，,：:]?"
)


def pieces_of(text: str) -> list[str]:
    """The text's sentences, their marks kept ("£39.99" and "e.g." stay whole)."""
    return [sentence for sentence, _start, _end in split_sentences(text)]


# A grumble before the yes ("Ugh. Yes, go ahead.", "that's way more than last year... fine, yes"): the yes is last.
_BUT_RE = re.compile(r"^(?:but|so|then|and)\s+", re.I)
_REFUSED_RE = re.compile(r"\b(?:no|not|don'?t|never|cancel|wait)\b|不|别|算了", re.I)


def is_confirmation(text: str) -> bool:
    text = text.strip()
    if len(text) > 200:  # a confirmation is a short reply
        return False
    if _CONFIRM_RE.match(text):
        return True
    rest = text.rstrip(".!。！~～ ")
    cut = max(rest.rfind(mark) for mark in ".!。！…")
    last = _BUT_RE.sub("", rest[cut + 1 :].strip())
    return cut > 0 and 0 < len(last) <= 40 and not _REFUSED_RE.search(rest[:cut]) and bool(_CONFIRM_RE.match(last))


# A bare proposal, its detail in the sentence before ("There's a 15:10 on the 24th. Shall I confirm?", "可以吗？").
_BARE_PROPOSAL_RE = re.compile(
    r"^(?:(?:so|ok(?:ay)?|great|right),?\s+)?(?:(?:shall|should|can) (?:i|we) (?:go ahead|proceed|confirm|book (?:it|that|this)|"
    r"apply (?:it|that|this)|do (?:it|that)|set (?:it|that) up|put (?:it|that) through|make (?:the|that) change)|"
    r"would you like (?:me )?to (?:go ahead|proceed|confirm)|(?:does|would|will) (?:that|this) (?:work|suit|do)(?: for you)?|"
    r"is (?:that|this) (?:ok|okay|alright|all right|fine|acceptable)|(?:are you )?happy (?:with that|to (?:go ahead|proceed))|"
    # An act proposed on what the sentence before names ("Shall I move you both there?", "Shall we book that one in?").
    r"(?:shall|should|can) (?:i|we) (?:\w+ ){1,2}(?:it|that|this|that one|them|you|you both|you all)(?: (?:there|over|through|"
    r"in|up|for you))?|would that help|"
    r"(?:您看)?(?:可以|好|行|成)(?:吗|么|不)|(?:确认|需要)(?:办理|修改|更改|预订|下单)?(?:吗|么)|要(?:办|改|订)吗)[?？]?$",
    re.I,
)


def proposed(assistant: str) -> str:
    """The sentence a bare proposal puts to the user ("Shall I confirm?" after "There's a 15:10 on the 24th; a £38
    change fee applies."), when it carries a concrete detail, else ""."""
    pieces = pieces_of(assistant.strip()[-600:])
    if len(pieces) < 2 or not _BARE_PROPOSAL_RE.match(pieces[-1]):
        return ""
    before = pieces[-2]
    return before if _DETAIL_RE.search(before) and not before.endswith(("?", "？")) else ""


def accepted_fact(detail: str, speaker: str) -> str:
    """What the user's yes to a bare proposal accepts ("Accepted: the new premium comes to £612 a year.")."""
    body = detail.strip().rstrip(".。!！ ")
    named = speaker not in UNNAMED
    if has_cjk(body):
        body = re.sub(r"您的|你的", "", re.sub(r"(?<=[给为帮])[您你]", "", body))
        return f"{speaker}同意：{body}。" if named else f"同意：{body}。"
    body = re.sub(r"\byour\b", "their", re.sub(r"\byou\b", "them", body, flags=re.I), flags=re.I)
    body = body if re.match(r"[A-Z]{2}|I\b", body) else body[:1].lower() + body[1:]
    return f"{speaker} accepted: {body}." if named else f"Accepted: {body}."


def readback(assistant: str) -> str:
    """The assistant's last question when it reads back a concrete detail, else ""."""
    pieces = pieces_of(assistant.strip())
    questions = [p for p in pieces if p.endswith(("?", "？"))]
    if (
        pieces
        and re.search(r"吗[。]?\s*$|^请(?:您)?(?:再)?确认|^(?:please|can you|could you) confirm\b", pieces[-1], re.I)
        and not pieces[-1].endswith(("?", "？"))
    ):
        questions.append(pieces[-1])  # "…吗。", "请确认参赛号A10392。", "Please confirm the new date is the 9th."
    if not questions:
        return ""
    question = questions[-1].strip()
    return question if _DETAIL_RE.search(question) or _reads_back_a_fact(question) else ""


# An open question, not a read-back ("Do you have any allergies?" -> "do I have any allergies"; 您有没有…; 是否).
_OPEN_ASKING_RE = re.compile(r"^(?:do|does|did|have|has|are|is|can|could|will|would)\b|\bany\b|有没有|是否|还是", re.I)


def _reads_back_a_fact(question: str) -> bool:
    """A read-back with no number or name that states a durable fact of the user's ("Just to confirm, you're
    allergic to penicillin?", "So you're vegetarian?", "您是对青霉素过敏对吧？"): said as the user, it opens with the
    first person, asks nothing open and fills a slot or tells of their health, family or legal affairs."""
    said = as_said(question)
    if not re.match(r"I\b|my\b|我(?!们)", said, re.I) or _OPEN_ASKING_RE.search(said):
        return False
    return bool(slot_of(said) or strong_signal(said) in {"health", "relationship", "legal"})


def confirmed_fact(question: str, speaker: str) -> str:
    """The read-back said of the user ("So your new address is X?" -> "Confirmed that their new address is X.")."""
    named = speaker not in UNNAMED
    body = question.strip().rstrip("?？。. ")
    body = _untagged(body)  # "..., right?", "...，对吧？"
    offered = _ACCEPTED_EN_RE.match(body) or _ACCEPTED_ZH_RE.match(body)
    if offered:  # "Would you like a replacement?" -> "accepted a replacement"; "给您补发一个可以吗" -> "同意补发一个"
        thing = offered.group(1).strip(" ，,")
        if has_cjk(body):
            return f"{speaker}同意{thing}。" if named else f"同意{thing}。"
        return f"{speaker} accepted {thing}." if named else f"Accepted {thing}."
    act = None if has_cjk(body) else _ACT_OFFERED_RE.match(body)
    if act:  # "Shall I switch you to the 30GB plan?" -> "Asked the business to switch them to the 30GB plan."
        done = re.sub(r"\byour\b", "their", re.sub(r"\byou\b", "them", act.group(1), flags=re.I), flags=re.I)
        return f"{speaker} asked the business to {done}." if named else f"Asked the business to {done}."
    if has_cjk(body):
        body = re.sub(
            r"[，,]?(?:可以|好|行|成|对)不?$", "", _LEAD_ZH.sub("", body).rstrip("吗么")
        )  # "..., 可以吗" asks
        body = re.sub(r"您的|你的", "", body)
        body = re.sub(r"[您你]", speaker if named else "", body)
        return f"{speaker}确认{body}。" if named else f"确认{body}。"
    body = _LEAD_EN.sub("", body)
    who = speaker if named else "they"
    body = re.sub(r"\byour\b", f"{speaker}'s" if named else "their", body, flags=re.I)
    body = re.sub(r"\b(?:do|did|would|will|shall|should|can|could) you\b\s*", "", body, flags=re.I)
    body = re.sub(r"\byou(?:'re| are)\b", f"{who} {'is' if named else 'are'}", body, flags=re.I)
    body = re.sub(r"\byou\b", who, body, flags=re.I)
    body = re.sub(r"\b(?:shall|should|can|may) i\b", "the assistant will", body, flags=re.I)
    return f"{speaker} confirmed {body}." if named else f"Confirmed {body}."


# An offer of a thing (not of an act of the assistant's): what the user's "Yes" accepts.
_ACCEPTED_EN_RE = re.compile(
    r"^(?:[^.!?]{0,60}[.!] )?(?:would you like|do you want|would you prefer|how about|shall (?:i|we) (?:send|arrange|book) "
    r"you) ((?:a|an|the|some) [^?]{1,80}?)(?: instead| then)?$",
    re.I,
)
_ACCEPTED_ZH_RE = re.compile(
    r"^(?:[^，,。！!]{0,12}[，,。！!])?(?:需要|要不要|要)?(?:可以|能)?(?:(?:给|为|帮)(?:您|你))?((?:把[^，,。？?]{1,10}?)?(?:补发|换|退|改(?:到|成|为|约)|重新发|维修|退款|换货|安排|办理|开通|"
    r"更换|修改|取消)[^？?]{0,40}?)(?:[，,]\s{0,2}确认(?:办理|修改|更改|取消|下单|预订|提交|开通|退订))?(?:可以|好|行)?(?:吗|么)?$"
)
# An act the assistant offers to do for the user ("Would you like me to book the 9:40?", "Shall I switch you over?").
_ACT_OFFERED_RE = re.compile(
    r"^(?:[^.!?]{0,80}[.!] )?(?:would you like me to|do you want me to|want me to|shall i|should i) ([^?]{3,120})$",
    re.I,
)
_YOU_RE = re.compile(r"\b(?:you'?re|you are|your|you)\b|您|你", re.I)
_AS_SPEAKER = {"you're": "I'm", "youre": "I'm", "you are": "I am", "your": "my", "you": "I", "您": "我", "你": "我"}


# The assistant offers or proposes ("shall I start it from the 1st?", "需要现在支付吗？", "周六上午上门可以吗？"): a bare
# "Yes" accepts it, a decision (the corpus README: a decision accepts an offer or confirms a change, and comes before
# the types of what the offer names: an amount, a refund after a fault, an address).
_OFFER_RE = re.compile(
    r"\b(?:shall i|should i|would you like|do you want|want me to|would you prefer|is that (?:ok|okay|alright|all "
    r"right)|does that (?:work|suit))\b|需要[^？?。]{0,30}?吗|要不要|(?:可以|好|行|成)(?:吗|么|不)\s*[？?]?\s*$|"
    # A change the service offers to make, asked to be confirmed ("可以为您办理…，确认办理吗？", "shall we go ahead?").
    r"确认(?:申请|要)?(?:办理|修改|更改|取消|下单|预订|预约|提交|开通|退订|改签|退款|退货|换货|支付|付款)吗|(?:可以|能)为您(?:办理|开通|更换|修改|取消)|\bshall we go ahead\b|"
    # An act offered for the user, asked ("现在帮您续吗？", "给您约上吗？").
    r"(?:帮|给|为)(?:您|你)[\u4e00-\u9fff]{1,8}(?:(?:吗|么)\s*[？?]?|[？?])\s*$",
    re.I,
)


# The asking around a read-back: a tag ("..., right?", "，对吧？") and Chinese question particles.
_TAG_EN = re.compile(r",?\s{1,3}(?:right|correct|yes|is that (?:right|correct)|am i right)$", re.I)
_TAG_ZH = re.compile(
    r"[，,]?\s{0,2}(?:对吧|是吧|对吗|是吗|对不对|是不是|没错吧|对么|是么)$|(?<=[\u4e00-\u9fff\w])[吗么呢]$"
)


def as_said(question: str) -> str:
    """A read-back as the user would say it: "Just to confirm, you're allergic to penicillin?" -> "I'm allergic to
    penicillin"; "请问您是要取消这个订单吗？" -> "我是要取消这个订单". The type of what a yes confirms is the type of this
    statement, not of the question's asking (a 请问 or a "吗" would make any read-back an inquiry)."""
    said = _YOU_RE.sub(lambda m: _AS_SPEAKER.get(m.group(0).lower(), "I"), question.strip()).rstrip(" ?？。")
    said = _LEAD_ZH.sub("", _LEAD_EN.sub("", re.sub(r"^right,?\s+", "", said, flags=re.I)))
    return _untagged(said)


def _untagged(text: str) -> str:
    """The read-back without the tag that asks it (", right", "，对吧", a final 吗)."""
    return _TAG_ZH.sub("", _TAG_EN.sub("", text))


_WANTS_ACT_RE = re.compile(
    r"I(?:'d| would) like to \w|(?:I'm sure )?I want to \w|我(?:是|确定|真的)?(?:要|想)(?!的)[\u4e00-\u9fff]", re.I
)


def confirmed_type(question: str) -> str:
    """The type of what a bare "Yes" confirms: an offer or a proposal accepted is a decision; a read-back is said by
    the user ("So you're moving to Bristol?" -> "I'm moving to Bristol"); an offer of the service's with nothing of
    the user's in it is accepted: a decision."""
    if _OFFER_RE.search(question):
        return "decision"
    said = as_said(question)
    last = re.split(r"[，,;；]\s{0,2}", said)[-1]
    if _WANTS_ACT_RE.match(last):  # "you'd like to cancel ...?", "您是要退订…吗": the user's wish to act, confirmed
        return "decision"
    found = said_type(said)
    return found if found and found != "inquiry" else "decision"


def said_type(said: str) -> str:
    """The type the rules are sure of for a read-back said as the user ("I'm moving to Bristol"), or ""."""
    slot = slot_of(said) or pet_slot(said)
    return rule_type(said, slot, slot_family(slot, said))


# An offer or a choice put to the user ("I can offer a £20 credit", "there's a 07:40 on the 13th, shall I confirm
# it?", "您是希望退货还是换新呢？", "续保支持分三期付款，您需要吗？"): the user's short reply that takes it is a decision.
_OFFERING_RE = re.compile(
    _OFFER_RE.pattern
    + r"|\b(?:i|we) can (?:also |still )?(?:offer|give|switch|move|book|arrange|send|put|pay|ask|defer|refund|replace|"
    r"transfer|upgrade|extend|waive)\b|\b(?:would that help|if you(?:'d)? prefer)\b|希望\S{1,12}还是|还是\S{1,12}呢|您需要吗|最多(?:可以|能)|"
    r"选哪(?:个|种|款)|(?:可以|能)(?:为|帮|给)(?:您|你)|推荐您|您看是|\bwhich (?:one|would you)\b",
    re.I,
)
_TAKES_EN_RE = re.compile(
    r"^(?:(?:seriously|fine|ok(?:ay)?|go on(?: then)?|alright|all right|yes|yeah|yep|sure|go ahead|right|then|perfect|great|lovely|that'?s "
    r"fine|please)\W+)*(?:please |just |(?:i'?ll|i will|we'?ll|we will|let'?s) )?((?:switch|confirm|book|move|change|put|sign|"
    r"upgrade|downgrade|send|go with|take|cancel|go ahead with)\b.*)",
    re.I,
)
_TAKES_ZH_RE = re.compile(
    r"^(?:那就|那|就|行|好|嗯|可以)?[，,]?\s*((?:[\u4e00-\u9fff]|\w){1,10}?)吧(?=[\s，,。！!~～]|$)|"
    # "那就换88的，下个月开始", "可以，赶紧退": a choice settled, an act agreed to at once.
    r"^(?:那就|就)((?:[\u4e00-\u9fff]|\w){2,10}?)(?=[\s，,。！!~～]|$)|^(?:可以|好的?|行)[，,]\s*(?:赶紧|马上|直接)((?:[\u4e00-\u9fff]){1,6}?)(?=[\s，,。！!~～]|$)"
)
# A thing of the offer chosen ("The credit please, I never watch sport.").
_CHOSEN_EN_RE = re.compile(r"^(?:the|a|an) ([\w£$€ -]{1,30}?),? please\b", re.I)


# The act a business offers, from its verb to the question put on it ("退周三那份的28元" of "给您退周三那份的28元可以吗？").
_OFFERED_ACT_ZH_RE = re.compile(r"[^，,。？?！!\s]{2,16}?(?=可以吗|好吗|行吗|吗|[，,。？?！!]|$)")
_AGREED_ZH = frozenset(["好", "行", "对", "嗯", "是", "可以", "算了", "那好", "那行", "好的"])
# One of two things offered ("Would you like an exchange or a refund?"), the reply starting with it.
_EITHER_RE = re.compile(r"\b([a-z][a-z-]{2,20}) or (?:an? |the |some )?([a-z][a-z-]{2,20})\b[^?]{0,30}\?", re.I)


def _option_chosen(reply: str, assistant: str) -> str:
    """The option of the assistant's either-or question the reply names first ("exchange, in green, size M" ->
    "an exchange, in green, size M"), else ""."""
    either = _EITHER_RE.search(assistant[-300:])
    if not either:
        return number_chosen(reply, assistant)  # ("over 6 or 9 months?" / "9 please")
    for option in either.groups():
        m = re.match(rf"(?:(?:an?|the|yes|ok|okay|um|erm)[,\s]+)*{re.escape(option)}\b(.*)$", reply.strip(), re.I)
        if m:
            article = "an" if option[0].lower() in "aeiou" else "a"
            rest = m.group(1).strip(" .!")
            return f"{article} {option.lower()}" + (
                f"{'' if rest.startswith(',') else ','} {rest.lstrip(', ')}" if rest else ""
            )
    return ""


# Options laid out without a question ("We've got Wednesday at 4:40 with Dr Shah or Friday at 9:10.", "周三上午王主任
# 还有号，周五下午李主任也有"): a short reply naming one chooses it ("wednesday please", "周五下午").
_OPTION_LEADS = (
    r"we'?ve got|we have|there'?s|there are|i can do|we can do|i'?ve got|available|(?<!you )(?:has|have) (?:got )?"
    r"(?=(?:a |an )?(?:mon|tues|wednes|thurs|fri|satur|sun|\d|tomorrow|today|next))|can (?:visit|come|do|see you|fit you in)"
)
_OPTIONS_EN_RE = re.compile(rf"\b(?:{_OPTION_LEADS})\b[^.?!]{{1,80}}\bor\b", re.I)
# The choice asked of options laid out in the sentence before ("... or a 19:05 with no fee. Which would you prefer?").
_WHICH_ONLY_RE = re.compile(
    r"^(?:so,? )?(?:which|what) (?:one |time |day |option )?(?:would you (?:prefer|like)|do you (?:prefer|want)|"
    r"suits(?: you)?(?: best)?|fits(?: best)?|works(?: best| better)?(?: for you)?|is (?:better|best) for you)\b[^.?!]{0,20}\?$",
    re.I,
)
_OPTIONS_ZH_RE = re.compile(
    r"也(?:有|可以|行)|有[一两]?个?(?:班|空位|名额)(?:[，,。]|$)|选哪|哪个(?:方便|合适|可以|行)|还有(?=[^，。？]{0,3}(?:周|星期|礼拜|上午|下午|晚上|明天|后天|\d+[号点日]))|"
    r"(?:或者?|还是|和)(?=[^，。？]{0,4}(?:\d|[一二三四五六七八九十两]|周|星期|礼拜|上午|下午|晚上|明天|后天))"
)
# Options labelled by letters ("A) a childhood story, B) the caravan holiday", "A温情 B搞笑 C简短"): a reply naming the
# letter chooses what it labels.
_LETTERED_RE = re.compile(  # (a label is a letter alone: "Dr Chen said Bath" labels nothing)
    r"(?:^|[\s:：，,;；])([A-D])(?:[)）.、:：]\s?|\s|(?=[\u4e00-\u9fff]))([^,，;；.。?？\s][^,，;；.。?？]{0,39}?)"
    r"(?=\s[A-D](?:[)）.、:：]|\s|[\u4e00-\u9fff])|[,，;；.。?？]|$)"
)
_LETTER_REPLY_RE = re.compile(r"^(?:option |选)?([A-D])(?=$|[,，.。!！)）]|[呗吧啊]|\s(?![a-z]))")
# Words of a short reply that only say it suits ("Friday arvo suits"): left out when the options do not hold them.
_SUITS_RE = re.compile(
    r"(?:arvo|morning|afternoon|evening|suits?|works?|is|fine|good|better|best|me|for|one|then|definitely|sounds)$",
    re.I,
)
# Ideas suggested, not options offered ("可以试试番茄炖牛腩或者清蒸鲈鱼", "you could try the stew or the bass"): taking
# one is a trivial choice of the day, not a decision of the user's.
_SUGGESTED_RE = re.compile(
    r"试试|推荐|建议|不妨|可以考虑|思路|\b(?:you could|you might|how about|why not|try|ideas?|suggestions?|styles)\b",
    re.I,
)
_TRIM_EN_RE = re.compile(
    r"^(?:(?:the|um|erm|ok(?:ay)?|yes|yeah|then)[,\s]{1,3})+|(?:[,\s]{1,3}(?:please|pls|thanks|thank you|then))+[\s.!]{0,5}$|"
    r"[\s.!]{1,5}$",
    re.I,
)
_TRIM_ZH_RE = re.compile(r"^(?:那就|就|那|我要|我选|要|选)|(?:的?吧)?(?:谢谢)?[\s。！!~～]{0,5}$")
_OPTION_LEAD_EN = re.compile(rf"^.{{0,60}}?\b(?:{_OPTION_LEADS})\s", re.I)
# A time refused and another asked for ("明天不行，后天上午吧", "下午家里没人，晚上7点以后行吗").
_COUNTER_ZH_RE = re.compile(
    r"^[\u4e00-\u9fff\w]{1,8}?(?:不行|不方便|没空|没人|不在家?)[，,]\s{0,2}(?:改(?:到|成)?|换(?:到|成)?)?"
    r"([\u4e00-\u9fff\w:：]{2,10}?)(?:吧|行吗|可以吗|行不行|可以不)[\s。！!?？~～]{0,3}$"
)


# What leads a time offered ("最近的号是", "还有"): not part of the option.
_OPTION_HEAD_ZH_RE = re.compile(r"^[^，。？]{0,12}?(?:是|有)(?=(?:下下?|这|本)?(?:周|星期|礼拜|\d|明天|后天|今天))")


def named_option(reply: str, assistant: str) -> str:
    """The option of those the assistant laid out that a short reply names ("Wednesday at 4:40 with Dr Shah" for
    "wednesday please"; "周五下午"), or a time asked for instead of the one offered ("改为后天上午"), else ""."""
    tail, text = assistant[-300:], reply.strip()
    if _SUGGESTED_RE.search(tail):
        return ""
    picked = option_picked(text, assistant)  # options enumerated ("(a) ..., (b) ...", "一，…；二，…") picked by place
    if picked:
        return picked
    letter = _LETTER_REPLY_RE.match(text)
    if letter:  # "B, definitely the caravan", "B呗": the option that letter labels
        labelled = dict(_LETTERED_RE.findall(_options_sentence(tail)))
        return labelled.get(letter.group(1), "").strip() if len(labelled) >= 2 else ""
    if has_cjk(text):
        return _named_option_zh(text, tail)
    if not (_laid_out(tail) or _EITHER_RE.search(tail)):
        return ""
    said = _TRIM_EN_RE.sub("", text)
    last = _options_sentence(tail) or tail
    parts = re.split(r"[,;]?\s\bor\b\s", _OPTION_LEAD_EN.sub("", last.rstrip(" .?!")))
    place = place_of(said)
    if place is not None and len(parts) >= 2:  # "the second one": the option in that place
        chosen = parts[place].strip() if place < len(parts) else ""
        return re.sub(r"^(?:an?|the)\s+", "the ", chosen) if 0 < len(chosen) <= 60 else ""
    words = [w for w in said.split() if not _SUITS_RE.match(w) or re.search(rf"\b{re.escape(w)}\b", tail, re.I)]
    if not 1 <= len(words) <= 4 or not all(re.search(rf"\b{re.escape(w)}\b", tail, re.I) for w in words):
        return ""
    found = [p for p in parts if all(re.search(rf"\b{re.escape(w)}\b", p, re.I) for w in words)]
    return re.sub(r"^an?\s+", "the ", found[0].strip()) if len(found) == 1 and len(found[0]) <= 60 else ""


def _named_option_zh(text: str, tail: str) -> str:
    """named_option for a Chinese reply: a time refused and another asked, an option named by its place, or the
    option its first clause names ("周四那个" -> "周四下午2点取车", "5号吧，3号要上班" -> "6月5号")."""
    counter, place = _COUNTER_ZH_RE.match(text), place_of(text)
    if counter:
        return f"改为{counter.group(1)}"
    if not _laid_out(tail):
        return ""
    parts = [  # ("周四上午也有" offers "周四上午"; "最近的号是下周四上午十点" offers "下周四上午十点")
        _OPTION_HEAD_ZH_RE.sub(
            "", re.sub(r"(?:也|还)?(?:有|可以|行)(?:[一两]?个)?(?:号|空位?|位|班|名额)?$", "", p.strip(" 。"))
        )
        for p in re.split(r"[，,；;]|还是|或者?|还有|(?<=[号点日])和", _options_sentence(tail))
        if p and not re.search(r"[吗呢?？]|哪", p)
    ]
    if place is not None:  # "第二个": the option laid out in that place
        return parts[place] if len(parts) >= 2 and place < len(parts) else ""
    thing = re.sub(r"(?:的?那个|的?这个|的)$", "", _TRIM_ZH_RE.sub("", re.split(r"[，,]", text)[0]))
    if not (2 <= len(thing) <= 8 and thing in tail) or re.search(r"[不没别吗]", thing):
        return ""
    holding = [p for p in parts if thing in p]
    return holding[0] if len(holding) == 1 and len(holding[0]) <= 16 else thing


@functools.lru_cache(maxsize=512)
def _last_sentence(assistant: str) -> str:
    """The last sentence of the assistant's turn (of its last 300 characters), or "": split once per turn, however
    many of the reply's clauses ask whether it offered or laid out options."""
    pieces = pieces_of(assistant[-300:])
    return pieces[-1] if pieces else ""


@functools.lru_cache(maxsize=512)
def _options_sentence(assistant: str) -> str:
    """The sentence that lays out the assistant's options: its last, or the one before a bare "Which would you
    prefer?"."""
    last = _last_sentence(assistant)
    if _WHICH_ONLY_RE.match(last):
        pieces = pieces_of(assistant[-300:])
        return pieces[-2] if len(pieces) >= 2 else last
    return last


def _laid_out(assistant: str) -> bool:
    """Whether the assistant's last sentence (or the one before a bare "which?") lays out options (an earlier
    "您也可以在APP上查看" offers nothing)."""
    last = _options_sentence(assistant)
    laid = _OPTIONS_EN_RE.search(last) or _OPTIONS_ZH_RE.search(last) or len(_LETTERED_RE.findall(last)) >= 2
    return bool(laid or options_of(assistant[-400:]))


def offer_made(assistant: str) -> bool:
    return bool(assistant) and bool(
        _OFFERING_RE.search(assistant[-400:]) or _laid_out(assistant) or _either_asked(_last_sentence(assistant))
    )


def _either_asked(question: str) -> bool:
    """ "Long runs on Saturday or Sunday?": a choice asked between two things ("Is it sunny or rainy there?" asks after
    a state, "Can I take the account number or the postcode?" for a detail: not a choice)."""
    asks = re.match(r"(?:is|are|was|were|does|do|did|has|have|can|could|may|what|where|when|how|who)\b", question, re.I)
    return bool(_EITHER_RE.search(question) or EITHER_NUMBER_RE.search(question)) and not asks


def taken_offer(clause: str, assistant: str, speaker: str) -> str:
    """What the user's clause takes of the assistant's offer, said as their decision, or "" ("Go on then, switch me."
    -> "Asked the business to switch them."; "那就分三期吧" -> "选择分三期"; "I'll take the credit" stays as said)."""
    text = clause.strip()
    if len(text) > 80:
        return ""
    named = speaker not in UNNAMED
    option = named_option(text, assistant)
    if option:
        if has_cjk(text):  # the reason given with it stays with it ("5号吧，3号要上班")
            cut = re.search(r"[，,]", text)
            rest = "" if option.startswith("改为") or not cut else text[cut.end() :].strip("，,。！!~～ ")
            said = option if option.startswith("改为") else "选择" + option
            return f"{speaker if named else ''}{said}" + (f"，{third_person_zh(rest, speaker)}。" if rest else "。")
        return f"{speaker} chose {option}." if named else f"Chose {option}."
    if has_cjk(text):
        m = _TAKES_ZH_RE.match(text)
        thing = next((g for g in m.groups() if g), "") if m else ""
        thing = "" if thing in _AGREED_ZH else thing  # "好吧", "那行吧": agreeing, no thing of the offer named
        shared = (
            any(thing[i : i + 2] in assistant for i in range(len(thing) - 1)) or len(thing) == 1 and thing in assistant
        )
        if len(thing) == 1 and shared:  # "赶紧退" after "可以帮您退订": the offer's words for it, to its question
            offered = _OFFERED_ACT_ZH_RE.match(assistant[assistant.index(thing) :])
            thing = offered.group(0) if offered else assistant[assistant.index(thing) :][:2]
        if not (thing and shared):
            return ""
        rest = text[m.end() :].strip("，,。！!~～ ") if m else ""  # the reason given with it stays with it
        return f"{speaker if named else ''}选择{thing}" + (f"，{third_person_zh(rest, speaker)}。" if rest else "。")
    chosen = _CHOSEN_EN_RE.match(text)
    if chosen and chosen.group(1).lower() in assistant.lower():
        return f"{speaker} chose the {chosen.group(1)}." if named else f"Chose the {chosen.group(1)}."
    option = _option_chosen(text, assistant)
    if option:
        return f"{speaker} chose {option}." if named else f"Chose {option}."
    m = _TAKES_EN_RE.match(text)
    if m and re.match(r"(?:take|go with)\b", m.group(1), re.I):  # "I'll take the credit": the thing offered, chosen
        thing = re.sub(r"^(?:take|go with)\s+", "", m.group(1), flags=re.I).rstrip(" .!")
        return f"{speaker} chose {thing}." if named else f"Chose {thing}."
    if m:
        act = re.sub(r"\bme\b", "them", re.sub(r"\bmy\b", "their", m.group(1))).rstrip(" .!")
        act = third_person_en(
            act[:1].lower() + act[1:], speaker or "User"
        )  # "..., I'd rather have" -> "Sam would rather"
        return f"{speaker} asked the business to {act}." if named else f"Asked the business to {act}."
    return text if DECISION_RE.search(text) else ""
