"""The messages and jobs endpoints: idempotency, validation, size limits, paused subjects, isolation."""

from __future__ import annotations

import pytest

from conversations.models import Message

pytestmark = pytest.mark.django_db


def test_ingest_returns_202_with_job(alice) -> None:  # type: ignore[no-untyped-def]
    response = alice.ingest("I live in Beijing and work as a nurse.", wait=False)
    assert response.status_code == 202
    body = response.json()
    assert len(body["messages"]) == 1 and body["job_id"]
    assert Message.objects.get(pk=body["messages"][0]["id"]).extraction_state == "pending"


def test_resending_external_id_stores_nothing_twice(alice) -> None:  # type: ignore[no-untyped-def]
    payload = {
        "session_id": "s1",
        "messages": [{"role": "user", "content": "I have a corgi named 豆包.", "external_id": "m-1"}],
    }
    first = alice.post("messages?wait=true", payload).json()
    second = alice.post("messages?wait=true", payload).json()
    assert first["messages"][0]["id"] == second["messages"][0]["id"]
    assert Message.objects.filter(subject__external_id="alice").count() == 1
    assert len(first["facts"]) >= 1
    assert [f["id"] for f in second["facts"]] == [f["id"] for f in first["facts"]]
    assert all(f["mention_count"] == 1 for f in second["facts"])


def test_duplicate_external_id_inside_one_batch(alice) -> None:  # type: ignore[no-untyped-def]
    msg = {"role": "user", "content": "I work at Acme as an engineer.", "external_id": "dup"}
    body = alice.post("messages", {"messages": [msg, msg]}).json()
    assert body["messages"][0]["id"] == body["messages"][1]["id"]
    assert Message.objects.filter(external_id="dup").count() == 1


def test_wait_returns_facts_with_sources(alice) -> None:  # type: ignore[no-untyped-def]
    response = alice.ingest("I am allergic to peanuts.", external_id="turn-7")
    assert response.status_code == 200
    facts = response.json()["facts"]
    assert any("peanut" in f["text"] for f in facts)
    assert facts[0]["sources"][0]["external_id"] == "turn-7"


def test_client_created_at_is_kept(alice) -> None:  # type: ignore[no-untyped-def]
    alice.ingest("We adopted a cat called Luna.", created_at="2023-05-08T13:56:00Z")
    message = Message.objects.get(subject__external_id="alice")
    assert message.created_at.isoformat().startswith("2023-05-08T13:56")


@pytest.mark.parametrize(
    "payload, field",
    [
        ({"messages": []}, "messages"),
        ({"messages": [{"role": "robot", "content": "hi"}]}, "role"),
        ({"messages": [{"role": "user", "content": ""}]}, "content"),
        ({"messages": [{"role": "user", "content": "x", "created_at": "yesterday-ish"}]}, "created_at"),
        ({}, "messages"),
    ],
)
def test_bad_input_is_400_and_stores_nothing(alice, payload, field) -> None:  # type: ignore[no-untyped-def]
    response = alice.post("messages", payload)
    assert response.status_code == 400
    body = response.json()["error"]
    assert body["code"] == "invalid"
    assert field in str(body["details"])
    assert Message.objects.count() == 0


def test_oversized_message_is_413(alice, settings) -> None:  # type: ignore[no-untyped-def]
    settings.MAX_MESSAGE_CHARS = 100
    response = alice.ingest("x" * 101, wait=False)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"
    assert Message.objects.count() == 0


def test_paused_subject_stores_messages_but_no_facts(alice) -> None:  # type: ignore[no-untyped-def]
    from conversations.models import Subject

    alice.ingest("Hello there, nice weather today.")
    Subject.objects.filter(external_id="alice").update(memory_paused=True)
    body = alice.ingest("I live in Beijing and I have two cats.").json()
    assert body["facts"] == []
    assert Message.objects.get(pk=body["messages"][0]["id"]).extraction_state == "skipped"


