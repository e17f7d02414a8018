"""The value gate's rules: what a sentence of a user's turn certainly is not worth keeping, and what certainly is.

`rule_verdict(sentence)` answers keep (a slot or a strong signal: health, a relative, an amount, an id, a
complaint, a commitment with a content...), drop with a reason code (greeting, thanks, sign_off, agreement,
reaction, compliment, filler, empty_question, hypothetical, about_other) or undecided; the rule extractor lets
the classifier over the sentence's vector settle the undecided ones and confirm the kept ones. The reason codes
are what the message's `gate_reason` records, so a dashboard can count the drops by reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from facts.extraction.base import GateDecision, sentence_memo
from facts.extraction.chatter import (
    DONT_KNOW_RE,
    HYPOTHETICAL_RE,
    LISTENERS_CHOICE_RE,
    SUPPORT_RE,
    UNDECIDED_RE,
    about_listener_zh,
    asks_after_listener,
    handover_only,
    has_first_person,
    hedged_outing,
    says_only_effect,
    self_pep_only,
    strip_chatter,
    thanks_in_words,
    without_resolve,
    without_vague,
    worth_only,
)
from facts.extraction.elision import speaker_elided
from facts.extraction.identity import says_what_speaker_is
from facts.extraction.lexicon import CRIME_RE, LAW_RE, SECRET_RE, WHY_OF_BUSINESS_RE
from facts.extraction.pieces import main_reason, small_talk_reason
from facts.extraction.signals import (
    ACHIEVED_RE,
    DIET_CHANGE_RE,
    INCOME_RE,
    JOB_NEWS_RE,
    OWED_OR_DATED_RE,
    REMIND_RE,
    TRIP_BACK_RE,
    asks_terms,
    change_asked,
    chose_one,
    decided,
    owned_zh,
    strong_signal,
    wish,
)
from facts.extraction.talk import I_SUBJECT_RE, praise_of_yours, request_only, talk_only, unsettled_only
from facts.text import has_cjk, keywords

_SECOND_PERSON_RE = re.compile(r"\b(you|your|yours|you're|u|ur)\b|你|您", re.I)
_SECOND_PERSON_START_RE = re.compile(r"(you|your|you're|u|ur)\b|你|您", re.I)
_QUESTION_RE = re.compile(
    r"[?？]\s*$|(?:[吗么]|(?<!的)嘛|了没有?)\s*[~～]?\s*$|(^|[，,])\s*(是不是|有没有|能不能|可不可以)"
    # 呢 asks only with a question word or after a bare topic ("怎么办呢", "那你呢"); "还打着石膏呢" states.
    r"|(?:什么|啥|怎么|咋|哪|谁|为什么|为啥|几|多少|多久|要不要|是不是)[^，,。.!！]{0,30}呢\s*[~～]?\s*$|(?:^|[，,])[^，,]{0,4}呢\s*[~～]?\s*$"
    # A yes-no question by its verb said twice, with no mark ("你们收不收违约金", "这个包不包邮").
    r"|(?:会不会|能不能|可不可以|要不要|好不好|行不行)(?:好点|更好|有用|管用|可以|合适|划算)?(?:呢|啊|呀)?\s*$|收不收|退不退|包不包|送不送|支不支持|免不免|含不含|开不开(?:发票|票)"
    # ... or by 有没有 before its thing, at the end ("你们家那个破壁机有没有静音款").
    r"|有没有[^，,。.!！]{1,12}\s*$|有[^，,。.!！不]{1,10}不\s*$|有[^，,。.!！没]{1,10}没\s*$"
    # ... or by how many, last ("一年能叫几次", "…能分期吗，免息几期").
    r"|(?:^|[，,]|能|可以)[^，,]{0,6}(?:(?<![好十])几(?![十百千万])|多少)[\u4e00-\u9fff]{0,3}\s*$"
    # A Chinese wh-question by its ending, without its mark ("你们的退货政策是怎样的", "退款要几天才能到账").
    r"|(?:怎样|怎么样|什么样|如何)的?\s*$|是(?:什么|啥)\s*$|(?:要|需要|得)\S{0,4}?(?:多久|多长时间|几天)\S{0,6}$|(?:做|吃|买|穿|送|带|看|玩|选)点?(?:啥|什么)\s*$|(?:带|准备|交|提供)(?:什么|啥)\S{0,4}$|怎么(?:弄|收费|算)\s*$|多少(?:合适|比较好)\s*$|(?:该|要)怎么(?!办)[\u4e00-\u9fff]{1,8}$|^(?:请问|想问(?:一)?下)|^(?:为什么|为啥|凭什么)"
    # A yes-no question by a modal and 不 at its end, without its mark ("能分期不", "有现货不").
    r"|^(?:请问|那)?(?:能|可以|有|会|要|支持|包)[\u4e00-\u9fff]{1,8}不\s*$"
    # A wh-question without its mark ("and how do I sort a dict by value").
    r"|^(?:is|are|was|were|do|does|did|will|would|should|has|have|shall) (?:it|this|that|there|he|she|they|you|u|the|your|his|her|their|auntie|uncle)\b[^.!?]{0,60}\bor\b"
    r"|^(?:(?:and|so|also|but|ok|okay)[,\s]+)?(?:how|what|why|where|when|who|which) (?:do|does|did|can|could|should|"
    r"would|is|are|was|were) (?:i|we|you)\b|^(?:(?:mate|hey|hiya|so|and|ok|okay|also)[,\s]+)?(?:what'?s|which is) (?:a|an|the) "
    r"(?:good|best|decent|cheap|difference)\b",
    re.I,
)
# Subjects a customer's question keeps ("do you ship to Canada?" -> an inquiry; a plan is the service's product).
_SERVICE_RE = re.compile(
    r"\b(?:are|is) (?:those|they|these|that|it) extra\s?[?？]?$|^is (?:it|that|this) (?:extra|taxed|taxable|included|refundable|covered|chargeable)(?: too| as well)?\s?[?？]?$|\bslots?\b|\b(?:(?:in|into) the hold|hand luggage|cabin bags?|carry-?on|baggage|luggage)\b|\bdo (?:you|ye) (?:do|offer|sell|stock|fit|repair|service) [\w -]{1,30}? (?:as well|too|at all|here)\b|有[\u4e00-\u9fff]{1,8}卖吗|几钱|门市|报名|能报吗|你们(?:这(?:儿|里|边))?(?:有没有|还有)(?![去吃看玩听试买用])|\bwhat'?s the minimum\b|\bminimum (?:order|quantity|spend|run)\b|\bmoq\b|起订|\b(?:does|do|will|would) (?:the|it|that|this) (?:\w+ )?(?:cover|include)\b|是在这(?:儿|里)吗|"
    r"\b(order|orders|ship|shipping|deliver\w*|refund\w*|return\w*|exchange|parcel|package|tracking|price|cost|"
    r"fees?|charge\w*|discount|coupon|warranty|account|plan(?! (?:to|on)\b)|subscription|membership|bookings?|reservations?|tickets?|"
    r"invoices?|receipts?|vat|size|stock|roaming|policy|claim|xxl|xl|open|opening hours|branch(?:es)?|stores?|available|"
    r"instal?ments?|engineer|technician|statements?|pick-?up point|collection point|opening times|closing time|"
    r"early repayment|interest rates?|rates|overdraft|late fees?|annual fee|admin fee|penalty fee|send (?:it|them|this|these) back|(?:do|does) you close|"
    r"how much (?:is|are|does|do|would|will)|how long (?:does|do|will|would) (?:it|that|this|the \w+) (?:\w+ )?(?:take|to)|what'?s the catch)\b|"
    r"有(?:没有)?[\u4e00-\u9fff]{1,2}色|收不收|(?:能|可以)自己带[\u4e00-\u9fff]{1,6}(?:吗|不)|码数|大码|颜色|自提|取件|关门|开门|营业|门店|分期|上门|工程师|有货|现货|移机|开通|订单|发货|快递|物流|退款|退货|换货|价格|多少钱|运费|优惠|"
    r"违约金|手续费|提前还款|(?<!老)年卡|月卡|季卡|次卡|储值卡|申诉|利息|利率|年费|押金|滞纳金|会员|套餐|账户|账号|预订|预约|发票|尺码|库存|保修|理赔|改签|退票|航班|包邮|送货|配送|寄到|送到|安装|"
    r"开票|专票|普票|收据|开门|免费|收费|定损|接站|接机|送机|小程序|公众号|官网|^(?:(?:hi|hello|你好|您好)[，,\s]*){0,2}(?:想问(?:一)?下|咨询(?:一)?下)|名额|上架|按(?:月|年|天|次|季|周)(?:交|付|收|算|扣)|(?:开|办)\S{0,3}证明|证明\S{0,6}开|行李|托运|门诊\S{0,2}(?:开|时间)|月租|月付|婴儿床|加床|"
    # The business taking the old one away ("Do you take the old one away?", "旧的能回收吗").
    r"\btake (?:the|my|our) old (?:[\w-]{1,20} )?(?:one )?away\b|\bhaul (?:the |my )?old\b|回收旧|旧的\S{0,4}回收|"
    # The business's people or goods asked about ("can your drivers take the old sofa?", "do you do it in oak?").
    r"\byour (?:drivers?|engineers?|technicians?|couriers?|fitters?|installers?)\b|\bdo you (?:stock|carry|provide|supply)\b|"
    # A slot or a model asked after ("这周末还有号吗", "有没有静音款", "do you sell them in store").
    r"还有号|有号吗|有位置|有空位|订位|约(?:个|一下)|\S款吗?$|有没有\S{0,8}款|卖不卖|实体店|线下店|\b(?:do|does) (?:you|you lot|you guys|the (?:shop|store|pharmacy)) (?:still |also |even )?sell\b|"
    r"\b(?:appointments?|slots?|spaces|places|spots) (?:available|free|left)\b|\b(?<!your )(?<!my )(?<!his )(?<!her )(?<!their )(?:spaces?|places?|spots?) (?:left |available |free )?(?:on|in|for) (?:the|a|an|your|this|that|next) [\w -]{0,30}?\b(?:course|class|classes|programme|program|workshop|camp|tour)\b|\bdo you (?:do|make) (?:it|them|that|this|the|those) [\w -]{0,20}?\bin\b|"
    r"有(?:的)?卖吗|有得卖|有没有卖|\brestock\w*|\bback in stock\b|\baccept [\w ]{0,20}insurance\b|能退吗|可以退吗|能不能退|"
    r"怎么收费|收费标准|(?:能|可以)(?:买|投保)(?:吗|不|么)|你们(?:这儿?|这里|那儿?|店里|家)?(?:还|现在)?有(?!(?:没有)?(?:空|人|时间|谁|觉得|想法|兴趣))(?:没有)?(?:[^，。？?]{1,16}(?:吗|么)|[^，。？?]{1,16}$)|\b(?:does|do|will|would) (?:that|this|it|they|the [\w -]{1,30}?) include\b|\b(?:is|are) [\w -]{1,40}? included\b|\bwhat'?s included\b",  # a variant of a product ("do you do that sofa in a 2-seater?", "你们那有卖吗")
    re.I,
)

_KEEP_HINTS: list[tuple[str, re.Pattern[str]]] = [
    (
        "commitment",
        re.compile(
            r"\b(i'?ll(?! always l| never l)|i will(?! always l| never l)|i'?m going to|i'?m gonna|i plan|i'?m planning|we'?re going|i'?m moving|i'?m starting|no backing out|"
            r"(?:already )?paid (?:the|my|a) (?:entry fee|deposit)|^\W*(?:just |already )?(?:booked|signed up)|"
            r"i'?m (?:flying|driving|heading|travell?ing) (?:over|out|up|down|back|home|to)|"
            r"i signed up|i booked|i'?ve booked|i promise|i'?ve promised|i promised|i'?ll treat you|my treat)\b|(?:^\W*|\b(?:my|the|our) (?:[\w-]+ )?)(?:interview|exam|viva|deadline|hearing|operation|surgery|graduation|induction|finals|resit)(?:'s| is) (?:on |at )?(?:the )?(?:next|this|tomorrow|\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\b)|"
            r"我会(?!一直喜欢|永远喜欢|一直爱|永远爱)|答应|打算|计划|准备|下个月|明年|下周|报名了|订了|我请(?:你|你们|客)",
            re.I,
        ),
    ),
    (
        "decision",
        re.compile(
            r"\b(decided|made (?:up )?my mind(?: up)?|i chose|i'?m going with|i'?ll take|i'?ve switched|i cancelled|(?:i|we)'?d rather|"
            r"i'?ll have (?:that|this) one|(?:refund|replacement) please|(?:you can|please|pls|go ahead and) cancel)\b|"
            # Cancelling something of the speaker's, told to the business ("Cancel my membership pls", "把会员取消掉").
            r"^\W*cancel (?:my|our) \w+|\b(?:need|want) to cancel (?:my|our) \w+|(?:取消|退掉|停掉)(?:我的|我们的)|把\S{1,8}?(?:取消|退掉|停掉)|"
            r"决定|选了|换成|改到|改成|取消了|换个新的|不续(?:费|约)?了|就(?:改|换|选|要|订)(?:这|那)(?:个|班|款|家|件|趟)|"
            r"\b(?:go on then|go ahead|ok(?:ay)?|fine|yes(?: please| pls)?|yeah),? (?:just |please |pls )?(?:refund|reship|replace|"
            r"rebook|resend) (?:it|them|that|the order|please)\b|^\W*yes,? (?:please|pls),? (?:book|refund|reship|replace|rebook|resend)\b|"
            r"\b(?:yeah|yes|ok(?:ay)?|fine),? go ahead\b|(?:补发|重发|冻结|暂停|注销)吧|"
            r"我要(?:那|这)(?:个|款|件)",
            re.I,
        ),
    ),
    (
        "preference",
        re.compile(
            r"^\W*(?:tbh,? |honestly,? |nah,? )?(?:much )?rather\b|\b((?:i|(?<!everyone )(?<!everybody )(?<!people )(?<!those )(?<!all )(?<!ones )we)(?:'ll| will)? (?:really |just |totally |absolutely |also |still |do |always |never )?(love|like|enjoy|prefer|hate|dislike|adore|dread|detest|loathe)|"
            r"i'?m (obsessed with|into|a fan of)|(?:so |really )?(?:sick|tired) of (?!it\b|this\b|that\b|you\b)|(?:is|are|'s|'re) (?:totally |definitely |really )?(?:my|our) (?:thing|jam)|"
            r"favou?rite|can'?t stand|vegan|vegetarian|used to (?:love|like|hate|enjoy)|"
            r"i (?:usually|normally|always) (?:drink|eat|have|listen to|watch)|i can'?t do|nothing beats|"
            r"can'?t get enough of|not (?:a|much of a) fan of|not my (?:thing|cup of tea)|\w+ and i (?:are not|aren'?t) "
            r"friends|(?:i'?m|i am|i'?ve been|been) (?:really |so |totally )?craving)\b|超爱|迷上|爱上了?(?![他她你])|无感|(?:巨|超|贼|最|特别)烦(?=[跑做写练学背打看听上开吃喝])|提不起兴趣|不感兴趣|不(?:太|怎么)?感冒|喜欢|爱吃|讨厌|最爱|不吃|受不了|特别想|"
            r"习惯(?:喝|吃|听|看)|(?:吃|喝|用|穿|住)不惯|平时(?:爱|喝|吃)|(?:平时|一般|向来|从来)?只(?:用|喝|认|买|穿)(?!了)|每天都?(?:喝|吃)|一天[一两三四五六\d]+(?:杯|包|顿)",
            re.I,
        ),
    ),
    ("preference", DIET_CHANGE_RE),  # a diet taken up or given up ("戒夜宵了", "cut out dairy")
    ("commitment", OWED_OR_DATED_RE),  # money to pay back, an interview or an exam with its day
]


@dataclass(frozen=True)
class Verdict:
    """keep: True (a rule is sure it is worth keeping), False (sure it is not), None (the classifier decides).
    sure: a keep the classifier's vectors may not veto (a term of the business's trade or a grievance asked of it)."""

    keep: bool | None
    reason: str
    sure: bool = False


# A term of the business's trade asked of the business itself: the business addressed as one (你们, 贵司, "do you",
# "can you"), by a modal with its subject left out ("能开专票吗"), or a term asked about with no trouble of the
# speaker's ("你们能开发票吗", "Do you do invoices?"): what the rules are this sure of, the classifier does not veto.
_TRADE_RE = re.compile(
    r"\b(?:invoices?|receipts?|vat|refunds?|returns?|exchanges?|warranty|guarantee|shipping|delivery|deliver|ship|"
    r"instal?ments?|discounts?|opening hours|open|close|send (?:it|them|this|these) back|in stock|sizes?|colou?rs?)\b|"
    r"发票|专票|普票|开票|收据|退款|退货|换货|保修|运费|包邮|发货|配送|分期|优惠|营业|开门|关门|有货|现货|库存|尺码|码数|大码|"
    r"颜色|黑色|白色|多少钱|价格|收费|免费|上门|安装|送到|寄到|卖|停车",
    re.I,
)
_BUSINESS_ADDRESSED_RE = re.compile(
    r"你们|您们|贵(?:司|店|公司|行)|你家|^(?:请问|想问下|问一?下)?[，,\s]*(?:能不能|可不可以|能|可以|支持|有没有|是否|会不会)|"
    # The goods or the term itself opens the question ("这款有黑色的吗", "运费怎么算", "how long do I have to send it back").
    r"^(?:请问|想问下|问一?下)?[，,\s]*(?:这(?:款|件|双|台|个|套|种)|运费|保修期?|退货|换货|尺码|价格|停车(?:场|位)?|车位)|"
    # Goods asked for by what they are ("有防蓝光的镜片卖吗", "有没有大码的"): does the business sell them.
    r"^(?:请问|想问下|问一?下)?[，,\s]*有(?=[^，,。？?]{1,16}卖)|"
    r"^(?:how (?:long|many days)|when) (?:do|does|can|will) (?:i|we|it|they)\b|"
    r"^(?:(?:hi|hello|and|so|also|quick question)[,:\s]+)?(?:do|does|can|could|will|would) you\b",
    re.I,
)


# A grievance asked as why a thing still has not happened, of no one named: the speaker's own order, refund or repair.
_WHY_STILL_NOT_RE = re.compile(
    r"^(?:为什么|为啥|怎么)(?:到现在|这么久)?(?:还|都|一直)(?:没|不)(?:有)?(?:发货|到(?=$|[啊呀呢吗嘛？?，,。！!~～]|账|货)|退|送|修|处理|回复|上门|联系)|"
    r"^(?:why|how come) (?:has(?:n'?t| not)|is(?:n'?t| not)|have(?:n'?t| not)) (?:it|this|the (?:\w+ )?(?:order|parcel|package|"
    r"refund|repair|delivery|replacement))\b[^?]{0,30}?\b(?:still|yet)\b",
    re.I,
)


def asks_the_business(sentence: str) -> bool:
    """Whether a question asks the business about a term of its trade, addressing it as the business."""
    text = strip_chatter(sentence.strip())[:200]
    addressed = _BUSINESS_ADDRESSED_RE.search(text) or asks_terms(text)  # "退货要自己付运费吗": the terms, asked
    return is_question(text) and bool(_TRADE_RE.search(text) and addressed)


# A wh-question left without its mark, by a wh-word and a verb ("what's a normal rent in Leeds", "how long does the
# metro take"); read as one only where the speaker says nothing of theirs in it ("how much should I be practising").
_WH_ASKED_RE = re.compile(
    r"^(?:(?:and|so|also|but|ok|okay|um|oh)[,\s]+)?(?:(?:what|how|where|when|which|why)(?:'s|'re| is| are| was| were| do| "
    r"does| did| can| could| should| would| will| long| much| many| often| far)|"
    # ... or a yes-no question to the listener ("did u at least turn the water off"), with nothing of the speaker's.
    r"(?:did|do|have|were|are) (?:you|u|ya)(?! know\b))\b",
    re.I,
)


def is_question(sentence: str) -> bool:
    text = sentence.strip()
    if _UNTOLD_WH_RE.search(text):  # "也没说为什么", "不知道为啥": a wh-word that asks nothing
        return False
    if _WHY_STILL_NOT_RE.match(text):  # "怎么还没退款": asked, with or without its mark
        return True
    return bool(_QUESTION_RE.search(text) or _WH_ASKED_RE.match(text) and not has_first_person(text))


# A wh-word closing what was not said or is not known, without a question mark: a statement.
_UNTOLD_WH_RE = re.compile(
    r"(?:没(?:有)?(?:说|讲|告诉\S{0,2}|解释|通知)|不知道|不清楚|不明白|搞不懂|不懂)(?:是|该|要)?(?:为什么|为啥|什么|怎么回事)"
    r"(?:原因)?\s*[。.!！~～]*$"
)


@sentence_memo
def keep_hint(sentence: str) -> str:
    for name, pattern in _KEEP_HINTS:
        if pattern.search(sentence):
            return "commitment" if name == "decision" and UNDECIDED_RE.search(sentence) else name  # a plan, hedged
    return "decision" if decided(sentence) else ""  # the typer's decisions hint a keep too


@sentence_memo
def rule_verdict(sentence: str, *, has_slot: bool = False) -> Verdict:
    """What the rules say of one sentence of a user's turn."""
    text = sentence.strip()
    if not text or not re.search(r"\w", text):
        return Verdict(False, "empty")
    if OWED_OR_DATED_RE.search(text) and not is_question(text):  # money owed back, a dated interview, a deposit paid
        return Verdict(True, "commitment")
    chatter = small_talk_reason(text) or praise_of_yours(text) or ("" if has_slot else talk_only(text))
    if chatter:
        return Verdict(False, chatter)
    if SECRET_RE.search(text):  # a credential is never a fact: context puts facts into prompts (the turn stays)
        return Verdict(False, "secret")
    # No content: "I'm sure it'll all work out", "I'll keep going!", 加油, "it means so much to me".
    if not has_slot and (_resolve_only(text) or self_pep_only(text) or worth_only(text)):
        return Verdict(False, "reaction")
    if HYPOTHETICAL_RE.search(text) and not LAW_RE.search(text):  # a threat to sue is worth keeping
        return Verdict(False, "hypothetical")
    bare = re.sub(r"你好|您好|谢谢你|谢谢您|麻烦你|麻烦您|thank you|see you", "", text, flags=re.I)
    plain, plain_bare = strip_chatter(text), strip_chatter(bare)  # (read by most checks below)
    first = has_first_person(bare) or speaker_elided(plain_bare)  # ("moved into the flat on Cowley Rd": the speaker)
    second = bool(_SECOND_PERSON_START_RE.match(plain_bare))
    signal = strong_signal(text)
    # (before the question: "我还以为周日也营业呢" asks nothing)
    if _MISTAKEN_RE.match(plain) and not signal and not has_slot:
        return Verdict(False, "reaction")  # "我以为存一天就够了": a belief the speaker just gave up
    if _WHY_STILL_NOT_RE.match(plain_bare):  # "为什么还没发货", "Why hasn't it shipped yet?": the speaker's wait
        return Verdict(True, "complaint", sure=True)
    if not (crime := CRIME_RE.search(text) and (first or has_cjk(text))) and is_question(text) and not has_slot:
        return _question_verdict(text, bare, plain_bare, first=first or owned_zh(text, signal), signal=signal)
    # (A complaint is about the listener's business: "你们寄来的台灯是坏的" stays a complaint.)
    listener = second and not first or _about_listener(plain_bare) or about_listener_zh(plain_bare)
    listener = listener or bool(SUPPORT_RE.search(text[:200]))
    if listener and not has_slot and signal != "complaint":
        return Verdict(False, "about_other")
    if not has_slot and _EMPTY_PROMISE_RE.fullmatch(text):
        return Verdict(False, "agreement")  # a promise with no content ("I promise nothing.", "Tomorrow, I promise.")
    if not has_slot and signal != "complaint" and unsettled_only(plain, signal):
        return Verdict(False, "vague")  # "nothing decided", 还没定: a plan not made
    if not has_slot and not signal and (DONT_KNOW_RE.search(plain) or LISTENERS_CHOICE_RE.search(plain)):
        return Verdict(False, "vague")  # "我也不知道啥型号", "come over friday if u want"
    vague = without_vague(plain)  # (after its opener: "说得对，我再想想")
    if not has_slot and not signal and vague is not None and (not vague or small_talk_reason(vague)):
        return Verdict(False, "vague")  # "I'll keep an eye out, thanks", "好的，我再考虑考虑", "厉害，我可坚持不了"
    if not has_slot and not signal and hedged_outing(plain):
        return Verdict(False, "vague")  # "Might pop over to the market on Saturday if I'm free", "周末可能去爬个山"
    if not has_slot and not signal and handover_only(plain):  # "I'll send you the pics tonight", "回头把照片发你看看"
        return Verdict(False, "vague")
    if not has_slot and not signal and thanks_in_words(plain):
        return Verdict(False, "thanks")  # "Your advice really helped me", "你的鼓励对我太重要了"
    if not has_slot and not signal and (effect := says_only_effect(plain)):
        return Verdict(False, effect)  # "It really reminds me why...", "这让我想起..."
    if not has_slot and not signal and request_only(plain) and not INCOME_RE.search(plain):
        return Verdict(False, "empty_question")  # "Give me a routine, 3 days a week", "帮我设个提醒": a task, no fact
    if not has_slot and not signal and not keep_hint(text) and _asks_listener(text):
        return Verdict(False, "vague")  # "tell her congrats from me", "make me a mug", "替我祝奶奶生日快乐"
    if not has_slot and not signal:
        said = _says_nothing_yet(plain_bare, first, bare)
        if said:
            return Verdict(False, said)
    if has_slot:
        return Verdict(True, "slot")
    if signal:
        return Verdict(True, signal, sure=owned_zh(text, signal))
    if chose_one(text):
        return Verdict(True, "decision", sure=change_asked(text))
    if wish(text) and not is_question(text):
        return Verdict(True, "preference")  # "I've long wanted to try paragliding", "我特别想去冰岛看极光"
    if ACHIEVED_RE.search(text) and (first or has_cjk(text)):  # (Chinese drops the 我 of 考上了: the speaker's)
        return Verdict(True, "event", sure=owned_zh(text, "event") if has_cjk(text) else not is_question(text))
    if DIET_CHANGE_RE.search(text) and (first or has_cjk(text)) and not is_question(text):
        return Verdict(True, "preference")  # a habit given up or taken up ("I finally quit smoking", "戒糖三个月了")
    news = crime or TRIP_BACK_RE.search(text) or JOB_NEWS_RE.search(text) and (first or owned_zh(text, "event"))
    if news and (crime or not is_question(text)):  # back from a holiday, a job lost or found, a crime (asked after too)
        return Verdict(True, "event" if crime or TRIP_BACK_RE.search(text) else "work", sure=True)
    if first and says_what_speaker_is(plain):
        return Verdict(True, "identity", sure=True)  # "I'm a Virgo", "我是左撇子": one content word, and lasting
    if len(keywords(text)) < 2 and not re.search(r"\d", text) and not decided(text):
        return Verdict(False, "filler")
    hint = keep_hint(text) or ("event" if first and _DATED_RE.search(text) else "")
    return Verdict(None, hint or ("personal" if first else "content"))


