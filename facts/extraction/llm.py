"""Optional LLM extractor for any OpenAI-compatible endpoint, with the rules as fallback.

One chat-completions call per message batch, answer constrained by a JSON schema. On a timeout, an HTTP
error or an answer that is not the promised JSON, the batch is extracted by the rules instead and the
reason is recorded on each message (`ExtractionOutput.fallback_reason`).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any

from django.conf import settings

from facts.extraction.base import Candidate, ExtractionOutput, GateDecision, MessageView
from facts.extraction.commands import find_command
from facts.extraction.entities import entities_of
from facts.extraction.rules import RuleExtractor
from facts.extraction.timeexpr import resolve_text
from facts.models import FactType
from facts.text import detect_language, keywords

logger = logging.getLogger(__name__)

VERSION = "llm-1.0"

FACT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["messages"],
    "properties": {
        "messages": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "keep", "reason", "facts"],
                "properties": {
                    "id": {"type": "integer"},
                    "keep": {"type": "boolean"},
                    "reason": {"type": "string"},
                    "facts": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["text", "type"],
                            "properties": {
                                "text": {"type": "string"},
                                "type": {"type": "string", "enum": list(FactType.values)},
                                "subject_entity": {"type": "string"},
                                "predicate": {"type": "string"},
                                "object_value": {"type": "string"},
                                "entities": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "required": ["text", "kind"],
                                        "properties": {"text": {"type": "string"}, "kind": {"type": "string"}},
                                    },
                                },
                                "confidence": {"type": "number"},
                                "expires_at": {"type": ["string", "null"]},
                                "event_time": {"type": ["string", "null"]},
                            },
                        },
                    },
                },
            },
        }
    },
}

SYSTEM_PROMPT = (
    "You extract long-term memory facts from chat turns, in the language of the turn (Chinese or English). "
    "Skip greetings, thanks, small talk and trivia (keep=false with a reason). For every informative sentence "
    "write one self-contained fact in the third person about the speaker (use the speaker's name, else 'User'), "
    "with relative times resolved to absolute dates using the turn's timestamp. Give the type, a slot "
    "(subject_entity/predicate/object_value) when clear (residence, job, diet, allergy, preference of X, order "
    "status), entities [{text, kind}] (person, pet, place, org, product, order, date, amount), a confidence 0-1, "
    "and expires_at (ISO-8601) only for obviously temporary facts. Answer with JSON matching the schema."
)


class LLMExtractionError(Exception):
    """The endpoint failed or answered something unusable; `reason` says which, `tokens` what the answer cost."""

    def __init__(self, reason: str, tokens: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.tokens = tokens


def usage_tokens(response: Any) -> int:
    """The tokens an OpenAI-compatible answer says it cost: `total_tokens`, else prompt + completion, else 0."""
    usage = getattr(response, "usage", None)
    if usage is None:
        return 0
    total = getattr(usage, "total_tokens", None)
    if not isinstance(total, int) or total <= 0:
        parts = (getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None))
        total = sum(p for p in parts if isinstance(p, int) and p > 0)
    return max(int(total), 0)


def split_tokens(total: int, message_ids: list[int]) -> dict[int, int]:
    """Share a call's tokens among the messages of its prompt: equal parts, the remainder on the first."""
    if not message_ids:
        return {}
    share, remainder = divmod(max(total, 0), len(message_ids))
    return {pk: share + (remainder if i == 0 else 0) for i, pk in enumerate(message_ids)}


def _parse_time(value: Any) -> dt.datetime | None:
    if not value or not isinstance(value, str):
        return None
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


