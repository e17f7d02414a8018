"""Which facts are durable: worth showing in the profile and in context's fact section.

A durable fact is about the person (identity, health, preferences, relationships, work, plans, complaints,
decisions, events with a content), not a quote of small talk ("A said: Long time no see.", "B asked: how are
you?"), not a bare question, and not a typeless remark. The write path's gate keeps few such rows; this is the
read side's guarantee for facts stored before it, or written by an API client.
"""

from __future__ import annotations

import re

# Types that do not describe the person durably: an open question, a remark the typer could not place (unless
# it has a time of its own: then it is an event).
NOT_DURABLE_TYPES = frozenset({"inquiry", "other"})
# Quote-form: "<speaker> said/asked/replied: ...", "<speaker>说：", "<speaker>问：".
_QUOTE_RE = re.compile(
    r"^\s*[\w\u4e00-\u9fff .'-]{1,40}?\s(?:said|asked|replied|wrote|says|asks|added|answered)\s*[:：,]"
    r"|^\s*[\w\u4e00-\u9fff]{1,12}(?:说|问|回复|回答|表示)[:：]",
    re.I,
)
_QUESTION_END = ("?", "？", "吗。", "吗")


def is_quote(text: str) -> bool:
    return bool(_QUOTE_RE.search(text))


def is_durable(*, text: str, type: str, has_time: bool = False) -> bool:
    """True for a fact worth showing as durable knowledge about the person (see the module's docstring).

    A remark the typer left `other` that carries its own time ("前天拔了一颗智齿") is an event: it counts."""
    if type == "inquiry" or (type in NOT_DURABLE_TYPES and not has_time):
        return False
    stripped = text.strip()
    return bool(stripped) and not is_quote(stripped) and not stripped.endswith(_QUESTION_END)


# A fact that opens on a pronoun or a demonstrative ("It's like therapy for Mel.", "He hid his bone in her slipper.",
# "Those milestones are great reminders ...", 这是一个大决定) names what it is about in another turn: searchable with
# that turn, but on its own it says nothing a reader of the profile can place. So does a show-and-tell ("Here are
# the bowls Ana made": a picture in the chat).
_DANGLING_RE = re.compile(
    r"^\s*(?:(?i:yup|yep|yeah|yes|oh|well|so|and|but|anyway)[,!]?\s+)?(?:(?i:it|it's|its|this|that|these|those|they|they're|their|them|he|he's|his|she|she's|her|here's|here\s+(?:is|are))\b"
    r"|它|他|她|这个|那个|这些|那些|这是|那是|这就是|这里是|这儿是)"
)
# A fact still addressed to the listener ("... watch one of your movies", "see you soon", 你也试试) is a remark in a
# conversation: the profile speaks about the person, never to someone.
_ADDRESSED_RE = re.compile(r"(?i:\byou(?:r|rs|'re|'ll|'ve|'d)?\b)|你|您")
# Words that carry no content on their own: a fact made only of them and a name ("Ana is as well!", "Ben too.")
# points at another turn for its meaning.
_FUNCTION_WORDS = frozenset(
    [
        "a", "an", "the", "is", "are", "was", "were", "am", "be", "been", "being", "has", "have", "had", "do",
        "does", "did", "will", "would", "can", "could", "should", "as", "well", "too", "also", "so", "very",
        "really", "just", "and", "or", "but", "not", "no", "yes", "yeah", "same", "one", "ones",
    ]
)  # fmt: skip
_WORD_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")
# "It" standing for nothing: a day of the person's ("It's Priya's birthday on 3 May"), the weather.
_DUMMY_IT_RE = re.compile(
    r"^\s*It(?:'s| is| was| will be)\s+(?:[A-Z][\w-]{0,30}'s|their|his|her)\s+(?:\w+\s+){0,2}?"
    r"(?:birthday|anniversary|wedding|name day|graduation)\b|^\s*It(?:'s| is| was)?\s+(?:raining|snowing|rained|snowed)\b"
)


