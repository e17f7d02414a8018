"""First person to third person: "I fixed my bike" from Priya -> "Priya fixed Priya's bike" (English verb
agreement included), and the Chinese 我 -> the speaker's name. Used by the rule extractor."""

from __future__ import annotations

import re

# Less common irregular pasts, not also a noun or a present ("bit", "beat", "fed" are left out).
_MORE_PAST = (
    "tore swore slid struck sang sank shook stole dug fought bled dealt drew forgave sought spun sprang stung swept wept "
    "withdrew overslept overtook undertook mistook sped fled clung crept knelt leapt strode strove wove arose awoke"
)
_COMMON_PAST = (
    "went got saw made took came gave found told thought felt left kept began brought bought caught taught ran won "
    "lost met paid sold sent spent built heard held read said sat stood understood wrote drove ate drank flew grew "
    "knew threw wore broke chose spoke forgot froze rode rose woke did had was were became fell hid led lit meant put "
    "quit set shut slept swam swung hung let cut hit hurt"
)
_IRREGULAR_PAST = frozenset(_COMMON_PAST.split()) | frozenset(_MORE_PAST.split())
# Adverbs between "I" and the verb ("I really love"): conjugate the next word instead.
_COMMON_ADVERBS = frozenset(
    [
        "really",
        "also",
        "just",
        "never",
        "always",
        "still",
        "even",
        "recently",
        "finally",
        "actually",
        "usually",
        "often",
        "sometimes",
        "definitely",
        "totally",
        "already",
        "only",
    ]
)
_ADVERBS = _COMMON_ADVERBS | {"truly", "absolutely", "kinda", "sorta"}
# Words after "I" that are never conjugated: modals, past forms, quantifiers and the common adverbs.
_NO_CONJUGATE = _COMMON_ADVERBS | frozenset(
    [
        "was",
        "were",
        "had",
        "did",
        "will",
        "would",
        "can",
        "could",
        "should",
        "might",
        "must",
        "may",
        "shall",
        "used",
        "ever",
        "once",
        "again",
        "too",
        "both",
        "all",
    ]
)
# Present-tense verbs that end like a past form ("I need" -> "Priya needs", not "Priya need").
_PRESENT_IN_ED = frozenset(["need", "feed", "bleed", "breed", "heed", "proceed", "succeed", "exceed", "speed", "shred"])
_PRONOUN_MAP = {"am": "is", "have": "has", "do": "does", "don't": "doesn't", "dont": "doesn't", "'m": "is",
                "haven't": "hasn't", "go": "goes", "wanna": "wants to", "gotta": "has to"}  # fmt: skip


def _conjugate(verb: str) -> str:
    low = verb.lower()
    if low in _PRONOUN_MAP:
        return _PRONOUN_MAP[low]
    if (
        not low.isalpha()
        or low in _NO_CONJUGATE
        or low in _IRREGULAR_PAST  # "read", "put": the past said as the present is left as it is
        or is_past_form(low)
        or low.endswith("s")
        and not low.endswith("ss")
        or len(low) < 2
    ):
        return verb
    if low.endswith(("ss", "sh", "ch", "x", "o", "z")):
        return verb + "es"
    if low.endswith("y") and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# Past forms that are also the present or the imperative ("Put it in the oven"): no sign of a past by themselves.
_SAME_AS_PRESENT = frozenset(["read", "set", "put", "cut", "let", "hit", "quit", "shut", "hurt", "cost", "spread"])


def is_past_form(word: str) -> bool:
    """A simple past by its form: an irregular past, also with a prefix ("rebuilt", "overpaid"), or a verb in -ed."""
    low = re.sub(r"^(?:re|over|under|out|mis|with)(?=[a-z]{3})", "", word.lower())
    if low in _SAME_AS_PRESENT:
        return False
    return low in _IRREGULAR_PAST or len(low) > 3 and low.endswith("ed") and low not in _PRESENT_IN_ED


_I_RE = re.compile(r"\b(I)(?:'m|’m| am\b)|\b(I)(?:'ve|’ve)|\b(I)(?:'d|’d)|\b(I)(?:'ll|’ll)|\bI\b(?: (\w+(?:'t)?))?")


