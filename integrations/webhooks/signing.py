"""The deliveries' signature: `Memory-Site-Signature: t=<unix seconds>,v1=<hex>`, where the hex is
HMAC-SHA256 keyed with the endpoint's secret (its UTF-8 bytes) over `<t>.<raw body>`.

A receiver recomputes it over the body exactly as received, compares in constant time, and rejects a `t` older
than a few minutes (a replayed delivery carries its old timestamp: changing it breaks the signature).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

SIGNATURE_HEADER = "Memory-Site-Signature"
SECRET_PREFIX = "whsec_"
TOLERANCE_SECONDS = 300


def secret_generate() -> str:
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def signature_of(*, secret: str, timestamp: int, body: bytes) -> str:
    return hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def signature_header(*, secret: str, body: bytes, timestamp: int | None = None) -> str:
    """The header's value for this body, signed now (or at `timestamp`)."""
    t = int(time.time()) if timestamp is None else timestamp
    return f"t={t},v1={signature_of(secret=secret, timestamp=t, body=body)}"


def signature_verify(
    *, secret: str, header: str, body: bytes, tolerance: int = TOLERANCE_SECONDS, now: float | None = None
) -> bool:
    """Whether `header` signs `body` with `secret` and is no older than `tolerance` seconds (nor from the future)."""
    parts: dict[str, list[str]] = {}
    for item in header.split(","):
        name, _, value = item.strip().partition("=")
        parts.setdefault(name, []).append(value)
    try:
        t = int(parts["t"][0])
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - t) > tolerance:
        return False
    expected = signature_of(secret=secret, timestamp=t, body=body)
    return any(hmac.compare_digest(expected, given) for given in parts.get("v1", []))
