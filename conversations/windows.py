"""A session's log as summaries, replay and context packing read it: the newest turns verbatim, older ones in
fixed windows counted from the session's first message."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

RECENT_TURNS = 8  # the newest turns, kept verbatim
WINDOW_TURNS = 4  # turns per window older than those: one mid-term summary each


def session_windows(messages: list[T]) -> list[list[T]]:
    """Complete WINDOW_TURNS-turn windows older than the RECENT_TURNS most recent turns."""
    older = max(0, len(messages) - RECENT_TURNS)
    return [messages[i : i + WINDOW_TURNS] for i in range(0, older - older % WINDOW_TURNS, WINDOW_TURNS)]
