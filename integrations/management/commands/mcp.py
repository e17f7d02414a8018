"""Serve the memory tools over MCP's stdio transport for one tenant's API key: what a desktop agent starts."""

from __future__ import annotations

import os
from typing import Any

import anyio
from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations.auth import hash_key
from integrations.mcp.server import CALLER_KEY_HASH, memory_server
from integrations.mcp.tools import McpRefused, caller_key


class Command(BaseCommand):
    help = (
        "Serve the MCP tools recall, remember, forget, list_memories and get_context over stdio, acting with one "
        "API key (--key, or MEMSITE_KEY). Standard output carries the protocol: nothing else is written there."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--key", default=os.environ.get("MEMSITE_KEY", ""), help="an API key (default MEMSITE_KEY)")

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["key"]:
            raise CommandError("Give an API key with --key or MEMSITE_KEY.")
        key_hash = hash_key(options["key"])
        try:
            caller_key(key_hash)  # refuse a bad key now; each call checks it again (revocation while running)
        except McpRefused as exc:
            raise CommandError(str(exc)) from None
        CALLER_KEY_HASH.set(key_hash)
        anyio.run(memory_server().run_stdio_async)
