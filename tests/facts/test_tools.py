"""GET /api/v1/tools: OpenAI function-calling definitions that match the REST contract."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from facts.apis.facts import FactListCreateApi
from facts.apis.search import SearchApi
from tests.conftest import Persona


def tools_by_name(persona: Persona) -> dict[str, dict[str, Any]]:
    response = persona.client.get("/api/v1/tools")
    assert response.status_code == 200, response.content
    body = response.json()
    return {tool["function"]["name"]: tool for tool in body["tools"]}


def test_tools_define_recall_remember_and_forget(alice: Persona) -> None:
    tools = tools_by_name(alice)
    assert set(tools) == {"recall", "remember", "forget"}
    for tool in tools.values():
        assert tool["type"] == "function"
        fn = tool["function"]
        assert fn["description"]
        assert fn["parameters"]["type"] == "object"
        assert set(fn["parameters"]["required"]) <= set(fn["parameters"]["properties"])


def test_tool_parameters_are_accepted_by_the_api_they_map_to(alice: Persona) -> None:
    tools = tools_by_name(alice)
    recall = set(tools["recall"]["function"]["parameters"]["properties"])
    assert recall <= set(SearchApi.InputSerializer().fields)
    remember = set(tools["remember"]["function"]["parameters"]["properties"])
    assert remember <= set(FactListCreateApi.InputSerializer().fields)
    assert tools["forget"]["function"]["parameters"]["required"] == ["fact_id"]


def test_a_tool_call_dispatched_over_http_works(alice: Persona) -> None:
    """remember -> recall -> forget, following the `http` map the endpoint returns."""
    body = alice.client.get("/api/v1/tools").json()
    http = body["http"]
    remember = http["remember"]
    response = alice.client.generic(
        remember["method"],
        remember["path"].format(user="alice"),
        data='{"text": "My cat is called Mochi.", "type": "relationship"}',
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    recall = http["recall"]
    response = alice.client.post(recall["path"].format(user="alice"), {"query": "Mochi"}, format="json")
    results = response.json()["results"]
    assert results and "Mochi" in results[0]["text"]
    forget = http["forget"]
    response = alice.client.generic(forget["method"], forget["path"].format(user="alice", fact_id=results[0]["id"]))
    assert response.status_code == 204
    response = alice.client.post(recall["path"].format(user="alice"), {"query": "Mochi"}, format="json")
    assert response.json()["results"] == []


def test_tools_need_an_api_key(anon_client: APIClient) -> None:
    assert anon_client.get("/api/v1/tools").status_code == 401
