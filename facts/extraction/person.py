"""First person to third person: "I fixed my bike" from Priya -> "Priya fixed Priya's bike" (English verb
agreement included), and the Chinese 我 -> the speaker's name. Used by the rule extractor."""

from __future__ import annotations

import re

_IRREGULAR_PAST = frozenset(
    [
        "went",
        "got",
        "saw",
        "made",
        "took",
        "came",
        "gave",
        "found",
        "told",
        "thought",
        "felt",
        "left",
        "kept",
        "began",
        "brought",
        "bought",
        "caught",
        "taught",
        "ran",
        "won",
        "lost",
        "met",
        "paid",
        "sold",
        "sent",
        "spent",
        "built",
        "heard",
        "held",
        "read",
        "said",
        "sat",
        "stood",
        "understood",
        "wrote",
        "drove",
        "ate",
        "drank",
        "flew",
        "grew",
        "knew",
        "threw",
        "wore",
        "broke",
        "chose",
        "spoke",
        "forgot",
        "froze",
        "rode",
        "rose",
        "woke",
        "did",
        "had",
        "was",
        "were",
        "became",
        "fell",
        "hid",
        "led",
        "lit",
        "meant",
        "put",
        "quit",
        "set",
        "shut",
        "slept",
        "swam",
        "swung",
        "hung",
        "let",
        "cut",
        "hit",
        "hurt",
    ]
)
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
_ADVERBS = _COMMON_ADVERBS | {"truly", "absolutely"}
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
        "guess",
        "think",
    ]
)
# Present-tense verbs that end like a past form ("I need" -> "Priya needs", not "Priya need").
_PRESENT_IN_ED = frozenset(["need", "feed", "bleed", "breed", "heed", "proceed", "succeed", "exceed", "speed", "shred"])
_PRONOUN_MAP = {"am": "is", "have": "has", "do": "does", "don't": "doesn't", "dont": "doesn't", "'m": "is",
                "haven't": "hasn't", "go": "goes"}  # fmt: skip


def _conjugate(verb: str) -> str:
    low = verb.lower()
    if low in _PRONOUN_MAP:
        return _PRONOUN_MAP[low]
    if (
        not low.isalpha()
        or low in _NO_CONJUGATE
        or low in _IRREGULAR_PAST
        or low.endswith("ed")
        and low not in _PRESENT_IN_ED
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


_I_RE = re.compile(r"\b(I)(?:'m|’m| am\b)|\b(I)(?:'ve|’ve)|\b(I)(?:'d|’d)|\b(I)(?:'ll|’ll)|\bI\b(?: (\w+(?:'t)?))?")


def third_person_en(sentence: str, name: str) -> str:
    """Rewrite first person about `name`: I -> name, my -> name's, me -> name, with verb agreement."""

    def repl_i(m: re.Match[str]) -> str:
        whole = m.group(0)
        if m.group(1):
            return f"{name} is"
        if m.group(2):
            return f"{name} has"
        if m.group(3):
            return (
                f"{name} had"
                if re.search(r"\b(been|gone|done|had|seen)\b", sentence[m.end() : m.end() + 30])
                else (f"{name} would")
            )
        if m.group(4):
            return f"{name} will"
        verb = m.group(5)
        if verb is None:
            return name
        if verb.lower() in _ADVERBS or verb.lower().endswith("ly"):
            following = re.match(r" (\w+(?:'t)?)", sentence[m.end() :])
            if following:  # "I really love" -> "Priya really loves": conjugate the next word later
                return f"{name} {verb}\x00"
            return f"{name} {verb}"
        return f"{name} {_conjugate(verb)}" if whole[1:].strip() else name

    out = _I_RE.sub(repl_i, sentence)
    out = re.sub(r"\x00 (\w+(?:'t)?)", lambda m: " " + _conjugate(m.group(1)), out)
    out = out.replace("\x00", "")
    out = re.sub(r"\b[Mm]y\b", f"{name}'s", out)
    out = re.sub(r"\b[Mm]ine\b", f"{name}'s", out)
    out = re.sub(r"\b[Mm]yself\b", name, out)
    out = re.sub(r"(?<=\w )me\b", name, out)
    if not out.startswith(name) and name not in out[: len(name) + 40]:
        out = f"{name} said: {out}" if not out.endswith("?") else f"{name} asked: {out}"
    return out


def third_person_zh(sentence: str, name: str) -> str:
    out = sentence.replace("我们", f"{name}和家人" if name == "用户" else f"{name}他们")
    out = out.replace("我的", f"{name}的").replace("我", name)
    if name not in out:
        out = f"{name}说：{out}" if not out.endswith(("?", "？")) else f"{name}问：{out}"
    return out
