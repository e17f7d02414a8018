"""Merge, supersede, conflict and history, and the remember / forget commands, through ?wait=true."""

from __future__ import annotations

import pytest

from facts.models import Conflict, Fact, FactHistory


def _ingest(persona, *contents: str, when: str = "2023-05-08T10:00:00Z", **extra):  # type: ignore[no-untyped-def]
    response = persona.ingest(*contents, created_at=when, **extra)
    assert response.status_code == 200, response.json()
    return response.json()["facts"]


def _current(persona) -> list[Fact]:  # type: ignore[no-untyped-def]
    return list(Fact.objects.filter(subject__external_id=persona.name, status__in=["active", "conflicted"]))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "again"),
    [
        ("I live in Beijing.", "I live in Beijing!"),
        ("I'm allergic to peanuts.", "I'm allergic to peanuts"),
        ("我住在朝阳区。", "我住在朝阳区"),
        ("我不吃辣。", "我不吃辣"),
    ],
)
def test_the_same_fact_again_merges(alice, first: str, again: str) -> None:  # type: ignore[no-untyped-def]
    _ingest(alice, first)
    facts = _ingest(alice, again, when="2023-05-09T10:00:00Z")
    assert Fact.objects.filter(subject__external_id="alice").count() == 1
    assert facts[0]["mention_count"] == 2
    assert len(facts[0]["sources"]) == 2
    assert FactHistory.objects.filter(fact_id=facts[0]["id"], event="merged").count() == 1


@pytest.mark.django_db
def test_same_slot_in_other_words_merges(alice) -> None:  # type: ignore[no-untyped-def]
    _ingest(alice, "I live in Hangzhou.")
    _ingest(alice, "I now live in Hangzhou with my partner.", when="2023-05-10T10:00:00Z")
    residence = Fact.objects.filter(subject__external_id="alice", predicate="residence")
    assert residence.count() == 1 and residence[0].mention_count == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("old", "new", "predicate", "new_value"),
    [
        ("我住在朝阳区。", "我搬到了海淀区。", "residence", "海淀区"),
        ("我住在朝阳区。", "我上个月搬到了海淀区。", "residence", "海淀区"),  # a when-word before the verb
        ("I live in Boston.", "I moved to Seattle last month.", "residence", "Seattle"),
        ("I work at Google.", "I started a new job at Microsoft.", "employer", "Microsoft"),
        ("I'm vegetarian.", "I'm vegan.", "diet", "vegan"),
    ],
)
def test_a_new_value_for_the_same_slot_supersedes(alice, old: str, new: str, predicate: str, new_value: str) -> None:  # type: ignore[no-untyped-def]
    first = _ingest(alice, old)[0]
    second = _ingest(alice, new, when="2023-06-01T10:00:00Z")[0]
    old_fact = Fact.objects.get(pk=first["id"])
    assert old_fact.status == "superseded"
    assert old_fact.valid_to is not None and old_fact.valid_to.isoformat().startswith("2023-06-01")
    assert second["status"] == "active" and second["predicate"] == predicate and second["object_value"] == new_value
    assert FactHistory.objects.filter(fact_uid=old_fact.uid, event="superseded").exists()
    created = FactHistory.objects.get(fact_id=second["id"], event="created")
    assert created.before_text == old_fact.text and created.data["supersedes"] == str(old_fact.uid)
    # The superseded fact leaves default search; the new one is found.
    results = alice.search(new_value).json()["results"]
    assert second["id"] in [r["id"] for r in results]
    assert first["id"] not in [r["id"] for r in results]


@pytest.mark.django_db
def test_a_late_older_statement_does_not_replace_the_newer_one(alice) -> None:  # type: ignore[no-untyped-def]
    newer = _ingest(alice, "I live in Shanghai.", when="2023-06-01T10:00:00Z")[0]
    older = _ingest(alice, "I live in Nanjing.", when="2023-01-01T10:00:00Z")[0]
    assert Fact.objects.get(pk=newer["id"]).status == "active"
    assert Fact.objects.get(pk=older["id"]).status == "superseded"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("我不吃辣。", "我想尝尝辣的。"),
        ("I unsubscribed from your newsletter.", "I just ordered the premium plan."),
        ("I don't like coffee.", "I love coffee."),
    ],
)
def test_a_contradiction_opens_a_conflict(alice, first: str, second: str) -> None:  # type: ignore[no-untyped-def]
    a = _ingest(alice, first)[0]
    b = _ingest(alice, second, when="2023-05-09T10:00:00Z")[0]
    assert {Fact.objects.get(pk=a["id"]).status, b["status"]} == {"conflicted"}
    conflicts = alice.get("conflicts").json()["results"]
    assert len(conflicts) == 1 and conflicts[0]["state"] == "open" and conflicts[0]["kind"] == "contradiction"
    assert {f["id"] for f in conflicts[0]["facts"]} == {a["id"], b["id"]}
    assert FactHistory.objects.filter(event="conflicted").count() == 2


