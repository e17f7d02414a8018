"""Text processing in linear time: no tenant can stall a worker or a web thread with a crafted message.

Every regular expression compiled in the apps (found by walking their modules, so a new one is covered without
being named here) and every function that reads user text runs on adversarial inputs of the largest message the
API accepts: long runs of spaces, digits, letters without punctuation, mixed scripts, a long line ending in a
newline. Each must finish within a fixed budget that a linear pass meets hundreds of times over and a
quadratic or cubic one misses by far (the two patterns this suite was written for took 4 s and 1 minute on
16,000 characters on this machine; a linear pass takes milliseconds). Hypothesis then builds more inputs from
the same fragments.
"""

from __future__ import annotations

import datetime as dt
import gc
import importlib
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from facts.extraction import classifier, type_definitions
from facts.extraction.base import clear_sentence_memos

ROOT = Path(__file__).resolve().parent.parent
APPS = ("conversations", "facts", "policies", "integrations", "memory_site")
N = settings.MAX_MESSAGE_CHARS
PATTERN_BUDGET = 1.0  # CPU seconds per pattern and input (a linear pattern: a few ms on this 2-core machine)
FUNCTION_BUDGET = 4.0  # seconds per function and input (jieba and the whole extractor included)
NOW = dt.datetime(2024, 5, 8, 12, 0, tzinfo=dt.UTC)


