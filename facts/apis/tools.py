"""Tool definitions (OpenAI function calling) so an agent can use memory as tools: recall, remember, forget.

`tools` is passed verbatim as the `tools` array of a chat completion; `http` says which REST call each tool
maps to, with the same parameters as the contract, so a runtime dispatches a tool call with one request
(`{user}` is the subject's external id; `fact_id` goes into the path, every other argument into the body).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from conversations.apis import TenantApi
from facts.models import FactType

_DATE = {"type": "string", "format": "date-time"}


TOOL_HTTP: dict[str, dict[str, str]] = {
    "recall": {"method": "POST", "path": "/api/v1/users/{user}/search"},
    "remember": {"method": "POST", "path": "/api/v1/users/{user}/facts"},
    "forget": {"method": "DELETE", "path": "/api/v1/users/{user}/facts/{fact_id}"},
}


def _recall_tool(types: list[str]) -> dict[str, Any]:
    """The recall tool: search memory (POST search)."""
    return {
        "type": "function",
        "function": {
            "name": "recall",
            "description": (
                "Search the user's long-term memory for facts relevant to a question, in any language "
                "(English and Chinese). Returns the best matching facts with their sources. Call it before "
                "answering anything that depends on what the user said earlier (preferences, people, pets, "
                "dates, orders, health, past events)."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What to look for, in natural language."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 5},
                    "types": {"type": "array", "items": {"type": "string", "enum": types}},
                    "include_archived": {"type": "boolean", "default": False},
                    "include_messages": {
                        "type": "boolean",
                        "default": False,
                        "description": "Also search the raw conversation turns (episodic recall).",
                    },
                    "since": {**_DATE, "description": "Only facts valid or created from this time."},
                    "until": {**_DATE, "description": "Only facts valid or created before this time."},
                },
                "required": ["query"],
                "additionalProperties": False,
            },
        },
    }


def _remember_tool(types: list[str]) -> dict[str, Any]:
    """The remember tool: store one fact (POST facts)."""
    return {
        "type": "function",
        "function": {
            "name": "remember",
            "description": (
                "Store one self-contained fact about the user (one sentence). A repeat merges with the fact "
                "already held; a new value for the same attribute replaces the old one, which stays in history."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "text": {"type": "string", "maxLength": 2000, "description": "The fact, one sentence."},
                    "type": {"type": "string", "enum": types},
                    "entities": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"text": {"type": "string"}, "kind": {"type": "string"}},
                            "required": ["text"],
                        },
                    },
                    "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                    "importance": {"type": "number", "minimum": 0, "maximum": 1},
                    "expires_at": _DATE,
                    "valid_from": _DATE,
                },
                "required": ["text"],
                "additionalProperties": False,
            },
        },
    }


def _forget_tool() -> dict[str, Any]:
    """The forget tool: forget one fact by id (DELETE facts/{fact_id})."""
    return {
        "type": "function",
        "function": {
            "name": "forget",
            "description": (
                "Forget one fact about the user for good (its text, vector and history text are erased). "
                "Use the id returned by recall."
            ),
            "parameters": {
                "type": "object",
                "properties": {"fact_id": {"type": "integer", "description": "The id of the fact to forget."}},
                "required": ["fact_id"],
                "additionalProperties": False,
            },
        },
    }


def tool_definitions() -> list[dict[str, Any]]:
    """The three memory tools, in the OpenAI `tools` array format."""
    types = list(FactType.values)
    return [_recall_tool(types), _remember_tool(types), _forget_tool()]


class ToolsApi(TenantApi):
    @extend_schema(responses={200: dict}, operation_id="tools")
    def get(self, request: Request) -> Response:
        return Response({"tools": tool_definitions(), "http": TOOL_HTTP})
