"""Where deliveries may go, and the POST that sends one.

Only http and https URLs. A target whose host is (or resolves to) a private, loopback, link-local or otherwise
non-public address is refused unless WEBHOOKS_ALLOW_PRIVATE_TARGETS is set: the service must not be a way into
its own network. The check runs when an endpoint is made and again at every delivery, and the connection goes to
the address that was checked (a name re-resolved between check and connect cannot point elsewhere).
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from memory_site.errors import InvalidInput

MAX_RESPONSE_KEPT = 1000  # characters of a receiver's answer kept in the delivery log


class TargetRefused(InvalidInput):
    code = "invalid_target"
    message = "This webhook URL is not allowed."


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str


def target_parse(url: str) -> Target:
    """The URL's parts; TargetRefused when it is not an absolute http(s) URL with a host (and no credentials)."""
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"}:
        raise TargetRefused("Webhook URLs must use http or https.", details={"url": url})
    if not parts.hostname or parts.username or parts.password:
        raise TargetRefused("A webhook URL needs a host and no credentials.", details={"url": url})
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise TargetRefused("The URL's port is not a number.", details={"url": url}) from None
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path)


def _is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def target_addresses(target: Target, *, strict: bool = True) -> list[str]:
    """The addresses to connect to, all allowed; TargetRefused for a non-public one (unless the setting allows
    private targets). An unresolvable host is refused when `strict`, else yields no address (checked again later)."""
    try:
        infos = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    except OSError:
        if strict:
            raise TargetRefused("The webhook URL's host does not resolve.", details={"host": target.host}) from None
        return []
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS:
        private = [a for a in addresses if not _is_public(a)]
        if private:
            raise TargetRefused(
                "The webhook URL points at a private address (set WEBHOOKS_ALLOW_PRIVATE_TARGETS to allow it).",
                details={"host": target.host, "addresses": private},
            )
    return addresses


def url_check(url: str) -> None:
    """Refuse a URL no delivery could go to; a name that does not resolve now is let through (checked at delivery)."""
    target_addresses(target_parse(url), strict=False)


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection to an address already checked, whatever the name resolves to now."""

    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.pinned_address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.pinned_address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """An HTTPS connection to an address already checked; the certificate is checked against the URL's host."""

    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        self.pinned_context = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self.pinned_context)
        self.pinned_address = address

    def connect(self) -> None:
        sock = socket.create_connection((self.pinned_address, self.port), self.timeout)
        self.sock = self.pinned_context.wrap_socket(sock, server_hostname=self.host)


@dataclass(frozen=True)
class PostResult:
    status: int | None  # None: no HTTP answer
    response: str
    error: str


def post(url: str, *, body: bytes, headers: dict[str, str], timeout: float) -> PostResult:
    """POST the body to the URL (no redirects followed); the receiver's status and the start of its answer."""
    try:
        target = target_parse(url)
        addresses = target_addresses(target, strict=True)
    except TargetRefused as exc:
        return PostResult(None, "", f"refused: {exc.message}")
    connection_class = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
    connection = connection_class(target.host, target.port, address=addresses[0], timeout=timeout)
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read(MAX_RESPONSE_KEPT * 4).decode("utf-8", "replace")[:MAX_RESPONSE_KEPT]
        return PostResult(response.status, text, "")
    except (OSError, http.client.HTTPException) as exc:
        return PostResult(None, "", f"{type(exc).__name__}: {exc}"[:MAX_RESPONSE_KEPT])
    finally:
        connection.close()
