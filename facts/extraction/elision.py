"""English sentences kept by the gate that carry no first person: said of the speaker, or not kept.

Chat drops the subject ("Tried the new ramen bar on Friday." = "I tried..."); that is the speaker's own story and
reads as "Joanna tried the new ramen bar on Friday". A sentence addressed to the listener ("Hope your knee is
better", "Your new haircut suits you"), an instruction ("Be sure to ask them first") or a reaction to what the
listener said ("Sounds lovely") is not about the speaker at all: it yields no fact ("X mentioned that Be
sure to..." would be a quote in disguise). A promise or request whose only content is to talk later ("I'll let you
know", "Ping me if anything comes up", "Tell me more about your trip") carries nothing either, nor does a plan
whose object is a pronoun alone ("Sure, I'll give that a look soon!", "我回头试试"), the speaker's attitude to the
listener's affairs ("I'm sure you'll nail it", "I know how hard that is", "我相信你可以的"), a general truth about
nobody ("Moving house can be exhausting") or a pointer to a picture ("Here's a pic of the garden"). Linear-time
patterns over the sentence's head only.
"""

from __future__ import annotations

import re

from facts.extraction.chatter import I_WORDS, ME_WORDS, MY_WORDS, WE_WORDS, first_person_re
from facts.extraction.person import is_past_form, third_person_en
from facts.text import keywords

_HEAD = 300
_ADVERB = r"(?:even|just|also|finally|recently|actually|really|totally|always|never|still|already|once|then)"
_SECOND_PERSON_RE = re.compile(r"\b(?:you|your|yours|you're|you've|you'll|yourself|u|ur)\b", re.I)
_IMPERATIVE_RE = re.compile(
    r"(?:please\s+)?(?:be|check|let|let's|try|keep|make sure|take|go|don't|do not|remember|hope|enjoy|have fun|"
    r"give|look at|stay|tell|come|treat|say|watch|listen|follow|ask|bring|show|consider|imagine|trust|wish|put|add|use|"
    r"call|text|send|grab|pick|buy|get|turn|wait|drink|eat|read|sign up|don't forget|feel free)\b",
    re.I,
)
_REACTION_RE = re.compile(
    r"(?:(?:wow|whoa|oh|aw+|omg|ooh|yay|haha+|lol|ugh|oof|yikes|damn|dang)[\s,!.]+)*(?:(?:(?:that|it|this)(?:'s| is)?\s+)?"
    r"(?:sounds?|looks?|seems?)|congrats|congratulations|good luck|well done|happy birthday|best of luck|"
    # Said of what the listener just told ("ugh that's rough, ...", "oof, that's brutal").
    r"that(?:'s| is) (?:so |really |pretty |just )?(?:rough|tough|awful|brutal|harsh|gutting|the worst|unfair|rubbish))\b",
    re.I,
)
_ELIDED_RE = re.compile(rf"\b(?:{_ADVERB}\s+)?([A-Za-z]+)\b(?:\s+([A-Za-z']+))?", re.I)
# After a name that looks like a past form ("Fred came over", "Ahmed is back"): a verb, not an object.
_VERB_AFTER = frozenset(["is", "was", "has", "had", "and", "will", "would", "can", "could", "says", "said", "'s"])


