"""Part-of-speech tags of Chinese text (jieba.posseg) within a bounded time, for names, places and organisations.

posseg's hidden Markov model tags each run of characters that form no dictionary word, at up to ~10 ms a
character on this machine: a message of 16,000 such characters held a worker for minutes. Here each call gives
that model at most HMM_BUDGET characters (a normal sentence needs far fewer, and is tagged exactly as before);
runs past the budget are segmented by jieba's small word model and tagged from the dictionary (a word it does
not know is "x", so an unknown name there is not found, which is what a flood of such text deserves).
"""

from __future__ import annotations

import re
import threading
from typing import Any

HMM_BUDGET = 120  # characters per call given to posseg's model (it tags a name in a sentence with a few)
# jieba's word model (finalseg) copies its path at every character: quadratic in a run of unknown characters.
# Text goes to jieba in pieces of at most this many characters, cut between its blocks (it segments each block
# alone, so a cut there changes nothing); only a single block longer than this is cut inside.
PIECE_CHARS = 256
_BLOCK = re.compile(r"[\u4E00-\u9FD5a-zA-Z0-9+#&\._%\-]+")  # jieba's blocks (jieba.re_han_default)

_local = threading.local()
_lock = threading.Lock()
_tokenizer: Any = None


def _bounded_tokenizer() -> Any:
    global _tokenizer
    if _tokenizer is None:
        with _lock:
            if _tokenizer is None:
                import jieba
                import jieba.posseg as posseg
                from jieba import finalseg

                jieba.setLogLevel(60)

                class BoundedPOSTokenizer(posseg.POSTokenizer):
                    def _POSTokenizer__cut_detail(self, sentence: str) -> Any:  # noqa: N802 (posseg's private name)
                        left = getattr(_local, "left", HMM_BUDGET)
                        if len(sentence) <= left:
                            _local.left = left - len(sentence)
                            yield from super()._POSTokenizer__cut_detail(sentence)  # type: ignore[misc]
                            return
                        for piece in pieces(sentence):
                            for word in finalseg.cut(piece):
                                yield posseg.pair(word, self.word_tag_tab.get(word, "x"))

                tokenizer = BoundedPOSTokenizer.__new__(BoundedPOSTokenizer)
                tokenizer.__dict__.update(posseg.dt.__dict__)  # the default tokenizer's dictionary and tags
                _tokenizer = tokenizer
    return _tokenizer


def pieces(text: str, limit: int = PIECE_CHARS) -> list[str]:
    """The text in consecutive pieces of at most `limit` characters, cut before a jieba block where possible."""
    if len(text) <= limit:
        return [text]
    out: list[str] = []
    start = 0
    for m in _BLOCK.finditer(text):
        if m.end() - start <= limit:
            continue
        if m.start() > start:
            out.append(text[start : m.start()])
            start = m.start()
        while m.end() - start > limit:
            out.append(text[start : start + limit])
            start += limit
    out.append(text[start:])
    return [p for p in out if p]


def pos_tags(text: str) -> list[tuple[str, str]]:
    """(word, flag) pairs of the text, as jieba.posseg.lcut gives them while within the budget."""
    tokenizer = _bounded_tokenizer()
    _local.left = HMM_BUDGET
    try:
        return [(p.word, p.flag) for piece in pieces(text) for p in tokenizer.cut(piece)]
    finally:
        _local.left = HMM_BUDGET