_MARK = "\x01"
# "Do I", "Am I", "Have I" (a question's inverted order) agree with the name: "Does Lena", "Is Lena", "Has Lena".
_AUX_BEFORE_I_RE = re.compile(r"\b(do|am|have)(\s+I\b)", re.IGNORECASE)
# A modal or auxiliary just before "I": a question's inverted order, whose verb takes no -s ("what can Lena say").
_INVERTED = "\x07"  # after an auxiliary _aux_third rewrote


def _aux_third(m: re.Match[str]) -> str:
    aux = _PRONOUN_MAP[m.group(1).lower()]
    return (aux.capitalize() if m.group(1)[0].isupper() else aux) + _INVERTED + m.group(2)


_INVERTED_RE = re.compile(r"(?:\b(?:can|could|should|would|will|shall|may|might|must|did)|\x07)\s+$", re.IGNORECASE)
UNNAMED = {"User", "用户", ""}


# A request to the business to end or pause what is the speaker's, said as an imperative.
_ASKED_TO_RE = re.compile(
    r"^(?:please |pls |just |can you |could you )?(?:(cancel|stop|pause|freeze|close) ((?:my|our) [^,.;!?]{1,60}?)|"
    r"(upgrade|downgrade|switch|move|put) (?:me|us) ((?:to|onto|on|down for) [^,.;!?]{1,60}?))(?:,? (?:please|pls|thanks))?(?=[,.;!?]|$)",
    re.I,
)
_DONE = {"upgrade": "upgraded", "downgrade": "downgraded", "switch": "switched", "move": "moved", "put": "put"}


# Someone and the speaker as one subject, at a clause's start ("Rob and I are", "so my sister and I have").
_WITH_OTHER_RE = re.compile(
    r"(?:^|[,;:.!?]\s{0,3}|\b(?:so|but|then|because|when|and|now)\s)(?:(?-i:[A-Z][a-z]{1,15})|(?:my|our) [a-z]{2,15}|"
    r"(?i:mum|mom|dad))\s(?:and|&)\s$"
)


def _asked_to(m: re.Match[str]) -> str:
    if m.group(1):
        return f"I asked to {m.group(1).lower()} {m.group(2)}"
    return f"I asked to be {_DONE[m.group(3).lower()]} {m.group(4)}"


