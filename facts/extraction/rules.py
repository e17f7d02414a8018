"""The default, deterministic rule extractor for Chinese and English.

One candidate per informative sentence, rewritten in the third person about the speaker ("I fixed the
bike's brakes yesterday" from Priya on 8 May 2023 -> "Priya fixed the bike's brakes on 7 May 2023"),
so that every informative turn keeps its names, objects, places and dates. No model, microseconds per turn.
"""

from __future__ import annotations

import datetime as dt
import re

from facts.extraction.base import Candidate, Command, ExtractionOutput, GateDecision, MessageView
from facts.extraction.entities import entities_of
from facts.extraction.gate import sentence_worth_keeping, value_gate
from facts.extraction.person import third_person_en, third_person_zh
from facts.extraction.slots import pet_slot, slot_of, type_of
from facts.extraction.timeexpr import resolve_text
from facts.text import detect_language, has_cjk, keywords

VERSION = "rules-1.0"

# A sentence starts only where a run of sentence characters starts, and takes the run whole (possessive): the
# old pattern retried every suffix of a run ending in a newline (quadratic). Same matches, linear time.
_SENTENCE_RE = re.compile(r"(?<![^.!?。！？\n;；])[^.!?。！？\n;；]++(?:[.!?。！？;；]+|$)")
_ABBREV_END = re.compile(r"\b(Mr|Mrs|Ms|Dr|St|vs|etc|e\.g|i\.e|No)\.$", re.I)

_REMEMBER_RE = re.compile(
    r"^\s*(?:please\s+|pls\s+|hey,?\s+)?(?:remember|don'?t forget|keep in mind|note)(?:\s+(?:this|that))?\s*[:,-]?\s*(.*)$"
    r"|^\s*(?:请|麻烦)?(?:帮我)?(?:记住|记一下|记下来?|别忘了)(?:这个|这件事)?[：:，,]?\s*(.*)$",
    re.IGNORECASE | re.DOTALL,
)
_FORGET_RE = re.compile(
    r"^\s*(?:please\s+|pls\s+)?(?:forget|delete|erase|remove)\s+(?:about\s+)?(?:that|this|it|what i (?:just )?said)"
    r"\s*(?:about\s+)?[:,-]?\s*(.*)$"
    r"|^\s*(?:please\s+)?forget\s+(.*)$"
    r"|^\s*(?:请|麻烦)?(?:帮我)?(?:忘掉|忘记|忘了|删掉|删除|别记)(?:我)?(?:刚才|刚刚|之前)?(?:说的|讲的)?(?:那句话|那个|这个)?[：:，,]?\s*(.*)$",
    re.IGNORECASE | re.DOTALL,
)


def _sentences(text: str) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    pending: tuple[str, int, int] | None = None
    for m in _SENTENCE_RE.finditer(text):
        raw = m.group(0)
        sentence = raw.strip()
        if not sentence:
            continue
        start = m.start() + (len(raw) - len(raw.lstrip()))
        end = start + len(sentence)
        if pending is not None:
            sentence = text[pending[1] : end]
            start = pending[1]
            pending = None
        if _ABBREV_END.search(sentence):
            pending = (sentence, start, end)
            continue
        out.append((sentence, start, end))
    if pending is not None:
        out.append(pending)
    return out


# From the start of a whitespace run only, and a caption of at most 500 characters (from every "[shares " of a
# long text, each try read to the end: quadratic).
_SHARES_RE = re.compile(r"(?<!\s)\s*\[shares? ([^\]]{0,500})\]\s*$")
_CLAUSE_SPLIT_RE = re.compile(r",? and (?=I (?:have|live|work|am|moved|'m)\b)|，(?=我(?:有|住|在|是|叫|对|养|搬))")


def _clauses(sentence: str, start: int) -> list[tuple[str, int, int]]:
    """Split "I live in X and I have a dog" in two facts, each filling its own slot."""
    out: list[tuple[str, int, int]] = []
    cursor = 0
    for m in _CLAUSE_SPLIT_RE.finditer(sentence):
        part = sentence[cursor : m.start()]
        if len(keywords(part)) >= 1 and (slot_of(part) or pet_slot(part)):
            out.append((part.strip(), start + cursor, start + m.start()))
            cursor = m.end()
    rest = sentence[cursor:]
    out.append((rest.strip(), start + cursor, start + len(sentence)))
    return out


_TEMPORARY_RE = re.compile(
    r"\b(right now|at the moment|currently|this week|these days|for now|temporarily|today|tonight)\b"
    r"|现在|目前|这几天|这周|暂时|今天|今晚|最近",
    re.IGNORECASE,
)
_TEMP_STATE_RE = re.compile(
    r"\b(sick|ill|busy|tired|travel\w*|on vacation|on holiday|away|visiting|staying|waiting|stuck|in a meeting)\b"
    r"|生病|感冒|出差|旅行|度假|在外地|很忙|发烧",
    re.IGNORECASE,
)

_IMPORTANCE = {"health": 0.8, "legal": 0.8, "complaint": 0.75, "commitment": 0.7, "decision": 0.65, "profile": 0.65,
               "relationship": 0.6, "preference": 0.6, "event": 0.5, "inquiry": 0.3, "other": 0.4}  # fmt: skip


def find_command(content: str) -> Command | None:
    m = _FORGET_RE.match(content)
    if m:
        target = next((g for g in m.groups() if g), "") or ""
        return Command("forget", target.strip())
    m = _REMEMBER_RE.match(content)
    if m:
        target = next((g for g in m.groups() if g), "") or ""
        return Command("remember", target.strip())
    return None


