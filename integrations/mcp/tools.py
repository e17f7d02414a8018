"""What the MCP tools do, for one tenant's API key: the same services and selectors as the REST API.

Each function takes the caller's key hash (looked up on every call, so a key revoked while an agent runs is
refused from its next call), the user (the subject's external id, as in the REST paths) and the tool's arguments,
and returns the answer as plain data. A refusal is an McpRefused with a message for the agent.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404

from conversations.models import ApiKey, Subject
from conversations.selectors import api_key_and_subject
from conversations.services import subject_get_or_create
from facts import services as fact_services
from facts.apis.search import search_payload
from facts.apis.serializers import facts_payload
from facts.context.services import MAX_BUDGET, MIN_BUDGET, context_build
from facts.models import Actor, Fact
from facts.selectors import fact_list, fact_search
from facts.services.writes import CURRENT
from memory_site.errors import DomainError

MAX_LIST = 200
MAX_TEXT = 2000


class McpRefused(Exception):
    """A call the server refuses: the message is what the agent reads."""


def caller_key(key_hash: str, user: str | None = None) -> tuple[ApiKey, Subject | None]:
    """The caller's key (refused when unknown, revoked or its tenant inactive) and, with `user`, that user of the
    key's tenant (None when the tenant has none by that id, as for another tenant's), in one statement."""
    key, subject = api_key_and_subject(key_hash, user)
    if key is None or not key.tenant.is_active:
        raise McpRefused("Invalid API key.")
    if key.revoked_at is not None:
        raise McpRefused("This API key has been revoked.")
    return key, subject


def _writer(key: ApiKey) -> ApiKey:
    """The key, if it may write (a read-only key may only recall, list and get context)."""
    if key.read_only:
        raise McpRefused("This API key is read-only.")
    return key


def _user_valid(user: str) -> str:
    user = user.strip()
    if not user or len(user) > 255 or "\x00" in user:
        raise McpRefused("user must be the user's id (1 to 255 characters).")
    return user


def _subject(key_hash: str, user: str) -> tuple[ApiKey, Subject]:
    key, subject = caller_key(key_hash, _user_valid(user))
    if subject is None:
        raise McpRefused("No such user.")
    return key, subject


def _actor_id(key: ApiKey) -> str:
    return f"api-key:{key.prefix}"


def recall(*, key_hash: str, user: str, query: str, limit: int = 5) -> dict[str, Any]:
    """The user's facts that answer `query`, best first (POST search)."""
    key, subject = _subject(key_hash, user)
    if not query.strip():
        raise McpRefused("query must not be empty.")
    hits, took_ms = fact_search(
        subject=subject, query=query.strip()[:MAX_TEXT], limit=max(1, min(50, limit)), api_key=key
    )
    return search_payload(hits, took_ms)


def remember(*, key_hash: str, user: str, text: str) -> dict[str, Any]:
    """Store one fact about the user (POST facts): merged with a repeat, superseding an old value of its slot."""
    key = _writer(caller_key(key_hash)[0])
    text = text.strip()
    if not text or len(text) > MAX_TEXT:
        raise McpRefused(f"text must be one fact of 1 to {MAX_TEXT} characters.")
    subject = subject_get_or_create(tenant=key.tenant, external_id=_user_valid(user))
    result = fact_services.fact_create(subject=subject, text=text, actor=Actor.AGENT, actor_id=_actor_id(key))
    return {**facts_payload([result.fact])[0], "action": result.action}


def forget(*, key_hash: str, user: str, fact_id: int) -> dict[str, Any]:
    """Forget one fact of the user for good (DELETE facts/{id})."""
    key, subject = _subject(key_hash, user)
    _writer(key)
    fact = Fact.objects.filter(subject=subject, tenant=subject.tenant, pk=fact_id).first()
    if fact is None:
        raise McpRefused("No such fact.")
    fact_services.fact_delete(fact=fact, actor=Actor.AGENT, actor_id=_actor_id(key))
    return {"forgotten": fact_id}


def list_memories(*, key_hash: str, user: str, limit: int = 100) -> dict[str, Any]:
    """The user's current facts (not superseded), newest first."""
    _, subject = _subject(key_hash, user)
    facts = list(fact_list(subject=subject).filter(status__in=CURRENT)[: max(1, min(MAX_LIST, limit))])
    return {
        "results": [
            {
                "id": f.pk,
                "text": f.text,
                "type": f.type,
                "status": f.status,
                "tier": f.tier,
                "pinned": f.pinned,
                "valid_from": f.valid_from,
                "created_at": f.created_at,
            }
            for f in facts
        ]
    }


def get_context(*, key_hash: str, user: str, query: str = "", token_budget: int = 2000) -> dict[str, Any]:
    """Prompt-ready memory of the user under `token_budget` tokens (POST context)."""
    key, subject = _subject(key_hash, user)
    result = context_build(
        subject=subject,
        query=query.strip()[:MAX_TEXT],
        token_budget=max(MIN_BUDGET, min(MAX_BUDGET, token_budget)),
        api_key=key,
    )
    return {
        "context": result.context,
        "tokens": result.tokens,
        "full_history_tokens": result.full_history_tokens,
        "session_id": result.session_id,
    }


def refusal_of(exc: Exception) -> str | None:
    """The message of an error the agent should read (a domain error, a missing object), else None."""
    if isinstance(exc, McpRefused):
        return str(exc)
    if isinstance(exc, DomainError):
        return exc.message
    if isinstance(exc, Http404):
        return str(exc) or "Not found."
    return None
