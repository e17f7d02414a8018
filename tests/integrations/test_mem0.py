"""mem0's own MemoryClient (pinned mem0ai) against the live server, unchanged but for its host: every call it makes
for add, get_all, search, get, update, history, delete, delete_all, users and delete_users; tenant isolation."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

# mem0's client reports usage to its makers unless told not to (no network here), and keeps a config file.
os.environ["MEM0_TELEMETRY"] = "False"
os.environ.setdefault("MEM0_DIR", str(Path(__file__).resolve().parents[2] / "var" / "mem0"))

import httpx  # noqa: E402
import pytest  # noqa: E402
from mem0 import MemoryClient  # noqa: E402
from mem0.exceptions import MemoryNotFoundError, ValidationError  # noqa: E402

from tests.conftest import Persona, wait_until  # noqa: E402


def mem0_client(persona: Persona, live_server: Any) -> MemoryClient:
    return MemoryClient(api_key=persona.key, host=live_server.url)


@pytest.mark.django_db(transaction=True)
def test_a_mem0_client_works_by_changing_its_host(alice: Persona, live_server: Any) -> None:
    mem0 = mem0_client(alice, live_server)  # its constructor pings the server with the key
    added = mem0.add("I am vegetarian.", user_id="alice", infer=False)
    assert added["status"] == "SUCCEEDED" and added["results"][0]["event"] == "ADD"
    city = mem0.add(
        [{"role": "user", "content": "User's favourite city is Lisbon."}],
        user_id="alice", infer=False, metadata={"source": "onboarding"},
    )["results"][0]  # fmt: skip
    mem0.add("用户住在北京。", filters={"user_id": "alice"}, infer=False)
    everything = mem0.get_all(filters={"user_id": "alice"})
    assert everything["count"] == 3 and {m["user_id"] for m in everything["results"]} == {"alice"}
    page = mem0.get_all(filters={"AND": [{"user_id": "alice"}, {"agent_id": "travel-bot"}]}, page=1, page_size=2)
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"] and page["previous"] is None
    found = mem0.search("Which city does the user like?", filters={"user_id": "alice"}, top_k=2)["results"]
    assert found[0]["id"] == city["id"] and found[0]["memory"] == "User's favourite city is Lisbon."
    assert isinstance(found[0]["score"], float) and len(found) <= 2
    assert mem0.search("用户住在哪里", filters={"user_id": "alice"})["results"][0]["memory"] == "用户住在北京。"
    memory = mem0.get(city["id"])
    assert memory["metadata"] == {"source": "onboarding"} and memory["categories"] and memory["expiration_date"] is None
    updated = mem0.update(city["id"], text="User's favourite city is Porto.", metadata={"source": "correction"})
    assert updated["memory"] == "User's favourite city is Porto." and updated["metadata"] == {"source": "correction"}
    assert mem0.update(city["id"], expiration_date="2030-01-31")["expiration_date"] == "2030-01-31"
    history = mem0.history(city["id"])
    assert [h["event"] for h in history] == ["ADD", "UPDATE", "UPDATE"]
    assert history[1]["old_memory"] == "User's favourite city is Lisbon." and "Porto" in history[1]["new_memory"]
    # The same memory through the REST API: one store, two ways in.
    fact = alice.get(f"facts/{memory['fact_id']}").json()
    assert fact["text"] == "User's favourite city is Porto." and fact["expires_at"].startswith("2030-02-01")
    assert mem0.delete(city["id"]) == {"message": "Memory deleted successfully!"}
    with pytest.raises(MemoryNotFoundError):
        mem0.get(city["id"])
    assert [h["event"] for h in mem0.history(city["id"])][-1] == "DELETE"  # a forgotten memory's history, no text
    assert mem0.delete_all(user_id="alice")["message"]
    assert mem0.get_all(filters={"user_id": "alice"})["count"] == 0
    assert [u["name"] for u in mem0.users()["results"]] == ["alice"]
    mem0.delete_users(user_id="alice")  # erasure, as DELETE /api/v1/users/alice
    assert alice.get("facts").status_code == 404 and mem0.users()["results"] == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("celery_worker_process")
def test_a_mem0_add_is_distilled_by_the_worker_and_its_event_followed(alice: Persona, live_server: Any) -> None:
    mem0 = mem0_client(alice, live_server)
    queued = mem0.add(
        [{"role": "user", "content": "I moved to Austin last month."}, {"role": "assistant", "content": "Noted!"}],
        user_id="alice", metadata={"channel": "chat"},
    )  # fmt: skip
    assert queued["status"] == "PENDING" and queued["event_id"]

    def event() -> dict[str, Any]:
        return dict(mem0.client.get(f"/v1/event/{queued['event_id']}/").json())  # what mem0 documents to poll

    assert wait_until(lambda: event()["status"] == "SUCCEEDED")
    memories = [m["memory"] for m in mem0.get_all(filters={"user_id": "alice"})["results"]]
    assert any("Austin" in m for m in memories), memories
    assert [m["memory"] for m in event()["results"]] == memories


@pytest.mark.django_db(transaction=True)
def test_mem0_paths_keep_tenants_apart_and_want_a_key(alice: Persona, carol: Persona, live_server: Any) -> None:
    mine = mem0_client(alice, live_server).add("User's PIN hint is the cat's birthday.", user_id="alice", infer=False)
    memory_id = mine["results"][0]["id"]
    theirs = mem0_client(carol, live_server)
    for call in (
        lambda: theirs.get(memory_id),
        lambda: theirs.update(memory_id, text="hacked"),
        lambda: theirs.history(memory_id),
        lambda: theirs.delete(memory_id),
        lambda: theirs.delete_users(user_id="alice"),
    ):
        with pytest.raises(MemoryNotFoundError):
            call()
    assert theirs.search("PIN", filters={"user_id": "alice"}) == {"results": []}
    assert theirs.get_all(filters={"user_id": "alice"})["count"] == 0
    theirs.delete_all(user_id="alice")
    assert alice.get("facts").json()["results"][0]["text"] == "User's PIN hint is the cat's birthday."  # untouched
    with pytest.raises(ValidationError):
        theirs.search("PIN", filters={"OR": [{"user_id": "alice"}, {"user_id": "bob"}]})
    with pytest.raises(ValueError, match="Invalid API key"):
        MemoryClient(api_key="ms_not-a-key", host=live_server.url)
    paths = [
        ("GET", "/v1/ping/"), ("POST", "/v3/memories/add/"), ("POST", "/v3/memories/"),
        ("POST", "/v3/memories/search/"), ("GET", f"/v1/memories/{memory_id}/"), ("PUT", f"/v1/memories/{memory_id}/"),
        ("DELETE", f"/v1/memories/{memory_id}/"), ("DELETE", "/v1/memories/?user_id=alice"),
        ("GET", f"/v1/memories/{memory_id}/history/"), ("GET", "/v1/entities/"),
        ("DELETE", "/v2/entities/user/alice/"), ("GET", "/v1/event/00000000-0000-0000-0000-000000000000/"),
    ]  # fmt: skip
    for method, path in paths:
        response = httpx.request(method, live_server.url + path, json={} if method in {"POST", "PUT"} else None)
        assert response.status_code == 401, (method, path, response.status_code)
    assert alice.get(f"facts/{mine['results'][0]['id']}").status_code == 404  # a mem0 uuid is not a REST id...
    assert alice.get("facts").json()["results"][0]["uid"] == memory_id  # ...the fact's uid is
