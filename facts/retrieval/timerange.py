"""Time expressions of a query ("yesterday", "last 3 weeks", "on 8 May 2023", "in June", "上周", "最近") as a
[since, until) range in UTC, relative to the search's now. No LLM: a list of patterns, most specific first."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTHS.pop("may", None)  # handled explicitly: "may" is also a modal verb
_MONTH_RE = "january|february|march|april|may|june|july|august|september|october|november|december"
_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_EN_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "few": 3}
_EN_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
_ZH_UNIT_DAYS = {"天": 1, "周": 7, "个星期": 7, "个月": 30, "年": 365}
VAGUE_TIME_RE = re.compile(r"\brecently\b|\blately\b|最近|近来", re.IGNORECASE)  # the last 30 days

# (pattern, searched in the original text or the lower-cased one, (year, month, day) group numbers)
_DATE_PATTERNS: list[tuple[str, str, tuple[int, int, int]]] = [
    (r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b", "text", (1, 2, 3)),
    (r"(\d{4})年(\d{1,2})月(\d{1,2})[日号]", "text", (1, 2, 3)),
    (rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\s*,?\s+(\d{{4}})\b", "low", (3, 2, 1)),
    (rf"\b({_MONTH_RE})\s+(\d{{1,2}})(?:st|nd|rd|th)?\s*,?\s+(\d{{4}})\b", "low", (3, 1, 2)),
]
# A day without its year ("on 8 May", "May 8th", "5月8日"): (pattern, source, (month group, day group)).
_DAY_PATTERNS: list[tuple[str, str, tuple[int, int]]] = [
    (r"(?<![\d年])(\d{1,2})月(\d{1,2})[日号]", "text", (1, 2)),
    (rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\b", "low", (2, 1)),
    (rf"\b({_MONTH_RE})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", "low", (1, 2)),
]


@dataclass
class TimeRange:
    since: dt.datetime
    until: dt.datetime
    phrase: str
    year_named: bool = True  # False: "in June", "on 14 December" (the most recent one is a guess)
    vague: bool = False  # "recently", "最近": the last 30 days, a qualifier more than a date


@dataclass(frozen=True)
class _Query:
    """The text a time expression is looked for in, and the day it is relative to."""

    text: str
    low: str
    today: dt.date

    @property
    def tomorrow(self) -> dt.date:
        return self.today + dt.timedelta(days=1)


def _day_start(d: dt.date) -> dt.datetime:
    return dt.datetime.combine(d, dt.time.min, tzinfo=dt.UTC)


def _days(start: dt.date, end: dt.date, phrase: str, *, year_named: bool = True, vague: bool = False) -> TimeRange:
    return TimeRange(_day_start(start), _day_start(end), phrase, year_named, vague)


def _month_range(year: int, month: int) -> tuple[dt.datetime, dt.datetime]:
    start = dt.date(year, month, 1)
    end = dt.date(year + (month == 12), month % 12 + 1, 1)
    return _day_start(start), _day_start(end)


def _month_number(name: str) -> int:
    return 5 if name == "may" else _MONTHS[name]


def _zh_number(token: str) -> int:
    if token.isdigit():
        return int(token)
    if token == "十":
        return 10
    if token.startswith("十"):
        return 10 + _ZH_DIGITS.get(token[1:], 0)
    if "十" in token:
        tens, _, ones = token.partition("十")
        return _ZH_DIGITS.get(tens, 1) * 10 + _ZH_DIGITS.get(ones, 0)
    return _ZH_DIGITS.get(token, 1)


def _named_span(q: _Query) -> TimeRange | None:
    """Yesterday, today, last week, this month, last year... in English and Chinese."""
    today, tomorrow = q.today, q.tomorrow
    week_start = today - dt.timedelta(days=today.weekday())
    last_month = (today.year, today.month - 1) if today.month > 1 else (today.year - 1, 12)
    spans: list[tuple[str, TimeRange]] = [
        (r"\bthe day before yesterday\b|前天", _days(today - dt.timedelta(days=2), today - dt.timedelta(days=1), "")),
        (r"\byesterday\b|昨天|昨晚|昨日", _days(today - dt.timedelta(days=1), today, "")),
        (r"\btoday\b|\btonight\b|今天|今晚|今日", _days(today, tomorrow, "")),
        (
            r"\blast week\b|\bprevious week\b|上周|上星期|上个星期|上礼拜",
            _days(week_start - dt.timedelta(days=7), week_start, ""),
        ),
        (r"\bthis week\b|本周|这周|这个星期|这星期", _days(week_start, tomorrow, "")),
        (r"\blast month\b|\bprevious month\b|上个月|上月", TimeRange(*_month_range(*last_month), "")),
        (r"\bthis month\b|本月|这个月", TimeRange(_month_range(today.year, today.month)[0], _day_start(tomorrow), "")),
        (r"\blast year\b|去年", _days(dt.date(today.year - 1, 1, 1), dt.date(today.year, 1, 1), "")),
        (r"\bthis year\b|今年", _days(dt.date(today.year, 1, 1), tomorrow, "")),
    ]
    for pattern, value in spans:
        m = re.search(pattern, q.low)
        if m:
            value.phrase = m.group(0)
            return value
    return None


def _counted_span(q: _Query) -> TimeRange | None:
    """ "last 3 weeks", "2 days ago", "最近三天", "两个月前": a span up to today, or that day with a day's slack."""
    today = q.today
    m = re.search(
        r"\b(?:last|past)\s+(\d+|a|an|one|two|three|four|five|six|seven|few)\s+(day|week|month|year)s?\b", q.low
    ) or re.search(r"\b(\d+|a|an|one|two|three|four|five|six|seven|few)\s+(day|week|month|year)s?\s+ago\b", q.low)
    if m:
        n = int(m.group(1)) if m.group(1).isdigit() else _EN_NUMBERS[m.group(1)]
        days = _EN_UNIT_DAYS[m.group(2)] * min(n, 100)
        if "ago" in m.group(0):  # "3 days ago": that day, with a day of slack either side
            return _days(today - dt.timedelta(days=days + 1), today - dt.timedelta(days=days - 2), m.group(0))
        return _days(today - dt.timedelta(days=days), q.tomorrow, m.group(0))
    m = re.search(r"(?:最近|过去|近)([一二两三四五六七八九十\d]++)(天|周|个星期|个月|年)", q.text)
    if m:
        days = _ZH_UNIT_DAYS[m.group(2)] * min(_zh_number(m.group(1)), 100)
        return _days(today - dt.timedelta(days=days), q.tomorrow, m.group(0))
    # From a number's first character only: tried from every digit of a long run, it was quadratic.
    m = re.search(r"(?<![一二两三四五六七八九十\d])([一二两三四五六七八九十\d]+)(天|周|个星期|个月|年)前", q.text)
    if m:
        days = _ZH_UNIT_DAYS[m.group(2)] * min(_zh_number(m.group(1)), 100)
        return _days(today - dt.timedelta(days=days + 1), today - dt.timedelta(days=days - 2), m.group(0))
    return None