# Discourse markers that open a sentence and say nothing of its content ("Plus, it's dairy-free").
_MARKER_RE = re.compile(
    r"^(?:(?:plus|yet|thankfully|luckily|fortunately|honestly|anyway|anyways|besides|also|still|and|but|so|well|oh|btw|"
    r"by the way|speaking of which|fyi|ngl|tbh|lol|update|news)\b[,:]?\s+){1,3}",
    re.I,
)
# An instruction opening with a verb the list above lacks, when a determiner or object follows
# ("Gather documents like...", "Avoid the main road at rush hour").
_BASE_VERB_RE = re.compile(
    r"(?:gather|find|make|start|stop|avoid|focus on|practi[cs]e|join|visit|contact|write|plan|set|save|pack|book|pay|"
    r"choose|research|learn|note|mind|relax|breathe|believe in|hold|hang in|reach|ignore|skip|fill|bring)\s+"
    r"(?:the|a|an|some|any|all|it|them|this|that|these|those|on|up|out|in|down|off|\w+s)\b",
    re.I,
)
_POINTER_RE = re.compile(
    r"(?:here'?s|here is|here are|this is|these are|check out|look at)\b.{0,60}?"
    r"\b(?:pics?|pictures?|photos?|shots?|snaps?|screenshots?|videos?|clips?|links?|selfies?)\b|"
    # "Here's our latest work": a thing held up to the listener's eyes.
    r"(?:here'?s|here is|here are) (?:my|our) (?:latest |newest |new |recent |last |first )?"
    r"(?:work|one|ones|creation|creations|piece|attempt|effort|project|painting|drawing|bake|batch)\b",
    re.I,
)
# A general truth about nobody in particular: a gerund phrase, a bare plural or "nothing/life/people" as subject,
# then an evaluation or a general effect ("Allergies can be tough", "Running a shop isn't easy").
_GENERIC_SUBJECT = (
    r"(?:[a-z]+ing\b[^,.!?;]{0,40}?|nothing|everything|everyone|everybody|life|people|[a-z]{3,}s|"
    # A kind of thing named by two words ("Strength training is key", "Dance floors help ..."), not the speaker's.
    r"(?!(?:my|our|his|her|their|your|the|these|those|this|that|its|some|all)\b)[a-z]{3,20} (?:[a-z]{2,20}ing|[a-z]{2,20}s))"
)
_EVALUATION = (
    r"(?:tough|hard|easy|fun|great|scary|amazing|awesome|important|key|the best|worth it|rewarding|tricky|"
    r"exhausting|stressful|overwhelming|good for (?:you|the soul|your health)|healthy|necessary|essential|"
    r"a lot of work|no joke|so much fun|wonderful|beautiful|challenging|difficult|frustrating|nerve-wracking|"
    r"therapeutic|relaxing|underrated|overrated|the worst)"
)
_GENERIC_RE = re.compile(
    rf"^{_GENERIC_SUBJECT}\s+(?:(?:can|could|may|might|will|must)(?:n'?t| not)?\s+(?:be|get|feel)\s+"
    rf"(?:so |really |very |pretty |quite |super |such )?{_EVALUATION}|"
    rf"(?:is|are|isn'?t|aren'?t|gets?|feels?)\s+(?:so |really |very |pretty |quite |super |such |not )?{_EVALUATION}|"
    rf"(?:beats?|helps?|makes?|brings?|teach(?:es)?|keeps?|prevents?|builds?|improves?|reduces?|causes?)\s)",
    re.I,
)
_PROPER_LATER_RE = re.compile(r"\s[A-Z][a-z]|\d")


def not_about_speaker(body: str, *, complaint: bool = False) -> bool:
    """A sentence without first person that speaks to the listener, instructs, reacts to what was said, states a
    general truth or points at a picture. A complaint may speak to the business ("Your courier left it in the
    rain"): only the other tests apply to it."""
    head = _MARKER_RE.sub("", body[:_HEAD].lstrip(" \"'-–—"), count=1)
    if not complaint and _SECOND_PERSON_RE.search(head):
        return True
    if _IMPERATIVE_RE.match(head) or _BASE_VERB_RE.match(head) or _REACTION_RE.match(head) or _POINTER_RE.match(head):
        return True
    generic = _GENERIC_RE.match(head)
    return bool(generic) and not _PROPER_LATER_RE.search(head)


def points_at_picture(sentence: str) -> bool:
    """ "Here is a photo from the allotment": a caption for a picture, which the turn keeps searchable."""
    return bool(_POINTER_RE.match(sentence[:_HEAD].lstrip(" \"'-–—")))


def without_marker(body: str) -> str:
    """The sentence without an opening discourse marker ("Plus, it's vegan" -> "it's vegan")."""
    return _MARKER_RE.sub("", body, count=1)