def _resolve_only(text: str) -> bool:
    """Encouragement is all the sentence says of anyone: what is left without it names neither speaker nor thing."""
    rest = without_resolve(text)
    return rest is not None and (
        not rest or not has_first_person(rest) and not strong_signal(rest) and len(keywords(rest)) <= 3
    )


# The listener as the subject of a statement: after a lead ("不是吧，你才四十出头啊", "Ha, you're right"), or under
# the speaker's framing verb ("我知道你以前完全不吃生的", "I know you hate mornings"): about the listener, not the
# speaker. Read from the start of a bounded head only.
_LISTENER_RE = re.compile(
    r"^(?P<lead>[^，,。.!！?？]{1,12}[，,]\s*)?(?:(?:我(?:早就|一直|就)?(?:知道|以为|觉得|猜|记得|希望|赌|打赌|说)|(?:please )?tell me|i (?:know|knew|think|thought|bet|guess|"
    r"remember|(?:really |do |just )?hope)(?: that)?|(?:(?:i'?m )?(?:so )?sorry|gutted) (?:to hear )?about|last (?:i|we) "
    r"heard,?|last time (?:we|i) (?:talked|spoke|chatted),?)\s*)?"
    r"(?:你|您|(?:you|you're|your)\b)",
    re.I,
)
_EMPTY_PROMISE_RE = re.compile(r"(?:\w{1,20}(?: \w{1,20}){0,2},? {1,3})?i promise(?: nothing| you)?[ .!~x]{0,8}", re.I)
_MISTAKEN_RE = re.compile(r"我(?:还)?以为")