class RuleExtractor:
    name = "rules"
    version = VERSION

    def extract(self, messages: list[MessageView]) -> dict[int, ExtractionOutput]:
        return {m.id: self.extract_one(m) for m in messages}

    def extract_one(self, message: MessageView) -> ExtractionOutput:
        if message.role == "system":
            return ExtractionOutput(gate=GateDecision(False, "system message"), candidates=[])
        if message.role == "assistant" and not message.name:
            return ExtractionOutput(gate=GateDecision(False, "assistant turn"), candidates=[])
        command = find_command(message.content)
        if command is not None:
            return self._command_output(message, command)
        gate = value_gate(message.content)
        if not gate.keep:
            return ExtractionOutput(gate=gate, candidates=[])
        candidates = self.candidates(message, message.content, offset=0)
        if not candidates:
            return ExtractionOutput(gate=GateDecision(False, "no informative sentence"), candidates=[])
        return ExtractionOutput(gate=gate, candidates=candidates)

    def _command_output(self, message: MessageView, command: Command) -> ExtractionOutput:
        gate = GateDecision(True, f"explicit command: {command.kind}")
        if command.kind == "forget" or not command.target or len(keywords(command.target)) == 0:
            return ExtractionOutput(gate=gate, candidates=[], commands=[command])
        offset = message.content.find(command.target)
        candidates = self.candidates(message, command.target, offset=max(offset, 0))
        for candidate in candidates:
            candidate.pinned = True
            candidate.importance = 1.0
            candidate.confidence = max(candidate.confidence, 0.95)
        # A "remember X" with its own content pins X; nothing from the previous message.
        return ExtractionOutput(gate=gate, candidates=candidates, commands=[] if candidates else [command])

    def candidates(self, message: MessageView, content: str, *, offset: int) -> list[Candidate]:
        lang_of_message = detect_language(content)
        default_speaker = "用户" if lang_of_message == "zh" and message.role == "user" else "User"
        speaker = message.name or default_speaker
        out: list[Candidate] = []
        # "Priya: I went ..." (a client that prefixes the speaker): the prefix is not part of the fact.
        prefix = re.match(rf"\s*{re.escape(speaker)}\s*[:：]\s*", content) if message.name else None
        if prefix:
            offset += prefix.end()
            content = content[prefix.end() :]
        # "[shares a photo of a red car]": what the speaker showed is a fact of its own.
        shared: list[Candidate] = []
        shares = _SHARES_RE.search(content)
        if shares:
            caption = shares.group(1).strip()
            content = content[: shares.start()]
            if caption:
                shared.append(self._shared(message, caption, offset + shares.start(), offset + shares.end(), speaker))
        for sentence, start, _end in _sentences(content):
            for clause, c_start, c_end in _clauses(sentence, start):
                if not sentence_worth_keeping(clause):
                    continue
                out.append(self._candidate(message, clause, c_start + offset, c_end + offset, speaker))
        return out + shared

    def _shared(self, message: MessageView, caption: str, start: int, end: int, speaker: str) -> Candidate:
        candidate = self._candidate(message, caption, start, end, speaker)
        candidate.text = f"{speaker} shared {caption.rstrip('.')}."
        candidate.keywords = keywords(candidate.text)
        candidate.type = "event"
        return candidate

    def _candidate(self, message: MessageView, sentence: str, start: int, end: int, speaker: str) -> Candidate:
        ref = message.created_at
        lang = detect_language(sentence)
        is_question = sentence.rstrip().endswith(("?", "？")) or (
            lang == "zh" and sentence.rstrip("。！ ").endswith("吗")
        )
        resolved, times = resolve_text(sentence.rstrip(), ref)
        if lang == "zh" or has_cjk(sentence) and not re.search(r"\bI\b", sentence):
            text = third_person_zh(resolved, speaker)
        else:
            text = third_person_en(resolved, speaker)
        if not text.endswith((".", "!", "?", "。", "！", "？")):
            text += "。" if has_cjk(text[-1:]) else "."
        slot = slot_of(sentence) or pet_slot(sentence)
        type_ = type_of(sentence, slot, is_question)
        entities = entities_of(sentence, text, speaker if message.name else "")
        known = {e["text"].lower() for e in entities}
        if slot is not None and slot.entity_kind and slot.object_value and slot.object_value.lower() not in known:
            entities.append({"text": slot.object_value, "kind": slot.entity_kind})
        event_time = times[0].when if times else None
        expires_at = self._expiry(sentence, ref, times)
        confidence = 0.5 if is_question else (0.85 if slot is not None else 0.7)
        return Candidate(
            message_id=message.id,
            text=text,
            type=type_,
            subject_entity=speaker if slot is not None else "",
            predicate=slot.predicate if slot is not None else "",
            object_value=slot.object_value if slot is not None else "",
            entities=entities,
            keywords=keywords(text),
            confidence=confidence,
            importance=_IMPORTANCE.get(type_, 0.5),
            valid_from=ref,
            event_time=event_time,
            expires_at=expires_at,
            span_start=start,
            span_end=end,
            language=lang,
            extractor="rules",
        )

    @staticmethod
    def _expiry(sentence: str, ref: dt.datetime, times: list) -> dt.datetime | None:  # type: ignore[type-arg]
        for t in times:
            if t.temporary_until is not None and _TEMP_STATE_RE.search(sentence):
                return t.temporary_until
        if _TEMPORARY_RE.search(sentence) and _TEMP_STATE_RE.search(sentence):
            return ref + dt.timedelta(days=7)
        return None
