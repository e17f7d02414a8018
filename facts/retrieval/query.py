"""Query analysis without an LLM: language, words, entities and numbers, time ranges, type hints."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass, field

from facts.text import EN_STOP_WORDS, detect_language, has_cjk, keywords, normalize, segment

# Question words and fillers that carry no content in a memory query (on top of facts.text's stop words).
QUERY_STOP_WORDS = frozenset(
    [
        "please",
        "remember",
        "recall",
        "anything",
        "everything",
        "someone",
        "somebody",
        "say",
        "said",
        "mention",
        "mentioned",
        "user",
        "记得",
        "告诉",
        "请问",
        "知道",
        "一下",
        "关于",
        "怎样",
        "如何",
        "哪些",
        "哪个",
        "哪里",
        "哪儿",
        "多少",
        "是否",
        "可以",
        "什么样",
        "怎么样",
        "厉害",
        "干嘛",
        "干什么",
        "做什么",
        "做了什么",
    ]
)

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTHS.pop("may", None)  # handled explicitly: "may" is also a modal verb
_MONTH_RE = "january|february|march|april|may|june|july|august|september|october|november|december"
_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}

# Words hinting at the fact type a question is about. Values are sets of FactType values.
TYPE_HINTS: list[tuple[re.Pattern[str], tuple[str, ...]]] = [
    (
        re.compile(
            r"\b(like|likes|love|loves|prefer|prefers|favou?rite|enjoys?|hates?|dislikes?|into)\b|喜欢|爱吃|爱喝|偏好|讨厌|最爱|口味"
        ),
        ("preference",),
    ),
    (
        re.compile(
            r"\b(dog|dogs|cat|cats|pet|pets|puppy|wife|husband|son|daughter|kids?|children|mother|mom|father|dad|"
            r"sister|brother|friend|friends|partner|boyfriend|girlfriend|family)\b|狗|猫|宠物|老婆|妻子|丈夫|老公|儿子|女儿|"
            r"孩子|妈妈|爸爸|母亲|父亲|朋友|家人|姐姐|妹妹|哥哥|弟弟"
        ),
        ("relationship", "profile"),
    ),
    (
        re.compile(
            r"\b(allerg\w*|doctor|sick|ill|illness|medicine|medication|hospital|symptoms?|health|diet)\b|过敏|医生|生病|药|医院|症状|健康|掉毛"
        ),
        ("health",),
    ),
    (
        re.compile(
            r"\b(live|lives|address|work|works|job|occupation|name|age|old|born|birthday|from)\b|住|地址|工作|名字|岁|生日|职业"
        ),
        ("profile",),
    ),
    (re.compile(r"\b(promise[sd]?|plan(s|ned)?|going to|will)\b|答应|计划|打算|承诺"), ("commitment", "decision")),
    (re.compile(r"\b(decided?|decision|chose|choose)\b|决定|选择"), ("decision",)),
    (re.compile(r"\b(complain\w*|problem|broken|refund|issue|wrong)\b|投诉|退款|问题|坏了|不满"), ("complaint",)),
    (re.compile(r"\b(lawyer|contract|legal|court|lawsuit)\b|律师|合同|法律|起诉"), ("legal",)),
    (re.compile(r"\b(when|happened|went|did|trip|visit(ed)?)\b|什么时候|发生|去了"), ("event",)),
]

# Words naming a slot the rule extractor fills ("我的狗" -> any pet:<name> slot, "where do I live" -> residence).
# A query naming a slot finds the facts holding it even when they share no word ("狗" and "柯基"), also at cold
# start when vector search is skipped. Values are predicates; one ending in ":" matches every "pet:<name>".
SLOT_HINTS: list[tuple[re.Pattern[str], tuple[str, ...]]] = [
    (
        re.compile(r"\b(dogs?|cats?|pets?|pupp(y|ies)|kittens?)\b|狗|猫|宠物", re.I),
        ("pet:",),
    ),
    (
        re.compile(r"\b(live|lives|living|address|home town|hometown|moved)\b|住|地址|搬家|搬到|老家", re.I),
        ("residence", "hometown"),
    ),
    (
        re.compile(r"\b(job|jobs|occupation|profession|employer|work|works|working)\b|工作|职业|上班|公司", re.I),
        ("job", "employer"),
    ),
    (re.compile(r"\ballerg\w*|过敏", re.I), ("allergy:",)),
    (re.compile(r"\b(diet|vegetarian|vegan)\b|吃素|素食|饮食", re.I), ("diet",)),
    (re.compile(r"\bmy name\b|我叫什么|名字", re.I), ("name",)),
    (re.compile(r"\bhow old\b|\bmy age\b|几岁|多大", re.I), ("age",)),
]

_ID_RE = re.compile(r"#?\b(?=[A-Za-z0-9-]*\d)[A-Za-z0-9][A-Za-z0-9-]{2,}\b")
_CAPWORD_RE = re.compile(r"\b[A-Z][a-zA-Z'’]+(?:\s+[A-Z][a-zA-Z'’]+)*")
_POSSESSIVE_RE = re.compile(r"['’]s?$")
_VAGUE_TIME_RE = re.compile(r"\brecently\b|\blately\b|最近|近来", re.IGNORECASE)  # the last 30 days


@dataclass
class TimeRange:
    since: dt.datetime
    until: dt.datetime
    phrase: str
    year_named: bool = True  # False: "in June", "on 14 December" (the most recent one is a guess)
    vague: bool = False  # "recently", "最近": the last 30 days, a qualifier more than a date


@dataclass
class QueryAnalysis:
    text: str
    language: str
    words: list[str]  # content words (lower-cased, stop words removed), Chinese segmented
    entities: list[str]  # normalised names, ids, numbers
    time_range: TimeRange | None
    type_hints: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # capitalised names among the entities
    slots: list[str] = field(default_factory=list)  # slot predicates the query names (SLOT_HINTS)

    @property
    def vector_matchable(self) -> bool:
        """Whether the query holds anything its vector could match (words or names; a time alone is not)."""
        return bool(self.words or self.entities)

    @property
    def is_empty(self) -> bool:
        return not self.words and not self.entities and self.time_range is None and not self.slots


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


def _day_start(d: dt.date) -> dt.datetime:
    return dt.datetime.combine(d, dt.time.min, tzinfo=dt.UTC)


def _month_range(year: int, month: int) -> tuple[dt.datetime, dt.datetime]:
    start = dt.date(year, month, 1)
    end = dt.date(year + (month == 12), month % 12 + 1, 1)
    return _day_start(start), _day_start(end)


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


_EN_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "few": 3}


def parse_time_range(text: str, now: dt.datetime) -> TimeRange | None:  # noqa: C901 (a flat list of patterns)
    """Find a time expression and turn it into a [since, until) range relative to `now` (UTC): the first of
    the patterns below, in their order (named days and weeks, counted spans, dates, months of a year, days
    without a year, months, years, "recently")."""
    low = text.lower()
    today = now.astimezone(dt.UTC).date()
    tomorrow = today + dt.timedelta(days=1)

    def rng(start: dt.date, end: dt.date, phrase: str, *, year_named: bool = True, vague: bool = False) -> TimeRange:
        return TimeRange(_day_start(start), _day_start(end), phrase, year_named, vague)

    week_start = today - dt.timedelta(days=today.weekday())
    simple: list[tuple[str, TimeRange]] = [
        (r"\bthe day before yesterday\b|前天", rng(today - dt.timedelta(days=2), today - dt.timedelta(days=1), "")),
        (r"\byesterday\b|昨天|昨晚|昨日", rng(today - dt.timedelta(days=1), today, "")),
        (r"\btoday\b|\btonight\b|今天|今晚|今日", rng(today, tomorrow, "")),
        (
            r"\blast week\b|\bprevious week\b|上周|上星期|上个星期|上礼拜",
            rng(week_start - dt.timedelta(days=7), week_start, ""),
        ),
        (r"\bthis week\b|本周|这周|这个星期|这星期", rng(week_start, tomorrow, "")),
        (
            r"\blast month\b|\bprevious month\b|上个月|上月",
            TimeRange(*_month_range(*((today.year, today.month - 1) if today.month > 1 else (today.year - 1, 12))), ""),
        ),
        (r"\bthis month\b|本月|这个月", TimeRange(_month_range(today.year, today.month)[0], _day_start(tomorrow), "")),
        (r"\blast year\b|去年", rng(dt.date(today.year - 1, 1, 1), dt.date(today.year, 1, 1), "")),
        (r"\bthis year\b|今年", rng(dt.date(today.year, 1, 1), tomorrow, "")),
    ]
    for pattern, value in simple:
        m = re.search(pattern, low)
        if m:
            value.phrase = m.group(0)
            return value
    m = re.search(
        r"\b(?:last|past)\s+(\d+|a|an|one|two|three|four|five|six|seven|few)\s+(day|week|month|year)s?\b", low
    )
    if not m:
        m = re.search(r"\b(\d+|a|an|one|two|three|four|five|six|seven|few)\s+(day|week|month|year)s?\s+ago\b", low)
    if m:
        n = int(m.group(1)) if m.group(1).isdigit() else _EN_NUMBERS[m.group(1)]
        days = {"day": 1, "week": 7, "month": 30, "year": 365}[m.group(2)] * min(n, 100)
        if "ago" in m.group(0):  # "3 days ago": that day, with a day of slack either side
            return rng(today - dt.timedelta(days=days + 1), today - dt.timedelta(days=days - 2), m.group(0))
        return rng(today - dt.timedelta(days=days), tomorrow, m.group(0))
    m = re.search(r"(?:最近|过去|近)([一二两三四五六七八九十\d]+)(天|周|个星期|个月|年)", text)
    if m:
        days = {"天": 1, "周": 7, "个星期": 7, "个月": 30, "年": 365}[m.group(2)] * min(_zh_number(m.group(1)), 100)
        return rng(today - dt.timedelta(days=days), tomorrow, m.group(0))
    m = re.search(r"([一二两三四五六七八九十\d]+)(天|周|个星期|个月|年)前", text)
    if m:
        days = {"天": 1, "周": 7, "个星期": 7, "个月": 30, "年": 365}[m.group(2)] * min(_zh_number(m.group(1)), 100)
        return rng(today - dt.timedelta(days=days + 1), today - dt.timedelta(days=days - 2), m.group(0))
    # Absolute dates: ISO, "8 May 2023", "May 8, 2023", "2023年5月8日".
    for pattern, source, (yi, mi, di) in _DATE_PATTERNS:
        m = re.search(pattern, text if source == "text" else low)
        if not m:
            continue
        month = m.group(mi)
        try:
            d = dt.date(int(m.group(yi)), int(month) if month.isdigit() else _month_number(month), int(m.group(di)))
        except ValueError:
            continue
        return rng(d, d + dt.timedelta(days=1), m.group(0))
    # Months: "in May 2023", "2023年5月", "in May", "5月", "五月".
    m = re.search(rf"\b({_MONTH_RE})\s*,?\s+(\d{{4}})\b", low)
    if m:
        return TimeRange(*_month_range(int(m.group(2)), _month_number(m.group(1))), m.group(0))
    m = re.search(r"(\d{4})年(\d{1,2})月", text)
    if m and 1 <= int(m.group(2)) <= 12:
        return TimeRange(*_month_range(int(m.group(1)), int(m.group(2))), m.group(0))
    for pattern, source, (mi, di) in _DAY_PATTERNS:  # the most recent such day
        m = re.search(pattern, text, 0 if source == "text" else re.IGNORECASE)
        if not m:
            continue
        month = m.group(mi)
        if month.lower() == "may" and not month[0].isupper():
            continue  # "you may 2..." is no date; "May 2" is
        month = month.lower()
        try:
            d = dt.date(today.year, int(month) if month.isdigit() else _month_number(month), int(m.group(di)))
        except ValueError:
            continue
        if d > today:
            try:
                d = d.replace(year=today.year - 1)
            except ValueError:  # 29 February
                continue
        return rng(d, d + dt.timedelta(days=1), m.group(0).lower(), year_named=False)
    m = re.search(rf"\b(?:in|during|since|last)\s+({_MONTH_RE})\b", low) or re.search(
        r"\b(january|february|march|april|june|july|august|september|october|november|december)\b", low
    )
    month = _month_number(m.group(1)) if m else None
    if month is None:
        zh = re.search(
            r"(?<![\d年])(1[0-2]|[1-9]|十[一二]?|[一二三四五六七八九])月(?!份?[\d一二三四五六七八九十]+[日号])", text
        )
        if zh:
            month = _zh_number(zh.group(1))
            m = zh
    if month and m:
        year = today.year if month <= today.month else today.year - 1  # the most recent such month
        return TimeRange(*_month_range(year, month), m.group(0), year_named=False)
    m = re.search(r"\b(?:in|during)\s+((?:19|20)\d{2})\b", low) or re.search(r"((?:19|20)\d{2})年", text)
    if m:
        year = int(m.group(1))
        return rng(dt.date(year, 1, 1), dt.date(year + 1, 1, 1), m.group(0))
    # Last, as the vaguest: "the bike I fixed recently, in March 2021" is about March 2021.
    m = _VAGUE_TIME_RE.search(low)
    if m:
        return rng(today - dt.timedelta(days=30), tomorrow, m.group(0), vague=True)
    return None


def _month_number(name: str) -> int:
    return 5 if name == "may" else _MONTHS[name]


def extract_names(text: str) -> list[str]:
    """Capitalised words and phrases not at a question's start ("Priya", "Lake Tai", "Tai"): normalised."""
    found: dict[str, None] = {}
    for m in _CAPWORD_RE.finditer(text):
        words = [w for w in (_POSSESSIVE_RE.sub("", w) for w in m.group(0).split()) if w]  # "Priya's" -> "Priya"
        while words and words[0].lower() in EN_STOP_WORDS | {"when", "what", "how", "who", "where", "why", "would"}:
            words = words[1:]
        if not words:
            continue
        found.setdefault(normalize(" ".join(words)), None)
        if len(words) > 1:
            for word in words:
                found.setdefault(normalize(word), None)
    return [key for key in found if key]


