"""The MCP server: five tools over the memory of one tenant, whose API key the transport puts in CALLER_KEY_HASH.

The tools are async and run the Django work with sync_to_async (thread-sensitive): under the HTTP view that is the
request's own thread and database connection; under stdio, one thread for the process. Answers are JSON text.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from contextvars import ContextVar
from typing import Annotated, Any

from asgiref.sync import sync_to_async
from django.core.serializers.json import DjangoJSONEncoder
from django.db import close_old_connections
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from integrations.mcp import tools

# The hash of the API key the current call acts for (set by the HTTP view per request, by `manage.py mcp` once).
CALLER_KEY_HASH: ContextVar[str | None] = ContextVar("memsite_mcp_caller_key_hash", default=None)

INSTRUCTIONS = (
    "Long-term memory of your users. `user` is the user's id in your application. Call recall before answering "
    "anything that depends on what the user said earlier; remember one self-contained fact at a time; forget a fact "
    "by the id recall or list_memories gave. Works in English and Chinese."
)

User = Annotated[str, Field(description="The user's id in your application (as in the REST paths).", max_length=255)]


def _call(fn: Callable[..., dict[str, Any]], key_hash: str, kwargs: dict[str, Any]) -> str:
    close_old_connections()  # a connection past its age or broken since the last call is replaced
    try:
        result = fn(key_hash=key_hash, **kwargs)
    except Exception as exc:
        message = tools.refusal_of(exc)
        if message is None:
            raise
        raise ToolError(message) from None
    finally:
        close_old_connections()
    return json.dumps(result, cls=DjangoJSONEncoder, ensure_ascii=False)


async def _run(fn: Callable[..., dict[str, Any]], **kwargs: Any) -> str:
    key_hash = CALLER_KEY_HASH.get()
    if key_hash is None:
        raise ToolError("Not authenticated.")
    return await sync_to_async(_call, thread_sensitive=True)(fn, key_hash, kwargs)


@functools.cache
def memory_server() -> MCPServer:
    """The process's MCP server with the memory tools (built once)."""
    server: MCPServer = MCPServer("memory-site", instructions=INSTRUCTIONS, version="1")

    @server.tool(
        description="Search the user's long-term memory for the facts that answer a question (hybrid search, no LLM). "
        "Returns JSON: results with id, text, type, score, matched_by, dates and sources.",
        structured_output=False,
    )
    async def recall(
        user: User,
        query: Annotated[str, Field(description="What to look for, in natural language.", max_length=2000)],
        limit: Annotated[int, Field(ge=1, le=50, description="How many facts at most.")] = 5,
    ) -> str:
        return await _run(tools.recall, user=user, query=query, limit=limit)

    @server.tool(
        description="Store one self-contained fact about the user (one sentence). A repeat merges with the fact held; "
        "a new value for the same attribute supersedes the old one, which stays in history. Returns the fact as JSON "
        "with `action` (created, merged, superseded or conflicted).",
        structured_output=False,
    )
    async def remember(
        user: User, text: Annotated[str, Field(description="The fact, one sentence.", max_length=2000)]
    ) -> str:
        return await _run(tools.remember, user=user, text=text)

    @server.tool(
        description="Forget one fact about the user for good (its text, vector and history text are erased). "
        "Use the id that recall or list_memories returned.",
        structured_output=False,
    )
    async def forget(user: User, fact_id: Annotated[int, Field(description="The fact's id.")]) -> str:
        return await _run(tools.forget, user=user, fact_id=fact_id)

    @server.tool(
        description="List the user's current facts, newest first (superseded ones are left out). Returns JSON.",
        structured_output=False,
    )
    async def list_memories(
        user: User, limit: Annotated[int, Field(ge=1, le=200, description="How many facts at most.")] = 100
    ) -> str:
        return await _run(tools.list_memories, user=user, limit=limit)

    @server.tool(
        description="Prompt-ready memory of the user for the current question, packed under a token budget: recent "
        "turns, summaries, relevant facts, relevant earlier turns (verbatim, dated) and the profile. Returns JSON with `context` (the text to put in a prompt) "
        "and `tokens`.",
        structured_output=False,
    )
    async def get_context(
        user: User,
        query: Annotated[str, Field(description="The question at hand (may be empty).", max_length=2000)] = "",
        token_budget: Annotated[int, Field(ge=50, le=32000, description="Tokens the context may take.")] = 2000,
    ) -> str:
        return await _run(tools.get_context, user=user, query=query, token_budget=token_budget)

    return server
