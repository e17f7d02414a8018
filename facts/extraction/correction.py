"""A user's correction of the assistant's read-back is a fact about the user, as the read-back would have been.

"You're based in Manchester, right?" / "Leeds not manchester" tells where the user lives; "您之前提到住在闵行对吧？" /
"不是闵行，是松江" the same in Chinese. The reply names the wrong detail, which must be in the read-back, and the right
one; the read-back with the one put for the other is what a "Yes" would have confirmed (confirm.py). A reply that names
no wrong detail ("no, Leeds") is left as said: which part of the read-back it replaces would be a guess.
"""

from __future__ import annotations

import re

from facts.extraction.confirm import as_said, readback, said_type

_NO = r"(?:(?:no|nope|nah|sorry|actually|oh)[,.!]*\s{1,3}){0,2}"
# "Leeds not Manchester", "no, it's Leeds not Manchester", "not Manchester, Leeds", "Leeds, not Manchester".
_RIGHT_FIRST_EN_RE = re.compile(
    rf"^{_NO}(?:it'?s |its |actually )?(?P<right>[^,.;!?\s][^,.;!?]{{0,39}}?),?\s{{1,3}}not (?:in |at )?(?P<wrong>[^,.;!?]{{1,40}}?)[\s.!]*$",
    re.I,
)
_WRONG_FIRST_EN_RE = re.compile(
    rf"^{_NO}not (?:in |at )?(?P<wrong>[^,.;!?]{{1,40}}?)[,;.]\s{{0,3}}(?:it'?s |its |actually )?(?P<right>[^,.;!?\s][^,.;!?]{{0,39}}?)[\s.!]*$",
    re.I,
)
# "不是闵行，是松江", "不对，不是闵行，在松江", "不是闵行是松江啦".
_ZH_RE = re.compile(
    r"^(?:(?:不对|不是|错了|搞错了)[，,。！!\s]{1,3})?不是(?P<wrong>[^，,。！!？?\s]{1,12}?)[，,。\s]{0,3}(?:是|在|住)(?P<right>[^，,。！!？?\s]{1,12}?)"
    r"(?:啦|了|哈|哦|呢)?[。！!~～\s]*$"
)


def corrected_readback(reply: str, assistant: str) -> str:
    """The assistant's read-back with the detail the reply corrects put right, or "" (no read-back, no correction,
    or a wrong detail the read-back does not hold)."""
    text = reply.strip()  # (the reply is read first: most are no correction, and the read-back is then not split)
    m = (
        None
        if len(text) > 80
        else _RIGHT_FIRST_EN_RE.match(text) or _WRONG_FIRST_EN_RE.match(text) or _ZH_RE.match(text)
    )
    question = readback(assistant) if m is not None else ""
    if m is None or not question:
        return ""
    wrong, right = m.group("wrong").strip(), m.group("right").strip()
    found = re.search(
        rf"(?<![\w£$€]){re.escape(wrong)}(?![\w])" if wrong.isascii() else re.escape(wrong), question, re.I
    )
    if found is None or len(wrong) < 2 and not wrong.isdigit() or wrong.lower() == right.lower():
        return ""
    before, after = question[: found.start()], question[found.end() :]
    right = _without_overlap(right, before, after)  # "14 Oak Street not 12" read back as "12 Oak Street"
    return _CONFIRMING_RE.sub("", _MENTIONED_ZH_RE.sub("", before)) + right + after


# The read-back's own asking ("can I confirm the address as ...?"): what it reads back is the fact.
_CONFIRMING_RE = re.compile(
    r"^(?:[^.?!]{0,40}[.!,]\s{1,3})?(?:can|could|may|shall) i (?:just )?confirm (?:that )?", re.I
)


def corrected_type(question: str) -> str:
    """The type of the corrected read-back said by the user ("I'm based in Leeds": profile), or "" where no rule is
    sure or it reads as asking or choosing (a correction states a fact; it accepts no offer)."""
    found = said_type(as_said(question))
    return "" if found in {"inquiry", "decision"} else found


# What the read-back says the user said before ("您之前提到住在闵行"): the fact is where they live.
_MENTIONED_ZH_RE = re.compile(r"(?:您|你)?(?:之前|刚才|上次|前面)(?:提到|说)过?(?:的)?")


def _without_overlap(right: str, before: str, after: str) -> str:
    """`right` without the words it repeats of the read-back around the wrong detail."""
    tail = after.split()
    for k in range(min(4, len(tail)), 0, -1):
        words = " ".join(tail[:k]).rstrip("?？,，.。")
        if words and right.lower().endswith(" " + words.lower()):
            right = right[: -len(words)].rstrip()
            break
    head = before.split()
    for k in range(min(4, len(head)), 0, -1):
        words = " ".join(head[-k:])
        if right.lower().startswith(words.lower() + " "):
            return right[len(words) :].lstrip()
    return right


def as_correction(said_back: str) -> str:
    """The confirmed read-back's text said as corrected ("Confirmed they are based in Leeds." -> "Corrected: they are
    based in Leeds.", "确认住在松江。" -> "更正：住在松江。")."""
    fixed = re.sub(r"\b([Cc])onfirmed\b", lambda m: f"{m.group(1)}orrected:", said_back, count=1)
    return fixed if fixed != said_back else said_back.replace("确认", "更正：", 1)