def third_person_en(sentence: str, name: str) -> str:
    """Rewrite first person about `name` in natural third person, with verb agreement.

    The first mention is the name ("I fixed my bike" -> "Priya fixed their bike"), "User" for an unnamed user;
    later possessives are "their", later objects "them", never "with User's sister". A sentence without first
    person is returned as it is (the caller frames it).
    """
    sentence = re.sub(r"\bi(?=(?:'|’|\s))", "I", sentence)
    sentence = re.sub(r"\b(im|Im)\b", "I'm", sentence)
    # "Cancel my membership pls", "upgrade me to Pro" are the speaker's requests.
    sentence = _ASKED_TO_RE.sub(_asked_to, sentence)

    def repl_i(m: re.Match[str]) -> str:
        whole = m.group(0)
        if _WITH_OTHER_RE.search(sentence[max(0, m.start() - 40) : m.start()]) and (
            m.group(1) or m.group(2) or m.group(5)
        ):
            # "Rob and I are going" -> "Rob and Priya are going": a plural subject, the verb as said.
            return f"{_MARK} {'are' if m.group(1) else 'have' if m.group(2) else m.group(5)}"
        if m.group(1):
            return f"{_MARK} {_agreeing('is', 'are')}"
        if m.group(2):
            return f"{_MARK} {_agreeing('has', 'have')}"
        if m.group(3):
            after = sentence[m.end() : m.end() + 30]
            return f"{_MARK} had" if re.search(r"\b(been|gone|done|had|seen)\b", after) else f"{_MARK} would"
        if m.group(4):
            return f"{_MARK} will"
        verb = m.group(5)
        if verb is None:
            return _MARK
        if _INVERTED_RE.search(sentence[: m.start()]):  # "can I say", "do I need": the verb stays bare
            return f"{_MARK} {verb}"
        if verb.lower() in _ADVERBS or verb.lower().endswith("ly"):
            following = re.match(r" (\w+(?:'t)?)", sentence[m.end() :])
            if following:  # "I really love" -> "Priya really loves": conjugate the next word later
                return f"{_MARK} {verb}\x00"
            return f"{_MARK} {verb}"
        return f"{_MARK} {_agreeing(_conjugate(verb), verb)}" if whole[1:].strip() else _MARK

    sentence = _WE_RE.sub(_we_mark, sentence)
    sentence = _AUX_BEFORE_I_RE.sub(_aux_third, sentence)
    out = _I_RE.sub(repl_i, sentence)
    out = re.sub(r"\x00 (\w+(?:'t)?)", lambda m: " " + _agreeing(_conjugate(m.group(1)), m.group(1)), out)
    out = out.replace("\x00", "").replace(_INVERTED, "")
    out = re.sub(r"\b[Mm]y\b", f"{_MARK}'s", out)
    out = re.sub(r"\b[Mm]ine\b", f"{_MARK}$", out)  # "a dream of mine" -> "of Priya's", later "of theirs"
    out = re.sub(r"\b[Mm]yself\b", "themselves", out)
    out = re.sub(r"(?<=\w )me\b", f"{_MARK}@", out)
    if _MARK not in out:
        return _name_plural(out, name) if _WE in out or _OUR in out or _US in out else sentence
    plural = [i for i in (out.find(_WE), out.find(_OUR), out.find(_US)) if i >= 0]
    if plural and min(plural) < out.index(
        _MARK
    ):  # "Our budget is £12k, at my aunt's" -> "User's budget ... their aunt's"
        return _name_marks(_name_plural(out, name), name, named=False)
    return _name_plural(_name_marks(out, name), None)


# "we" / "our" / "us": the speaker and others. With no "I" in the sentence the first of them names the speaker
# ("we went hiking" -> "Maya and others went hiking", "our dog" -> "Maya's dog"); later, or after the name, they are
# they / their / them.
_WE, _OUR, _US = "\x02", "\x03", "\x04"
_WE_RE = re.compile(r"\b(?:([Ww]e)(?:'re|’re|'ve|’ve|'d|’d|'ll|’ll)?|([Oo]ur)|(ourselves|ours)|(?<=\w )(us))\b")
_WE_VERB = {"'re": " are", "’re": " are", "'ve": " have", "’ve": " have", "'d": " would", "’d": " would",
            "'ll": " will", "’ll": " will"}  # fmt: skip


def _we_mark(m: re.Match[str]) -> str:
    if m.group(1):
        return _WE + _WE_VERB.get(m.group(0)[len(m.group(1)) :], "")
    if m.group(2):
        return _OUR
    if m.group(3):
        return "themselves" if m.group(3) == "ourselves" else "theirs"
    return _US


def _name_plural(out: str, name: str | None) -> str:
    """Plural first-person marks in words: the first one names the speaker when `name` is given."""
    if name is not None:
        label = "User" if name in UNNAMED else name
        first = min(i for i in (out.find(_WE), out.find(_OUR), out.find(_US)) if i >= 0)
        mark = out[first]
        named = {_WE: f"{label} and others", _OUR: f"{label}'s", _US: f"{label} and others"}[mark]
        start, pair = first, re.search(r"\b([Nn]either|[Bb]oth) of $", out[:first]) if mark == _US else None
        if pair:  # "neither of us can stand mushrooms" -> "neither Maya nor the others can stand mushrooms"
            joined = "nor" if pair.group(1).lower() == "neither" else "and"
            start, named = pair.start(), f"{pair.group(1)} {label} {joined} the others"
        out = out[:start] + named + out[first + 1 :]
    out = re.sub(rf"(^|[.!?]\s+){_WE}", lambda m: m.group(1) + "They", out)
    return out.replace(_WE, "they").replace(_OUR, "their").replace(_US, "them")