def _date(q: _Query) -> TimeRange | None:
    """Absolute dates: ISO, "8 May 2023", "May 8, 2023", "2023年5月8日"."""
    for pattern, source, (yi, mi, di) in _DATE_PATTERNS:
        m = re.search(pattern, q.text if source == "text" else q.low)
        if not m:
            continue
        month = m.group(mi)
        try:
            d = dt.date(int(m.group(yi)), int(month) if month.isdigit() else _month_number(month), int(m.group(di)))
        except ValueError:
            continue
        return _days(d, d + dt.timedelta(days=1), m.group(0))
    return None


def _month_of_year(q: _Query) -> TimeRange | None:
    """ "in May 2023", "2023年5月"."""
    m = re.search(rf"\b({_MONTH_RE})\s*,?\s+(\d{{4}})\b", q.low)
    if m:
        return TimeRange(*_month_range(int(m.group(2)), _month_number(m.group(1))), m.group(0))
    m = re.search(r"(\d{4})年(\d{1,2})月", q.text)
    if m and 1 <= int(m.group(2)) <= 12:
        return TimeRange(*_month_range(int(m.group(1)), int(m.group(2))), m.group(0))
    return None


def _day_without_year(q: _Query) -> TimeRange | None:
    """ "on 8 May", "May 8th", "5月8日": the most recent such day."""
    for pattern, source, (mi, di) in _DAY_PATTERNS:
        m = re.search(pattern, q.text, 0 if source == "text" else re.IGNORECASE)
        if not m:
            continue
        month = m.group(mi)
        if month.lower() == "may" and not month[0].isupper():
            continue  # "you may 2..." is no date; "May 2" is
        month = month.lower()
        try:
            d = dt.date(q.today.year, int(month) if month.isdigit() else _month_number(month), int(m.group(di)))
        except ValueError:
            continue
        if d > q.today:
            try:
                d = d.replace(year=q.today.year - 1)
            except ValueError:  # 29 February
                continue
        return _days(d, d + dt.timedelta(days=1), m.group(0).lower(), year_named=False)
    return None


def _month(q: _Query) -> TimeRange | None:
    """ "in May", "June", "5月", "五月": the most recent such month."""
    m = re.search(rf"\b(?:in|during|since|last)\s+({_MONTH_RE})\b", q.low) or re.search(
        r"\b(january|february|march|april|june|july|august|september|october|november|december)\b", q.low
    )
    month = _month_number(m.group(1)) if m else None
    if month is None:
        zh = re.search(
            r"(?<![\d年])(1[0-2]|[1-9]|十[一二]?|[一二三四五六七八九])月(?!份?[\d一二三四五六七八九十]+[日号])", q.text
        )
        if zh:
            month = _zh_number(zh.group(1))
            m = zh
    if not (month and m):
        return None
    year = q.today.year if month <= q.today.month else q.today.year - 1
    return TimeRange(*_month_range(year, month), m.group(0), year_named=False)


def _year(q: _Query) -> TimeRange | None:
    """ "in 2023", "2023年"."""
    m = re.search(r"\b(?:in|during)\s+((?:19|20)\d{2})\b", q.low) or re.search(r"((?:19|20)\d{2})年", q.text)
    if not m:
        return None
    year = int(m.group(1))
    return _days(dt.date(year, 1, 1), dt.date(year + 1, 1, 1), m.group(0))


def _vague(q: _Query) -> TimeRange | None:
    """ "recently", "最近": the last 30 days. Last, as the vaguest: "the bike I fixed recently, in March 2021" is
    about March 2021."""
    m = VAGUE_TIME_RE.search(q.low)
    if not m:
        return None
    return _days(q.today - dt.timedelta(days=30), q.tomorrow, m.group(0), vague=True)


# Tried in this order: the first that finds an expression gives the range.
_PARSERS: list[Callable[[_Query], TimeRange | None]] = [
    _named_span,
    _counted_span,
    _date,
    _month_of_year,
    _day_without_year,
    _month,
    _year,
    _vague,
]


def parse_time_range(text: str, now: dt.datetime) -> TimeRange | None:
    """Find a time expression and turn it into a [since, until) range relative to `now` (UTC)."""
    q = _Query(text=text, low=text.lower(), today=now.astimezone(dt.UTC).date())
    for parser in _PARSERS:
        found = parser(q)
        if found is not None:
            return found
    return None
