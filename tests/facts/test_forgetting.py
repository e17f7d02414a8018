"""What a subject forgot never comes back: the forgotten set (keyed fingerprints, no text) and the pipeline."""

from __future__ import annotations

import pytest

from facts.fingerprints import subject_key, text_fingerprint
from facts.models import Fact, FactHistory, ForgottenFingerprint
from tests.conftest import Persona


def _facts(persona: Persona, text: str, external_id: str, user: str | None = None) -> list[dict]:
    response = persona.post(
        "messages?wait=true",
        {"session_id": "s1", "messages": [{"role": "user", "content": text, "external_id": external_id}]},
        user=user,
    )
    assert response.status_code == 200, response.content
    return response.json()["facts"]


@pytest.mark.django_db
def test_a_forgotten_fact_is_not_learned_again_from_the_same_words(alice: Persona) -> None:
    fact = _facts(alice, "I have a secret crush on my coworker Dan.", "m1")[0]
    assert alice.client.delete(f"/api/v1/users/alice/facts/{fact['id']}").status_code == 204
    assert _facts(alice, "I have a secret crush on my coworker Dan.", "m2") == []
    assert not Fact.objects.filter(text=fact["text"]).exists()
    assert _facts(alice, "I have a dog named Rex.", "m3")  # anything else is still learned
    stored = ForgottenFingerprint.objects.get()
    assert len(stored.fingerprint) == 64 and "Dan" not in stored.fingerprint and "crush" not in stored.subject_key
    key = subject_key(tenant_id=alice.tenant.pk, external_id="alice")
    assert stored.fingerprint == text_fingerprint(key=key, text=" " + fact["text"].upper().rstrip(".") + " !")


@pytest.mark.django_db
def test_forget_that_in_a_message_also_keeps_it_forgotten(alice: Persona) -> None:
    fact = _facts(alice, "I have a secret crush on my coworker Dan.", "m1")[0]
    _facts(alice, "Forget that.", "m2")
    assert not Fact.objects.filter(pk=fact["id"]).exists()
    assert _facts(alice, "I have a secret crush on my coworker Dan.", "m3") == []


@pytest.mark.django_db
def test_fingerprints_belong_to_one_subject(alice: Persona, bob: Persona) -> None:
    fact = _facts(alice, "I have a secret crush on my coworker Dan.", "m1")[0]
    alice.client.delete(f"/api/v1/users/alice/facts/{fact['id']}")
    assert _facts(bob, "I have a secret crush on my coworker Dan.", "b1", user="bob")  # bob did not forget it
    alice_key = subject_key(tenant_id=alice.tenant.pk, external_id="alice")
    bob_key = subject_key(tenant_id=alice.tenant.pk, external_id="bob")
    assert text_fingerprint(key=alice_key, text=fact["text"]) != text_fingerprint(key=bob_key, text=fact["text"])


@pytest.mark.django_db
def test_forgetting_an_old_value_blanks_it_in_the_new_values_history(alice: Persona) -> None:
    old = alice.post("facts", {"text": "User lives in 朝阳区."}).json()
    new = alice.post("facts", {"text": "User lives in 海淀区."}).json()
    assert new["action"] == "superseded"
    created = FactHistory.objects.get(fact_uid=new["uid"], event="created")
    assert created.before_text == "User lives in 朝阳区."
    alice.client.delete(f"/api/v1/users/alice/facts/{old['id']}")
    created.refresh_from_db()
    assert created.before_text == "" and created.after_text == "User lives in 海淀区."
    assert not FactHistory.objects.filter(subject__external_id="alice", after_text__contains="朝阳区").exists()
    assert Fact.objects.get(pk=new["id"]).text == "User lives in 海淀区."