def _fill(fragment: str, n: int = N) -> str:
    return (fragment * (n // len(fragment) + 1))[:n]


ADVERSARIAL = {
    "spaces": _fill(" "),
    "spaces then a letter": _fill(" ", N - 1) + "x",
    "a keyword then spaces": "order" + _fill(" ", N - 6) + "x",
    "订单号 then spaces": "订单号" + _fill(" ", N - 4) + "x",
    "letters then a newline": _fill("a", N - 2) + "\nb",
    "words without punctuation then a newline": _fill("word ", N - 2) + "\nb",
    "digits": _fill("1"),
    "digits and spaces": _fill("1 "),
    "digits and commas": _fill("1,"),
    "capitalised words": _fill("Aa "),
    "capitalised run": _fill("Aa"),
    "letters and digits": _fill("A1"),
    "ids with dashes": _fill("A1-"),
    "letters and dashes": _fill("a-"),
    "keywords back to back": _fill("order"),
    "Chinese": _fill("中"),
    "我 repeated": _fill("我"),
    "我在 repeated": _fill("我在"),
    "mixed scripts": _fill("中a1 ,。"),
    "mixed scripts without spaces": _fill("我叫Ana3号"),
    "I repeated": _fill("I "),
    "my repeated": _fill("my "),
    "i live in repeated": _fill("i live in "),
    "dots": _fill("."),
    "newlines": _fill("\n"),
    "hashes": _fill("#"),
    "dollars": _fill("$1,"),
    "quotes": _fill("'"),
    "shares tags": _fill("[shares "),
    "times": _fill("1 am "),
    "remember then spaces": "remember " + _fill(" ", N - 9),
    "emoji": _fill("😀a "),
}


def _pattern_modules() -> Iterator[str]:
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts or "re.compile" not in path.read_text(encoding="utf-8"):
                continue
            yield ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Every compiled pattern at module level in the apps, alone or inside a list, tuple or dict."""
    found: dict[int, tuple[str, re.Pattern[str]]] = {}

    def visit(name: str, value: object, depth: int = 0) -> None:
        if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
            found.setdefault(id(value), (name, value))
        elif depth < 3 and isinstance(value, list | tuple):
            for i, item in enumerate(value):
                visit(f"{name}[{i}]", item, depth + 1)
        elif depth < 3 and isinstance(value, dict):
            for key, item in value.items():
                visit(f"{name}[{key!r}]", item, depth + 1)

    for module_name in _pattern_modules():
        module = importlib.import_module(module_name)
        for attr, value in vars(module).items():
            visit(f"{module_name}.{attr}", value)
    return sorted(found.values(), key=lambda item: item[0])


PATTERNS = _patterns()


def _timed(run: Callable[[], object]) -> float:
    """CPU seconds of this thread: a quadratic pattern burns them, a core shared with other work does not. The
    rules' memoised verdicts are forgotten first, so every call pays the cold work (a repeat would otherwise be
    faster than the first call, and Hypothesis calls a test whose timing disagrees with itself flaky). The garbage
    collector is off while timed: a full collection of a whole suite's heap, started by whichever allocation comes
    last, once charged a trivial pattern over a second."""
    clear_sentence_memos()
    gc.disable()
    try:
        started = time.thread_time()
        run()
        return time.thread_time() - started
    finally:
        gc.enable()


def test_the_walk_finds_the_patterns_it_guards() -> None:
    names = {name for name, _ in PATTERNS}
    assert "facts.extraction.sentences._SENTENCE_RE" in names
    assert any(name.startswith("conversations.summarization.entities._ORDER_RES") for name in names)
    assert len(PATTERNS) > 100


@pytest.mark.parametrize(("name", "pattern"), PATTERNS, ids=[name for name, _ in PATTERNS])
def test_every_pattern_is_linear_on_adversarial_input(name: str, pattern: re.Pattern[str]) -> None:
    slow = {}
    for label, text in ADVERSARIAL.items():
        took = _timed(lambda text=text: [m.span() for m in pattern.finditer(text)])  # type: ignore[misc]
        if took > PATTERN_BUDGET:
            slow[label] = round(took, 2)
    assert not slow, f"{name} took over {PATTERN_BUDGET} s on {slow}"


def _readers() -> dict[str, Callable[[str], object]]:
    """The functions that read a message or a query as users wrote them."""
    from conversations.summarization.entities import extract_entities as summary_entities
    from conversations.summarization.summarizers import count_tokens, summarize_lines
    from facts.extraction.base import MessageView
    from facts.extraction.entities import entities_of
    from facts.extraction.gate import value_gate
    from facts.extraction.rules import RuleExtractor
    from facts.extraction.timeexpr import resolve_text
    from facts.fingerprints import text_fingerprints
    from facts.retrieval.query import analyze
    from facts.text import keywords, search_text

    rules = RuleExtractor()

    def extract(text: str) -> object:
        return rules.extract_one(MessageView(id=1, role="user", name="Ana", content=text, created_at=NOW))

    return {
        "rule extractor": extract,
        "value gate": value_gate,
        "summary entities": summary_entities,
        "summary": lambda text: summarize_lines([text], target_tokens=200, entities=[]),
        "token count": count_tokens,
        "fact entities": lambda text: entities_of(text, text, "Ana"),
        "time expressions": lambda text: resolve_text(text, NOW),
        "fingerprints": lambda text: text_fingerprints(key="k", texts=[text], pieces=True),
        "query analysis": lambda text: analyze(text, now=NOW),
        "keywords (jieba)": keywords,
        "search text (jieba)": search_text,
    }


READERS = _readers()


@pytest.mark.parametrize("reader", sorted(READERS))
def test_every_reader_of_user_text_is_linear_on_adversarial_input(reader: str) -> None:
    run = READERS[reader]
    run("我叫李明, I live in Lisbon.")  # loads jieba's dictionaries first: a one-off of seconds, not what is timed
    type_definitions.nearest_type("warm")  # ... and the type exemplars' vectors (embedded once on a new machine)
    classifier.chinese_type("周末去爬山")  # ... and the Chinese type heads (fitted once per process)
    slow = {}
    for label, text in ADVERSARIAL.items():
        took = _timed(lambda text=text: run(text))  # type: ignore[misc]
        if took > FUNCTION_BUDGET:
            slow[label] = round(took, 2)
    assert not slow, f"{reader} took over {FUNCTION_BUDGET} s on {slow}"


FRAGMENTS = [" ", "  ", "\n", "a", "Aa", "1", "12", "-", ",", ".", "#", "$", ":", "'", "order", "no", "id", "I ",
             "my ", "live in ", "中", "我", "在", "订单号", "是", "。", "，", "😀", "[shares ", "am", "年", "月"]  # fmt: skip


@st.composite
def adversarial_texts(draw: st.DrawFn) -> str:
    """A few fragments, each repeated to a long run, up to the largest message."""
    runs = draw(st.lists(st.tuples(st.sampled_from(FRAGMENTS), st.integers(1, N)), min_size=1, max_size=4))
    text = "".join(fragment * count for fragment, count in runs)
    return text[:N]


@hypothesis_settings(
    max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)  # fmt: skip
@given(text=adversarial_texts())
def test_generated_inputs_stay_within_budget(text: str) -> None:
    READERS["rule extractor"]("我叫李明, I live in Lisbon.")  # jieba's dictionaries loaded before timing
    type_definitions.nearest_type("warm")  # the type exemplars' vectors too
    classifier.chinese_type("周末去爬山")  # and the Chinese type heads
    slow = {}
    for name, pattern in PATTERNS:
        took = _timed(lambda pattern=pattern: [m.span() for m in pattern.finditer(text)])  # type: ignore[misc]
        if took > PATTERN_BUDGET:
            slow[name] = round(took, 2)
    for reader in ("rule extractor", "summary entities", "query analysis"):
        took = _timed(lambda reader=reader: READERS[reader](text))  # type: ignore[misc]
        if took > FUNCTION_BUDGET:
            slow[reader] = round(took, 2)
    assert not slow, f"over budget on {len(text)} characters: {slow}"


def _inline_patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Patterns the readers compile where they use them (`re.search(r"...", text)`), from re's own cache."""
    for run in READERS.values():
        for sample in (
            "I moved to Lisbon 3 weeks ago, order #A123-45, $1,200.",
            "我三天前在杭州下单了，订单号12345，花了200元。",
        ):
            run(sample)
    cache = getattr(re, "_cache", {})
    ours = {id(p) for _, p in PATTERNS}
    found = [p for p in list(cache.values()) if isinstance(p, re.Pattern) and isinstance(p.pattern, str)]
    # Ours only (written in the apps' source as a raw string); the libraries' are theirs to keep.
    source = "".join(
        path.read_text(encoding="utf-8")
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts
    )
    found = [p for p in found if id(p) not in ours and len(p.pattern) >= 8 and p.pattern[:40] in source]
    return sorted(((p.pattern[:60], p) for p in found), key=lambda item: item[0])


INLINE = _inline_patterns()


@pytest.mark.parametrize(("name", "pattern"), INLINE, ids=[name for name, _ in INLINE])
def test_every_inline_pattern_is_linear_on_adversarial_input(name: str, pattern: re.Pattern[str]) -> None:
    test_every_pattern_is_linear_on_adversarial_input(name, pattern)
