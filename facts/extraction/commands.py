"""Explicit instructions to the memory in a user's turn: remember (pin) or forget, in English and Chinese.

A forget command forgets facts (the words of its target, else the previous turn's), so it must be an instruction to
the memory and never the everyday idiom: "forget it then, I'll drive" and "forget the hotel, we'll camp" mean never
mind; 忘了带伞 and 忘记跟你说了 say the speaker forgot something; 删掉那个app deletes an app. What counts: forget or
delete *that / this / what I said* (its target what follows without a pause: "forget that I live in Paris"; after a
comma or a full stop the rest is a new remark and the target is the previous turn), forget *my ...* or *about my
...*, delete or erase *my ...* from the memory; 忘掉 / 删掉 / 删除 / 别记 with what was just said (刚才说的, 这条) or
with 我的 ..., and 别记 / 不要记 alone. Linear-time patterns anchored at the start.
"""

from __future__ import annotations

import re

from facts.extraction.base import Command

_LEAD_EN = (
    r"^\s*(?:(?:ok|okay|actually|oh|and|hey|um|sorry)[,\s]+)*(?:(?:can|could|would) you\s+)?(?:please\s+|pls\s+)?"
)
_FORGET_EN_RE = re.compile(
    # forget / delete that (this, what I said): "Forget that.", "please forget that I live in Paris"
    _LEAD_EN
    + r"(?:forget|delete|erase|remove|scrap)\s+(?:about\s+)?(?:that|this|what i (?:just |had )?(?:said|told you))"
    r"(?:\s*[.,!;:-]|\s*$|\s+(?:about\s+)?(?P<t1>(?!(?:'s|is|was|one|way|time|bit|part)\b).+))"
    # forget my ... / about my ...: "please forget my old address", "forget about my ex"
    r"|"
    + _LEAD_EN
    + r"forget\s+(?:about\s+)?(?:(?P<t2>(?:my|the fact that)\s.+?))\s*(?:from (?:your|the) memory)?\s*[.!]*$"
    # delete / erase my ... from the memory: "delete my phone number from your memory"
    r"|" + _LEAD_EN + r"(?:delete|erase|remove|wipe)\s+(?P<t3>(?:my|everything about)\s.+?)\s+"
    r"(?:from (?:your|the) (?:memory|records?|notes?)|(?:that )?you (?:know|have|remember|stored|saved))\b.*$"
    # delete that. (nothing else; "delete it" and "remove it" are said of a draft or a basket's item)
    r"|" + _LEAD_EN + r"(?:delete|erase|remove)\s+(?:that|this)\s*(?:from (?:your|the) memory)?\s*[.!]*$",
    re.IGNORECASE | re.DOTALL,
)
_FORGET_ZH_RE = re.compile(
    r"^\s*(?:请|麻烦)?(?:你|帮我)?(?:把)?(?:忘掉|忘记|删掉|删除|别记(?:住)?|不要记(?:住)?)(?:我)?"
    r"(?:(?:刚才|刚刚|之前|上面|前面)(?:说的|讲的|那句|那条|那段)?(?:那句话|那个|这个|话|内容|信息)?|这条|那条|这句|那句)"
    r"[：:，,。！!]?\s*(?P<t4>.*)$"
    r"|^\s*(?:请|麻烦)?(?:你|帮我)?(?:把)?(?:忘掉|删掉|删除)(?P<t5>我的\S.*?)(?:吧|吗)?[。！!]*$"
    r"|^\s*(?:请|麻烦)?(?:你)?(?:别记|不要记)(?:住)?(?:这个|那个|这件事|了)?[。！!～~]*$",
    re.DOTALL,
)
_REMEMBER_RE = re.compile(
    r"^\s*(?:please\s+|pls\s+|hey,?\s+)?(?:remember|don'?t forget|keep in mind|note)(?!\s+(?:when|the time|that time)\b)"
    r"(?:\s+(?:this|that))?\s*[:,-]?\s*(.*)$"
    r"|^\s*(?:请|麻烦)?(?:帮我)?(?:记住|记一下|记下来?|别忘了)(?:这个|这件事)?[：:，,]?\s*(.*)$",
    re.IGNORECASE | re.DOTALL,
)


def find_command(content: str) -> Command | None:
    """The instruction to the memory a turn opens with, or None."""
    m = _FORGET_EN_RE.match(content) or _FORGET_ZH_RE.match(content)
    if m:
        return Command("forget", next((g for g in m.groups() if g), "").strip())
    m = _REMEMBER_RE.match(content)
    if m:
        return Command("remember", next((g for g in m.groups() if g), "").strip())
    return None
