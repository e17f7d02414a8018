"""A search's query starts embedding before authentication only for an API key this process authenticated lately:
the answers are those of a search that did not start early; an unknown, malformed, revoked or throttled key starts
nothing; another tenant's key is not served. Observed through the query embeddings' public counts."""

from __future__ import annotations

from typing import Any

import pytest

from conversations.models import ApiKey
from conversations.services import api_key_revoke
from facts.middleware import search_path
from facts.retrieval import query_vector
from tests.conftest import Persona
from tests.facts.test_search import tune
from tests.facts.test_search_runtime import DOGS, SEARCHES, UNMOVED_BY_READS, _answers, _memories

pytestmark = pytest.mark.django_db(transaction=True)


def _counts() -> dict[str, int]:
    return query_vector.stats.snapshot()


def _since(before: dict[str, int]) -> dict[str, int]:
    """The query's own embeddings since `before` (not the second one an English query of a memory holding Chinese
    facts gets: test_search_across_languages.py)."""
    return {name: count - before[name] for name, count in _counts().items() if name != "cross"}


@pytest.fixture
def early(settings: Any) -> Any:
    settings.SEARCH_EMBED_IN_THREAD = True
    settings.SEARCH_EMBED_EARLY = True
    return settings


def test_a_search_whose_embedding_started_early_answers_as_one_that_did_not(alice: Persona, early: Any) -> None:
    tune(early, UNMOVED_BY_READS)  # the first round's reads, counted off the request, must not move the second's ranks
    _memories(alice)
    assert alice.search("Tell me about my puppy").status_code == 200  # this process has embedded once: warm
    early.SEARCH_EMBED_EARLY = False
    before = _counts()
    late = _answers(alice)
    assert _since(before) == {"inline": 0, "threaded": 4, "early": 0, "early_used": 0}
    early.SEARCH_EMBED_EARLY = True
    before = _counts()
    started_early = _answers(alice)
    # Every search started early; the four whose query the vector can match took theirs, the two time-only
    # queries ("what did I do recently?", "最近怎么样？") dropped it. None embedded again.
    assert _since(before) == {"inline": 0, "threaded": 0, "early": len(SEARCHES), "early_used": 4}
    assert started_early == late
    # Either dog (the Chinese one is read across the languages: test_search_across_languages.py), by the vector.
    assert started_early[0][0]["text"] in DOGS and "vector" in started_early[0][0]["matched_by"]


def test_an_unknown_or_malformed_key_never_starts_an_embedding(alice: Persona, early: Any) -> None:
    _memories(alice)
    assert alice.search("Tell me about my puppy").status_code == 200  # alice's key is known now
    body = {"query": "Tell me about my puppy"}
    before = _counts()
    for header in ["", "Bearer ms_not-a-key", "Bearer " + alice.key[:-1] + "x", "Bearer a b", "Basic " + alice.key]:
        alice.client.credentials(**({"HTTP_AUTHORIZATION": header} if header else {}))
        response = alice.client.post(alice.url("search"), body, format="json")
        assert response.status_code in (401, 403), (header, response.status_code)
    assert _since(before) == {"inline": 0, "threaded": 0, "early": 0, "early_used": 0}


def test_a_revoked_or_throttled_key_starts_nothing_before_it_is_let_in(alice: Persona, early: Any) -> None:
    _memories(alice)
    assert alice.search("Tell me about my puppy").status_code == 200
    early.API_RATE_LIMIT = "1/min"
    before = _counts()
    assert alice.search("Tell me about my puppy").status_code == 429  # started early (known key), then refused
    assert alice.search("Tell me about my puppy").status_code == 429  # forgotten: nothing started
    assert _since(before) == {"inline": 0, "threaded": 0, "early": 1, "early_used": 0}
    early.API_RATE_LIMIT = "6000/min"
    assert alice.search("Tell me about my puppy").status_code == 200  # let in again: known again
    api_key_revoke(api_key=ApiKey.objects.get(tenant=alice.tenant))
    before = _counts()
    assert alice.search("Tell me about my puppy").status_code == 401
    assert _since(before) == {"inline": 0, "threaded": 0, "early": 0, "early_used": 0}


def test_another_tenants_key_is_not_served(alice: Persona, carol: Persona, early: Any) -> None:
    _memories(alice)
    _memories(carol)
    assert carol.search("Tell me about my puppy").status_code == 200  # carol's key is known
    assert alice.search("Tell me about my puppy").status_code == 200
    before = _counts()
    response = carol.post("search", {"query": "Tell me about my puppy"}, user="alice")
    assert response.status_code == 404  # as ever: alice is not in carol's tenant
    assert _since(before) == {"inline": 0, "threaded": 0, "early": 1, "early_used": 0}
    before = _counts()
    alices, carols = (p.search("Tell me about my puppy").json()["results"] for p in (alice, carol))
    assert alices and carols and not {hit["id"] for hit in alices} & {hit["id"] for hit in carols}
    assert _since(before) == {"inline": 0, "threaded": 0, "early": 2, "early_used": 2}


def test_an_invalid_body_drops_the_started_embedding(alice: Persona, early: Any) -> None:
    _memories(alice)
    assert alice.search("Tell me about my puppy").status_code == 200
    before = _counts()
    assert alice.search("Tell me about my puppy", limit=0).status_code == 400
    assert (
        alice.client.post(alice.url("search"), '{"query": "Tell me', content_type="application/json").status_code == 400
    )
    assert _since(before) == {"inline": 0, "threaded": 0, "early": 1, "early_used": 0}


def test_the_middleware_knows_the_search_path_from_the_url_conf() -> None:
    pattern = search_path()
    assert pattern.match("/api/v1/users/alice/search") and pattern.match("/api/v1/users/张三/search")
    for other in ["/api/v1/users/alice/search/", "/api/v1/users/a/b/search", "/api/v1/users//search", "/x/search"]:
        assert pattern.match(other) is None
