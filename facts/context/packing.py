"""Pack context items under a token budget, in a stated priority order, and render prompt-ready text.

Priority (highest first); an item is taken whole if it fits, else skipped, so smaller later items may still fit:

1. the 2 most recent turns of the session (verbatim);
2. facts relevant to the query (or to the latest turn), in search rank order, up to FACT_SHARE of the budget;
3. earlier turns relevant to the query, verbatim, in search rank order, up to TURN_SHARE of the budget;
4. the rest of the recent turns, newest first (recent turns always form an unbroken run ending at the newest);
5. the profile, cut by whole lines to at most PROFILE_SHARE of the budget;
6. summaries: the session's mid-term summaries (most relevant to the query first, then newest), then its far
   summary (truncated by whole lines when it does not fit), then other sessions' summaries, same order;
7. the remaining facts, then the remaining relevant turns, in rank order, into whatever room is left.

A relevant turn or a fact is skipped when every message it shows (`Item.shows`: a turn's own id, a fact's
source turns) is shown already by an item taken before it: a fact and its own source turn are the same evidence
twice, and a turn already among the recent ones is not repeated.

Rendering order is for reading, not priority: header, profile, facts, summaries (oldest first), relevant
earlier turns (oldest first), recent turns (oldest first). The final text is counted again with the real
tokenizer and items are dropped from the lowest priority until it fits, so `tokens <= token_budget` holds
whatever the tokenizer does at joins.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

RECENT_HEAD = 2
FACT_SHARE = 0.5
TURN_SHARE = 0.45  # 0.3: context recall 0.695 at 1000 tokens, 0.45: 0.731 (bench/README.md, 2026-12-02)
PROFILE_SHARE = 0.2
SECTION_TITLES = {
    "profile": "## Profile",
    "facts": "## Relevant facts (date = when it became true or was said)",
    "summaries": "## Summaries of earlier conversation",
    "turns": "## Relevant earlier turns (oldest first)",
    "recent": "## Recent turns (oldest first)",
}
RENDER_ORDER = ["profile", "facts", "summaries", "turns", "recent"]
DEDUPED = {"facts", "turns"}  # sections whose items are skipped when what they show is shown already


@dataclass
class Item:
    section: str  # recent, facts, turns, summaries, profile
    text: str
    payload: Any = None
    sort_key: Any = 0  # rendering order inside the section
    truncatable: bool = False  # may be cut to its first lines
    shows: frozenset[int] = frozenset()  # the messages this item shows (a turn's id, a fact's source turns)


@dataclass
class Packed:
    text: str
    tokens: int
    items: dict[str, list[Item]] = field(default_factory=dict)


def render(header: str, chosen: list[Item]) -> str:
    parts = [header] if header else []
    for section in RENDER_ORDER:
        items = sorted((i for i in chosen if i.section == section), key=lambda i: i.sort_key)
        if items:
            parts.append(SECTION_TITLES[section])
            parts.extend(i.text for i in items)
    return "\n".join(parts)


def _truncate(item: Item, room: int, count: Callable[[str], int]) -> Item | None:
    lines = item.text.splitlines()
    kept: list[str] = []
    used = 0
    for line in lines:
        cost = count(line) + 1
        if used + cost > room:
            break
        kept.append(line)
        used += cost
    if len(kept) < 2:  # a title line alone says nothing
        return None
    return Item(item.section, "\n".join(kept), item.payload, item.sort_key, shows=item.shows)


def pack(
    *,
    header: str,
    recent: list[Item],
    facts: list[Item],
    profile: Item | None,
    summaries: list[Item],
    budget: int,
    count: Callable[[str], int],
    turns: list[Item] | None = None,
) -> Packed:
    """Choose items by priority under budget; recent must be newest first, facts and turns best first."""
    chosen: list[Item] = []
    used = 0
    open_sections: set[str] = set()
    header = header if count(header) <= budget else ""
    used += count(header)

    def cost_of(item: Item) -> int:
        extra = 0 if item.section in open_sections else count(SECTION_TITLES[item.section]) + 1
        return count(item.text) + 1 + extra

    section_used: dict[str, int] = {}
    shown: set[int] = set()

    def take(item: Item, cap: float | None = None) -> bool:
        """Add item if it fits the budget (and the section's cap); truncatable items may be cut to fit. An item
        of a deduplicated section that shows nothing new counts as taken (there is nothing to add)."""
        nonlocal used
        if item.section in DEDUPED and item.shows and item.shows <= shown:
            return True
        limit = budget if cap is None else min(budget, used + int(cap) - section_used.get(item.section, 0))
        cost = cost_of(item)
        if used + cost > limit and item.truncatable:
            room = limit - used - (cost - count(item.text) - 1)
            cut = _truncate(item, room, count) if room > 0 else None
            if cut is None:
                return False
            item, cost = cut, cost_of(cut)
        if used + cost > limit:
            return False
        chosen.append(item)
        used += cost
        section_used[item.section] = section_used.get(item.section, 0) + cost
        open_sections.add(item.section)
        shown.update(item.shows)
        return True

    recent_ok = True
    for item in recent[:RECENT_HEAD]:
        recent_ok = recent_ok and take(item)
    left_over: list[Item] = []
    for item in facts:
        if not take(item, cap=FACT_SHARE * budget):
            left_over.append(item)
    turns_left: list[Item] = []
    for item in turns or []:
        if not take(item, cap=TURN_SHARE * budget):
            turns_left.append(item)
    for item in recent[RECENT_HEAD:]:
        recent_ok = recent_ok and take(item)
    if profile is not None:
        take(profile, cap=PROFILE_SHARE * budget)
    for item in summaries:
        take(item)
    for item in left_over + turns_left:
        take(item)
    return _fit(header, chosen, budget, count)


def _fit(header: str, chosen: list[Item], budget: int, count: Callable[[str], int]) -> Packed:
    """Render the chosen items; drop the lowest-priority ones (chosen is in priority order) until the text fits."""
    text = render(header, chosen)
    tokens = count(text)
    while tokens > budget and chosen:
        chosen.pop()
        text = render(header, chosen)
        tokens = count(text)
    if tokens > budget:
        text, tokens = "", 0
    by_section: dict[str, list[Item]] = {s: [] for s in RENDER_ORDER}
    for item in chosen:
        by_section[item.section].append(item)
    for section in by_section:
        by_section[section].sort(key=lambda i: i.sort_key)
    return Packed(text=text, tokens=tokens, items=by_section)
