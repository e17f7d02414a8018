"""Relative time expressions in English and Chinese, resolved against the message time.

"yesterday" said on 8 May 2023 becomes 7 May 2023; "上周三" becomes the Wednesday of the week before.
Each match yields the absolute moment, its granularity and the replacement text for the fact sentence.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

_MONTHS = [
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
]  # fmt: skip
_WEEKDAYS_EN = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_WEEKDAYS_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_ZH_NUM = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10, "半": 0}
_EN_NUM = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "a few": 3, "few": 3, "couple of": 2, "a couple of": 2,
}  # fmt: skip


@dataclass
class TimeMatch:
    start: int
    end: int
    when: dt.datetime
    granularity: str  # day | week | month | year
    replacement: str
    temporary_until: dt.datetime | None = None  # set for "today", "tonight", "this week": a fact that expires


def _day_en(d: dt.date) -> str:
    return f"{d.day} {_MONTHS[d.month - 1]} {d.year}"


def _day_zh(d: dt.date) -> str:
    return f"{d.year}年{d.month}月{d.day}日"


def _add_months(d: dt.date, months: int) -> dt.date:
    month_index = d.year * 12 + d.month - 1 + months
    year, month = divmod(month_index, 12)
    return dt.date(year, month + 1, 1)


def _at(d: dt.date, ref: dt.datetime) -> dt.datetime:
    return dt.datetime.combine(d, dt.time(12, 0), tzinfo=ref.tzinfo or dt.UTC)


def _en_number(word: str) -> int:
    word = word.lower().strip()
    if word.isdigit():
        return int(word)
    return _EN_NUM.get(word, 1)


def _zh_number(word: str) -> int:
    if word.isdigit():
        return int(word)
    if word.startswith("十"):
        return 10 + _ZH_NUM.get(word[1:], 0) if len(word) > 1 else 10
    if len(word) == 2 and word[1] == "十":
        return _ZH_NUM.get(word[0], 1) * 10
    return _ZH_NUM.get(word, 1)


_EN_NUMBER_WORDS = r"(\d+|a couple of|couple of|a few|few|an?|one|two|three|four|five|six|seven|eight|nine|ten)"
_EN_HEDGES = r"about|around|roughly|approximately|some|nearly|almost"
_EN_RE = re.compile(
    r"\b(?P<phrase>"
    r"the day before yesterday|day before yesterday|yesterday|last night|this morning|this afternoon|"
    r"this evening|tonight|today|the day after tomorrow|tomorrow|"
    r"the (?P<before_last>week|weekend) before last|"
    # Not after "the": "in the last month", "over the next year" are spans up to or from now, not a calendar unit.
    r"(?<!the )(?P<dir>last|next|this|coming) (?P<unit>week|weekend|month|year|summer|winter|spring|fall|"
    + "|".join(_WEEKDAYS_EN)
    + r")|"
    # "on Sunday" alone: a date only in a plan (find_times), never "on Sundays" nor in a question.
    r"on (?P<bare>" + "|".join(_WEEKDAYS_EN) + r")(?!s)|"
    # Abbreviated weekdays ("last Fri", "next Weds"): only after last, next or coming ("this sun" is no day).
    r"(?P<adir>last|next|coming) (?P<abbr>mon|tues?|weds?|thur?s?|fri|sat|sun)|"
    # A hedge ("about five years ago", "in around two weeks") makes the date approximate: "around 2018".
    r"(?:(?P<hedge2>"
    + _EN_HEDGES
    + r") )?(?P<n>"
    + _EN_NUMBER_WORDS[1:-1]
    + r") (?P<unit2>days?|weeks?|weekends?|fortnights?|months?|years?) (?:ago|back)|"
    # Not after a count of times: "twice in one week" is how often, not a date a week from now.
    r"(?<!once )(?<!twice )(?<!times )in (?:(?P<hedge3>"
    + _EN_HEDGES
    + r") )?(?P<n3>"
    + _EN_NUMBER_WORDS[1:-1]
    + r") (?P<unit3>days?|weeks?|weekends?|fortnights?|months?|years?)(?! ago| back)"
    r")\b",
    re.IGNORECASE,
)
_ZH_N = r"((?<!\d)\d+|[一二两三四五六七八九十半]{1,3})"  # from a number's first digit only (else quadratic)
_ZH_RE = re.compile(
    r"(?P<phrase>大前天|前天|昨天|昨晚|今天|今晚|今早|明天|后天|大后天|"
    # Not after 每 or 逢 ("every"): 每周六 is every Saturday, no date.
    r"(?<!每)(?<!每个)(?<!逢)(?P<wdir>上上|上|下下|下|这|本)?(?:个)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])|"
    r"(?P<dir>上上|上|下|这|本)(?:个)?(?P<unit>周末|周|星期|礼拜|月)|"
    # 税前年收入 is income before tax, not the year before last.
    r"去年|(?<!税)前年|明年|今年(?![\d一二三四五六七八九十]{1,3}(?:岁|了|周岁|[，。,.!！~～]|$))|"  # (not an age: 我今年38)
    r"(?P<n>" + _ZH_N + r")(?:个)?(?P<unit2>周末|天|周|星期|月|年)(?P<dir2>前|以前|之前|后|以后|之后))"
)

_ZH_UNITS = {"周末": "weekend", "天": "day", "周": "week", "星期": "week", "月": "month", "年": "year"}
_EXPIRE_EN = {"today", "tonight", "this morning", "this afternoon", "this evening"}
_EXPIRE_ZH = {"今天", "今晚", "今早"}


def _week_phrase_en(d: dt.date) -> str:
    return f"the week of {_day_en(d)}"


def _resolve_en(m: re.Match[str], ref: dt.datetime) -> TimeMatch | None:
    phrase = m.group("phrase").lower()
    today = ref.date()
    one_day = dt.timedelta(days=1)
    expires = None
    if phrase in {"the day before yesterday", "day before yesterday"}:
        d, gran, rep = today - 2 * one_day, "day", None
    elif phrase in {"yesterday", "last night"}:
        d, gran = today - one_day, "day"
        rep = f"on {_day_en(d)}" if phrase == "yesterday" else f"on the night of {_day_en(d)}"
    elif phrase in _EXPIRE_EN or phrase == "today":
        d, gran, rep = today, "day", None
        expires = _at(today + one_day, ref)
        rep = f"on {_day_en(d)}" if phrase == "today" else f"{phrase} ({_day_en(d)})"
    elif phrase == "tomorrow":
        d, gran, rep = today + one_day, "day", None
    elif phrase in {"the day after tomorrow"}:
        d, gran, rep = today + 2 * one_day, "day", None
    elif m.group("before_last"):
        unit = m.group("before_last").lower()
        d, gran = _shift(today, -2, unit)
        rep = f"on the weekend of {_day_en(d)}" if unit == "weekend" else f"in {_week_phrase_en(d)}"
    elif m.group("bare"):  # a plan's weekday: the next one after today
        ahead = (_WEEKDAYS_EN.index(m.group("bare").lower()) - today.weekday() - 1) % 7 + 1
        d, gran = today + dt.timedelta(days=ahead), "day"
        rep = f"on {_day_en(d)}"
    elif m.group("dir") or m.group("adir"):
        direction = (m.group("dir") or m.group("adir")).lower()
        unit = m.group("unit").lower() if m.group("dir") else _weekday_of(m.group("abbr"))
        step = {"last": -1, "next": 1, "coming": 1, "this": 0}[direction]
        if unit in _WEEKDAYS_EN:
            target = _WEEKDAYS_EN.index(unit)
            monday = today - dt.timedelta(days=today.weekday())
            d = monday + dt.timedelta(days=target + 7 * step)
            if direction == "coming" and d <= today:
                d += dt.timedelta(days=7)
            gran, rep = "day", f"on {_day_en(d)}"
        elif unit in {"week", "weekend"}:
            monday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7 * step)
            d = monday + dt.timedelta(days=5) if unit == "weekend" else monday
            gran = "week"
            rep = f"on the weekend of {_day_en(d)}" if unit == "weekend" else f"in {_week_phrase_en(d)}"
            if step == 0:
                expires = _at(monday + dt.timedelta(days=7), ref)
        elif unit == "month":
            d = _add_months(today, step)
            gran, rep = "month", f"in {_MONTHS[d.month - 1]} {d.year}"
        elif unit == "year":
            d = dt.date(today.year + step, 1, 1)
            gran, rep = "year", f"in {d.year}"
        else:  # a season: keep the word, add the year
            year = today.year + step
            d = dt.date(year, {"spring": 4, "summer": 7, "fall": 10, "winter": 1}[unit], 1)
            gran, rep = "month", f"in the {unit} of {year}"
    elif m.group("unit2") or m.group("unit3"):
        ago = bool(m.group("unit2"))
        words, unit = (m.group("n"), m.group("unit2")) if ago else (m.group("n3"), m.group("unit3"))
        n, unit = _en_number(words), unit.lower().rstrip("s")
        d, gran = _shift(today, -n if ago else n, unit)
        # "a few" is no count: the date it gives is approximate, as with a hedge ("a few years ago": around 2020).
        vague = bool(m.group("hedge2" if ago else "hedge3")) or words.lower().endswith("few")
        rep = f"on the weekend of {_day_en(d)}" if unit == "weekend" else _en_rep(d, gran, approximate=vague)
    else:
        return None
    if rep is None:
        rep = f"on {_day_en(d)}"
    return TimeMatch(m.start(), m.end(), _at(d, ref), gran, rep, expires)


def _weekday_of(abbr: str) -> str:
    """ "Fri" -> "friday", "Thurs" -> "thursday", "Weds" -> "wednesday"."""
    return next(day for day in _WEEKDAYS_EN if day.startswith(abbr.lower()[:3]))


def _shift(today: dt.date, n: int, unit: str) -> tuple[dt.date, str]:
    """`n` units from today; a weekend is the Saturday of the week `n` weeks away, a fortnight two weeks."""
    if unit == "weekend":
        return today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7 * n + 5), "week"
    if unit == "fortnight":
        return today + dt.timedelta(weeks=2 * n), "week"
    if unit == "day":
        return today + dt.timedelta(days=n), "day"
    if unit == "week":
        return today + dt.timedelta(weeks=n), "week"
    if unit == "month":
        return _add_months(today, n), "month"
    return dt.date(today.year + n, 1, 1), "year"


def _en_rep(d: dt.date, gran: str, *, approximate: bool = False) -> str:
    if approximate:
        if gran in {"day", "week"}:
            return f"around {_day_en(d)}"
        return f"around {_MONTHS[d.month - 1]} {d.year}" if gran == "month" else f"around {d.year}"
    if gran == "day":
        return f"on {_day_en(d)}"
    if gran == "week":
        return f"around {_day_en(d)}"
    if gran == "month":
        return f"in {_MONTHS[d.month - 1]} {d.year}"
    return f"in {d.year}"


def _zh_rep(d: dt.date, gran: str) -> str:
    if gran == "day":
        return _day_zh(d)
    if gran == "week":
        return f"{_day_zh(d)}那周"
    if gran == "month":
        return f"{d.year}年{d.month}月"
    return f"{d.year}年"


def _resolve_zh(m: re.Match[str], ref: dt.datetime) -> TimeMatch | None:
    phrase = m.group("phrase")
    today = ref.date()
    expires = None
    simple_days = {"大前天": -3, "前天": -2, "昨天": -1, "昨晚": -1, "今天": 0, "今晚": 0, "今早": 0, "明天": 1,
                   "后天": 2, "大后天": 3}  # fmt: skip
    years = {"前年": -2, "去年": -1, "今年": 0, "明年": 1}
    if phrase in simple_days:
        d, gran = today + dt.timedelta(days=simple_days[phrase]), "day"
        rep = _day_zh(d) + ("晚上" if phrase.endswith("晚") else "")
        if phrase in _EXPIRE_ZH:
            expires = _at(today + dt.timedelta(days=1), ref)
    elif phrase in years:
        d, gran = dt.date(today.year + years[phrase], 1, 1), "year"
        rep = f"{d.year}年"
    elif m.group("wd"):
        step = {"上上": -2, "上": -1, "下下": 2, "下": 1, "这": 0, "本": 0, None: 0}[m.group("wdir")]
        monday = today - dt.timedelta(days=today.weekday())
        d = monday + dt.timedelta(days=_WEEKDAYS_ZH[m.group("wd")] + 7 * step)
        gran, rep = "day", _day_zh(d)
    elif m.group("unit"):
        step = {"上上": -2, "上": -1, "下": 1, "这": 0, "本": 0}[m.group("dir")]
        unit = m.group("unit")
        if unit == "月":
            d = _add_months(today, step)
            gran, rep = "month", f"{d.year}年{d.month}月"
        else:
            monday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7 * step)
            d = monday + dt.timedelta(days=5) if unit == "周末" else monday
            gran = "week"
            rep = f"{_day_zh(d)}那个周末" if unit == "周末" else f"{_day_zh(d)}那周"
            if step == 0:
                expires = _at(monday + dt.timedelta(days=7), ref)
    elif m.group("unit2"):
        n = _zh_number(m.group("n"))
        sign = -1 if m.group("dir2") in {"前", "以前", "之前"} else 1
        unit = _ZH_UNITS[m.group("unit2")]
        d, gran = _shift(today, sign * n, unit)
        rep = f"{_day_zh(d)}那个周末" if unit == "weekend" else _zh_rep(d, gran)
    else:
        return None
    return TimeMatch(m.start(), m.end(), _at(d, ref), gran, rep, expires)


# "It feels like yesterday", "seems like only yesterday", 仿佛就在昨天: a figure of speech, no date.
_FIGURATIVE_EN = re.compile(r"\b(?:like|as if)(?: it was| it were)?(?: just| only)? $", re.IGNORECASE)
_FIGURATIVE_ZH = re.compile(r"(?:就像|好像就|仿佛|恍如|宛如|犹如)(?:是|在|就在)?$")


# "haven't phoned in a few weeks", "the first time in two years": "in" + a span after a negation or "first time" is
# how long, not when.
_DURATION_BEFORE_EN = re.compile(r"(?i:(?:n't|\b(?:not|never|first time|only time|longest))\b[^.,;!?]{0,40}$)")


def _figurative(text: str, m: re.Match[str]) -> bool:
    """A match that names no date: a figure of speech, or a span that says how long."""
    phrase = m.group("phrase").lower()
    if "unit3" in m.re.groupindex and m.group("unit3"):
        return bool(_DURATION_BEFORE_EN.search(text[max(0, m.start() - 60) : m.start()]))
    before = text[max(0, m.start() - 20) : m.start()]
    if phrase in {"yesterday", "today"}:
        return bool(_FIGURATIVE_EN.search(before))
    return phrase in {"昨天", "今天"} and bool(_FIGURATIVE_ZH.search(before))


# "每周二和周四", "每周一、周三和周五": a weekday listed after an "every" weekday is every one too, no date.
_ZH_AND = r"(?:[、和跟与及到至或,，]|或者)"
_ZH_RECURRING_LIST = re.compile(
    r"[每逢]个?(?:周|星期|礼拜)[一二三四五六日天](?:"
    + _ZH_AND
    + r"(?:周|星期|礼拜)?[一二三四五六日天]){0,6}"
    + _ZH_AND
    + "$"
)
# "the 15th of next month", "by next week": the preposition is there already ("of January 2027", not "of in ...").
_PREPOSITION_BEFORE_EN = re.compile(r"\b(?:of|by|until|till|since|before|after|from|during|to|through|for) $", re.I)
# A time said as the sentence's subject, its verb next ("Last week was wild", "Yesterday's been a mess").
_SUBJECT_VERB_RE = re.compile(r"(?:\s(?:was|is|has been|had been|will be)|'s been|'s)\b", re.I)


# "周日营业吗？", "你们周六几点开门": a weekday without 这/下/上 in a question about opening hours or a service is every
# such day, no date ("我周日去医院复查" stays one).
_ZH_QUESTION = re.compile(r"[吗嘛么？?]|是否|几点|什么时候|能不能|可不可以|有没有|开不开|营不营业")
_ZH_SERVICE = re.compile(
    r"营业|开门|关门|开放|上班|休息|打烊|开业|值班|有人|送货|配送|发货|接待|办理|开着|开到|开几点|上门"
)


def _standing_weekday(text: str, m: re.Match[str]) -> bool:
    return not m.group("wdir") and bool(_ZH_QUESTION.search(text)) and bool(_ZH_SERVICE.search(text))


# A plan said before a bare "on Sunday" ("I'm seeing the dentist on Sunday", "we'll drive up on Friday"); a past or a
# habit ("went there on Sunday", "works on Sunday") keeps the weekday as said, a question ("are you open on Sunday?")
# too.
_PLAN_BEFORE_EN = re.compile(
    r"(?i:\b(?:will|shall|going to|gonna|plan(?:s|ning)? to|about to)\b|['’]ll\b"
    r"|\b(?:am|is|are|['’]m|['’]re)\s+(?:\w{1,20}\s+)?\w{1,20}ing\b)[^.!?;]{0,80}$"
)
_QUESTION_EN = re.compile(r"[?？]|^\s*(?:do|does|did|are|is|will|would|can|could|shall)\b", re.I)


def _plan_weekday(text: str, m: re.Match[str]) -> bool:
    return not _QUESTION_EN.search(text) and bool(_PLAN_BEFORE_EN.search(text[max(0, m.start() - 100) : m.start()]))


def find_times(text: str, ref: dt.datetime) -> list[TimeMatch]:
    """All relative time expressions in the text, in order, resolved against `ref`."""
    out: list[TimeMatch] = []
    for m in _EN_RE.finditer(text):
        unsaid = _figurative(text, m) or m.group("bare") and not _plan_weekday(text, m)
        hit = None if unsaid else _resolve_en(m, ref)
        if hit:
            out.append(hit)
    for m in _ZH_RE.finditer(text):
        recurring = m.group("wd") and (
            _ZH_RECURRING_LIST.search(text[max(0, m.start() - 24) : m.start()]) or _standing_weekday(text, m)
        )
        hit = None if recurring or _figurative(text, m) else _resolve_zh(m, ref)
        if hit:
            out.append(hit)
    out.sort(key=lambda t: t.start)
    return out


def resolve_text(text: str, ref: dt.datetime) -> tuple[str, list[TimeMatch]]:
    """Replace relative expressions with absolute dates; return the new text and the matches."""
    matches = find_times(text, ref)
    if not matches:
        return text, []
    parts: list[str] = []
    cursor = 0
    for match in matches:
        if match.start < cursor:
            continue
        before = text[cursor : match.start]
        parts.append(before)
        replacement = match.replacement
        opens = _opens_sentence("".join(parts))
        # No preposition after another, nor as the subject ("Last week was wild" -> "The week of 4 May 2026 was wild").
        subject = opens and _SUBJECT_VERB_RE.match(text, match.end)
        if replacement.startswith(("in ", "on ")) and (_PREPOSITION_BEFORE_EN.search(before[-12:]) or subject):
            replacement = replacement[3:]
        parts.append(_capitalised(replacement) if opens else replacement)
        cursor = match.end
    parts.append(text[cursor:])
    return "".join(parts), matches


def _opens_sentence(before: str) -> bool:
    """Whether a replacement after `before` starts a sentence (English replacements are lower case)."""
    stripped = before.rstrip()
    return not stripped or (stripped[-1] in ".!?" and len(stripped) < len(before))


def _capitalised(replacement: str) -> str:
    return replacement[:1].upper() + replacement[1:]


_ABS_DATE_RE = re.compile(
    r"\b\d{1,2} (?:"
    + "|".join(_MONTHS)
    + r") \d{4}\b|\b(?:"
    + "|".join(_MONTHS)
    + r") \d{1,2}(?:st|nd|rd|th)?,? \d{4}\b"
    r"|\b\d{4}-\d{2}-\d{2}\b|\d{4}年\d{1,2}月(?:\d{1,2}[日号])?|\d{1,2}月\d{1,2}[日号]"
)


def absolute_dates(text: str) -> list[str]:
    """Dates written out in the text (after resolution): kept as entities."""
    return [m.group(0) for m in _ABS_DATE_RE.finditer(text)]