def test_paused_subject_gets_no_summaries(alice) -> None:  # type: ignore[no-untyped-def]
    from conversations.models import Session, Subject, Summary
    from conversations.summarization.services import session_summarize

    alice.ingest("I moved to Hangzhou last year.")
    Subject.objects.filter(external_id="alice").update(memory_paused=True)
    alice.ingest(*[f"Turn {i}: my order A{i}00 for Acme shoes arrived late." for i in range(16)])
    session = Session.objects.get(subject__external_id="alice")
    assert session_summarize(session_id=session.pk).mid_created == 0
    assert Summary.objects.count() == 0
    Subject.objects.filter(external_id="alice").update(memory_paused=False)
    assert session_summarize(session_id=session.pk).mid_created > 0


def test_messages_and_jobs_need_a_valid_key(alice, anon_client) -> None:  # type: ignore[no-untyped-def]
    job_id = alice.ingest("I moved to Shanghai last year.", wait=False).json()["job_id"]
    payload = {"messages": [{"role": "user", "content": "I live in Rome."}]}
    assert anon_client.post("/api/v1/users/alice/messages", payload, format="json").status_code == 401
    assert anon_client.get(f"/api/v1/jobs/{job_id}").status_code == 401
    anon_client.credentials(HTTP_AUTHORIZATION="Bearer ms_not-a-real-key")
    assert anon_client.post("/api/v1/users/alice/messages", payload, format="json").status_code == 401
    assert anon_client.get(f"/api/v1/jobs/{job_id}").status_code == 401
    assert Message.objects.count() == 1


def test_a_job_is_read_only_inside_its_tenant(alice, bob, carol) -> None:  # type: ignore[no-untyped-def]
    job_id = alice.ingest("I moved to Shanghai last year.").json()["job_id"]
    mine = alice.client.get(f"/api/v1/jobs/{job_id}").json()
    assert mine["state"] == "done" and any("Shanghai" in f["text"] for f in mine["facts"])
    assert bob.client.get(f"/api/v1/jobs/{job_id}").json() == mine  # a key of tenant A, like alice's
    response = carol.client.get(f"/api/v1/jobs/{job_id}")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_ingest_under_another_user_touches_only_that_user(alice, bob, carol) -> None:  # type: ignore[no-untyped-def]
    mine = alice.ingest("I have a corgi named 豆包.", external_id="m-1").json()
    theirs = [
        persona.post(
            "messages?wait=true",
            {
                "session_id": "s1",
                "messages": [{"role": "user", "content": "I have a cat named Tom.", "external_id": "m-1"}],
            },
        ).json()
        for persona in (bob, carol)
    ]
    ids = {mine["messages"][0]["id"]} | {body["messages"][0]["id"] for body in theirs}
    assert len(ids) == 3  # the same external id under another user (or tenant) is another message
    assert Message.objects.filter(subject__external_id="alice").count() == 1
    alice_fact_ids = {f["id"] for f in mine["facts"]}
    for body in theirs:
        assert body["facts"] and not alice_fact_ids & {f["id"] for f in body["facts"]}
        assert all("豆包" not in f["text"] for f in body["facts"])


def test_schema_documents_messages_and_jobs_with_the_fact_component(anon_client) -> None:  # type: ignore[no-untyped-def]
    schema = anon_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    components = schema["components"]["schemas"]
    ingest = schema["paths"]["/api/v1/users/{user}/messages"]["post"]
    job = schema["paths"]["/api/v1/jobs/{job_id}"]["get"]
    assert (ingest["operationId"], job["operationId"]) == ("messages_ingest", "job_detail")
    for operation, status in ((ingest, "200"), (ingest, "202"), (job, "200")):
        ref = operation["responses"][status]["content"]["application/json"]["schema"]["$ref"]
        facts = components[ref.rsplit("/", 1)[-1]]["properties"]["facts"]
        fact = components[facts["items"]["$ref"].rsplit("/", 1)[-1]]
        assert {"id", "text", "sources"} <= set(fact["properties"])