# A request that the listener do something, the speaker only its beneficiary ("tell her congrats from me", "pray for
# me", "save me a seat", "你必须给我当伴娘", "替我祝奶奶生日快乐"): what the listener should do, nothing of the speaker.
_ASK_LISTENER_RE = re.compile(
    r"^(?:(?:please|pls|just|go on|do|and|so|oh)[,\s]+)*(?:tell|make|save|get|grab|bring|wish|pray for|keep|water|feed|"
    r"text|buy|lend|cover for|pick|hug|kiss|say hi|say hello|give (?:my|her|him|them))\b|"
    r"^(?:你|您)(?:必须|得|一定要|可得|记得)(?:给|帮|替|陪|跟)我|^(?:给|帮|替|陪|跟)我(?:跟|向|给|对)?\S{0,4}?(?:祝|问好|带个好|说声|留|带|买)|发(?:给)?我(?:看看|瞧瞧|看一下)|^(?:你|您)(?:帮|替)我(?:问问|问一下|打听|留意|看看|盯)",
    re.I,
)
_CLAUSE_RE = re.compile(r"[,，;；:：]")


def _asks_listener(text: str) -> bool:
    """Every clause naming the speaker is a request to the listener, and the speaker is no subject anywhere."""
    clauses = [strip_chatter(c).lstrip("哇哎呀嘿 ") for c in _CLAUSE_RE.split(text[:200])]
    named = [c for c in clauses if has_first_person(c)]
    if not named or not all(_ASK_LISTENER_RE.match(c) for c in named):
        return False
    return not any(I_SUBJECT_RE.search(_ASK_LISTENER_RE.sub(" ", c, count=1)) for c in named)