# A participle that names a state, not an act, when the subject is dropped ("Exhausted after the move" is "I'm
# exhausted", never "I exhausted"): feelings and conditions, a closed class; or any participle after a degree word
# ("So stressed about it", "A bit swamped").
_STATE_WORDS = (
    r"exhausted|knackered|shattered|stressed|thrilled|excited|delighted|worried|tired|bored|overwhelmed|relieved|"
    r"stuck|gutted|chuffed|stoked|pleased|surprised|shocked|scared|terrified|annoyed|frustrated|disappointed|"
    r"devastated|obsessed|hooked|buzzing|swamped|slammed|pumped|psyched|amazed|impressed|touched|drained|wiped out|"
    r"based|located|engaged|qualified|vaccinated|convinced|tempted|torn|done in|spoiled|spoilt|blessed|hungover"
)
_STATE_RE = re.compile(
    rf"(?:(?:so|really|very|totally|pretty|super|a bit|a little|kinda|kind of|absolutely|completely|utterly|"
    rf"properly|well|bloody|quite|still|just|also)\s+)*(?:{_STATE_WORDS})\b|"
    r"(?:so|really|very|totally|pretty|super|a bit|a little|kinda|absolutely|completely|utterly|properly|bloody)\s+"
    r"[a-z]{2,20}ed\b",
    re.I,
)


# A plan told with its verb alone ("Moving to Leeds end of the month", "Flying out to Lagos on Friday"): the speaker's.
# Not a gerund that is the subject of its own verb ("Moving house can be exhausting").
_GOING_RE = re.compile(
    r"(?:moving|heading|flying|leaving|starting|going|travelling|traveling|driving|relocating|off)"
    r" (?:to|into|out|back|abroad|home|house|over|up|down|away|for|at|on|in|next|this|tomorrow)\b",
    re.I,
)
_FINITE_RE = re.compile(
    r"\b(?:is|are|was|were|isn'?t|aren'?t|wasn'?t|can|could|will be|would be|makes?|keeps?|takes?|feels?|seems?)\b",
    re.I,
)


_BEEN_IT_RE = re.compile(
    r"(?:quite|such|a|an|ages|forever|years|months|weeks|so|too|crazy|mad|wild|hectic|nuts)$", re.I
)


def speaker_elided(sentence: str) -> bool:
    """Whether an English sentence opens with the speaker's dropped subject ("moved into the flat on Cowley Rd",
    "fyi sold the van", "Exhausted after the move"): the speaker is its subject."""
    return not re.search(r"[\u4e00-\u9fff]", sentence) and _elided_lead(without_marker(sentence)) is not None


def with_elided_subject(body: str, speaker: str) -> str | None:
    """ "Tried the new ramen bar" -> "Joanna tried the new ramen bar", "Exhausted after the move" -> "Joanna is
    exhausted after the move"; None when the sentence does not open with a past-tense verb or a state (with at
    most one adverb before the verb)."""
    lead = _elided_lead(body)
    if lead is None:
        return None
    head = body.lstrip(" \"'-–—")
    return third_person_en(lead + head[:1].lower() + head[1:], speaker)


def _elided_lead(body: str) -> str | None:
    """The subject the sentence dropped, as the speaker would say it ("I'm ", "I've ", "I "), or None."""
    head = body.lstrip(" \"'-–—")
    if _STATE_RE.match(head[:_HEAD]):
        return "I'm "
    m = _ELIDED_RE.match(head[:_HEAD])
    # "Been swimming a lot" -> "Jon has been swimming a lot"; not "Been quite a week" (it has), "Been ages" (it has)
    if m is not None and m.group(1).lower() == "been":
        return None if _BEEN_IT_RE.match(m.group(2) or "") else "I've "
    if _GOING_RE.match(head[:_HEAD]) and not _FINITE_RE.search(head[:_HEAD]):
        return "I'm "  # "Moving to Leeds in May"
    if m is None or not is_past_form(m.group(1)):
        return None
    after = (m.group(2) or "").lower()
    if after in _VERB_AFTER or after and is_past_form(after):
        return None
    if m.group(1).lower() == "got" and after in {"it", "that", "you", "ya", "ya'"}:
        return None  # "Got it, Nate": agreement, no act
    return "I "


