"""Direct writes and reads of facts, history and conflicts; tenant isolation; bad input."""

from __future__ import annotations

import pytest

from facts.models import Fact, FactHistory
from tests.conftest import wait_until


def worker_idle() -> bool:
    from memory_site.celery import app

    inspect = app.control.inspect(timeout=1.0)
    active, reserved = inspect.active() or {}, inspect.reserved() or {}
    queued = 0
    if app.conf.broker_url.startswith("redis://"):
        import redis

        queued = redis.Redis.from_url(app.conf.broker_url).llen(app.conf.task_default_queue)
    return not queued and not any(active.values()) and not any(reserved.values())


@pytest.mark.django_db
def test_post_fact_creates_then_merges_then_supersedes(alice) -> None:  # type: ignore[no-untyped-def]
    created = alice.post("facts", {"text": "User lives in 朝阳区.", "type": "profile"})
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["action"] == "created" and body["extractor"] == "api" and body["predicate"] == "residence"
    merged = alice.post("facts", {"text": "User lives in 朝阳区."})
    assert merged.status_code == 201 and merged.json()["id"] == body["id"] and merged.json()["mention_count"] == 2
    moved = alice.post("facts", {"text": "User lives in 海淀区."}).json()
    assert moved["action"] == "superseded" and moved["object_value"] == "海淀区"
    assert Fact.objects.get(pk=body["id"]).status == "superseded"
    history = alice.get(f"facts/{body['id']}/history").json()["results"]
    assert [h["event"] for h in history] == ["created", "merged", "superseded"]
    assert history[0]["actor"] == "agent" and history[0]["actor_id"].startswith("api-key:ms_")
    assert history[-1]["after_text"] == "User lives in 海淀区."


@pytest.mark.django_db
def test_post_fact_in_chinese_with_fields(alice) -> None:  # type: ignore[no-untyped-def]
    response = alice.post(
        "facts",
        {
            "text": "用户对青霉素过敏。",
            "confidence": 0.99,
            "importance": 0.9,
            "entities": [{"text": "青霉素", "kind": "product"}],
            "metadata": {"source": "intake form"},
        },
    )
    assert response.status_code == 201, response.json()
    fact = response.json()
    assert fact["type"] == "health" and fact["confidence"] == 0.99 and fact["metadata"] == {"source": "intake form"}
    found = alice.search("青霉素过敏").json()["results"]
    assert found and found[0]["id"] == fact["id"]


@pytest.mark.django_db
def test_patch_is_a_correction_with_history(alice) -> None:  # type: ignore[no-untyped-def]
    fact = alice.ingest("I have a dog named Rex.").json()["facts"][0]
    response = alice.client.patch(
        f"/api/v1/users/alice/facts/{fact['id']}",
        {"text": "User has a dog named Max.", "pinned": True},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["text"] == "User has a dog named Max." and response.json()["pinned"] is True
    event = FactHistory.objects.get(fact_id=fact["id"], event="corrected")
    assert event.before_text == "User has a dog named Rex." and event.after_text == "User has a dog named Max."
    assert alice.search("Max").json()["results"][0]["id"] == fact["id"]
    empty = alice.client.patch(f"/api/v1/users/alice/facts/{fact['id']}", {}, format="json")
    assert empty.status_code == 400
    bad_type = alice.client.patch(f"/api/v1/users/alice/facts/{fact['id']}", {"type": "gossip"}, format="json")
    assert bad_type.status_code == 400 and "type" in bad_type.json()["error"]["details"]


@pytest.mark.django_db
def test_delete_forgets_the_fact_and_keeps_a_textless_event(alice) -> None:  # type: ignore[no-untyped-def]
    fact = alice.ingest("My bank PIN hint is my first cat's name, Whiskers.").json()["facts"][0]
    assert alice.client.delete(f"/api/v1/users/alice/facts/{fact['id']}").status_code == 204
    assert not Fact.objects.filter(pk=fact["id"]).exists()
    events = FactHistory.objects.filter(fact_uid=fact["uid"]).order_by("id")
    assert [e.event for e in events] == ["created", "forgotten"]
    assert not any(e.before_text or e.after_text for e in events)
    assert alice.client.delete(f"/api/v1/users/alice/facts/{fact['id']}").status_code == 404


@pytest.mark.django_db
def test_list_filters_and_cursor_pagination(alice) -> None:  # type: ignore[no-untyped-def]
    for i in range(55):
        alice.post("facts", {"text": f"User read book number {i}.", "type": "event"})
    alice.post("facts", {"text": "User is allergic to shellfish.", "type": "health"})
    first = alice.get("facts").json()
    assert len(first["results"]) == 50 and first["next_cursor"]
    second = alice.get(f"facts?cursor={first['next_cursor']}").json()
    assert len(second["results"]) == 6 and second["next_cursor"] is None
    assert not {f["id"] for f in first["results"]} & {f["id"] for f in second["results"]}
    health = alice.get("facts?type=health").json()["results"]
    assert [f["text"] for f in health] == ["User is allergic to shellfish."]
    assert [f["text"] for f in alice.get("facts?q=shellfish").json()["results"]] == ["User is allergic to shellfish."]
    assert alice.get("facts?status=active&tier=active").status_code == 200
    assert alice.get("facts?type=gossip").status_code == 400
    assert alice.get("facts?cursor=%%%").status_code == 400


@pytest.mark.django_db
def test_pages_are_newest_first_by_time_and_lose_no_fact_that_shares_its_time(alice) -> None:  # type: ignore[no-untyped-def]
    import base64
    import datetime as dt

    ids = [
        alice.post("facts", {"text": f"User planted tree number {i}.", "type": "event"}).json()["id"] for i in range(60)
    ]
    # Facts told earlier but stored later (an import, a replayed session) and many at the very same instant: the
    # order is the facts' own time, then id, and a page's end inside a run of equal times loses and repeats nothing.
    same = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)
    Fact.objects.filter(pk__in=ids[:55]).update(created_at=same)
    Fact.objects.filter(pk__in=ids[55:]).update(created_at=same - dt.timedelta(days=30))
    Fact.objects.filter(pk=ids[0]).update(created_at=same + dt.timedelta(days=1))
    seen, cursor = [], ""
    while True:
        page = alice.get("facts" + (f"?cursor={cursor}" if cursor else ""))
        assert page.status_code == 200, page.json()
        seen += [f["id"] for f in page.json()["results"]]
        cursor = page.json()["next_cursor"]
        if not cursor:
            break
    assert seen == [ids[0], *sorted(ids[1:55], reverse=True), *sorted(ids[55:], reverse=True)]
    # A cursor is only one we gave out: an id alone (this API's cursors before 2026-12-04), a time without a zone,
    # an id out of range or an overlong string is refused, and nothing is listed.
    for bad in (str(ids[10]), "2026-05-01T12:00:00|5", "2026-05-01T12:00:00+00:00|0", "x" * 200):
        encoded = base64.urlsafe_b64encode(bad.encode()).decode()
        answer = alice.get(f"facts?cursor={encoded}")
        assert answer.status_code == 400 and answer.json()["error"]["message"] == "Invalid cursor.", bad