# News announced, not yet told ("I meant to tell you about the weirdest thing at work", "okay so I have news",
# "我想跟你说说那房子的事", "你猜我干了啥"): the telling is the act; only what follows it can be a fact.
_ANNOUNCE_RE = re.compile(
    r"^(?:(?:okay|ok|so|well|right|listen|rude|anyway|um|oh|and)[,.!]?\s+)*(?:(?:i|we) (?:have|'ve got|got) (?:some |big |"
    r"huge |good |bad |exciting |weird )?news\b|(?:i )?(?:wanted|want|need|meant|have|'ve got|had) to tell you\b|"
    r"(?:i )?(?:wanted|want|need) to (?:talk to you|run something by you|ask you something)\b|guess what\b|you'?ll never "
    r"guess\b)|^(?:对了[，,]?)?(?:我)?(?:想|要|得|有点事)?(?:跟|和|给)你(?:说|讲|聊|汇报)(?:说|讲|聊|一下)?|^(?:我)?有(?:个|件)"
    r"(?:事儿?|消息|好消息|坏消息)(?:想|要)?(?:跟|和)?(?:你)?(?:说|讲)?|^告诉你(?:个|一个)(?:好|坏)?(?:消息|事儿?)|^(?:哈+|诶|哎)?[，,\s]*你猜(?:猜)?(?=我|怎么|咋|发生)",
    re.I,
)
_TOPIC_ONLY_RE = re.compile(r"的事(?:儿|情)?$|这(?:件)?事(?:儿)?$|\b(?:thing|story|news)\b|啥|什么", re.I)
# Anticipation of what is not the speaker's ("can't wait to hold your wonky mugs", "迫不及待想看看你们公司"): a reaction.
_ANTICIPATE_RE = re.compile(
    r"\b(?:i )?(?:can'?t|cannot) wait\b|\b(?:i'?m )?(?:so |really )?looking forward to\b|\b(?:i'?m )?so excited "
    r"(?:for you|to see)\b|(?:我)?(?:好|太|超|真)?(?:迫不及待|等不及|期待)(?:了|啊)?",
    re.I,
)
# Praise of the listener or of what is theirs ("that coat you had on was gorgeous", "你这身材保持得也太好了").
_PRAISE_RE = re.compile(
    r"\b(?:gorgeous|stunning|beautiful|lovely|amazing|brilliant|fantastic|talented|clever|proper good|so good|such a "
    r"good|a natural|a star|a legend|suits you|looks? (?:great|amazing|good|lovely|fab))\b|好看|漂亮|真帅|好帅|真棒|好棒|"
    r"有才|能干|真行|真有你的|保持得|太好了|真好|厉害|优秀",
    re.I,
)