# A verb after "I" carries both forms: the name's ("Priya hates") for the first mention, the plural one ("they hate")
# for later ones, chosen once the first mention is known.
_AGREE_RE = re.compile(f"{_MARK}|\x05([^\x06]*)\x06([^\x0f]*)\x0f")
_PLURAL_OF = {"was": "were", "am": "are", "'m": "are"}


def _agreeing(singular: str, original: str) -> str:
    return f"\x05{singular}\x06{_PLURAL_OF.get(original.lower(), original)}\x0f"


def _agree(out: str, *, named: bool = True) -> str:
    first = out.index(_MARK) if _MARK in out and named else -1
    later = False

    def pick(m: re.Match[str]) -> str:
        nonlocal later
        if m.group(0) == _MARK:
            later = m.start() != first
            return _MARK
        return m.group(2) if later else m.group(1)

    return _AGREE_RE.sub(pick, out)


_CLAUSE_VERBS = frozenset(
    ["is", "are", "was", "were", "has", "have", "had", "will", "would", "can", "could", "does", "did"]
)


def _joined(before: str, label: str, name: str, unnamed: bool) -> str:
    """The speaker after "and": named again when joined to someone as one subject ("Omar's sister and Omar"), "they"
    when the clause before already had the speaker as its subject ("Nadia teaches piano and they love it")."""
    clause = re.split(r"[,;.!?]", before)[-1].strip()
    words = clause.lower().split()
    if clause.lower() in {"", "and"}:  # ", and I'm ...": a clause of its own after a comma ("..., and they are")
        return "they"
    if clause.startswith((f"{label} ", "they ", "They ")) or any(w in _CLAUSE_VERBS or is_past_form(w) for w in words):
        return "they"  # "Nadia's knee is sore and they are resting it": a clause of its own before "and"
    return "the user" if unnamed else name


def _name_marks(out: str, name: str, *, named: bool = True) -> str:
    """The first mark becomes the name ("User" for an unnamed user); later ones they / their / them (all of them when
    not `named`: a "we" or "our" before them named the speaker)."""
    unnamed = name in UNNAMED
    out = _agree(out, named=named)
    if not named:
        return _they(out)
    first = out.index(_MARK)
    head, tail = out[:first], out[first:]
    label = "User" if unnamed else name  # the first mention names the person; later ones are their / them
    if tail.startswith(f"{_MARK}'s"):
        tail = f"{label}'s" + tail[len(_MARK) + 2 :]
    elif tail.startswith(f"{_MARK}$"):
        tail = f"{label}'s" + tail[len(_MARK) + 1 :]
    elif tail.startswith(f"{_MARK}@"):
        tail = ("them" if unnamed else name) + tail[len(_MARK) + 1 :]
    else:
        tail = label + tail[len(_MARK) :]
    out = head + tail  # (later marks: _they, at the end)
    # Named once, later "they"; but one of several joined by "and" is named again ("Omar's sister and Omar drove").
    out = re.sub(rf"(?<=\band ){_MARK}(?!'s|\$)", lambda m: _joined(out[: m.start()], label, name, unnamed), out)
    # ...the speaker first: "my brother and I" -> "Omar and their brother", not "Omar's brother and Omar".
    again = "the user" if unnamed else name
    out = re.sub(rf"\b{re.escape(label)}'s ([a-z]{{2,15}}) and {re.escape(again)}\b", rf"{label} and their \1", out)
    return _they(out)


def _they(out: str) -> str:
    """The speaker's marks left once they are named: their / theirs / them, and they (They opening a sentence)."""
    out = out.replace(f"{_MARK}'s", "their").replace(f"{_MARK}$", "theirs").replace(f"{_MARK}@", "them")
    return re.sub(rf"(^|[.!?]\s+){_MARK}", lambda m: m.group(1) + "They", out).replace(_MARK, "they")


_LISTENER_CONTRACTED_RE = re.compile(r"\byou(?='(?:re|ve|ll|d)\b)", re.I)
_LISTENER_SUBJECT_RE = re.compile(
    r"^you\b|\b(do|does|did|can|could|will|would|are|were|have|should|shall|that|if|whether)\s+you\b(?!\s+(?:to|for)\b)",
    re.I,
)


