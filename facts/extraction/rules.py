"""The default, deterministic rule extractor for Chinese and English."""

from __future__ import annotations

import re

from facts.extraction.base import Candidate, ExtractionOutput, MessageView
from facts.extraction.gate import value_gate
from facts.text import detect_language, keywords

_SENTENCE_RE = re.compile(r"[^.!?。！？\n]+[.!?。！？]?")


def _sentences(text: str) -> list[tuple[str, int, int]]:
    out = []
    for m in _SENTENCE_RE.finditer(text):
        sentence = m.group(0).strip()
        if sentence:
            start = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
            out.append((sentence, start, start + len(sentence)))
    return out


class RuleExtractor:
    name = "rules"
    version = "rules-0.1"

    def extract(self, messages: list[MessageView]) -> dict[int, ExtractionOutput]:
        return {m.id: self.extract_one(m) for m in messages}

    def extract_one(self, message: MessageView) -> ExtractionOutput:
        gate = value_gate(message.content)
        if not gate.keep or message.role == "system":
            return ExtractionOutput(gate=gate, candidates=[])
        speaker = message.name or ("User" if message.role == "user" else "Assistant")
        candidates = []
        for sentence, start, end in _sentences(message.content):
            if len(keywords(sentence)) < 2:
                continue
            lang = detect_language(sentence)
            text = sentence if sentence.lower().startswith(speaker.lower()) else f"{speaker}: {sentence}"
            candidates.append(
                Candidate(
                    message_id=message.id,
                    text=text,
                    keywords=keywords(sentence),
                    valid_from=message.created_at,
                    span_start=start,
                    span_end=end,
                    language=lang,
                    subject_entity=speaker,
                )
            )
        return ExtractionOutput(gate=gate, candidates=candidates)