def _says_nothing_yet(text: str, first: bool, bare: str) -> str:
    """A reason to drop a sentence that announces news without telling it, anticipates or praises what is the
    listener's, or "" when it may say something of the speaker's."""
    head = text[:200]
    m = _ANNOUNCE_RE.match(head)
    if m and m.group(0):
        rest = head[m.end() :].strip(" ,，.。!！~～")
        if not rest or not has_first_person(rest) or _TOPIC_ONLY_RE.search(rest):
            return "filler"
    anticipation = _ANTICIPATE_RE.search(head)
    if anticipation and not keep_hint(head):
        rest = head[: anticipation.start()] + " " + head[anticipation.end() :]
        if not has_first_person(rest) and not _DATED_RE.search(rest):
            return "reaction"
    if not first and _SECOND_PERSON_RE.search(bare) and _PRAISE_RE.search(bare):
        return "compliment"
    return ""


_ASKS_FOR_HELP_RE = re.compile(r"帮(?:我|忙)|麻烦你|\b(?:please|can you|could you|help me)\b", re.I)

_CLAUSE_CUT_RE = re.compile(r"[，,;；：]|(?<!\d):(?!\d)|(?<=[\u4e00-\u9fff])\s(?=[\u4e00-\u9fff])")


def statement_beside_question(text: str) -> str:
    """The speaker's statement with content in the clauses before a question's last clause ("I'm moving to Leeds,
    do you deliver there?" -> "I'm moving to Leeds") or after a question's first ("how do I stretch my calves, I
    tore one in March" -> "I tore one in March"), or ""."""
    cuts = [m.start() for m in _CLAUSE_CUT_RE.finditer(text[:300])]  # (a time's colon is none: "at 8:30")
    if not cuts:
        return ""
    if _stated(head := text[: cuts[-1]]):
        return head.strip()
    tail = text[cuts[0] + 1 :]  # (only read when the first clause asks: firm_type calls this on every sentence)
    return tail.strip() if _stated(tail) and is_question(text[: cuts[0]]) else ""