def listener_third(question: str, aux: str = "") -> str:
    """A question asked of a business, said of it in third person: "you" as the subject is "they" ("do you ship to
    Canada" -> "they ship ..."), as an object "them" ("what gave you the idea" -> "gave them"); "your" is "their".
    The question's auxiliary (`aux`, taken off its front; or after a wh-word, "how long does delivery take") goes
    back after the subject, in agreement with it: "is it true ..." -> "it is true ...", "does your store open on
    Sundays" -> "the store opens on Sundays", "how long does delivery to Norway take" -> "how long delivery to
    Norway takes"."""
    text = re.sub(r"\byours\b", "theirs", re.sub(r"\byour\b", "their", question, flags=re.I), flags=re.I)
    text = _LISTENER_CONTRACTED_RE.sub("they", text)
    text = _LISTENER_SUBJECT_RE.sub(lambda m: f"{m.group(1)} they" if m.group(1) else "they", text)
    # The subject of a relative clause ("the descaler you sell" -> "the descaler they sell").
    text = re.sub(
        r"\byou(?= (?:\w+ly )?(\w+)\b)", lambda m: "they" if m.group(1).lower() in _DONE_BY else m.group(0), text
    )
    text = re.sub(r"\byou\b", "them", text, flags=re.I)
    if aux:
        return _declarative(text, aux.lower()) or text
    wh = _WH_AUX_RE.match(text)
    if wh is None:
        return text
    said = _declarative(wh.group(3), wh.group(2).lower(), wh_end=True)
    return f"{wh.group(1)} {said}" if said else text


_QUESTION_SUBJECTS = frozenset(["it", "they", "there", "this", "that", "he", "she", "we", "someone", "anyone", "somebody", "anybody", "everyone"])  # fmt: skip
_WH_AUX_RE = re.compile(
    r"^((?:how(?: long| much| many| often| soon| late| early)?(?: (?:days|weeks|hours|times|time|money))?|what(?: time| days?)?|"
    r"when|where|why|which \w+)) "
    r"(does|do|is|are|can|could|will|would|should|(?:has|have|is|are|does|do|did|was|were|wo|ca)n['’]t) (\w.*)$",
    re.I,
)
# What a shop, a service or a product does, asked about: the verb of a question's noun subject ("does the Leeds branch
# stock ...") is the last of these before the first preposition or determiner after the subject's head.
_SERVICE_VERBS = frozenset(
    ["open", "close", "deliver", "ship", "accept", "take", "do", "have", "offer", "sell", "stock", "carry", "work",
     "come", "include", "support", "charge", "cover", "need", "require", "run", "stay", "allow", "give", "provide",
     "cost", "fit", "let", "refund", "match", "serve", "check", "get", "go", "leave", "arrive", "start", "end", "call",
     "send", "pay", "cancel", "change", "book", "collect", "repair", "fix", "install", "post", "return", "store",
     "hold", "keep", "apply", "expire", "renew", "show", "use", "handle", "reply", "process", "sync", "contain",
     "pick", "mean", "last", "stop", "reopen", "restock", "price", "waive", "count", "differ", "vary", "matter",
     "ring", "phone", "email", "text", "visit", "wait", "help", "board", "turn", "print", "bill", "take", "teach"]
)  # fmt: skip
_DONE_BY = _SERVICE_VERBS | {"sold", "sent", "gave", "fitted", "installed", "delivered", "made", "used", "supplied"}
_BE_PREDICATES = frozenset(
    ["open", "closed", "available", "free", "busy", "full", "included", "refundable", "possible", "allowed", "valid",
     "required", "needed", "ready", "still", "back", "due", "late", "covered", "suitable", "worth", "able", "in",
     "out", "on", "at", "there", "still", "near", "close", "accessible", "safe", "cheaper", "dearer", "running"]
)  # fmt: skip
_NP_END = frozenset(
    ["on", "in", "at", "to", "for", "with", "from", "by", "before", "after", "during", "until", "of", "the", "a", "an",
     "this", "that", "these", "those", "their", "them", "it", "if", "when", "or", "and", "every", "each", "any",
     "some", "yet", "now", "today", "tomorrow", "again", "near", "over", "under", "via", "without", "next", "all"]
)  # fmt: skip
_DETERMINERS = frozenset(["the", "their", "a", "an", "any", "this", "that", "these", "those"])
_DEGREE = frozenset(["so", "very", "too", "really", "always", "still", "never", "not", "quite", "ever", "such"])


