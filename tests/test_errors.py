"""Domain errors raised by services reach API clients in the one error shape, with their kind's status."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.test import APIClient
from rest_framework.views import APIView

from conversations.services import subject_get_or_create, subject_set_paused
from facts.models import Conflict
from memory_site.errors import DomainError, InvalidInput, NotFound, OverLimit, StateConflict
from tests.conftest import Persona


class _TooMany(OverLimit):
    code = "too_many_facts"
    message = "Over the limit of facts."


RAISED: dict[str, DomainError] = {
    "invalid": InvalidInput("Bad input.", details={"field": "x"}),
    "missing": NotFound(),
    "conflict": StateConflict(code="busy"),
    "over": _TooMany(details={"limit": 3}),
    "base": DomainError("Plain."),
}


class _RaisingApi(APIView):
    authentication_classes: list = []
    permission_classes: list = []

    def get(self, request: Request, name: str) -> Response:
        raise RAISED[name]


urlpatterns = [path("raise/<str:name>", _RaisingApi.as_view())]


@override_settings(ROOT_URLCONF=__name__)
@pytest.mark.parametrize(
    ("name", "status", "body"),
    [
        ("invalid", 400, {"code": "invalid", "message": "Bad input.", "details": {"field": "x"}}),
        ("missing", 404, {"code": "not_found", "message": "Not found.", "details": {}}),
        ("conflict", 409, {"code": "busy", "message": "The request conflicts with the current state.", "details": {}}),
        ("over", 413, {"code": "too_many_facts", "message": "Over the limit of facts.", "details": {"limit": 3}}),
        ("base", 400, {"code": "invalid", "message": "Plain.", "details": {}}),
    ],
)
def test_each_kind_of_domain_error_has_its_status_and_the_error_shape(name: str, status: int, body: dict) -> None:
    response = APIClient().get(f"/raise/{name}")
    assert response.status_code == status
    assert response.json() == {"error": body}


def _open_conflict(persona: Persona) -> Conflict:
    persona.post("facts", {"text": "I don't like coffee."})
    persona.post("facts", {"text": "I love coffee."})
    return Conflict.objects.get(state="open")


@pytest.mark.django_db
def test_conflict_resolve_errors_are_unchanged_for_clients(alice: Persona) -> None:
    conflict = _open_conflict(alice)
    url = f"/api/v1/conflicts/{conflict.pk}/resolve"
    wrong = alice.client.post(url, {"keep": 999999}, format="json")
    assert wrong.status_code == 400
    assert wrong.content == (
        b'{"error":{"code":"invalid","message":"keep must be a fact id of this conflict, \'both\' or \'neither\'.",'
        b'"details":{"keep":999999}}}'
    )
    assert alice.client.post(url, {"keep": "both"}, format="json").status_code == 200
    again = alice.client.post(url, {"keep": "neither"}, format="json")
    assert again.status_code == 409
    assert again.content == (
        b'{"error":{"code":"conflict","message":"This conflict is already resolved.","details":{"state":"resolved"}}}'
    )
    assert Conflict.objects.get(pk=conflict.pk).resolution == "keep:both"  # the refused requests changed nothing


@pytest.mark.django_db
def test_a_fact_for_a_paused_subject_is_409_memory_paused(alice: Persona) -> None:
    subject_set_paused(subject=subject_get_or_create(tenant=alice.tenant, external_id="alice"), paused=True)
    response = alice.post("facts", {"text": "I live in Lisbon."})
    assert response.status_code == 409
    assert (
        response.content
        == b'{"error":{"code":"memory_paused","message":"Memory is paused for this user.","details":{}}}'
    )