def _question_verdict(text: str, bare: str, plain_bare: str, *, first: bool, signal: str) -> Verdict:
    """What the rules say of a question with no slot: kept when it asks the business, states a fact of the
    speaker's beside it or a grievance; else it carries nothing."""
    if REMIND_RE.search(text):
        return Verdict(None, "commitment")  # "Can you remind me to call the vet tomorrow?": the plan is theirs
    if not first and asks_after_listener(bare):
        return Verdict(False, "empty_question")  # "How's the store going?": the listener's news, asked after
    if signal == "complaint" and WHY_OF_BUSINESS_RE.match(plain_bare):
        return Verdict(True, "complaint", sure=True)  # "Why is your courier so slow?": a grievance, asked of it
    if not signal and request_only(plain_bare):
        return Verdict(False, "empty_question")  # "help me work out a price for my loaf?": a task, asked as a question
    if _SERVICE_RE.search(text):
        return Verdict(True, "inquiry", sure=asks_the_business(text))  # "你们能开发票吗": as sure as a slot
    if first and not signal and statement_beside_question(bare):
        return Verdict(None, "personal")  # "我要去德国读研了，九月开学，行李要带什么？": a fact, then the question
    fault = _fault_then_question(bare)  # a fault, then asked about, is kept: "水管又漏了，管不管？"
    if (not first or not signal) and not fault:
        return Verdict(False, "empty_question")
    return Verdict(True, "complaint" if fault and (not first or not signal) else signal)


