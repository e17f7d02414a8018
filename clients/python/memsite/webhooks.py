"""Check a webhook delivery: `Memory-Site-Signature: t=<unix seconds>,v1=<hex>`, the hex being HMAC-SHA256 keyed
with the endpoint's secret over `<t>.<raw body>`. Verify the body exactly as received, before parsing it."""

from __future__ import annotations

import hashlib
import hmac
import time


def verify_signature(secret: str, header: str, body: bytes, *, tolerance: int = 300, now: float | None = None) -> bool:
    """Whether the delivery is signed with `secret` and at most `tolerance` seconds old (a replay is older)."""
    fields: dict[str, list[str]] = {}
    for item in header.split(","):
        name, _, value = item.strip().partition("=")
        fields.setdefault(name, []).append(value)
    try:
        t = int(fields["t"][0])
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - t) > tolerance:
        return False
    expected = hmac.new(secret.encode("utf-8"), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, given) for given in fields.get("v1", []))
