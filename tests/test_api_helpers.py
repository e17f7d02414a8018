"""Shared API pieces: input validation with a reused serializer per thread, responses that run jobs once sent."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from rest_framework import serializers

from facts.apis.search import SearchApi
from memory_site.api import ResponseThen, _validators, validate_input


def test_each_validation_sees_only_its_own_data_on_one_thread_and_on_another() -> None:
    """The thread's serializer is reset between calls: no errors, values or defaults leak from a call before."""
    form = SearchApi.InputSerializer
    assert validate_input(form, {"query": "my dog", "limit": 3, "types": ["relationship"]})["types"] == ["relationship"]
    with pytest.raises(serializers.ValidationError) as bad:
        validate_input(form, {"query": "", "limit": 0})
    assert set(bad.value.detail) == {"query", "limit"}  # type: ignore[arg-type]
    again = validate_input(form, {"query": "我的狗"})
    assert (again["query"], again["limit"], again.get("types")) == ("我的狗", 5, None)
    with pytest.raises(serializers.ValidationError) as bad:
        validate_input(form, {"query": "x", "since": "2026-02-01T00:00:00Z", "until": "2026-01-01T00:00:00Z"})
    assert set(bad.value.detail) == {"since"}  # type: ignore[arg-type]

    other: dict[str, Any] = {}

    def on_another_thread() -> None:
        other["data"] = validate_input(form, {"query": "cat", "limit": 7})

    thread = threading.Thread(target=on_another_thread)
    thread.start()
    thread.join()
    assert (other["data"]["query"], other["data"]["limit"]) == ("cat", 7)
    assert validate_input(form, {"query": "dog"})["limit"] == 5
    with pytest.raises(serializers.ValidationError):
        validate_input(form, {"query": "我的秘密", "limit": 0})
    kept = _validators.kept[form]  # nothing of the last request is left in it
    assert not hasattr(kept, "initial_data") and not {"_validated_data", "_errors", "_data"} & set(vars(kept))


@pytest.mark.django_db  # closing a response ends the request: Django then checks its database connections
def test_a_response_runs_its_jobs_when_closed_and_a_failing_job_stops_none() -> None:
    ran: list[str] = []

    def failing() -> None:
        ran.append("failing")
        raise RuntimeError("broker gone")

    response = ResponseThen({"ok": True}, then=[failing, lambda: ran.append("next")])
    assert ran == []
    response.close()
    assert ran == ["failing", "next"]
    response.close()  # closed again (a server may): the jobs ran once
    assert ran == ["failing", "next"]