# Talking later, and the clauses that only condition it ("if you need anything", "whenever you need help").
_TALK_RE = re.compile(
    r"\b(?:let (?:me|you|us) know|lemme know|keep (?:you|me) (?:posted|updated|in the loop)|get back to (?:you|me)|"
    r"reach out|hit (?:me|you) up|tell me (?:more|all)|text (?:me|you)|call (?:me|you)|ring (?:me|you)|give (?:me|you) a shout|"
    r"ping (?:me|you)|message (?:me|you)|drop (?:me|you) a line|"
    r"send (?:it|them|that|those) (?:to you|over|your way))\b|(?:跟|和|给)?(?:我|你)(?:说|讲)一声|告诉(?:我|你)|"
    r"通知(?:我|你)|联系(?:我|你)|找我|叫我|跟我说|保持联系",
    re.I,
)
_TALK_FILLER_RE = re.compile(
    r"\b(?:if (?:i|you) (?:need|want) (?:anything|any help|help|more|some)(?: \w+)?|if there'?s anything(?: else)?"
    r"(?: i can do)?(?: to help)?|whenever you (?:need|want)(?: help| anything)?|any ?time|definitely|sure|just|"
    r"(?:i'?ll|i will|i'?m gonna|i am going to|i can|i'?d|will|would|be)|help(?: you)?(?: out)?|later|soon|more|chalo|"
    r"(?:on )?(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|tonight|this (?:evening|afternoon|weekend))\b|"
    r"有(?:什么)?(?:需要|问题|事)(?:的话)?|需要[^，。！？]{0,20}?的话|随时|到时候?|回头|一定|再|就|的话|[会我你吧啊哈呀啦]",
    re.I,
)


def only_talk(sentence: str) -> bool:
    """A promise or request to talk later with no content of its own, or one about the listener's business."""
    head = sentence[:_HEAD]
    m = _TALK_RE.search(head)
    if m is None:
        return False
    rest = _TALK_FILLER_RE.sub(" ", head[: m.start()] + " " + head[m.end() :])
    return bool(_SECOND_PERSON_RE.search(rest)) or len(keywords(rest)) < 2


# Liking or hating a pronoun alone ("I love it!", "I'd love to.", "我也喜欢"): what is liked is in another turn.
_EMPTY_LIKING_RE = re.compile(
    r"(?:(?:aw+|oh+|wow|yes|yeah|haha+|omg|honestly)[\s,!.]+)*"
    r"(?:i|we)(?:'d| would| really| just| totally| absolutely| so| also| still)* (?:love|like|enjoy|adore|hate)s? "
    r"(?:it|that|this|them|to|those|these|him|her)(?: (?:so much|a lot|too|as well))?[\s!.~]*|"
    r"我?(?:也|真的|超|好|特别|很|就)*(?:喜欢|爱|讨厌)(?:它|这个|那个|他|她)?(?:了|啊|呀|哦|的)?[\s!！。~～]*",
    re.I,
)


