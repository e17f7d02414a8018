"""POST /api/v1/users/{user}/feedback: ratings of recalled facts feed the value score and the contribution rate."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from facts.models import Fact
from policies.feedback import contribution_rate
from policies.models import Feedback
from tests.conftest import Persona


def make_fact(persona: Persona, text: str, user: str | None = None) -> int:
    response = persona.post("facts", {"text": text}, user=user)
    assert response.status_code == 201, response.content
    return int(response.json()["id"])


def rate(persona: Persona, body: dict[str, Any], user: str | None = None) -> Any:
    return persona.post("feedback", body, user=user)


def test_ratings_are_stored_and_counted_on_the_facts(alice: Persona) -> None:
    helped = make_fact(alice, "I am allergic to peanuts.")
    useless = make_fact(alice, "我喜欢喝美式咖啡。")
    assert (
        rate(alice, {"fact_ids": [helped], "useful": True, "call_type": "context", "call_id": "ctx-1"}).status_code
        == 204
    )
    assert rate(alice, {"helped": [helped], "not_helped": [useless]}).status_code == 204
    assert Fact.objects.get(pk=helped).useful_count == 2
    assert Fact.objects.get(pk=useless).not_useful_count == 1
    rows = Feedback.objects.filter(subject__external_id="alice").order_by("pk")
    assert [(r.call_type, r.call_id, r.fact_id, r.useful) for r in rows] == [
        ("context", "ctx-1", helped, True), ("search", "", helped, True), ("search", "", useless, False),
    ]  # fmt: skip
    assert contribution_rate(tenant_id=alice.tenant.pk) == {"useful": 2, "rated": 3, "rate": 0.6667}


def test_unknown_ids_and_another_users_facts_are_404_and_nothing_is_written(alice: Persona, bob: Persona) -> None:
    mine = make_fact(alice, "I am allergic to peanuts.")
    bobs = make_fact(bob, "I live in Lyon.")
    for body in ({"fact_ids": [mine, bobs], "useful": True}, {"helped": [mine], "not_helped": [999_999_999]}):
        response = rate(alice, body)
        assert response.status_code == 404, response.content
        assert response.json()["error"]["code"] == "not_found"
    assert not Feedback.objects.exists()
    assert Fact.objects.get(pk=mine).useful_count == 0 and Fact.objects.get(pk=bobs).useful_count == 0


def test_another_tenant_gets_404_and_no_key_401(alice: Persona, carol: Persona) -> None:
    mine = make_fact(alice, "I am allergic to peanuts.")
    assert rate(carol, {"fact_ids": [mine], "useful": True}, user="alice").status_code == 404
    make_fact(carol, "I live in Lyon.", user="alice")  # carol's own "alice": another subject
    assert rate(carol, {"fact_ids": [mine], "useful": True}, user="alice").status_code == 404
    anon = APIClient().post("/api/v1/users/alice/feedback", {"fact_ids": [mine], "useful": True}, format="json")
    assert anon.status_code == 401
    assert not Feedback.objects.exists()


def test_bad_input_is_400_with_the_error_shape(alice: Persona) -> None:
    mine = make_fact(alice, "I am allergic to peanuts.")
    for body in (
        {},
        {"fact_ids": [mine]},  # useful missing
        {"fact_ids": ["x"], "useful": True},
        {"fact_ids": [mine], "useful": True, "call_type": "export"},
        {"helped": [mine], "not_helped": [mine]},
        {"fact_ids": list(range(1, 60)), "useful": False},
    ):
        response = rate(alice, body)
        assert response.status_code == 400, (body, response.content)
        assert set(response.json()["error"]) >= {"code", "message", "details"}
    assert not Feedback.objects.exists()