def _declarative(text: str, aux: str, *, wh_end: bool = False) -> str | None:
    """The question's subject, then its auxiliary or a verb agreeing with it; None when no verb is found."""
    first, _, rest = text.partition(" ")
    if first.lower() in _QUESTION_SUBJECTS:
        if not rest or aux in {"do", "did"}:
            return text
        if aux == "does":
            verb, _, tail = rest.partition(" ")
            return f"{first} {_conjugate(verb)} {tail}".rstrip()
        return f"{first} {aux} {rest}"
    words = text.split(" ")
    head = 1 if first.lower() in _DETERMINERS else 0
    if aux == "did" or len(words) <= head + 1 or words[head].lower() in _NP_END:
        return None
    end = next((i for i in range(head + 1, len(words)) if words[i].lower() in _NP_END), len(words))
    be = aux in {"is", "are", "was", "were"}
    fits = _BE_PREDICATES if be else _SERVICE_VERBS
    done = aux[:3] in {"has", "hav"}  # "why hasn't the replacement arrived": its participle
    at = next((i for i in range(end - 1, head, -1) if words[i].lower() in fits or be and words[i].endswith("ing")
               or done and words[i].endswith(("ed", "en"))), 0)  # fmt: skip
    if not at and not be and words[-1].lower() in _SERVICE_VERBS:  # "how long does delivery to Norway take"
        at = len(words) - 1
    subject = " ".join(["the" if first.lower() == "their" else first, *words[1:at]])
    degree = next((i for i in range(head + 1, end) if words[i].lower() in _DEGREE), 0)
    if not at and be and degree:  # "why is the courier so slow" -> "why the courier is so slow"
        end = degree
    if not at and be and end < len(words) and words[end].lower() not in _DETERMINERS:
        lead = "the" if first.lower() == "their" else first  # "is the order on its way" -> "the order is on its way"
        return " ".join([lead, *words[1:end], aux, *words[end:]])
    if not at:  # "what is the return window" -> "what the return window is"
        return (
            f"{' '.join(['the' if first.lower() == 'their' else first, *words[1:]])} {aux}" if be and wh_end else None
        )
    verb, tail = words[at], " ".join(words[at + 1 :])
    if aux == "does":
        said = _conjugate(verb)
    elif aux == "do":
        said = verb
    else:
        said = f"{aux} {verb}"
    return f"{subject} {said} {tail}".rstrip()


# The business a complaint is made to, named in third person: "you" is the business, never the speaker's friend
# ("You charged my card twice" -> "The business charged Robin's card twice", 你们扣了我两次钱 -> 商家扣了…).
_BUSINESS_YOU_RE = re.compile(
    r"\b(?:[Yy]ou (?:lot|guys|people|folks)|[Yy]our|[Yy]ou(?:['’](?:ve|re|ll))?)\b|(?:你们|您们)(?:店|家)?|你家"
)
_AS_BUSINESS = {"ve": " has", "re": " is", "ll": " will"}  # "you've charged" -> "the business has charged"


def business_named(text: str) -> str:
    """A complaint's text with the business it is made to named as such instead of "you"."""

    def name(m: re.Match[str]) -> str:
        word = m.group(0)
        if not word.isascii():
            return "商家"
        said = "the business's" if word.lower() == "your" else "the business" + _AS_BUSINESS.get(word[4:].lower(), "")
        return said[:1].upper() + said[1:] if m.start() == 0 else said

    return _BUSINESS_YOU_RE.sub(name, text)