def is_self_contained(text: str) -> bool:
    """False for a fact a reader of the profile cannot place on its own: it opens on a pronoun or demonstrative
    standing for something it does not name, its object is such a pronoun (`object_unnamed`), it still speaks to
    the listener, or (English) it has no word of content besides its capitalised names ("Ana is as well!")."""
    if _DANGLING_RE.match(text) and not _DUMMY_IT_RE.match(text) or _ADDRESSED_RE.search(text):
        return False
    if object_unnamed(text):
        return False
    words = _WORD_RE.findall(text)
    if not words or re.search(r"[\u4e00-\u9fff]", text):
        return True  # Chinese: the pronoun and address checks above only
    return any(w.lower() not in _FUNCTION_WORDS and not w[0].isupper() for w in words)


# A pronoun inside the fact standing for a thing named in another turn ("Nate loves having them around", "pitched it
# to producers", "include this at the beginning", 它很乖): the fact is true but half of it is elsewhere.
_REFERS_ELSEWHERE_RE = re.compile(
    r"(?i:\b(?:it|them|him|another)\b"
    r"|\b(?:this|these|those)(?=\s*[.,!?;:]|\s*$|\s+(?:at|in|on|to|for|with|from|into|up|out|as|when|because)\b))|它"
)


def refers_elsewhere(text: str) -> bool:
    """True for a fact with a pronoun in it that stands for something it does not name (the profile shows such
    facts after the ones that say all they mean)."""
    return bool(_REFERS_ELSEWHERE_RE.search(text))


# The object of a fact is a pronoun with nothing in the sentence it could stand for ("Priya made it in class",
# "hums that one all day", 用户觉得那个挺适合她的): which thing it is was said in another turn, so the
# fact stays searchable beside that turn but is left out of the profile. Not "it" as a dummy or ahead of its clause
# ("finds it hard to", "hates it when"), not an idiom ("taking it easy"), not one whose antecedent comes first ("bought
# a bike and rides it daily"), not a demonstrative before a noun ("keeps this notebook").
_EN_OBJECT_RE = re.compile(
    r"\b(?:(?P<it>it)|(?P<one>(?:this|that) ones?)|(?P<dem>those|these|this|that))\b(?!['’]s)"
    r"(?=(?P<after>[^.!?;]{0,40}))",
    re.I,
)
_CLAUSE_OPENERS = frozenset(
    ["and", "but", "so", "or", "because", "when", "if", "that", "how", "why", "what", "where", "though", "although",
     "since", "as", "while", "after", "before", "until", "than", "whether", "which", "who", "plus", "then"]
)  # fmt: skip
# Words after which "that" opens a clause ("mentioned that on weekdays ...").
_SAYING = frozenset(
    ["mentioned", "said", "says", "think", "thinks", "thought", "know", "knows", "knew", "hope", "hopes", "feel",
     "feels", "felt", "realized", "realised", "believe", "believes", "agree", "agrees", "noticed", "found", "learned",
     "heard", "sure", "glad", "happy", "proud", "told", "explained", "added", "means", "wish", "wishes"]
)  # fmt: skip
_IT_SUBJECT_RE = re.compile(
    r"^\s*(?:['’](?:s|ll|d)|(?:is|was|wo|ca|does|did|would|could)n['’]t|is|was|has|had|will|would|can|could|might|"
    r"may|feels?|felt|seems?|seemed|looks?|looked|gets?|got|makes?|made|takes?|took|brings?|brought|helps?|helped|reminds?|reminded|means|meant|becomes?|became|goes|went|"
    r"does|did|really|always|just|never|also|still|turned|worked|works)\b"
    # dummy or ahead of its clause ("find it hard to", "love it when"), or an idiom ("take it easy", "hit it off")
    r"|^\s+[a-z]+\s+(?:to|that)\b|^\s+(?:when|whenever|if|how)\b|^\s+(?:easy|slow|off|a day|quits|up to)\b",
    re.I,
)
# Idioms: "made it to the final", "keep it up", "gave it their all", "makes it so (that)".
_IDIOM_RE = re.compile(
    r"\b(?:make|makes|made|making)\s+it\s+(?:to|through|home|back|big|out|in time|work|so)\b"
    r"|\bkeep(?:s|ing)?\s+it\s+up\b|\btop\s+it\s+off\b|\b(?:give|gives|gave|giving)\s+it\s+(?:their|his|her|my)\s+all\b"
    r"|\bcall(?:s|ed)?\s+it\s+a\s+day\b",
    re.I,
)
_BARE_DEMONSTRATIVE_RE = re.compile(
    r"^\s*(?:[,!?:]|$|(?:at|in|on|to|for|with|from|into|up|out|as|when|because|around|too|so|a lot|all|again|"
    r"anymore|now|yet|next|last|soon|later|today|tonight|tomorrow)\b)",
    re.I,
)
_ANTECEDENT_RE = re.compile(
    r"\b(?:a|an|the|some|another|any|each|every|his|her|their|its|our|one|two|three|four|five|several|many|"
    r"[A-Z][\w-]{0,30}['’]s|\d+)\s+[a-z]",
)
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_DATE_RE = re.compile(
    rf"(?:\b(?i:in|on|around)\s+)?(?:the (?:week|weekend|night) of\s+)?(?:\d{{1,2}}\s+)?{_MONTH}(?:\s+\d{{4}})?"
    r"|\b(?:in|around)\s+\d{4}\b"
)
_NOT_CONTENT = _FUNCTION_WORDS | _CLAUSE_OPENERS | frozenset(
    ["it", "its", "they", "them", "their", "he", "him", "she", "her", "his", "to", "of", "in", "on", "at", "for",
     "with", "about", "from", "by", "up", "out", "there", "here", "now", "more", "much", "even", "still", "always",
     "never", "often", "this", "these", "those", "that", "been", "get", "gets", "got", "going", "gonna", "lot"]
)  # fmt: skip
# 那个 / 这个 / 那些 / 这些 with no noun after them, or 它, in the fact's first clause.
_ZH_OBJECT_RE = re.compile(
    r"它|(?:那|这)(?:个|些)(?=[挺很真太特超非最更蛮比不没也都是有的了就还又能会可让适呢吧啊，,。！!？?；;]|$)"
)