class LLMExtractor:
    name = "llm"
    version = VERSION

    def __init__(self, *, base_url: str, model: str, api_key: str, timeout: float) -> None:
        from openai import OpenAI

        self.model = model
        self._client = OpenAI(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=0)
        self._rules = RuleExtractor()

    def extract(self, messages: list[MessageView]) -> dict[int, ExtractionOutput]:
        # Commands, system turns and turns the gate skips never reach the model (cheaper, deterministic).
        outputs: dict[int, ExtractionOutput] = {}
        to_model: list[MessageView] = []
        for message in messages:
            ruled = self._rules.extract_one(message)
            if ruled.commands or not ruled.gate.keep or find_command(message.content):
                outputs[message.id] = ruled
            else:
                to_model.append(message)
        if not to_model:
            return outputs
        tokens = 0
        try:
            answer, tokens = self._call(to_model)
            outputs.update(self._outputs(to_model, answer))
        except LLMExtractionError as exc:
            logger.warning("LLM extraction fell back to rules: %s", exc.reason)
            tokens = tokens or exc.tokens  # an answer that was not the promised JSON was still paid for
            for message in to_model:
                output = self._rules.extract_one(message)
                output.extractor = "rules-fallback"
                output.fallback_reason = exc.reason
                outputs[message.id] = output
        for pk, share in split_tokens(tokens, [m.id for m in to_model]).items():
            outputs[pk].llm_tokens = share
        return outputs

    def _call(self, messages: list[MessageView]) -> tuple[dict[str, Any], int]:
        """The model's answer and the tokens the call cost."""
        import openai

        turns = [
            {
                "id": m.id,
                "role": m.role,
                "speaker": m.name or "User",
                "time": m.created_at.isoformat(),
                "content": m.content,
            }
            for m in messages
        ]
        try:
            response = self._client.chat.completions.create(
                model=self.model,
                messages=[
                    {"role": "system", "content": SYSTEM_PROMPT},
                    {"role": "user", "content": json.dumps({"turns": turns}, ensure_ascii=False)},
                ],
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": "facts", "schema": FACT_SCHEMA, "strict": False},
                },
                temperature=0,
            )
        except openai.APITimeoutError as exc:
            raise LLMExtractionError(f"llm timeout: {exc}") from exc
        except openai.APIStatusError as exc:
            raise LLMExtractionError(f"llm http error {exc.status_code}") from exc
        except openai.APIError as exc:  # connection refused, protocol errors
            raise LLMExtractionError(f"llm error: {exc.__class__.__name__}: {exc}") from exc
        tokens = usage_tokens(response)
        try:
            content = response.choices[0].message.content or ""
            data = json.loads(content)
        except (IndexError, AttributeError, ValueError) as exc:
            raise LLMExtractionError(f"llm invalid json: {exc}", tokens) from exc
        if not isinstance(data, dict) or not isinstance(data.get("messages"), list):
            raise LLMExtractionError("llm invalid json: no 'messages' list", tokens)
        return data, tokens

    def _outputs(self, messages: list[MessageView], answer: dict[str, Any]) -> dict[int, ExtractionOutput]:
        by_id = {m.id: m for m in messages}
        outputs: dict[int, ExtractionOutput] = {}
        strays: list[str] = []  # ids the model named that are not in this prompt: their facts are dropped
        try:
            for item in answer["messages"]:
                message = by_id.get(int(item["id"]))
                if message is None:
                    strays.append(f"{int(item['id'])} ({len(item.get('facts') or [])} facts)")
                    continue
                maybe = [self._candidate(message, raw) for raw in item.get("facts") or []]
                candidates = [c for c in maybe if c is not None]
                gate = GateDecision(
                    bool(item.get("keep", bool(candidates))), str(item.get("reason", ""))[:200] or "llm"
                )
                outputs[message.id] = ExtractionOutput(gate=gate, candidates=candidates, extractor="llm")
        except (KeyError, TypeError, ValueError) as exc:
            raise LLMExtractionError(f"llm invalid json: {exc}") from exc
        missing = [m for m in messages if m.id not in outputs]
        for message in missing:  # the model skipped a turn: the rules still read it
            outputs[message.id] = self._rules.extract_one(message)
        if strays:
            # Never another message's, let alone another tenant's: recorded on every message of the prompt.
            reason = f"llm dropped: answer named message ids outside the batch: {', '.join(strays[:10])}"
            logger.warning("LLM answer named %d message ids outside its batch; their facts were dropped", len(strays))
            for output in outputs.values():
                output.dropped_reason = reason
        return outputs

    def _candidate(self, message: MessageView, raw: dict[str, Any]) -> Candidate | None:
        text = str(raw.get("text") or "").strip()
        if not text:
            return None
        text, times = resolve_text(text, message.created_at)
        type_ = str(raw["type"]) if raw.get("type") in FactType.values else "other"
        entities = [
            {"text": str(e.get("text", "")), "kind": str(e.get("kind", "other"))}
            for e in raw.get("entities") or []
            if isinstance(e, dict) and e.get("text")
        ] or entities_of(text, text, message.name)
        confidence = raw.get("confidence")
        confidence = min(max(float(confidence), 0.0), 1.0) if isinstance(confidence, int | float) else 0.8
        return Candidate(
            message_id=message.id,
            text=text,
            type=type_,
            subject_entity=str(raw.get("subject_entity") or "")[:255],
            predicate=str(raw.get("predicate") or "")[:64],
            object_value=str(raw.get("object_value") or ""),
            entities=entities,
            keywords=keywords(text),
            confidence=confidence,
            valid_from=message.created_at,
            event_time=_parse_time(raw.get("event_time")) or (times[0].when if times else None),
            expires_at=_parse_time(raw.get("expires_at")),
            span_start=0,
            span_end=len(message.content),
            language=detect_language(text),
            extractor="llm",
        )


def get_extractor() -> RuleExtractor | LLMExtractor:
    """The extractor chosen by settings: the LLM when LLM_BASE_URL is set, else the rules."""
    base_url = getattr(settings, "LLM_BASE_URL", None)
    if base_url:
        return LLMExtractor(
            base_url=base_url,
            model=settings.LLM_MODEL,
            api_key=settings.LLM_API_KEY,
            timeout=settings.LLM_TIMEOUT,
        )
    return RuleExtractor()
