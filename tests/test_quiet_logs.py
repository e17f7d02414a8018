"""Quiet operations: the logs of an ingest, a search, a context request and a refused request carry ids, never
what people said, who they are or what they searched for; a job's error is a stable code and message."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from conversations.joberrors import JOB_ERRORS, job_error, job_error_record
from conversations.models import Message
from memory_site.logredact import QuietFormatter, RedactFilter, format_exception_quietly, pseudonym, redact

SECRET_TURN = "My neighbour Zebulon Quackenbush keeps 7 ferrets; 我的邻居诸葛青云养了七只雪貂。"
SECRET_USER = "patient-zero-4471@example.org"
SECRET_QUERY = "quackenbush ferrets 雪貂"
SECRETS = ["Zebulon", "Quackenbush", "quackenbush", "ferrets", "诸葛青云", "雪貂", SECRET_USER, "patient-zero"]


@pytest.fixture
def service_log() -> Iterator[io.StringIO]:
    """What the service's configured console handler writes, at INFO (the production level)."""
    handler = next(h for h in logging.getLogger().handlers if h.name == "console")
    stream = io.StringIO()
    old_stream = handler.setStream(stream)  # type: ignore[attr-defined]
    root = logging.getLogger()
    old_level = root.level
    root.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        root.setLevel(old_level)
        handler.setStream(old_stream)  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_ingest_search_and_context_log_no_text_user_or_query(alice, carol, service_log) -> None:  # type: ignore[no-untyped-def]
    path = f"/api/v1/users/{SECRET_USER}"
    assert alice.client.post(f"{path}/messages?wait=true", {"messages": [{"role": "user", "content": SECRET_TURN}]},
                             format="json").status_code == 200  # fmt: skip
    assert (
        alice.client.post(f"{path}/search?q={SECRET_QUERY}", {"query": SECRET_QUERY}, format="json").status_code == 200
    )
    assert alice.client.post(f"{path}/context", {"query": SECRET_QUERY}, format="json").status_code == 200
    # Refused requests are logged by Django ("Not Found: <path>"): another tenant's, a bad body, no key.
    assert carol.client.get(f"{path}/facts?q={SECRET_QUERY}").status_code in {200, 404}
    assert alice.client.post(f"{path}/search", {"query": ""}, format="json").status_code == 400
    assert alice.client.get(f"/api/v1/users/{SECRET_USER}/facts/999999999").status_code == 404
    written = service_log.getvalue()
    assert written, "the requests above logged nothing: this test would see nothing"
    for secret in SECRETS:
        assert secret not in written, f"{secret!r} in the log:\n{written}"
    assert pseudonym(SECRET_USER) in written  # the refused request is still traceable to one (hashed) user


def test_redaction_keeps_ids_and_drops_words() -> None:
    line = f'"GET /api/v1/users/{SECRET_USER}/facts/12?q=ferrets&type=profile HTTP/1.1" 200'
    assert redact(line) == f'"GET /api/v1/users/{pseudonym(SECRET_USER)}/facts/12?q=-&type=- HTTP/1.1" 200'
    assert redact("/me/link/abc.def-secret-token") == f"/me/link/{pseudonym('abc.def-secret-token')}"
    assert redact("/v2/entities/user/bob/") == f"/v2/entities/user/{pseudonym('bob')}/"
    assert pseudonym("bob") == pseudonym("bob") != pseudonym("alice")


def test_exception_text_is_withheld_frames_kept() -> None:
    try:
        try:
            raise KeyError(SECRET_TURN)
        except KeyError as inner:
            raise ValueError(f"bad fact: {SECRET_TURN}") from inner
    except ValueError as exc:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed for %s", (SECRET_USER,), None)
        record.exc_info = (type(exc), exc, exc.__traceback__)
        RedactFilter().filter(record)
        written = QuietFormatter("%(message)s").format(record)
        direct = format_exception_quietly((type(exc), exc, exc.__traceback__))
    assert "builtins.ValueError (message withheld)" in written and "builtins.KeyError" in written
    assert "test_exception_text_is_withheld_frames_kept" in written  # the frames are there
    assert "Zebulon" not in written and "Zebulon" not in direct
    assert SECRET_USER in written  # a bare argument is not a path: only paths and query strings are rewritten


def test_job_errors_are_stable_codes() -> None:
    from django.db import OperationalError

    stored = job_error_record(OperationalError(f"connection lost while writing {SECRET_TURN}"))
    assert stored.startswith("database_unavailable: ") and SECRET_TURN not in stored
    assert job_error(stored) == {"code": "database_unavailable", "message": JOB_ERRORS["database_unavailable"]}
    assert job_error(job_error_record(ValueError("x"), code="task_failed"))["code"] == "task_failed"  # type: ignore[index]
    assert job_error("KeyError('something internal')") == {"code": "extraction_failed",
                                                          "message": JOB_ERRORS["extraction_failed"]}  # fmt: skip
    assert job_error("llm fallback: llm timeout") is None and job_error("") is None