def _fault_then_question(text: str) -> bool:
    """A fault stated in the clauses before a question's last ("The lift is broken again, is anyone fixing it?"), not
    asked of the listener's things ("Is your lift broken again?"); the business's (你们装的…) is the speaker's grievance."""
    cuts = [m.start() for m in _CLAUSE_CUT_RE.finditer(text[:300])]
    head = strip_chatter(text[: cuts[-1]] if cuts else "")
    fault = strong_signal(head) == "complaint" and not is_question(head)
    return fault and (head.startswith(("你们", "您")) or not _SECOND_PERSON_START_RE.match(head))


def _stated(part: str) -> bool:
    """A statement of the speaker's with content, not a question nor a request ("帮我查一下快递，单号…")."""
    own = has_first_person(part) or has_cjk(part) and owned_zh(part, strong_signal(part))  # (最近总失眠: 我 dropped)
    stated = own and len(keywords(part)) >= 2 and not is_question(part)
    return stated and not _ASKS_FOR_HELP_RE.search(part) and not _ASKED_START_RE.match(part.strip())


# A clause that opens as the speaker's own question, its mark after a later clause ("Can I change my address to 14
# Rose Lane, Leeds?"): asked, not stated.
_ASKED_START_RE = re.compile(r"(?:can|could|may|should|shall|do|did|will|would|am) (?:i|we)\b", re.I)
# The speaker asking leave to change a thing of theirs ("Can I change my delivery address to ...?", "能不能把我的手机号
# 换成…？"): asked of the business, whatever slot the thing fills.
_ASKS_LEAVE_RE = re.compile(
    r"^(?:(?:can|could|may) (?:i|we) (?:change|update|switch|move|swap|add|remove)\b)|^(?:我|我们)?(?:可以|能|能不能|可不可以|能否)"
    r"(?:帮我)?把",
    re.I,
)