# Liking, or keeping in mind, a thing pointed at and not named ("We're obsessed with that show", "I love how cosy it
# looks", "I like holding them", "I'll never forget that", "我超爱这个系列"): what it is was shown or said in another
# turn, and the sentence alone says nothing a month later. The speaker's own job, home or town is named enough.
_LIKING_HEAD_RE = re.compile(
    r"(?:(?:aw+|oh+|wow|yes|yeah|haha+|omg|honestly|seriously|man|gosh)[\s,!.]+)*"
    r"(?:(?:i|we)(?:'d| would| really| just| totally| absolutely| so| also| still| do| already| kinda| truly)* "
    r"(?:love|like|enjoy|adore|hate|dig|appreciate)s?|(?:i'?m|i am|we'?re|we are)(?: (?:so|such|really|totally|just|also|"
    r"already|kinda|a bit))* (?:a (?:huge |big |massive |real )?fan of|obsessed with|into|crazy about|in love with|"
    r"hooked on)|(?:i|we)(?:'ll| will) (?:never forget|always remember|always cherish|cherish|treasure))\s+",
    re.I,
)
_POINTED_RE = re.compile(
    r"(?:it|that|this|them|those|these|him|her)|(?:this|that|these|those)(?: [a-z]{1,20}){1,2}|"
    r"(?:how|the way|that)\b[^,.!?;]{0,40}?\b(?:it|this|that|they|these|those)\b[^,.!?;]{0,30}|"
    r"[a-z]{1,20}ing (?:it|that|this|them|those|these)",
    re.I,
)
_POINTED_TAIL_RE = re.compile(r",? (?:so much|a lot|too|as well|already|now|lately|so far|forever)$", re.I)
_FRAME_WORDS_RE = re.compile(
    r"^(?:how|the way|that)\b|\b(?:looks?|looked|seems?|feels?|sounds?|turned out|came out|works?|worked)\b", re.I
)
_OWN_LIFE_RE = re.compile(
    r"\b(?:job|work|career|city|town|village|neighbou?rhood|area|country|house|home|flat|apartment|place|school|"
    r"class|course|team|company|office|life|family|kids|husband|wife|partner)\b|城市|工作|房子|小区|学校|公司|地方|生活|"
    r"家|国家|专业|行业|老公|老婆|孩子",
    re.I,
)
# "It was a night we'll always remember", "这是我永远不会忘记的一天": the thing kept in mind is only "that".
_POINTED_MEMORY_RE = re.compile(
    r"(?:that|this|it)(?:'s| is| was) (?:a|one|the)(?: [a-z]+)? (?:memory|moment|day|night|time|experience|trip) "
    r"(?:i|we)(?:'ll| will) (?:never forget|always remember|always cherish|cherish|treasure)(?: forever)?[\s!.~]*|"
    r"(?:那|这)(?:是|真是)我(?:们)?(?:永远|一辈子)(?:都)?(?:不会|忘不了|难忘)[^，。！？]{0,8}?[\s!！。~～]*",
    re.I,
)
_ZH_POINTED_LIKING_RE = re.compile(
    r"我?(?:也|真的|超|好|特别|很|就|太|超级|非常|挺|还挺)*(?:喜欢|爱|迷|讨厌)(?:上了?|死了?)?(?:这|那)"
    r"(?:个|部|首|本|种|张|幅|款|道|些|件|套|组|条|只)?[\u4e00-\u9fff]{0,5}?(?:了|啊|呀|哦|的)?[\s!！。~～]*"
)


def empty_liking(sentence: str) -> bool:
    """A preference whose object is only a pronoun, or a thing pointed at and not named: nothing on its own."""
    text = sentence[:_HEAD].strip()
    if _EMPTY_LIKING_RE.fullmatch(text) or _POINTED_MEMORY_RE.fullmatch(text):
        return True
    if _OWN_LIFE_RE.search(text):
        return False
    head = _LIKING_HEAD_RE.match(text)
    if head is None:
        return bool(_ZH_POINTED_LIKING_RE.fullmatch(text))
    rest = _POINTED_TAIL_RE.sub("", text[head.end() :].rstrip(" \t\n!.~"))
    if not _POINTED_RE.fullmatch(rest):
        return False
    return len(keywords(_FRAME_WORDS_RE.sub("", rest))) < 2


