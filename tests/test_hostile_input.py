"""Hostile input: each request gets a clear 4xx in the one error shape and writes nothing, or (for payloads that
are only text: SQL, HTML, emoji) is stored as the text it is, harmlessly. None of them may answer 5xx."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import DataError
from rest_framework.test import APIClient

from conversations.models import Message, Subject
from facts.models import Conflict, Fact
from facts.retrieval.query import MAX_QUERY_ENTITIES, MAX_QUERY_WORDS, analyze
from memory_site.errors import job_error
from tests.conftest import Persona

pytestmark = pytest.mark.django_db


def _rows() -> tuple[int, int, int]:
    return Message.objects.count(), Fact.objects.count(), Subject.objects.count()


def _refused(response: Any, status: int = 400, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content[:500]
    error = response.json()["error"]
    assert set(error) == {"code", "message", "details"} and error["message"]
    if code is not None:
        assert error["code"] == code, error
    return error


def _raw(persona: Persona, path: str, body: bytes, method: str = "post") -> Any:
    return getattr(persona.client, method)(path, body, content_type="application/json")


def _nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = {"a": value}
    return value


MESSAGES = "/api/v1/users/alice/messages"


def test_invalid_json_is_400(alice: Persona) -> None:
    before = _rows()
    _refused(_raw(alice, MESSAGES, b'{"messages": [{"role": "user", "content": "hi"}'))
    _refused(_raw(alice, MESSAGES, b"\xff\xfe not utf-8 \xc3\x28"))  # invalid UTF-8
    _refused(_raw(alice, MESSAGES, '{"messages": [{"role": "user", "content": "\xe4\xbd"}]}'.encode("latin-1")))
    assert _rows() == before


def test_wrong_types_are_400(alice: Persona) -> None:
    before = _rows()
    _refused(alice.post("messages", {"messages": "I live in Paris"}))
    _refused(alice.post("messages", {"messages": [{"role": "user", "content": ["I live in Paris"]}]}))
    _refused(alice.post("messages", {"messages": [{"role": "robot", "content": "hi"}]}))
    _refused(alice.post("messages", {"messages": [{"role": "user", "content": "hi", "metadata": "x"}]}))
    _refused(alice.post("messages", [1, 2, 3]))
    _refused(alice.post("search", {"query": ["a"], "limit": "many"}))
    _refused(alice.post("facts", {"text": {"a": 1}}))
    assert _rows() == before


def test_a_body_over_the_limit_is_413(alice: Persona, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    before = _rows()
    body = json.dumps({"messages": [{"role": "user", "content": "我住在北京。" * 3000}]}).encode()
    _refused(_raw(alice, MESSAGES, body), 413, "payload_too_large")
    assert _rows() == before


def test_json_a_thousand_deep_is_400(alice: Persona) -> None:
    before = _rows()
    error = _refused(_raw(alice, MESSAGES, b"[" * 1000 + b"]" * 1000))
    assert "nested" in error["message"]
    _refused(_raw(alice, "/api/v1/users/alice/search", json.dumps({"query": "x", "deep": _nested(100)}).encode()))
    assert _rows() == before


def test_metadata_nested_past_the_limit_is_refused_not_stored(alice: Persona) -> None:
    """300 levels broke every later read of the message (orjson writes at most 254); 60 is inside the body's
    limit but past metadata's."""
    before = _rows()
    for depth in (60, 300):
        body = {"messages": [{"role": "user", "content": "hello", "metadata": _nested(depth)}]}
        error = _refused(_raw(alice, MESSAGES, json.dumps(body).encode()))
        assert "metadata" in str(error["details"]) if depth == 60 else "nested" in error["message"]
    _refused(alice.post("facts", {"text": "I like tea.", "metadata": _nested(40)}))
    assert _rows() == before
    ok = alice.post("messages", {"messages": [{"role": "user", "content": "hello", "metadata": _nested(10)}]})
    assert ok.status_code == 202


def test_nul_characters_are_400_and_nothing_is_stored(alice: Persona) -> None:
    before = _rows()
    _refused(alice.post("messages", {"messages": [{"role": "user", "content": "hi", "metadata": {"k": "a\x00b"}}]}))
    _refused(alice.post("messages", {"messages": [{"role": "user", "content": "hi", "metadata": {"a\x00": 1}}]}))
    _refused(alice.post("messages", {"messages": [{"role": "user", "content": "I live in\x00 Paris"}]}))
    _refused(alice.post("facts", {"text": "I like tea.", "metadata": {"k": ["\x00"]}}))
    _refused(alice.post("facts", {"text": "I like \x00 tea."}))
    _refused(alice.post("search", {"query": "tea\x00"}))
    _refused(alice.client.get("/api/v1/users/al%00ice/facts"), 400, "invalid_user")
    assert _rows() == before