@pytest.mark.django_db
def test_bad_input_is_400(alice) -> None:  # type: ignore[no-untyped-def]
    for body in ({}, {"text": ""}, {"text": "x" * 3000}, {"text": "ok", "confidence": 2}, {"text": "ok", "type": "x"}):
        response = alice.post("facts", body)
        assert response.status_code == 400, body
        assert set(response.json()["error"]) == {"code", "message", "details"}


@pytest.mark.django_db
def test_other_tenant_gets_404_everywhere(alice, carol) -> None:  # type: ignore[no-untyped-def]
    fact = alice.post("facts", {"text": "User lives in Paris."}).json()
    alice.post("facts", {"text": "User doesn't like coffee."})
    alice.post("facts", {"text": "User loves coffee."})
    from facts.models import Conflict

    conflict = Conflict.objects.get(state="open")
    base = f"/api/v1/users/alice/facts/{fact['id']}"
    assert carol.client.get(base).status_code == 404
    assert carol.client.patch(base, {"text": "hacked"}, format="json").status_code == 404
    assert carol.client.delete(base).status_code == 404
    assert carol.client.get(f"{base}/history").status_code == 404
    assert carol.client.get("/api/v1/users/alice/facts").status_code == 404
    assert carol.client.get("/api/v1/users/alice/conflicts").status_code == 404
    response = carol.client.post(f"/api/v1/conflicts/{conflict.pk}/resolve", {"keep": "both"}, format="json")
    assert response.status_code == 404
    assert Fact.objects.get(pk=fact["id"]).text == "User lives in Paris."
    assert Conflict.objects.get(pk=conflict.pk).state == "open"


@pytest.mark.django_db
def test_a_fact_of_alice_is_not_reachable_under_bob(alice, bob) -> None:  # type: ignore[no-untyped-def]
    fact = alice.post("facts", {"text": "User lives in Paris."}).json()
    bob.post("facts", {"text": "User lives in Rome."}, user="bob")
    for method in ("get", "delete"):
        assert getattr(bob.client, method)(f"/api/v1/users/bob/facts/{fact['id']}").status_code == 404
    assert bob.client.patch(f"/api/v1/users/bob/facts/{fact['id']}", {"text": "x"}, format="json").status_code == 404
    assert bob.client.get(f"/api/v1/users/bob/facts/{fact['id']}/history").status_code == 404
    assert Fact.objects.filter(pk=fact["id"]).exists()


@pytest.mark.django_db
def test_schema_documents_the_fact_endpoints(anon_client) -> None:  # type: ignore[no-untyped-def]
    schema = anon_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    for path in (
        "/api/v1/users/{user}/facts",
        "/api/v1/users/{user}/facts/{fact_id}",
        "/api/v1/users/{user}/facts/{fact_id}/history",
        "/api/v1/users/{user}/conflicts",
        "/api/v1/conflicts/{conflict_id}/resolve",
    ):
        assert path in schema["paths"], path


@pytest.mark.django_db(transaction=True)
@pytest.mark.celery_worker
def test_real_worker_reconciles_bilingual_turns(alice, celery_worker_process) -> None:  # type: ignore[no-untyped-def]
    first = alice.ingest("我住在朝阳区。", "Thanks!", wait=False, created_at="2023-05-08T10:00:00Z").json()
    second = alice.ingest("我搬到了海淀区。", "I'm allergic to peanuts.", wait=False, created_at="2023-06-08T10:00:00Z")
    jobs = [first["job_id"], second.json()["job_id"]]

    def done() -> bool:
        return all(alice.client.get(f"/api/v1/jobs/{job}").json()["state"] == "done" for job in jobs)

    assert wait_until(done, timeout=90)
    ids = [f["id"] for job in jobs for f in alice.client.get(f"/api/v1/jobs/{job}").json()["facts"]]
    current = {f.text: f.status for f in Fact.objects.filter(pk__in=ids)}
    assert current == {
        "用户住在朝阳区。": "superseded",
        "用户搬到了海淀区。": "active",
        "User is allergic to peanuts.": "active",
    }
    assert wait_until(worker_idle, timeout=60)  # follow-up tasks (profile, summaries) done before the db is flushed
