"""The first stage: the query analysed without an LLM: language, content words, names, ids and numbers, the time it
names (timerange.py), the fact types and slots it hints at."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from facts.retrieval.timerange import VAGUE_TIME_RE, TimeRange, parse_time_range
from facts.text import EN_STOP_WORDS, ZH_STOP_WORDS, detect_language, has_cjk, keywords, normalize, segment, sub_words

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
        # "for a living" is work, not a home
        re.compile(r"\b(live|lives|(?<!for a )living|address|home town|hometown|moved)\b|住|地址|搬家|搬到|老家", re.I),
        ("residence", "hometown"),
    ),
    (
        re.compile(
            r"\b(job|jobs|occupation|profession|career|employer|work|works|working|for a living)\b|工作|职业|上班|公司|"
            r"我(?:以前|现在|目前|平时)?是?(?:做|干)什么的",
            re.I,
        ),
        ("job", "employer"),
    ),
    (
        re.compile(r"\b(phone|mobile|cell|telephone|call me|reach me)\b|电话|手机|号码|联系方式", re.I),
        ("phone",),
    ),
    (
        re.compile(
            r"\b(study|studying|studies|major|majoring|degree|school|university|college|campus)\b|专业|学校|大学|读书|在读|学的是",
            re.I,
        ),
        ("school",),
    ),
    (re.compile(r"\ballerg\w*|过敏", re.I), ("allergy:",)),
    # A question about food is a question about what the user may or will not eat (no word shared with "对花生过敏").
    (
        re.compile(
            r"\b(eat|eating|ate|food|foods|fruits?|snacks?|meals?|dinner|lunch|breakfast|dishes|recipes?|restaurants?)\b|"
            r"吃|零食|食物|水果|饭菜|饭|菜|餐|点心|外卖",
            re.I,
        ),
        ("allergy:", "diet"),
    ),
    (re.compile(r"\b(diet|vegetarian|vegan)\b|吃素|素食|饮食", re.I), ("diet",)),
    (re.compile(r"\bmy name\b|我叫什么|名字", re.I), ("name",)),
    (re.compile(r"\bhow old\b|\bmy age\b|几岁|多大", re.I), ("age",)),
]

# The lookahead reads at most 64 characters (an id is shorter): unbounded, every word start of a long dashed run
# read the rest of it (quadratic).
_ID_RE = re.compile(r"#?\b(?=[A-Za-z0-9-]{0,63}\d)[A-Za-z0-9][A-Za-z0-9-]{2,}\b")
_CAPWORD_RE = re.compile(r"\b[A-Z][a-zA-Z'’]+(?:\s+[A-Z][a-zA-Z'’]+)*")
_POSSESSIVE_RE = re.compile(r"['’]s?$")


# A query reads at most this many words and entities, the first ones in its text: each becomes a term of the
# candidate statements (a column, a parameter), and 2,000 rare Chinese characters made 3,694 of them, past what
# PostgreSQL takes in one statement. A real question holds far fewer.
MAX_QUERY_WORDS = 64
MAX_QUERY_ENTITIES = 32


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
        for word in list(words):
            words.update(
                dict.fromkeys(w for w in sub_words(word) if w not in QUERY_STOP_WORDS and w not in ZH_STOP_WORDS)
            )
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
        content = VAGUE_TIME_RE.sub(" ", content)
    words = content_words(content)[:MAX_QUERY_WORDS]
    names = extract_names(content)[:MAX_QUERY_ENTITIES]
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
        entities=[e for e in extract_entities(content, names) if not has_cjk(e) or e in words][:MAX_QUERY_ENTITIES],
        time_range=time_range,
        type_hints=list(hints),
        names=names,
        slots=list(dict.fromkeys(p for pattern, preds in SLOT_HINTS if pattern.search(text) for p in preds)),
    )
