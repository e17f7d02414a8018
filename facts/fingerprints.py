"""Keyed fingerprints of a subject and of texts: what stays of forgotten things (a hash, never the text).

HMAC-SHA256 under a key derived from SECRET_KEY (`salted_hmac`), so nobody without the key can test a guessed
text against a fingerprint; rotating SECRET_KEY therefore starts every forgotten set afresh. A text's
fingerprint is scoped to its subject: two people who forgot the same sentence hold unrelated fingerprints.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re

from django.conf import settings

from facts.text import normalize

_SUBJECT_SALT = "memory-site.subject-key"
_TEXT_SALT = "memory-site.forgotten-text"
_SENTENCE_END = re.compile(r"(?<=[.!?。！？；;])\s*|\n+")


@functools.cache
def _key(salt: str, secret: str) -> bytes:
    """The HMAC key for one purpose, derived from SECRET_KEY as django.utils.crypto.salted_hmac derives it."""
    return hashlib.sha256((salt + secret).encode()).digest()


def _hmac(salt: str, value: str) -> str:
    return hmac.new(_key(salt, settings.SECRET_KEY), value.encode(), hashlib.sha256).hexdigest()


def subject_key(*, tenant_id: int, external_id: str) -> str:
    """The subject's stable pseudonym: the same for the same tenant and external id, before and after erasure."""
    return _hmac(_SUBJECT_SALT, f"{tenant_id}:{external_id}")


def text_fingerprint(*, key: str, text: str) -> str | None:
    """The fingerprint of a text's normalised form for the subject `key`; None for a text with no words."""
    norm = normalize(text)
    if not norm:
        return None
    return _hmac(_TEXT_SALT, f"{key}\x00{norm}")


def text_pieces(text: str) -> list[str]:
    """The text and each of its sentences: a fingerprint scan then also finds a sentence copied into a longer text."""
    sentences = [s for s in _SENTENCE_END.split(text) if s and s.strip()]
    return [text, *sentences] if len(sentences) > 1 else [text]


def text_fingerprints(*, key: str, texts: list[str], pieces: bool = False) -> set[str]:
    """The fingerprints of these texts (and of their sentences with `pieces`), empty texts left out."""
    out: set[str] = set()
    for text in texts:
        for piece in text_pieces(text) if pieces else [text]:
            fingerprint = text_fingerprint(key=key, text=piece)
            if fingerprint is not None:
                out.add(fingerprint)
    return out
