"""The Python client (clients/python, `memsite`) and its CLI against the live server: every method, sync and
async, errors as exceptions, the CLI's output and --json."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import memsite
import pytest

from tests.conftest import Persona

MEMSITE = str(Path(sys.executable).with_name("memsite"))  # the command make install puts in .venv/bin


@pytest.mark.django_db(transaction=True)
def test_the_client_reads_and_writes_memory(alice: Persona, live_server: Any) -> None:
    with memsite.Client(base_url=live_server.url, api_key=alice.key) as memory:
        ingested = memory.add("alice", "I moved to Haidian District last week.", session_id="s1", wait=True)
        assert ingested.job_id and ingested.message_ids and ingested.facts
        home = next(f for f in ingested.facts if "Haidian" in f.text)
        fact = memory.remember("alice", "User's favourite tea is oolong.", type="preference")
        assert isinstance(fact, memsite.Fact) and fact.action == "created" and fact.type == "preference"
        found = memory.search("alice", "Where does the user live?", limit=3)
        assert isinstance(found, memsite.SearchResult) and found.results[0].id == home.id
        assert found.results[0].sources[0].session_id == "s1" and found.took_ms >= 0
        context = memory.context("alice", "tea", token_budget=300)
        assert "oolong" in context.context and context.tokens <= 300
        page = memory.facts("alice")
        assert {f.id for f in page.results} >= {home.id, fact.id} and page.next_cursor is None
        assert memory.facts("alice", q="oolong").results[0].id == fact.id
        corrected = memory.correct("alice", fact.id, text="User's favourite tea is pu'er.", pinned=True)
        assert corrected.text == "User's favourite tea is pu'er." and corrected.pinned
        assert memory.fact("alice", fact.id).text == corrected.text
        assert memory.forget("alice", fact.id) is None
        with pytest.raises(memsite.NotFound):
            memory.fact("alice", fact.id)
        exported = memory.export("alice")
        assert exported["schema"] == "memory-site.export/1" and "Haidian" in json.dumps(exported)
        assert "Haidian" in memory.export("alice", format="csv")
        link = memory.portal_link("alice", ttl_minutes=5)
        assert link.url.startswith("http") and "/me/" in link.url and link.expires_at is not None
        assert memory.erase("alice") is None
        with pytest.raises(memsite.NotFound):
            memory.search("alice", "Haidian")


@pytest.mark.django_db(transaction=True)
def test_the_async_client_and_errors_as_exceptions(alice: Persona, carol: Persona, live_server: Any) -> None:
    fact = alice.post("facts", {"text": "用户的生日是五月七日。"}).json()

    async def main() -> None:
        async with memsite.AsyncClient(base_url=live_server.url, api_key=alice.key) as memory:
            found = await memory.search("alice", "生日")
            assert found.results[0].id == fact["id"]
            with pytest.raises(memsite.InvalidRequest) as invalid:
                await memory.search("alice", "生日", limit=500)
            assert invalid.value.status == 400 and "limit" in invalid.value.details
        async with memsite.AsyncClient(base_url=live_server.url, api_key=carol.key) as theirs:
            with pytest.raises(memsite.NotFound):
                await theirs.search("alice", "生日")
            with pytest.raises(memsite.NotFound):
                await theirs.forget("alice", fact["id"])
        async with memsite.AsyncClient(base_url=live_server.url, api_key="ms_wrong") as nobody:
            with pytest.raises(memsite.AuthenticationError) as refused:
                await nobody.facts("alice")
            assert refused.value.status == 401 and refused.value.code == "unauthenticated"
        async with memsite.AsyncClient(base_url="http://127.0.0.1:9", api_key=alice.key, timeout=2) as away:
            with pytest.raises(memsite.ConnectionFailed):
                await away.facts("alice")

    anyio.run(main)
    assert alice.get(f"facts/{fact['id']}").status_code == 200  # carol's forget did nothing


def cli(live_server: Any, key: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEMSITE_URL": live_server.url, "MEMSITE_KEY": key}
    return subprocess.run([MEMSITE, *args], env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.django_db(transaction=True)
def test_the_cli(alice: Persona, carol: Persona, live_server: Any) -> None:
    added = cli(live_server, alice.key, "add", "alice", "My dog is called Biscuit.", "--wait")
    assert added.returncode == 0 and "stored, job" in added.stdout and "Biscuit" in added.stdout, added.stderr
    found = cli(live_server, alice.key, "search", "alice", "What is my dog called?")
    assert found.returncode == 0 and "Biscuit" in found.stdout.splitlines()[0]
    as_json = cli(live_server, alice.key, "--json", "search", "alice", "What is my dog called?")
    api = alice.search("What is my dog called?").json()
    answer = json.loads(as_json.stdout)
    assert [r["id"] for r in answer["results"]] == [r["id"] for r in api["results"]]
    assert set(answer) == set(api)  # the API's answer, field for field
    exported = cli(live_server, alice.key, "export", "alice")
    assert exported.returncode == 0 and json.loads(exported.stdout)["subject"]["user"] == "alice"
    refused = cli(live_server, carol.key, "search", "alice", "dog")
    assert refused.returncode == 1 and "404" in refused.stderr and refused.stdout == ""
    assert cli(live_server, alice.key, "erase", "alice").returncode != 0  # needs --yes
    assert alice.get("facts").status_code == 200