def extract_entities(text: str, names: list[str] | None = None) -> list[str]:
    """Names (capitalised words not at a question's start; pass `names` when already found), ids and numbers,
    Chinese nouns: normalised."""
    found: dict[str, None] = {}
    for m in _ID_RE.finditer(text):
        found.setdefault(normalize(m.group(0)), None)
    for name in extract_names(text) if names is None else names:
        found.setdefault(name, None)
    if has_cjk(text):
        for word in segment(text):
            if has_cjk(word) and len(word) >= 2:
                found.setdefault(normalize(word), None)
    return [key for key in found if key and len(key) <= 255]


# Single Chinese characters that are grammar, not content (content ones like 狗, 猫, 药 are kept as terms).
_ZH_FUNCTION_CHARS = frozenset(
    "的了着过吗呢吧啊呀哦嗯地得是在有我你他她它和与就都也很还又被把给让从向对于之以其所为上下中里去来说要会能想个只一这那哪谁么怎没不多少几最"
)


def content_words(text: str) -> list[str]:
    """Content words of a query; Chinese single characters and their adjacent pairs are kept (jieba splits
    rare words like 掉毛 into 掉 + 毛, and a stored fact may hold 狗 inside 狗叫)."""
    words: dict[str, None] = dict.fromkeys(w for w in keywords(text, limit=32) if w not in QUERY_STOP_WORDS)
    if has_cjk(text):
        run: list[str] = []
        for token in [*segment(text), ""]:
            if len(token) == 1 and has_cjk(token) and token not in _ZH_FUNCTION_CHARS:
                run.append(token)
                continue
            if run:
                for i, ch in enumerate(run):
                    words.setdefault(ch, None)
                    if i + 1 < len(run):
                        words.setdefault(ch + run[i + 1], None)
                run = []
    return list(words)


