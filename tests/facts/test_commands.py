"""The commands the portal and the admin call beside the API: archive, restore, pin and unpin, each with history."""

from __future__ import annotations

import numpy as np
import pytest
from django.db import connection

from conversations.models import Subject
from conversations.services import subject_get_or_create
from facts import services
from facts.embedding import embed_texts
from facts.exceptions import FactNotFound
from facts.models import Actor, Fact, FactHistory
from tests.conftest import Persona

FILLER = [
    "I work as a nurse at the city hospital.",
    "My favourite colour is green.",
    "I moved to Shanghai in 2019.",
    "My sister lives in Hangzhou.",
    "I play tennis every Saturday morning.",
]
REX = "I have a dog named Rex."
PARAPHRASE = "Tell me about my puppy"  # shares no word with REX: only the vector finds it


def _subject_with_facts(persona: Persona) -> tuple[Subject, Fact]:
    subject = subject_get_or_create(tenant=persona.tenant, external_id=persona.name)
    for text in FILLER:
        services.fact_create(subject=subject, text=text, actor=Actor.OPERATOR)
    fact = services.fact_create(subject=subject, text=REX, actor=Actor.OPERATOR).fact
    return subject, fact


def _vector_columns(fact: Fact) -> tuple[bool, bool]:
    """Whether the fact's row holds an embedding, and its binary-quantised copy (a generated column)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT embedding IS NOT NULL, embedding_bits IS NOT NULL FROM facts_fact WHERE id = %s", [fact.pk]
        )
        has_vector, has_bits = cursor.fetchone()
    return bool(has_vector), bool(has_bits)


def _events(fact: Fact) -> list[tuple[str, str, str]]:
    return [(h.event, h.actor, h.actor_id) for h in fact.history.order_by("created_at", "id")]


def _results(response: object) -> list[dict]:
    assert response.status_code == 200, response.content  # type: ignore[attr-defined]
    return response.json()["results"]  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_an_archived_fact_is_found_only_by_keyword_when_asked(alice: Persona) -> None:
    _, fact = _subject_with_facts(alice)
    assert _vector_columns(fact) == (True, True)
    assert _results(alice.search(PARAPHRASE))[0]["text"] == REX

    archived = services.fact_archive(fact=fact, actor=Actor.OPERATOR, actor_id="op:7", reason="stale")
    assert archived.tier == "archived" and archived.embedding is None and archived.embedding_model == ""
    assert _vector_columns(fact) == (False, False)  # the vector and its quantised copy are gone
    assert REX not in [r["text"] for r in _results(alice.search(PARAPHRASE))]
    assert REX not in [r["text"] for r in _results(alice.search("dog named Rex"))]
    paraphrased = _results(alice.search(PARAPHRASE, include_archived=True))  # the entity (a pet) may find it
    assert all("vector" not in r["matched_by"] for r in paraphrased if r["text"] == REX)
    found = _results(alice.search("dog named Rex", include_archived=True))
    assert found[0]["text"] == REX and "vector" not in found[0]["matched_by"]
    assert _events(fact) == [("created", "operator", ""), ("archived", "operator", "op:7")]
    assert fact.history.get(event="archived").data == {"reason": "stale"}

    again = services.fact_archive(fact=fact, actor=Actor.OPERATOR)  # already archived: nothing changes
    assert again.tier == "archived" and len(_events(fact)) == 2


@pytest.mark.django_db
def test_restore_brings_the_vector_back(alice: Persona) -> None:
    _, fact = _subject_with_facts(alice)
    services.fact_archive(fact=fact, actor=Actor.OPERATOR)
    restored = services.fact_restore(fact=fact, actor=Actor.END_USER, actor_id="portal:alice")
    assert restored.tier == "active" and restored.embedding_model
    assert np.allclose(np.asarray(restored.embedding), embed_texts([REX])[0], atol=1e-5)
    assert _vector_columns(fact) == (True, True)
    top = _results(alice.search(PARAPHRASE))[0]
    assert top["text"] == REX and "vector" in top["matched_by"]
    assert [e[0] for e in _events(fact)] == ["created", "archived", "restored"]
    assert _events(fact)[-1] == ("restored", "end_user", "portal:alice")

    services.fact_restore(fact=restored, actor=Actor.OPERATOR)  # already active: nothing changes
    assert len(_events(fact)) == 3


@pytest.mark.django_db
def test_pin_and_unpin_are_in_the_history(alice: Persona) -> None:
    _, fact = _subject_with_facts(alice)
    pinned = services.fact_pin(fact=fact, actor=Actor.OPERATOR, actor_id="op:7")
    assert pinned.pinned and pinned.importance >= 0.9
    unpinned = services.fact_unpin(fact=pinned, actor=Actor.OPERATOR, actor_id="op:7")
    assert not unpinned.pinned and not Fact.objects.get(pk=fact.pk).pinned
    history = list(fact.history.order_by("created_at", "id"))
    assert [h.event for h in history] == ["created", "pinned", "corrected"]
    assert history[-1].data == {"changed": {"pinned": False}}


@pytest.mark.django_db
def test_a_command_on_a_forgotten_fact_is_not_found(alice: Persona) -> None:
    _, fact = _subject_with_facts(alice)
    services.fact_delete(fact=fact, actor=Actor.END_USER)
    with pytest.raises(FactNotFound):
        services.fact_archive(fact=fact, actor=Actor.OPERATOR)
    with pytest.raises(FactNotFound):
        services.fact_correct(fact=fact, actor=Actor.OPERATOR, text="I have a dog named Max.")
    services.fact_delete(fact=fact, actor=Actor.END_USER)  # forgetting twice: nothing more to do
    assert not Fact.objects.filter(pk=fact.pk).exists()
    assert FactHistory.objects.filter(fact_uid=fact.uid, event="forgotten").count() == 1
