"""A text cut into sentences with their spans: where a run of marks (or a newline) ends one and where it is inside a
token, a title, an abbreviation or an initial."""

from __future__ import annotations

import re

from facts.text import detect_language, has_cjk

# A boundary candidate: a run of sentence marks, or a newline (linear: each decision reads a few characters).
_SENTENCE_RE = re.compile(r"[.!?。！？;；]+|\n")
# A word right before a "." that does not end a sentence, read from at most 8 characters back: a title before a
# name ("Dr. Lee", "St. Mary's"), a Latin abbreviation ("e.g.", "i.e.", "vs."), a dotted one before a lower-case
# word ("3 p.m. tomorrow", "the U.S. last year"), an initial ("J. K. Rowling"), "No." before a number.
_TITLE_BEFORE = re.compile(r"(?:^|[^\w.])(?:Mr|Mrs|Ms|Mx|Dr|Prof|St|Mt|Jr|Sr|Sgt|Capt|Gen|Rev|Hon)$")
_LATIN_BEFORE = re.compile(r"(?:^|[^\w.])(?:e\.g|i\.e|vs|cf|approx|incl|viz|a\.k\.a)$", re.I)
_DOTTED_BEFORE = re.compile(r"(?:^|[^\w.])(?:[A-Za-z]\.)+[A-Za-z]$|(?:^|[^\w.])etc$", re.I)
_INITIAL_BEFORE = re.compile(r"(?:^|[^\w.])[A-HJ-Z]$")
_NUMBER_BEFORE = re.compile(r"(?:^|[^\w.])No$")
_IN_TOKEN_AFTER = re.compile(r"[a-z0-9]")
_LOOK_BACK = 8


def _ends_sentence(text: str, start: int, end: int) -> bool:
    """Whether the run of marks text[start:end] (or a newline) ends a sentence.

    A single ASCII mark with a lower-case letter or a digit right after it is inside a token: an e-mail address
    ("sam.okafor@fastmail.com"), a URL ("example.com/?q=1"), a decimal ("3.5 kg"), the inner dots of "e.g." (and
    of "U.S.A" between capitals). A "." after a title or a Latin abbreviation does not end a sentence; after a
    dotted abbreviation only before a capital ("at 3 p.m. tomorrow" / "at 3 p.m. Then ..."), after an initial
    never before a word ("J. K. Rowling"). Chinese marks and newlines always end one."""
    run = text[start:end]
    if run == "\n" or any(ch in "。！？；" for ch in run):
        return True
    after = text[end : end + 1]
    before = text[max(0, start - _LOOK_BACK) : start]
    in_token = _IN_TOKEN_AFTER.match(after) or after.isupper() and after.isascii() and _INITIAL_BEFORE.search(before)
    if len(run) == 1 and after and in_token:
        return False
    if run != ".":
        return True
    if _TITLE_BEFORE.search(before) or _LATIN_BEFORE.search(before):
        return False
    following = text[end : end + 4].lstrip(" ")[:1]
    if _DOTTED_BEFORE.search(before):
        return not (following.islower() or following.isdigit())
    if _INITIAL_BEFORE.search(before):
        return not following.isalpha()
    if _NUMBER_BEFORE.search(before):
        return not following.isdigit()
    return True


# Chinese typed with a space where a comma goes ("少来 你才三十五", "话费扣了168 我套餐才58啊"): the space is a comma
# (same length: spans stay those of the text); not between a number and its unit ("等 6 周", "5 万块").
_ZH_SPACE_RE = re.compile(
    r"(?:(?<=[\u4e00-\u9fff%！!？?])|(?<=\d)(?![ \u3000][周天个年月块元万千百分号点岁次小时平米公里斤层楼倍折期套间]))"
    r"[ \u3000](?=[\u4e00-\u9fff])"
)


def sentences(text: str) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    begin = 0
    if has_cjk(text) and detect_language(text) == "zh":
        text = _ZH_SPACE_RE.sub("，", text)

    def close(end: int) -> None:
        raw = text[begin:end]
        sentence = raw.strip()
        if sentence and not _ONLY_MARKS.fullmatch(sentence):
            start = begin + (len(raw) - len(raw.lstrip()))
            out.append((sentence, start, start + len(sentence)))

    for m in _SENTENCE_RE.finditer(text):
        if not _ends_sentence(text, m.start(), m.end()):
            continue
        close(m.start() if m.group(0) == "\n" else m.end())
        begin = m.end()
    close(len(text))
    return out


def split_sentences(text: str) -> list[tuple[str, int, int]]:
    """The sentences of a text with their spans."""
    return sentences(text)


_ONLY_MARKS = re.compile(r"[\s.!?。！？;；]*")
