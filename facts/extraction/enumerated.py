"""Options an assistant enumerates ("(a) £4.80 now, (b) £4.50 now and £4.80 in the autumn, (c) ...", "1. ... 2. ...",
"有三个选择：一，直接全量上架；二，先上架二十款……；三，先不开") and the one a short reply picks by its label or place
("b.", "option 2", "the second one", "第二个吧"): the option, in the assistant's words, is what the user decided.
`place_of` reads a pick by place for the options confirm.py finds laid out with "or" as well.
"""

from __future__ import annotations

import functools
import re

# A label before an option: a letter or a digit in brackets ("(a)", "（2）"), or after a break and before a bracket, a
# full stop with a space or a comma ("a) ", "2. ", "B、"), a Chinese numeral before 、，or ：("一，", "二、").
_LABEL_RE = re.compile(
    r"[(（]\s?([a-dA-D1-4])\s?[)）]\s?|\b(?:[Oo]ption|[Pp]lan|[Cc]hoice) ([A-D1-4])\s?[:：.)]\s?|(?:方案|选项)([A-D1-4一二三四])\s?[:：，,、]\s?|(?:^|(?<=[\s:：;；,，。]))([a-dA-D1-4])(?:[)）、]|\.\s)\s?|"
    r"(?:^|(?<=[:：;；。\s]))(?:第|方案)?([一二三四])[、，,：:]"
)
# Where an option ends: the end of its sentence, or "or" / 或者 before the next label.
_END_RE = re.compile(r"[。？?!！]|\.(?:\s|$)")
_TRAILING = " \t\n,，;；、."
_JOINERS = (" or", " and", "或者", "还是")
_ORDER = ("abcd", "1234", "一二三四")
_MAX_OPTION = 60

# A reply that names an option by its label or place, alone or before its reason ("b. half my regulars are
# pensioners", "option 2 please", "the second one", "第二个吧", "选B，便宜").
_BY_LABEL_RE = re.compile(
    r"^(?:option |plan |选|方案)?([a-dA-D1-4])(?=$|[,，.。!！)）]|[呗吧啊]|\s(?:please|pls|thanks)\b|\s(?![a-z]))"
)
# A reply that picks by place ("the second one", "the latter", "第三个吧", "方案二", "后面那个"), not a time ("第一个月").
_PLACE_EN_RE = re.compile(
    r"^(?:the )?(first|1st|second|2nd|third|3rd|last|latter|former)(?: one| option)?(?=\s{0,2}(?:[,.!]|$|please\b|pls\b))",
    re.I,
)
_PLACE_ZH_RE = re.compile(
    r"^(?:那就|就|要|选)?(?:第([一二三四])(?!次|天|年|周|个月|个星期|个礼拜)(?:个|种|条|套|项|班|趟|家)?|方案([一二三四])|(前面|后面)(?:那|这)个)"
)
_PLACES = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "last": -1, "latter": -1, "former": 0}


@functools.lru_cache(maxsize=512)
def options_of(assistant: str) -> tuple[str, ...]:
    """The options the assistant's turn enumerates with labels in order (a, b, c / 1, 2, 3 / 一, 二, 三), or ()."""
    found = [(m, next(g for g in m.groups() if g).lower()) for m in _LABEL_RE.finditer(assistant)]
    for order in _ORDER:
        labelled = [(m, label) for m, label in found if label in order]
        run: list[tuple[re.Match[str], str]] = []
        for m, label in labelled:  # the labels from the first, in order ("(a)", "(b)", "(c)"); a stray one ends them
            if len(run) == len(order) or label != order[len(run)]:
                break
            run.append((m, label))
        if len(run) < 2:
            continue
        options = []
        for i, (m, _label) in enumerate(run):
            stop = run[i + 1][0].start() if i + 1 < len(run) else len(assistant)
            text = assistant[m.end() : stop]
            end = _END_RE.search(text)
            text = _trimmed(text[: end.start()] if end else text)
            if not text or len(text) > _MAX_OPTION:
                return ()
            options.append(text)
        return tuple(options)
    return ()


def _trimmed(option: str) -> str:
    """An option without the punctuation and the "or" before the next label."""
    option = option.rstrip(_TRAILING)
    joiner = next((j for j in _JOINERS if option.lower().endswith(j)), "")
    return option[: len(option) - len(joiner)].rstrip(_TRAILING).strip()


def option_picked(reply: str, assistant: str) -> str:
    """The enumerated option a reply picks by its label or its place, or ""."""
    options = options_of(assistant[-400:])
    if len(options) < 2:
        return ""
    text = reply.strip()
    label = _BY_LABEL_RE.match(text)
    if label:
        key = label.group(1).lower()
        place = next((order.index(key) for order in _ORDER if key in order), len(options))
    elif (at := place_of(text)) is not None:
        place = at
    else:
        return ""
    return options[place] if -len(options) <= place < len(options) else ""


def place_of(reply: str) -> int | None:
    """The place of the option a reply picks by its place (0 the first, -1 the last), or None."""
    if m := _PLACE_EN_RE.match(reply):
        return _PLACES[m.group(1).lower()]
    if m := _PLACE_ZH_RE.match(reply):
        return (0 if m.group(3) == "前面" else -1) if m.group(3) else "一二三四".index(m.group(1) or m.group(2))
    return None


# Two numbers asked between, with their unit ("Spread it over 6 or 9 months?", "2 or 4 boxes a month?").
EITHER_NUMBER_RE = re.compile(r"\b(\d{1,4}) or (\d{1,4}) ([a-z]{3,12})\b[^?]{0,30}\?", re.I)
_NUMBER_REPLY_RE = re.compile(r"^(?:(?:um|erm|ok|okay|yes|yeah)[,\s]+)?(\d{1,4})\b(?!\s*(?:or|-|to)\b)(.*)$", re.I)


def number_chosen(reply: str, assistant: str) -> str:
    """The number of an either-or question on an amount that the reply names first, with its unit and what the reply
    adds ("9 please, from the 1st" -> "9 months, from the 1st"), else ""."""
    asked = EITHER_NUMBER_RE.search(assistant[-300:])
    said = _NUMBER_REPLY_RE.match(reply.strip()) if asked else None
    if not asked or not said or said.group(1) not in asked.groups()[:2]:
        return ""
    rest = re.sub(r"^[,\s]*(?:please|pls|thanks)\b", "", said.group(2)).strip(" ,.!")
    return f"{said.group(1)} {asked.group(3).lower()}" + (f", {rest}" if rest else "")