def test_a_user_id_over_255_characters_is_400(alice: Persona) -> None:
    before = _rows()
    for path, method in (("messages", "post"), ("facts", "get"), ("facts", "post"), ("search", "post")):
        url = f"/api/v1/users/{'u' * 300}/{path}"
        body = {"messages": [{"role": "user", "content": "hi"}], "text": "I like tea.", "query": "tea"}
        response = getattr(alice.client, method)(url, body, format="json")
        _refused(response, 400, "invalid_user")
    assert _rows() == before


def test_very_long_words_and_strings(alice: Persona) -> None:
    fact = alice.post("facts", {"text": "I like tea."}).json()
    long_word = "supercalifragilistic" * 6  # 120 characters, one word
    response = alice.client.patch(
        f"/api/v1/users/alice/facts/{fact['id']}", {"text": f"I like {long_word}."}, format="json"
    )
    assert response.status_code in (200, 400), response.content[:300]
    assert alice.post("facts", {"text": f"My password hint is {long_word}."}).status_code in (201, 400)
    zh_word = "龘" * 150
    assert alice.post("facts", {"text": f"我喜欢{zh_word}"}).status_code in (201, 400)
    _refused(alice.post("facts", {"text": "x" * 2001}))
    _refused(alice.post("search", {"query": "x" * 2001}))


def test_keep_superscript_two_on_resolve_is_400(alice: Persona) -> None:
    alice.post("facts", {"text": "I don't like coffee."})
    alice.post("facts", {"text": "I love coffee."})
    conflict = Conflict.objects.get(state="open")
    url = f"/api/v1/conflicts/{conflict.pk}/resolve"
    for keep in ("²", "١٢", "9" * 40, -1, 1.5, None, [], {"id": 1}):
        _refused(alice.client.post(url, {"keep": keep}, format="json"))
    assert Conflict.objects.get(pk=conflict.pk).state == "open"


def test_sql_and_html_payloads_are_only_text(alice: Persona) -> None:
    sql = "Robert'); DROP TABLE facts_fact;-- and ' OR 1=1 --"
    html = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    created = alice.post("facts", {"text": f"My nickname is {sql}"})
    assert created.status_code == 201
    assert alice.post("facts", {"text": f"My motto is {html}"}).status_code == 201
    assert alice.search(sql).status_code == 200 and alice.search(html).status_code == 200
    assert alice.get("facts", data={"q": "' OR 1=1 --"}).status_code == 200
    assert alice.client.get("/api/v1/users/' OR 1=1 --/facts").status_code == 404
    texts = [f["text"] for f in alice.get("facts").json()["results"]]
    assert any(sql in t for t in texts) and any(html in t for t in texts)  # kept verbatim, as text
    assert Fact.objects.count() == 2


def test_emoji_and_mixed_scripts(alice: Persona) -> None:
    text = "我最喜欢的食物是拉面🍜, and I love Москва 🇷🇺 café"
    created = alice.post("facts", {"text": text})
    assert created.status_code == 201 and created.json()["text"] == text
    results = alice.search("拉面 🍜").json()["results"]
    assert results and results[0]["text"] == text
    assert alice.post("messages", {"messages": [{"role": "user", "content": "👍🏽" * 500}]}).status_code == 202


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("search", {"query": "tea", "limit": 10**12}),
        ("search", {"query": "tea", "limit": -1}),
        ("search", {"query": "tea", "limit": "NaN"}),
        ("search", {"query": "tea", "since": "9999999-01-01"}),
        ("context", {"query": "tea", "token_budget": 10**15}),
        ("context", {"query": "tea", "token_budget": -5}),
        ("context", {"query": "tea", "token_budget": 1e308}),
    ],
)
def test_absurd_limits_are_400(alice: Persona, path: str, body: dict[str, Any]) -> None:
    alice.post("facts", {"text": "I like tea."})
    _refused(alice.post(path, body))


def test_absurd_cursors_and_ids_are_4xx(alice: Persona) -> None:
    import base64

    alice.post("facts", {"text": "I like tea."})
    for cursor in ("%%%", "not-base64!", base64.urlsafe_b64encode(b"9" * 40).decode(), "MTIz" * 500):
        _refused(alice.get("facts", data={"cursor": cursor}))
    huge = "9" * 30
    for path in (f"facts/{huge}", f"facts/{huge}/history"):
        _refused(alice.get(path), 404)
    _refused(alice.client.post(f"/api/v1/conflicts/{huge}/resolve", {"keep": "both"}, format="json"), 404)
    _refused(alice.client.get("/api/v1/jobs/not-a-uuid"), 404)
    _refused(alice.client.get(f"/v1/memories/{huge}/"), 404)
    _refused(alice.client.get("/v1/memories/²/"), 404)


