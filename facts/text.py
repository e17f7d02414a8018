"""Language detection, Chinese segmentation and keyword extraction shared by write and read paths.

PostgreSQL's text search has no Chinese parser, so Chinese is segmented with jieba here and stored
pre-segmented (space separated) in `search_text`; the `simple` configuration then indexes it as words.
English goes through the `english` configuration (stemming, stop words) as well.
"""

from __future__ import annotations

import re
import threading
import unicodedata

from conversations.postag import pieces

# The characters read as Chinese; PostgreSQL's regular expressions read the same class (facts/services/zh_vectors.py).
CJK_CLASS = r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
_CJK_RE = re.compile(CJK_CLASS)
_WORD_RE = re.compile(r"[\w'’-]+", re.UNICODE)

EN_STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "then",
        "else",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "do",
        "does",
        "did",
        "have",
        "has",
        "had",
        "having",
        "i",
        "me",
        "my",
        "mine",
        "we",
        "us",
        "our",
        "you",
        "your",
        "yours",
        "he",
        "him",
        "his",
        "she",
        "her",
        "hers",
        "it",
        "its",
        "they",
        "them",
        "their",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "when",
        "where",
        "why",
        "how",
        "all",
        "any",
        "both",
        "each",
        "few",
        "more",
        "most",
        "other",
        "some",
        "such",
        "no",
        "nor",
        "not",
        "only",
        "own",
        "same",
        "so",
        "than",
        "too",
        "very",
        "can",
        "will",
        "just",
        "should",
        "would",
        "could",
        "may",
        "might",
        "must",
        "shall",
        "about",
        "above",
        "after",
        "again",
        "against",
        "below",
        "between",
        "into",
        "through",
        "during",
        "before",
        "under",
        "over",
        "up",
        "down",
        "out",
        "off",
        "once",
        "also",
        "get",
        "got",
        "really",
        "yeah",
        "oh",
        "okay",
        "ok",
        "hey",
        "hi",
        "hello",
        "like",
        "thing",
        "things",
        "lot",
        "much",
        "many",
        "one",
        "ever",
        "something",
        "anything",
        "did",
        "didn't",
        "don't",
        "doesn't",
        "i'm",
        "it's",
        "that's",
        "you're",
        "what's",
        "i've",
        "i'd",
        "i'll",
        "let's",
        "tell",
        "know",
        "think",
    ]
)
ZH_STOP_WORDS = frozenset(
    [
        "的",
        "了",
        "和",
        "是",
        "就",
        "都",
        "而",
        "及",
        "与",
        "着",
        "或",
        "一个",
        "没有",
        "我们",
        "你们",
        "他们",
        "她们",
        "它们",
        "这个",
        "那个",
        "这些",
        "那些",
        "这样",
        "那样",
        "什么",
        "怎么",
        "怎么办",
        "为什么",
        "吗",
        "呢",
        "吧",
        "啊",
        "呀",
        "哦",
        "嗯",
        "在",
        "有",
        "也",
        "很",
        "还",
        "又",
        "被",
        "把",
        "给",
        "让",
        "从",
        "向",
        "对",
        "于",
        "之",
        "以",
        "其",
        "所",
        "为",
        "上",
        "下",
        "中",
        "里",
        "我",
        "你",
        "他",
        "她",
        "它",
        "最近",
        "一下",
        "一些",
    ]
)

_jieba_lock = threading.Lock()
_jieba_ready = False


def _jieba():  # type: ignore[no-untyped-def]
    global _jieba_ready
    import jieba

    if not _jieba_ready:
        with _jieba_lock:
            if not _jieba_ready:
                jieba.setLogLevel(60)
                jieba.initialize()
                _jieba_ready = True
    return jieba


def has_cjk(text: str) -> bool:
    return bool(_CJK_RE.search(text))


def upper_first(text: str) -> str:
    """The text with its first letter capitalised, unless a brand is written with a small one (eBay, iPhone)."""
    return text if text[1:2].isupper() else text[:1].upper() + text[1:]


def detect_language(text: str) -> str:
    """Return 'zh' when Chinese characters dominate the letters, else 'en'."""
    cjk = len(_CJK_RE.findall(text))
    latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    if cjk == 0:
        return "en"
    return "zh" if cjk * 2 >= latin / 3 else "en"


def normalize(text: str) -> str:
    """Case-fold, NFKC and collapse whitespace and punctuation: the key for exact-duplicate detection."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"[^\w\s]", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def segment(text: str) -> list[str]:
    """Split into words: jieba for Chinese runs, a word regex for everything else."""
    if not has_cjk(text):
        return _WORD_RE.findall(text)
    jieba = _jieba()
    words: list[str] = []
    # In pieces: jieba's word model is quadratic in a long run of unknown characters (conversations.postag).
    for token in (t for piece in pieces(text) for t in jieba.lcut(piece)):
        token = token.strip()
        if token and (_WORD_RE.fullmatch(token) or has_cjk(token)):
            words.append(token)
    return words


def zh_tagged(text: str) -> list[tuple[str, str]]:
    """Chinese words with their part of speech (jieba's tags: "v" a verb, "n" a noun, ...), spaces included."""
    _jieba()
    from jieba import posseg

    return [(p.word, p.flag) for p in posseg.lcut(text[:200])]


def sub_words(word: str) -> list[str]:
    """The shorter words inside a Chinese compound, as jieba's search mode cuts it ("编程语言" -> 编程, 语言): a query's
    compound then matches a fact that holds a part of it ("Go语言")."""
    if len(word) < 3 or not has_cjk(word):
        return []
    return [w for w in _jieba().lcut_for_search(word) if 2 <= len(w) < len(word)]


def search_text(text: str) -> str:
    """The text as stored for full-text search: Chinese segmented into space-separated words."""
    if not has_cjk(text):
        return text
    return " ".join(segment(text))


def keywords(text: str, limit: int = 24) -> list[str]:
    """Content words in order of first appearance, lower-cased, without stop words."""
    seen: dict[str, None] = {}
    for word in segment(text):
        w = word.casefold().strip("'’-")
        if len(w) < 2 and not has_cjk(w):
            continue
        if w in EN_STOP_WORDS or w in ZH_STOP_WORDS:
            continue
        if has_cjk(w) and len(w) == 1:
            continue
        seen.setdefault(w, None)
        if len(seen) >= limit:
            break
    return list(seen)
