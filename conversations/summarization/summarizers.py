"""Summarisers: the deterministic extractive default and an optional OpenAI-compatible LLM.

Both take lines formatted "[date] Speaker: text" and return lines in the same shape (speakers and dates kept).
Whatever the summariser returns, `entities_enforce` re-appends any whitelisted entity it dropped.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from django.conf import settings
from django.utils.module_loading import import_string

from conversations.summarization.entities import extract_entities

logger = logging.getLogger(__name__)

KEY_DETAILS = "Key details: "
_PREFIX_RE = re.compile(r"^(\[[^\]]{0,40}\]\s*[^:：\n]{0,80}[:：])\s*(.*)$", re.DOTALL)
_SENTENCE_RE = re.compile(r"[^.!?。！？\n]+[.!?。！？]*")
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’-]{2,}")
_CJK_RE = re.compile(r"[\u4e00-\u9fff]")
_SMALL_TALK_RE = re.compile(
    r"^\s*(?:hi|hello|hey|thanks|thank you|bye|goodbye|lol|haha|ok|okay|cool|great|wow|nice|sure|yeah|yes|no"
    r"|你好|谢谢|哈哈|好的|嗯|再见|拜拜)\b",
    re.IGNORECASE,
)
_STOP_TEXT = (
    "the and that this with have has had was were are for you your but not just what how about they them then "
    "than there their from into will would could should been being really very also too its it's i'm i've "
    "that's so yeah yes okay well"
)
_STOP = frozenset(_STOP_TEXT.split())


def count_tokens(text: str) -> int:
    """Tokens by the configured offline tokenizer (the facts app's, named in settings to keep apps one-way)."""
    return _counter()(text)


@lru_cache(maxsize=1)
def _counter():  # type: ignore[no-untyped-def]
    return import_string(getattr(settings, "TOKEN_COUNTER", "facts.tokens.count_tokens"))


class SummarizerError(Exception):
    """The summariser could not produce a valid summary; the reason is recorded on the row."""


class Summarizer(Protocol):
    name: str

    def summarize(self, lines: list[str], *, target_tokens: int, entities: list[str]) -> str: ...


def body_lines(text: str) -> list[str]:
    """A summary's lines without the appended key-details line (entities are carried separately)."""
    return [line for line in text.splitlines() if line.strip() and not line.startswith(KEY_DETAILS)]


def entities_enforce(text: str, entities: list[str]) -> str:
    """Append every whitelisted entity missing from text, verbatim, so no round of summarising can lose one."""
    lines = body_lines(text)
    body = "\n".join(lines)
    missing = [e for e in entities if e not in body]
    if missing:
        lines.append(KEY_DETAILS + "; ".join(missing))
    return "\n".join(lines)


def _score(sentence: str) -> float:
    words = [w for w in _WORD_RE.findall(sentence) if w.lower() not in _STOP]
    content = len(words) + len(_CJK_RE.findall(sentence)) / 2
    if _SMALL_TALK_RE.match(sentence) and content < 5:
        return 0.0
    return 3.0 * len(extract_entities(sentence)) + min(content, 20.0) + (1.0 if "?" not in sentence else 0.0)


class ExtractiveSummarizer:
    """Pick the most informative sentences up to the target, keep their order, speakers and dates."""

    name = "extractive"

    def summarize(self, lines: list[str], *, target_tokens: int, entities: list[str]) -> str:
        units: list[tuple[int, str, str]] = []  # (line index, prefix, sentence)
        for index, line in enumerate(lines):
            match = _PREFIX_RE.match(line.strip())
            prefix, body = (match.group(1), match.group(2)) if match else ("", line.strip())
            for m in _SENTENCE_RE.finditer(body):
                sentence = m.group(0).strip()
                if sentence:
                    units.append((index, prefix, sentence))
        ranked = sorted(range(len(units)), key=lambda i: (-_score(units[i][2]), i))
        chosen: set[int] = set()
        used = 0
        for i in ranked:
            cost = count_tokens(f"{units[i][1]} {units[i][2]}")
            if used + cost > target_tokens and chosen:
                continue
            chosen.add(i)
            used += cost
        out: list[str] = []
        last_line = -1
        for i in sorted(chosen):
            index, prefix, sentence = units[i]
            if index == last_line and out:
                out[-1] = f"{out[-1]} {sentence}"
            else:
                out.append(f"{prefix} {sentence}".strip())
            last_line = index
        return "\n".join(out)


@dataclass
class LlmSummarizer:
    """Any OpenAI-compatible chat endpoint; raises SummarizerError on timeout, error or unusable output."""

    base_url: str
    model: str
    api_key: str
    timeout: float
    name: str = "llm"

    def summarize(self, lines: list[str], *, target_tokens: int, entities: list[str]) -> str:
        from openai import OpenAI

        client = OpenAI(base_url=self.base_url, api_key=self.api_key, timeout=self.timeout, max_retries=0)
        keep = "; ".join(entities) if entities else "(none)"
        try:
            response = client.chat.completions.create(
                model=self.model,
                temperature=0,
                messages=[
                    {
                        "role": "system",
                        "content": (
                            f"Summarise these conversation notes in at most {target_tokens} tokens. Write lines "
                            "'[date] Speaker: what was said', keep speakers and dates, drop small talk. Copy these "
                            f"details verbatim: {keep}"
                        ),
                    },
                    {"role": "user", "content": "\n".join(lines)},
                ],
            )
        except Exception as exc:  # any transport, timeout or protocol error means: fall back
            raise SummarizerError(f"{type(exc).__name__}: {exc}"[:250]) from exc
        try:
            text = response.choices[0].message.content
        except (AttributeError, IndexError, TypeError) as exc:
            raise SummarizerError("malformed response") from exc
        if not isinstance(text, str) or not text.strip():
            raise SummarizerError("empty summary")
        if count_tokens(text) > max(2 * target_tokens, 200):
            raise SummarizerError("summary longer than allowed")
        return text.strip()


def get_summarizer() -> Summarizer:
    """The LLM summariser when LLM_BASE_URL is set (SUMMARIZER=extractive forces the default), else extractive."""
    choice = getattr(settings, "SUMMARIZER", "")
    if settings.LLM_BASE_URL and choice != "extractive":
        return LlmSummarizer(
            base_url=settings.LLM_BASE_URL, model=settings.LLM_MODEL, api_key=settings.LLM_API_KEY,
            timeout=settings.LLM_TIMEOUT,
        )  # fmt: skip
    return ExtractiveSummarizer()


@dataclass
class SummaryText:
    text: str
    summarizer: str
    fallback_reason: str = ""


def summarize_lines(lines: list[str], *, target_tokens: int, entities: list[str]) -> SummaryText:
    """Summarise with the configured summariser, falling back to the extractive one and saying why."""
    summarizer = get_summarizer()
    reason = ""
    try:
        text = summarizer.summarize(lines, target_tokens=target_tokens, entities=entities)
        name = summarizer.name
    except SummarizerError as exc:
        logger.warning("summariser %s failed, using extractive: %s", summarizer.name, exc)
        reason = str(exc)
        text = ExtractiveSummarizer().summarize(lines, target_tokens=target_tokens, entities=entities)
        name = ExtractiveSummarizer.name
    return SummaryText(text=entities_enforce(text, entities), summarizer=name, fallback_reason=reason)