def test_2000_rare_cjk_characters_make_a_bounded_query(alice: Persona) -> None:
    """Each word and entity of a query is a term of the candidate statements: 2,000 rare characters made 3,694
    (past PostgreSQL's limit of columns in one statement), and the search failed."""
    import datetime as dt

    alice.post("facts", {"text": "我喜欢䶮䶯。"})
    query = "".join(chr(0x3400 + i) for i in range(2000))  # CJK extension A: rare, each its own word
    analysis = analyze(query, now=dt.datetime.now(dt.UTC))
    assert len(analysis.words) == MAX_QUERY_WORDS and len(analysis.entities) <= MAX_QUERY_ENTITIES
    assert alice.search(query).status_code == 200
    mixed = " ".join(f"Name{i} word{i} 词{chr(0x4E00 + i)}" for i in range(400))[:2000]
    assert alice.search(mixed).status_code == 200


def test_a_jobs_error_is_a_code_and_message_never_a_repr() -> None:
    secret = "my social security number is 078-05-1120"
    error = job_error(DataError(f'invalid input syntax: "{secret}"'))
    assert error == "invalid_data: A value could not be stored (DataError)."
    assert job_error(RuntimeError(secret)) == "internal_error: The work failed (RuntimeError)."
    assert secret not in job_error(ValueError(secret))


def test_an_error_of_a_csv_export_is_json_in_the_error_shape(alice: Persona) -> None:
    """An error under ?format=csv came back as the bare word `error` (the CSV renderer passed the dict's keys)."""
    response = alice.client.get("/api/v1/users/nobody/export?format=csv")
    _refused(response, 404, "not_found")
    assert response["Content-Type"].startswith("application/json")


def test_an_mcp_body_over_the_limit_is_413(alice: Persona, settings: Any) -> None:
    """Django's own HTML 400 answered it: the MCP door reads the body once, after the key and its rate limit."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "remember", "arguments": {"user": "alice", "text": "x" * 20_000}}}  # fmt: skip
    response = alice.client.post(
        "/mcp/", message, format="json", HTTP_ACCEPT="application/json, text/event-stream"
    )  # fmt: skip
    _refused(response, 413, "payload_too_large")


def test_mem0_paths_refuse_hostile_input_with_a_4xx_and_write_nothing(alice: Persona) -> None:
    """mem0's paths validate as our own: NUL in metadata or a user id, a user id over 255 characters, timestamps and
    dates outside the calendar, unreadable filters. Each of these answered 500 (a database or datetime error)."""
    mem0 = APIClient()
    mem0.credentials(HTTP_AUTHORIZATION=f"Token {alice.key}")
    fact = alice.post("facts", {"text": "I like tea."}).json()
    before = _rows()
    turn = [{"role": "user", "content": "I live in Lisbon."}]
    for infer in (True, False):
        _refused(mem0.post("/v3/memories/add/", {"messages": turn, "user_id": "alice", "infer": infer,
                                                 "metadata": {"k": "a\x00b"}}, format="json"))  # fmt: skip
    _refused(mem0.post("/v3/memories/add/", {"messages": turn, "user_id": "alice", "timestamp": 10**15}, format="json"))
    _refused(mem0.post("/v3/memories/add/", {"messages": turn, "filters": {"user_id": "u" * 300}}, format="json"),
             400, "invalid_user")  # fmt: skip
    _refused(mem0.post("/v3/memories/add/", {"messages": turn, "user_id": "alice", "infer": False,
                                             "expiration_date": "2023-02-30"}, format="json"))  # fmt: skip
    _refused(mem0.put(f"/v1/memories/{fact['id']}/", {"metadata": {"k": "\x00"}}, format="json"))
    _refused(mem0.post("/v3/memories/search/", {"query": "tea", "filters": {"user_id": "al\x00ice"}}, format="json"),
             400, "invalid_user")  # fmt: skip
    _refused(mem0.delete("/v2/entities/user/al%00ice/"), 400, "invalid_user")
    for created in ("0001-01-01T00:00:00+23:00", "2023-02-30T00:00:00", "not a date"):
        filters = {"user_id": "alice", "created_at": {"gte": created}}
        _refused(mem0.post("/v3/memories/", {"filters": filters}, format="json"))
    _refused(mem0.delete("/v1/memories/?filters=" + "[" * 5000))
    _refused(mem0.post("/v3/memories/", {"filters": "{'user_id': " + "(" * 300 + "'alice'" + ")" * 300 + "}"},
                       format="json"))  # fmt: skip
    assert _rows() == before
    # Offsets past PostgreSQL's 16 hours are read in UTC; the last day of the calendar is an expiry.
    filters = {"user_id": "alice", "created_at": {"gte": "0001-01-01T00:00:00-23:00"}}
    assert mem0.post("/v3/memories/", {"filters": filters}, format="json").json()["count"] == 1
    assert mem0.put(f"/v1/memories/{fact['id']}/", {"expiration_date": "9999-12-31"}, format="json").status_code == 200
    assert mem0.get(f"/v1/memories/{fact['id']}/").json()["expiration_date"] == "9999-12-31"
