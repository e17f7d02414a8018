"""mem0's client sends `Authorization: Token <key>`: our API keys, accepted in that scheme (and as Bearer)."""

from __future__ import annotations

from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.request import Request

from conversations.auth import ApiKeyAuthentication


class Mem0TokenAuthentication(ApiKeyAuthentication):
    def raw_key(self, request: Request) -> str | None:
        header = get_authorization_header(request).split()
        if not header:
            return None
        if header[0].lower() not in {b"token", b"bearer"} or len(header) != 2:
            raise exceptions.AuthenticationFailed("Authorization header must be 'Token <key>'.")
        try:
            return header[1].decode("ascii")
        except UnicodeDecodeError as exc:
            raise exceptions.AuthenticationFailed("Invalid API key.") from exc

    def authenticate_header(self, request: Request) -> str:
        return 'Token realm="api"'
