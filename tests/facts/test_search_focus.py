"""The query's vector without the names it gives (facts/retrieval/focus.py): "What sport is Noor into?" finds
Noor's turn about tennis, not the turns that only say her name; a query naming nobody keeps its vector."""

from __future__ import annotations

import math
from typing import Any

import pytest

from conversations.models import Message
from facts.embedding import embed_texts
from facts.retrieval.answerable import Vocabulary
from facts.retrieval.focus import common_names, focused, whole_names
from tests.conftest import Persona
from tests.facts.test_search import texts, tune
from tests.facts.test_search_category import say

pytestmark = pytest.mark.django_db

# The other speaker's turns say Noor's name and little else; one of Noor's own turns answers, in other words.
IRIS = [
    "Hey Noor! Long time no talk, how are you doing?",
    "Noor, that is so kind of you, thank you so much Noor!",
    "Good morning Noor! Hope your week is going well.",
    "Noor, I miss our chats, let us catch up soon.",
]
NOOR = [
    "Hi Iris! Lovely to hear from you, Noor here.",
    "I have been playing tennis at the club every Saturday morning.",
    "The plumber fixed the kitchen sink at last.",
]
ANSWER = NOOR[1]


def _conversation(alice: Persona) -> None:
    turns = [("s1", IRIS[0]), ("s1", NOOR[0]), ("s1", IRIS[1]), ("s2", NOOR[2]), ("s2", IRIS[2])]
    turns += [("s3", IRIS[3]), ("s3", NOOR[1])]
    messages = say(alice, turns)
    Message.objects.filter(pk__in=[m.pk for m in messages if m.content in NOOR]).update(name="Noor")
    Message.objects.filter(pk__in=[m.pk for m in messages if m.content in IRIS]).update(name="Iris", role="assistant")


def test_a_named_question_finds_the_persons_turn_by_meaning_not_the_turns_saying_the_name(
    alice: Persona, settings: Any
) -> None:
    _conversation(alice)
    query = "What sport is Noor into?"
    found = texts(alice.search(query, limit=3, include_messages=True, min_relevance=0))
    assert found and found[0] == ANSWER, found
    tune(settings, {"vector.name_share": 0.0})  # the raw query vector leans on the name
    unfocused = texts(alice.search(query, limit=3, include_messages=True, min_relevance=0))
    assert unfocused[:1] != [ANSWER], unfocused


@pytest.mark.parametrize("query", ["我平时下班后怎么放松？", "What do I do to relax after work?"])
def test_a_query_naming_nobody_searches_as_before(alice: Persona, settings: Any, query: str) -> None:
    say(alice, [("s1", "我每天下班后在河边跑步放松。"), ("s1", "水管工周二来修厨房的水槽。"), ("s2", ANSWER)])
    found = alice.search(query, limit=3, include_messages=True, min_relevance=0)
    tune(settings, {"vector.name_share": 0.0})
    before = alice.search(query, limit=3, include_messages=True, min_relevance=0)
    assert texts(found) == texts(before)
    assert [r["score"] for r in found.json()["results"]] == [r["score"] for r in before.json()["results"]]


def test_the_names_component_is_taken_out_and_the_vector_stays_unit_length() -> None:
    query, name = embed_texts(["What sport is Noor into?", "noor"])
    norm = math.sqrt(sum(x * x for x in name))
    unit = [x / norm for x in name]
    out = focused(query, ["noor"], share=1.0)
    assert math.isclose(math.sqrt(sum(x * x for x in out)), 1.0, rel_tol=1e-6)
    assert abs(sum(a * b for a, b in zip(out, unit, strict=True))) < 1e-6
    assert sum(a * b for a, b in zip(query, unit, strict=True)) > 0.2  # there was a component to take out
    assert focused(query, [], share=1.0) == query
    assert focused(query, ["noor"], share=0.0) == query


def test_a_word_of_a_longer_name_is_not_taken_out_twice() -> None:
    assert whole_names(["lake tai", "lake", "tai", "priya"]) == ["lake tai", "priya"]


def test_only_a_name_common_in_the_memory_is_taken_out() -> None:
    """The person the conversation is with is on most rows; a place or a pet named once is what the query asks."""
    vocab = Vocabulary(words=("noor", "lisbon", "north", "carolina", "visit"), df=(60, 2, 9, 1, 30), rows=100)
    names = ["noor", "lisbon", "north carolina", "north", "carolina"]
    assert common_names(names, vocab, min_share=0.05, max_rows=1000) == ["noor"]
    assert common_names(names, vocab, min_share=0.01, max_rows=1000) == ["noor", "lisbon", "north carolina"]
    assert common_names(["lisbon"], vocab, min_share=0.5, max_rows=2) == ["lisbon"]  # at the count's cap
    assert common_names(names, None, min_share=0.05, max_rows=1000) == []


def test_the_relevance_features_read_the_querys_own_similarity(alice: Persona, settings: Any) -> None:
    """The vector signal ranks by the vector without the name; the relevance model (fitted on the query's own
    similarities) reads each candidate's similarity to the query's own vector: the same as with no focus."""
    from facts.retrieval.search import run_search
    from tests.facts.test_search import subject_of

    _conversation(alice)
    subject = subject_of(alice)
    tune(settings, {"vector.min_similarity": -1.0})  # every turn in the vector's pool, whichever vector ranks
    query = "What sport is Noor into?"
    found = run_search(subject_id=subject.pk, query=query, limit=3, include_messages=True, min_relevance=0)
    tune(settings, {"vector.name_share": 0.0})
    before = run_search(subject_id=subject.pk, query=query, limit=3, include_messages=True, min_relevance=0)
    assert found.query_signals is not None and before.query_signals is not None
    assert [item.key for _, item in found.scored] != [item.key for _, item in before.scored]  # ranked otherwise
    own, raw = found.query_signals.similarity, before.query_signals.similarity
    assert own.keys() == raw.keys()  # every turn is in the pool of both
    assert all(math.isclose(own[key], raw[key], abs_tol=1e-5) for key in own), (own, raw)
    assert found.query_signals.sim_floor == pytest.approx(before.query_signals.sim_floor, abs=1e-5)
