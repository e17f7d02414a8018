"""What one search costs in round trips, as upper bounds (no timing): SQL statements and Redis commands. Each round
trip is a wait on a busy machine, whatever the subject's size (bench/README.md, "Fixed cost of a search")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.conftest import Persona
from tests.facts.test_search import FILLER_EN, add_fact, subject_of


class RedisRoundTrips:
    """Counts the commands (a pipeline or a script call: one) sent to any Redis server meanwhile."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def __enter__(self) -> RedisRoundTrips:
        import redis.connection

        self._cls = redis.connection.AbstractConnection
        self._orig = self._cls.send_packed_command
        outer = self

        def send(conn: Any, command: Any, check_health: bool = True) -> Any:
            outer.sent.append(bytes(command[0] if isinstance(command, list | tuple) else command)[:40])
            return outer._orig(conn, command, check_health)

        self._cls.send_packed_command = send  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: Any) -> None:
        self._cls.send_packed_command = self._orig  # type: ignore[method-assign]


@pytest.fixture
def memories(alice: Persona) -> Iterator[Persona]:
    subject = subject_of(alice)
    for text in [*FILLER_EN, "I have a dog named Rex.", "I bought a sourdough loaf at the bakery."]:
        add_fact(subject, text)
    turns = [
        {"role": "assistant", "content": "Did you see the new bakery on the corner?"},
        {"role": "user", "content": "Yes, I bought a sourdough loaf there on Saturday."},
    ]
    assert alice.post("messages?wait=true", {"session_id": "chat-1", "messages": turns}).status_code == 200
    yield alice


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("include_messages", "max_statements"), [(False, 6), (True, 9)])
def test_a_search_costs_few_statements_and_one_redis_round_trip(
    memories: Persona, include_messages: bool, max_statements: int
) -> None:
    """A word query under PostgreSQL's answer (a small subject): the key with the URL's user, the keyword
    candidates, their links, their rows, then the vector's candidates with their rows; with messages, their
    keyword and vector statements and rows too; and the subject's vocabulary of the query's words, facts and
    turns in one (the query-level relevance, facts/retrieval/answerable.py). The rate limits: one script call."""
    body = {"query": "tell me about the bakery loaf", "limit": 10, "include_messages": include_messages}
    for _ in range(2):  # this process's first embedding runs inline; the second is the steady state
        assert memories.post("search", body).status_code == 200
    with CaptureQueriesContext(connection) as queries, RedisRoundTrips() as redis_sent:
        response = memories.post("search", body)
    assert response.status_code == 200 and response.json()["results"]
    statements = [q["sql"][:80] for q in queries.captured_queries]
    assert len(statements) <= max_statements, statements
    assert len(redis_sent.sent) == 1, redis_sent.sent
    assert b"EVALSHA" in redis_sent.sent[0].upper()
