"""The value gate: greetings, thanks and small talk yield no fact."""

from __future__ import annotations

import re

from facts.extraction.base import GateDecision
from facts.text import keywords

_SMALL_TALK = re.compile(
    r"^\s*(hi|hello|hey|thanks|thank you|thx|ok|okay|cool|great|nice|bye|goodbye|see you|good (morning|night|evening)"
    r"|你好|您好|谢谢|多谢|好的|嗯|哈哈|再见|拜拜|早上好|晚安)[\s!.,。！，~]*$",
    re.IGNORECASE,
)


def value_gate(content: str) -> GateDecision:
    """Decide whether a message may hold a fact worth keeping, and say why."""
    text = content.strip()
    if not text:
        return GateDecision(False, "empty")
    if _SMALL_TALK.match(text):
        return GateDecision(False, "greeting or thanks")
    if len(keywords(text)) < 2:
        return GateDecision(False, "no content words")
    return GateDecision(True, "content")