# A plan whose object is a pronoun alone: what it is about was said in another turn ("I'll give that a look",
# "Gonna try baking it tonight", "I'll nab 'em at the rematch", "我回头试试").
_PLAN_RE = re.compile(
    r"(?:i'?ll|i will|going to|gonna|i'?d (?:love|like) to|i (?:want|plan|need|have) to|(?:i )?should|i might|i may|"
    r"i can'?t wait to|(?:i'?m |we'?re )?planning(?: on| to)?|(?:i'?m |we'?re )?thinking of)\b",
    re.I,
)
# The object a plan names by a pronoun or a bare quantifier: what it is about was said elsewhere ("I'll order a
# couple", "planning a few", "should do it too").
_EMPTY_OBJECT_RE = re.compile(
    r"\b(?:it|that|this|them|those|these|one|a few|a couple|some|a bunch|more|several)\b|'em\b", re.I
)
# A passing mood or a frame before the plan ("I'm feeling inspired by the weather so ...", "Makes me feel like
# maybe ...", a pronoun not yet acted on: "haven't tried that one yet, but ..."): no content of its own.
_PLAN_FRAME_RE = re.compile(
    r"\b(?:i'?m (?:feeling |getting |so |really |a bit |kinda )*[a-z]+(?:ed|ful|ive)(?: (?:by|about|with) "
    r"(?:the |my |this |all )?[a-z-]+)?|(?:it )?makes? (?:me )?(?:feel|think)(?: like)?|(?:i )?(?:feel|think|guess|"
    r"reckon) (?:like )?|makes sense|perhaps|maybe|kinda|kind of|"
    # Not yet done to the same pronoun ("I haven't watched it yet, but ...").
    r"(?:i )?(?:haven'?t|have not|hasn'?t|never) (?:[a-z]+ ){1,2}?(?:it|them|that|this|those|these)(?: yet)?)\b",
    re.I,
)
_PLAN_FILLER_RE = re.compile(
    r"\b(?:that'?s (?:ok|okay|fine|alright)|no worries|ok(?:ay)?|yeah|yes|o+h+|a+w+|wow|hmm+|haha+|sure|for sure|definitely|totally|surely|really|"
    r"so|too|also|just|then|again|first|soon|later|sometime|some ?day|tonight|today|tomorrow|this (?:weekend|week)|"
    r"next (?:time|week|weekend)|one day|maybe|probably|at some point|try|trying|check|checking|give|giving|look|"
    r"looking|into|out|up|a (?:try|go|shot|look)|consider|think about|do|doing|get|getting|see|make|making|"
    r"keep(?=.*\bin mind| (?:it|that|this|them) (?:up|going)\b)|in mind|going|read|reading|watch|watching|remember|it|that|this|them|those|these|one|thing|things|the|"
    r"to|and|but|will|be|have|i'm|i am|few|couple|some|bunch|more|several|a|order|ordering|buy|buying|book|"
    r"booking|grab|join|bring|plan|planning|should|on|pick|picking|take|taking|find|finding|sort|sorting|no|nope)\b|'em\b",
    re.I,
)
_PLAN_ZH_RE = re.compile(
    r"(?:那|好|嗯|行)?[，,]?我?(?:会|要|回头|改天|有空|下次|到时候?)*(?:去|再|也)?(?:试试|看看|试一下|看一下|"
    r"考虑一下|研究一下|了解一下|瞅瞅)(?:它|这个|那个|吧)?(?:的|吧|哈|啦|了|哦)*[\s!！。~～]*"
)

# The same pronoun not yet acted on, before a plan in Chinese ("这个我还没试过，回头试试").
_NOT_YET_ZH_RE = re.compile(
    r"(?:这个|那个|这些|那些|它)?(?:我|我们)?(?:还|都)?没(?:有)?[\u4e00-\u9fff]{1,2}?过(?:它|这个|那个)?[，,\s]{1,2}"
)

# A plan whose object is a number alone ("我也想弄一个", "我打算也报几节"): the thing is named in another turn.
_PLAN_ZH_SOME_RE = re.compile(
    r"(?:那|好|嗯|行)?[，,]?我?(?:也|就|会|要|想|打算|准备|回头|再|还)+[\u4e00-\u9fff]{1,2}?(?:几|一些|一|两)"
    r"(?:个|节|件|本|次|张|样|只|份|套|双)?(?:吧|了|啊|哈|呢)?[\s!！。~～]*"
)


# A done act whose object is a pronoun alone ("We finally did it!", "I nailed it", "我们做到了！"): what was done is
# in another turn.
_EMPTY_ACT_RE = re.compile(
    r"(?:(?:aw+|oh+|wow|yes+|yeah|yay|haha+|omg|well|and|so)[\s,!.]+)*(?:i|we)(?: (?:just|finally|actually|really|"
    r"totally|all|both|somehow))* (?:did|made|nailed|smashed|aced|finished|pulled off|managed|got through|survived) "
    r"(?:it|that|this)(?: (?:at last|finally|again|too|today|yesterday|this (?:morning|week|weekend)|last (?:night|"
    r"week|weekend)|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)))?[\s!.~]*|(?:我们|我)?(?:昨天|前天|今天|刚刚?|上周末?|上个月)?(?:终于|总算|也)?(?:做到|搞定|完成|熬过来|"
    r"挺过来)了(?:啊|呀|哈)?[\s!！。~～]*",
    re.I,
)