@pytest.mark.django_db
def test_a_failed_job_shows_a_code_not_the_exception(alice) -> None:  # type: ignore[no-untyped-def]
    body = alice.ingest("I live in Lisbon.", wait=False).json()
    Message.objects.filter(pk=body["messages"][0]["id"]).update(
        extraction_state="failed", extraction_error=job_error_record(RuntimeError(f"boom {SECRET_TURN}"))
    )
    job = alice.client.get(f"/api/v1/jobs/{body['job_id']}").json()
    assert job["state"] == "failed"
    assert job["error"] == {"code": "extraction_failed", "message": JOB_ERRORS["extraction_failed"]}


def test_gunicorn_access_lines_hash_the_user_and_drop_query_words() -> None:
    import datetime as dt

    from gunicorn.config import Config

    from memory_site.accesslog import QuietLogger

    cfg = Config()
    cfg.set("accesslog", "-")
    logger = QuietLogger(cfg)

    class Response:
        status, sent, headers = "200 OK", 10, [("Content-Type", "application/json")]

    class Request:
        headers = [("AUTHORIZATION", "Bearer sk-secret-key"), ("REFERER", f"https://x/?q={SECRET_QUERY}")]

    uri = f"/api/v1/users/{SECRET_USER}/facts?q=ferrets+quackenbush"
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": uri, "SERVER_PROTOCOL": "HTTP/1.1", "PATH_INFO": uri.split("?")[0],
               "QUERY_STRING": "q=ferrets+quackenbush", "HTTP_REFERER": f"https://x{uri}", "REMOTE_ADDR": "127.0.0.1"}  # fmt: skip
    atoms = logger.atoms_wrapper_class(logger.atoms(Response(), Request(), environ, dt.timedelta(seconds=0.01)))
    line = cfg.access_log_format % atoms + " %(q)s %(U)s %({authorization}i)s" % atoms  # noqa: UP031 (gunicorn format)
    assert f"/api/v1/users/{pseudonym(SECRET_USER)}/facts?q=-" in line
    for secret in [*SECRETS, "sk-secret-key"]:
        assert secret not in line, line


def test_serve_runs_gunicorn_with_the_quiet_logger() -> None:
    from memory_site.management.commands.serve import _children

    web = next(c for c in _children({"host": "127.0.0.1", "port": 8000, "web_workers": 1, "concurrency": 1})
               if c.name == "web")  # fmt: skip
    assert "memory_site.accesslog.QuietLogger" in web.argv


@pytest.mark.django_db(transaction=True)  # MCP's tools close a connection they find inside a test's transaction
def test_mcp_and_mem0_requests_log_no_text_user_or_query(alice, service_log) -> None:  # type: ignore[no-untyped-def]
    """The other doors log no more than the REST API: MCP's tool calls (their arguments travel in the body, which
    the SDK handles and may log) and mem0's paths (the user in the query string and in the body)."""
    from rest_framework.test import APIClient

    mcp = APIClient()
    mcp.credentials(HTTP_AUTHORIZATION=f"Bearer {alice.key}")

    def tool(name: str, arguments: dict[str, object]) -> int:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
        response = mcp.post("/mcp/", body, format="json", HTTP_ACCEPT="application/json, text/event-stream")
        return response.status_code  # type: ignore[no-any-return]

    assert tool("remember", {"user": SECRET_USER, "text": SECRET_TURN}) == 200
    assert tool("recall", {"user": SECRET_USER, "query": SECRET_QUERY}) == 200
    assert tool("get_context", {"user": SECRET_USER, "query": SECRET_QUERY}) == 200
    assert tool("recall", {"user": SECRET_USER + "-unknown", "query": SECRET_QUERY}) == 200  # a refusal, in the body
    assert tool("forget", {"user": SECRET_USER, "fact_id": 999999999}) == 200
    assert tool("remember", {"user": SECRET_USER, "text": SECRET_TURN * 200}) == 200  # too long: refused
    mem0 = APIClient()
    mem0.credentials(HTTP_AUTHORIZATION=f"Token {alice.key}")
    search = {"query": SECRET_QUERY, "filters": {"user_id": SECRET_USER}}
    assert mem0.post("/v3/memories/search/", search, format="json").status_code == 200
    assert mem0.post("/v3/memories/", {"filters": {"user_id": SECRET_USER}}, format="json").status_code == 200
    assert mem0.get(f"/v3/memories/?user_id={SECRET_USER}").status_code == 405  # logged by Django, with its path
    assert mem0.delete(f"/v1/memories/?user_id={SECRET_USER}-unknown").status_code in {200, 204, 404}
    add = {"messages": [{"role": "user", "content": SECRET_TURN}], "user_id": SECRET_USER, "infer": False}
    assert mem0.post("/v3/memories/add/", add, format="json").status_code in {200, 201}
    assert mem0.delete(f"/v2/entities/user/{SECRET_USER}-unknown/").status_code in {200, 204, 404}
    written = service_log.getvalue()
    assert written, "the requests above logged nothing: this test would see nothing"
    for secret in SECRETS:
        assert secret not in written, f"{secret!r} in the log:\n{written}"