@pytest.mark.django_db
def test_resolving_a_conflict_keeps_one_fact(alice) -> None:  # type: ignore[no-untyped-def]
    a = _ingest(alice, "我不吃辣。")[0]
    b = _ingest(alice, "我想尝尝辣的。", when="2023-05-09T10:00:00Z")[0]
    conflict = Conflict.objects.get(state="open")
    response = alice.client.post(f"/api/v1/conflicts/{conflict.pk}/resolve", {"keep": b["id"]}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["state"] == "resolved"
    assert Fact.objects.get(pk=b["id"]).status == "active"
    assert Fact.objects.get(pk=a["id"]).status == "superseded"
    again = alice.client.post(f"/api/v1/conflicts/{conflict.pk}/resolve", {"keep": "both"}, format="json")
    assert again.status_code == 409


@pytest.mark.django_db
def test_resolve_both_keeps_both_and_bad_keep_is_400(alice) -> None:  # type: ignore[no-untyped-def]
    _ingest(alice, "I don't like coffee.")
    _ingest(alice, "I love coffee.", when="2023-05-09T10:00:00Z")
    conflict = Conflict.objects.get(state="open")
    bad = alice.client.post(f"/api/v1/conflicts/{conflict.pk}/resolve", {"keep": "maybe"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid"
    wrong_id = alice.client.post(f"/api/v1/conflicts/{conflict.pk}/resolve", {"keep": 999999}, format="json")
    assert wrong_id.status_code == 400
    ok = alice.client.post(f"/api/v1/conflicts/{conflict.pk}/resolve", {"keep": "both"}, format="json")
    assert ok.status_code == 200
    assert set(Fact.objects.values_list("status", flat=True)) == {"active"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("statement", "command"),
    [("My locker number is 4417.", "Remember this."), ("我的护照号码是E1234567。", "记住这个")],
)
def test_remember_this_pins_the_previous_statement(alice, statement: str, command: str) -> None:  # type: ignore[no-untyped-def]
    fact = _ingest(alice, statement)[0]
    assert not fact["pinned"]
    _ingest(alice, command, when="2023-05-08T10:01:00Z")
    pinned = Fact.objects.get(pk=fact["id"])
    assert pinned.pinned and pinned.importance >= 0.9
    assert FactHistory.objects.filter(fact=pinned, event="pinned", actor="end_user").exists()
    assert Fact.objects.filter(subject__external_id="alice").count() == 1  # the command is no fact


@pytest.mark.django_db
def test_remember_with_content_stores_it_pinned(alice) -> None:  # type: ignore[no-untyped-def]
    facts = _ingest(alice, "记住：我的生日是3月5日")
    assert len(facts) == 1 and facts[0]["pinned"] and "3月5日" in facts[0]["text"] and facts[0]["importance"] == 1.0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("statement", "command"),
    [("I have a secret crush on my coworker Dan.", "Forget that."), ("我昨天去看了心理医生。", "忘掉刚才说的")],
)
def test_forget_that_removes_the_previous_statement(alice, statement: str, command: str) -> None:  # type: ignore[no-untyped-def]
    kept = _ingest(alice, "I live in Paris.", when="2023-05-08T09:00:00Z")[0]
    fact = _ingest(alice, statement)[0]
    _ingest(alice, command, when="2023-05-08T10:01:00Z")
    assert not Fact.objects.filter(pk=fact["id"]).exists()
    assert Fact.objects.filter(pk=kept["id"]).exists()
    history = list(FactHistory.objects.filter(fact_uid=fact["uid"]).order_by("id"))
    assert [h.event for h in history] == ["created", "forgotten"]
    assert all(h.before_text == "" and h.after_text == "" for h in history)
    assert alice.get(f"facts/{fact['id']}").status_code == 404
    words = statement.split()[-1].strip(".。")
    assert all(r["id"] != fact["id"] for r in alice.search(words).json()["results"])


@pytest.mark.django_db
def test_forget_with_words_removes_the_matching_fact(alice) -> None:  # type: ignore[no-untyped-def]
    paris = _ingest(alice, "I live in Paris.", when="2023-05-08T09:00:00Z")[0]
    cat = _ingest(alice, "I have a cat named Mochi.", when="2023-05-08T09:10:00Z")[0]
    _ingest(alice, "Please forget that I live in Paris.", when="2023-05-08T10:01:00Z")
    assert not Fact.objects.filter(pk=paris["id"]).exists()
    assert Fact.objects.filter(pk=cat["id"]).exists()


@pytest.mark.django_db
def test_paused_memory_stores_nothing_derived(alice) -> None:  # type: ignore[no-untyped-def]
    from conversations.models import Subject
    from conversations.services import subject_set_paused

    _ingest(alice, "I live in Paris.")
    subject_set_paused(subject=Subject.objects.get(external_id="alice"), paused=True)
    assert _ingest(alice, "I have a dog named Rex.") == []
    assert Fact.objects.filter(subject__external_id="alice").count() == 1