def asks_leave(sentence: str) -> bool:
    """Whether the sentence asks the business's leave to change a thing of the speaker's."""
    return bool(_ASKS_LEAVE_RE.match(sentence.strip()))


def _about_listener(text: str) -> bool:
    """The statement's subject is the listener and the speaker appears only to frame it."""
    head = text[:200]
    m = _LISTENER_RE.match(head)
    if m is None or m.group("lead") and has_first_person(m.group("lead")):
        return False  # "我对海鲜不感冒，你推荐的时候避开": the speaker's own statement comes first
    return not has_first_person(head[m.end() :])


_DATED_RE = re.compile(
    r"\b(yesterday|last (?:week|weekend|night|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"mon|tues?|weds?|thur?s?|fri|sat|sun)|"
    r"\d+ (?:days|weeks|months|years) ago|this morning|in (?:19|20)\d\d)\b|昨天|前天|上周|上个月|去年|上周末|今天早上|\d{4}年",
    re.I,
)


def value_gate(content: str) -> GateDecision:
    """The whole message by the rules alone (no classifier): kept when any sentence is not certainly chatter."""
    reasons: list[str] = []
    for sentence in re.findall(r"[^.!?。！？\n;；]+[.!?。！？;；]*", content):
        verdict = rule_verdict(sentence)
        if verdict.keep is not False:
            return GateDecision(True, verdict.reason)
        reasons.append(verdict.reason)
    return GateDecision(False, main_reason(reasons) if reasons else "empty")
