"""The facts admin writes through the services: edit corrects, delete forgets, each action does what it says and
leaves history; the conflict review queue settles a conflict in one click."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from facts.models import Conflict, Fact, FactHistory
from tests.conftest import Persona


@pytest.fixture
def operator(db: None, django_user_model) -> Client:  # type: ignore[no-untyped-def]
    user = django_user_model.objects.create_superuser("op", "op@example.com", "pw-long-enough-123")
    client = Client()
    client.force_login(user)
    return client


def _fact(persona: Persona, text: str) -> Fact:
    response = persona.post("facts", {"text": text})
    assert response.status_code == 201, response.content
    return Fact.objects.get(pk=response.json()["id"])


def _act(client: Client, action: str, *facts: Fact) -> list[str]:
    response = client.post(
        reverse("admin:facts_fact_changelist"), {"action": action, "_selected_action": [f.pk for f in facts]},
        follow=True,
    )  # fmt: skip
    assert response.status_code == 200
    return [str(m) for m in response.context["messages"]]


def _events(fact: Fact) -> list[tuple[str, str, str]]:
    return list(FactHistory.objects.filter(fact_uid=fact.uid).values_list("event", "actor", "actor_id"))


def test_editing_a_fact_is_a_correction_re_embedded_and_in_history(operator: Client, alice: Persona) -> None:
    fact = _fact(alice, "User lives in Chaoyang.")
    old_vector = list(fact.embedding)
    page = operator.get(reverse("admin:facts_fact_change", args=[fact.pk]))
    assert page.status_code == 200 and b'name="embedding"' not in page.content
    response = operator.post(
        reverse("admin:facts_fact_change", args=[fact.pk]),
        {"text": "User lives in Haidian.", "type": fact.type, "metadata": "{}", "expires_at_0": "", "expires_at_1": ""},
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    fact.refresh_from_db()
    assert fact.text == "User lives in Haidian." and list(fact.embedding) != old_vector
    corrected = FactHistory.objects.get(fact_uid=fact.uid, event="corrected")
    assert (corrected.actor, corrected.actor_id) == ("operator", "op")
    assert (corrected.before_text, corrected.after_text) == ("User lives in Chaoyang.", "User lives in Haidian.")
    assert alice.search("Haidian").json()["results"][0]["id"] == fact.pk


def test_adding_a_fact_in_admin_goes_through_fact_create(operator: Client, alice: Persona) -> None:
    alice.post("facts", {"text": "User likes tea."})
    subject_id = Fact.objects.get().subject_id
    response = operator.post(
        reverse("admin:facts_fact_add"), {"subject": subject_id, "text": "用户对花生过敏。", "type": "health"}
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    fact = Fact.objects.get(text="用户对花生过敏。")
    assert fact.embedding is not None and fact.tier == "active" and fact.type == "health"
    assert _events(fact) == [("created", "operator", "op")]


def test_deleting_a_fact_in_admin_forgets_it_and_leaves_no_text_in_history(operator: Client, alice: Persona) -> None:
    fact = _fact(alice, "User has a secret crush on Dan.")
    operator.post(
        reverse("admin:facts_fact_change", args=[fact.pk]),
        {"text": "User has a secret crush on Daniel.", "type": fact.type, "metadata": "{}"},
    )
    response = operator.post(reverse("admin:facts_fact_delete", args=[fact.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not Fact.objects.filter(pk=fact.pk).exists()
    rows = FactHistory.objects.filter(fact_uid=fact.uid)
    assert "forgotten" in {r.event for r in rows}
    for row in rows:
        assert "crush" not in row.before_text + row.after_text + str(row.data)
    assert alice.search("crush on Dan").json()["results"] == []
    other = _fact(alice, "User's bank PIN hint is 1234.")
    _act(operator, "delete_selected", other)
    operator.post(
        reverse("admin:facts_fact_changelist"),
        {"action": "delete_selected", "_selected_action": [other.pk], "post": "yes"},
    )
    assert not Fact.objects.filter(pk=other.pk).exists()
    assert all("PIN" not in r.before_text + r.after_text for r in FactHistory.objects.filter(fact_uid=other.uid))


def test_archive_restore_pin_unpin_and_reembed_actions(operator: Client, alice: Persona) -> None:
    fact = _fact(alice, "User prefers window seats.")
    assert "Archived 1 fact(s)." in _act(operator, "archive", fact)
    fact.refresh_from_db()
    assert fact.tier == "archived" and fact.embedding is None
    assert "Restored 1 fact(s)." in _act(operator, "restore", fact)
    fact.refresh_from_db()
    assert fact.tier == "active" and fact.embedding is not None
    _act(operator, "pin", fact)
    fact.refresh_from_db()
    assert fact.pinned
    _act(operator, "unpin", fact)
    fact.refresh_from_db()
    assert not fact.pinned
    Fact.objects.filter(pk=fact.pk).update(embedding=None, embedding_model="")
    assert "Re-embedded 1 fact(s)." in _act(operator, "reembed", fact)
    fact.refresh_from_db()
    assert fact.embedding is not None and fact.embedding_model
    events = [e for e, _, _ in _events(fact)]
    assert events == ["created", "archived", "restored", "pinned", "corrected", "updated"]
    assert all(actor == "operator" for _, actor, _ in _events(fact)[1:])


def test_merging_selected_facts(operator: Client, alice: Persona, bob: Persona) -> None:
    first = _fact(alice, "User enjoys hiking in the Alps.")
    second = _fact(alice, "User likes mountain hiking trips.")
    bobs = _fact(bob, "User enjoys hiking.")
    refused = _act(operator, "merge", first, bobs)
    assert "only facts of the same user can be merged" in refused
    assert Fact.objects.get(pk=bobs.pk).status == "active"
    said = _act(operator, "merge", first, second)
    assert any(m.startswith("Merged 2 facts into") for m in said)
    first.refresh_from_db()
    second.refresh_from_db()
    survivor, merged = (first, second) if first.status == "active" else (second, first)
    assert merged.status == "superseded" and survivor.mention_count == 2
    assert FactHistory.objects.get(fact_uid=survivor.uid, event="merged").data["merged"] == [str(merged.uid)]
    assert FactHistory.objects.get(fact_uid=merged.uid, event="superseded").data["merged_into"] == str(survivor.uid)
    assert [r["id"] for r in alice.search("hiking").json()["results"]] == [survivor.pk]


def _conflict(persona: Persona) -> Conflict:
    persona.ingest("I like spicy food.", external_id="m1")
    persona.ingest("I don't like spicy food.", external_id="m2")
    return Conflict.objects.get(subject__external_id=persona.name, state="open")


def test_the_review_queue_shows_both_sides_and_settles_in_one_click(operator: Client, alice: Persona) -> None:
    conflict = _conflict(alice)
    url = reverse("admin:facts_conflict_review")
    page = operator.get(url).content.decode()
    assert f'id="conflict-{conflict.pk}"' in page
    assert conflict.fact_a.text.replace("'", "&#x27;") in page, page[page.index("conflict-card") :][:3000]  # type: ignore[union-attr]
    assert conflict.fact_b.text.replace("'", "&#x27;") in page  # type: ignore[union-attr]
    assert "I don&#x27;t like spicy food." in page and "I like spicy food." in page  # the source messages
    response = operator.post(url, {"conflict": conflict.pk, "keep": conflict.fact_b_id}, follow=True)
    assert "resolved: kept fact" in response.content.decode()
    conflict.refresh_from_db()
    assert conflict.state == "resolved" and conflict.resolved_by == "operator:op"
    assert Fact.objects.get(pk=conflict.fact_a_id).status == "superseded"
    assert Fact.objects.get(pk=conflict.fact_b_id).status == "active"
    assert FactHistory.objects.filter(fact_id=conflict.fact_b_id, event="resolved", actor="operator").exists()
    again = operator.post(url, {"conflict": conflict.pk, "keep": "both"}, follow=True).content.decode()
    assert "already resolved" in again and "Settled in the last 30 days: 1" in again
    assert "No open conflicts." in again


@pytest.mark.parametrize(("keep", "statuses"), [("both", {"active"}), ("neither", {"superseded"})])
def test_keep_both_or_neither(operator: Client, alice: Persona, keep: str, statuses: set[str]) -> None:
    conflict = _conflict(alice)
    operator.post(reverse("admin:facts_conflict_review"), {"conflict": conflict.pk, "keep": keep})
    assert Conflict.objects.get(pk=conflict.pk).resolution == f"keep:{keep}"
    assert {f.status for f in Fact.objects.filter(pk__in=[conflict.fact_a_id, conflict.fact_b_id])} == statuses
    bad = operator.post(reverse("admin:facts_conflict_review"), {"conflict": 999999, "keep": "both"})
    assert bad.status_code == 404


def test_conflict_changelist_actions_resolve(operator: Client, alice: Persona) -> None:
    conflict = _conflict(alice)
    operator.post(
        reverse("admin:facts_conflict_changelist"), {"action": "keep_both", "_selected_action": [conflict.pk]}
    )
    assert Conflict.objects.get(pk=conflict.pk).state == "resolved"