def object_unnamed(text: str) -> bool:
    """True for a fact whose object is a pronoun or bare demonstrative standing for nothing it names."""
    if re.search(r"[\u4e00-\u9fff]", text):
        clauses = [c for c in re.split(r"[，,；;。—]", text.strip()) if c]
        if len(clauses) > 1 and len(clauses[0]) <= 3:  # after an interjection (嗯嗯，所以…)
            clauses = clauses[1:]
        return bool(clauses) and bool(_ZH_OBJECT_RE.search(clauses[0]))
    bare = _DATE_RE.sub(" ", text)
    for m in _EN_OBJECT_RE.finditer(bare):
        before, after = bare[: m.start()], m.group("after")
        words = _WORD_RE.findall(before)
        opens_clause = not words or re.search(r"[,;:—–-]\s*$", before) or words[-1].lower() in _CLAUSE_OPENERS
        idiom = words and _IDIOM_RE.match(bare, before.rfind(words[-1]))
        if m.group("it") and (opens_clause or idiom or _IT_SUBJECT_RE.match(after)):
            continue
        # "Besides that, ...": a link to the turn before, not the fact's object
        linking = len(words) <= 3 and after.lstrip().startswith(",")
        opens_clause = opens_clause or words[-1].lower() in _SAYING
        if m.group("dem") and (opens_clause or linking or not _BARE_DEMONSTRATIVE_RE.match(after)):
            continue
        content = [w for w in words if w.lower() not in _NOT_CONTENT and w[0].islower() and not w.endswith("ly")]
        # a name after the verb, the likely antecedent of "it" ("visited Kyoto and loved it")
        named = m.group("it") and bool(content) and any(w[0].isupper() for w in words[words.index(content[0]) :])
        if m.group("one") and not after.lstrip().startswith("of "):  # "hums that one all day"
            return True
        if not named and not _ANTECEDENT_RE.search(before) and len(content) <= 2:
            return True
    return False