def empty_plan(sentence: str) -> bool:
    """A plan or promise whose only object is a pronoun and whose only other words are fillers and times; likewise a
    done act with a pronoun alone for its object."""
    head = sentence[:_HEAD].strip()
    if _EMPTY_ACT_RE.fullmatch(head):
        return True
    not_yet = _NOT_YET_ZH_RE.match(head)
    if _PLAN_ZH_RE.fullmatch(head[not_yet.end() :] if not_yet else head):
        return True
    if _PLAN_ZH_SOME_RE.fullmatch(head):
        return True
    m = _PLAN_RE.search(head)
    if m is None or not _EMPTY_OBJECT_RE.search(head[m.end() :]):
        return False
    rest = _PLAN_FILLER_RE.sub(" ", _PLAN_FRAME_RE.sub(" ", head[: m.start()]) + " " + head[m.end() :])
    return not re.search(r"[A-Za-z]{2,}", rest)


# The speaker's attitude to the listener's affairs: "I'm sure you'll love it", "I bet it turns out great",
# "I know how hard that must be", "我相信你一定可以的".
_ATTITUDE_RE = re.compile(
    r"(?:(?:oh|aw+|wow|yeah|well|and|but|so|honestly)[\s,!.]+)*i(?:'m| am)?\s+(?:really |so |totally |just |also |"
    r"truly |completely |always |do )*(?:sure|bet|know|understand|can imagine|can't imagine|cannot imagine|glad|happy|"
    r"proud|sorry|thrilled|impressed|believe|grateful|thankful|appreciate|admire|love how|love that|like how)\b(.*)",
    re.I,
)
_ATTITUDE_ZH_RE = re.compile(r"(?:我)?(?:真的|也|完全)?(?:相信|理解|懂|明白|为)(你|您)(?!们)")
_FIRST_PERSON_RE = first_person_re(I_WORDS, WE_WORDS, ME_WORDS, MY_WORDS, zh="")
_EMPATHY_RE = re.compile(r"^\s*(?:how|what)\s+(?!to\b)", re.I)
_OUTCOME_RE = re.compile(
    r"^\s*(?:that\s+)?(?:it|that|this|they|she|he|things|everything)(?:'ll|'s| will| is| are| would| was)?\s+"
    r"(?:\w+\s+){0,2}(?:great|well|fine|amazing|awesome|ok|okay|perfect|off|out|love|like|enjoy|go well|work out)\b",
    re.I,
)


def listener_reaction(sentence: str) -> bool:
    """The speaker's certainty, empathy or pride about the listener's affairs: nothing about the speaker."""
    head = sentence[:_HEAD].strip()
    if _ATTITUDE_ZH_RE.match(head):
        return True
    m = _ATTITUDE_RE.search(head)
    if m is None or _FIRST_PERSON_RE.search(head[: m.start()]):  # "I was laid off, but I'm sure...": a fact first
        return False
    rest = m.group(1)
    if _FIRST_PERSON_RE.search(rest):
        return False
    if _SECOND_PERSON_RE.search(rest) or _EMPATHY_RE.match(rest):
        return True
    return bool(_OUTCOME_RE.match(rest)) and len(keywords(rest)) <= 3


# Chinese drops the speaker as subject: a sentence opening with a time and a verb of going or intending, no subject
# ("周末得回趟老家，我奶奶八十大寿", "下周要陪我爸去复查") is the speaker's plan.
ELIDED_PLAN_ZH_RE = re.compile(
    r"^(?:(?:这|下|这个|下个)?(?:周末|周[一二三四五六日天]?|礼拜[一二三四五六天]|星期[一二三四五六天]|月)|明天|后天|今晚|月底|年底|"
    r"过几天|过两天|国庆|春节|暑假|寒假)?(?:得|要|会|准备|打算|想|该|可能)(?:回|去|带|陪|飞|赶|请假)"
)