def analyze(text: str, *, now: dt.datetime) -> QueryAnalysis:
    """Analyse a query: deterministic, no LLM, a few hundred microseconds."""
    language = detect_language(text)
    time_range = parse_time_range(text, now)
    content = text
    if time_range and time_range.phrase and (time_range.year_named or has_cjk(time_range.phrase)):
        # Time words select by date; as keywords they would match every fact that says "week" or "上周".
        # An English month or day without its year stays a word too ("june"): the guessed year may be wrong.
        # (Segmented, "5月" gives no such word: "5" is dropped, "月" is no content.)
        content = re.sub(re.escape(time_range.phrase), " ", text, count=1, flags=re.IGNORECASE)
        content = _VAGUE_TIME_RE.sub(" ", content)
    words = content_words(content)
    names = extract_names(content)
    low = text.lower()
    hints: dict[str, None] = {}
    for pattern, types in TYPE_HINTS:
        if pattern.search(low):
            for t in types:
                hints.setdefault(t, None)
    return QueryAnalysis(
        text=text,
        language=language,
        words=words,
        entities=[e for e in extract_entities(content, names) if not has_cjk(e) or e in words],
        time_range=time_range,
        type_hints=list(hints),
        names=names,
        slots=list(dict.fromkeys(p for pattern, preds in SLOT_HINTS if pattern.search(text) for p in preds)),
    )
