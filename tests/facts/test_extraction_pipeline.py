"""The extraction pipeline: idempotent, claimed once, through a real worker."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from celery.signals import before_task_publish
from django.db import connection
from django.test import override_settings

from conversations.models import Message
from conversations.services import EXTRACT_TASK
from facts.extraction import zh_encoder
from facts.models import Conflict, Fact, FactHistory
from facts.services import ExtractionFailed, messages_extract
from memory_site.pgio import search_vector_expr
from tests.conftest import wait_until
from tests.facts.test_facts_api import worker_idle


@pytest.mark.django_db
def test_extraction_twice_on_one_message_produces_no_duplicate(alice) -> None:  # type: ignore[no-untyped-def]
    body = alice.ingest("I live in Beijing and I have a corgi named 豆包.", wait=False).json()
    message_id = body["messages"][0]["id"]
    first = messages_extract(message_ids=[message_id])
    count = Fact.objects.count()
    assert first and count >= 1
    Message.objects.filter(pk=message_id).update(extraction_state="pending")  # a redelivered task
    messages_extract(message_ids=[message_id])
    assert Fact.objects.count() == count
    assert all(f.mention_count <= 2 for f in Fact.objects.all())
    assert messages_extract(message_ids=[message_id]) == []  # already done: nothing claimed


@pytest.mark.django_db(transaction=True)
def test_concurrent_extraction_creates_each_fact_once(alice) -> None:  # type: ignore[no-untyped-def]
    body = alice.ingest("I am allergic to peanuts and I live in Hangzhou.", wait=False).json()
    message_id = body["messages"][0]["id"]
    errors: list[BaseException] = []

    def run() -> None:
        try:
            messages_extract(message_ids=[message_id])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    # A live test worker (session fixture) may have claimed the message first: wait for whoever runs it.
    assert wait_until(lambda: Message.objects.get(pk=message_id).extraction_state == "done", timeout=60)
    texts = list(Fact.objects.values_list("normalized_text", flat=True))
    assert texts and len(texts) == len(set(texts))
    assert FactHistory.objects.filter(event="created").count() == len(texts)


@pytest.mark.django_db(transaction=True)
@pytest.mark.celery_worker
def test_real_worker_extracts_enqueued_messages(alice, celery_worker_process) -> None:  # type: ignore[no-untyped-def]
    body = alice.ingest("My sister Emma lives in London.", "I started a new job at Google.", wait=False).json()
    job_id = body["job_id"]

    def done() -> bool:
        return alice.client.get(f"/api/v1/jobs/{job_id}").json()["state"] == "done"

    assert wait_until(done, timeout=90), alice.client.get(f"/api/v1/jobs/{job_id}").json()
    job = alice.client.get(f"/api/v1/jobs/{job_id}").json()
    assert any("Emma" in f["text"] for f in job["facts"])
    results = alice.search("where does my sister live").json()["results"]
    assert any("London" in r["text"] for r in results)
    assert results[0]["sources"][0]["session_id"] == "s1"
    assert wait_until(worker_idle, timeout=60)  # follow-up tasks (profile, summaries) done before the db is flushed


# One batch (one task) is reconciled in one transaction with in-memory look-ups; it must decide exactly as
# messages reconciled one at a time do: merges, supersedes, conflicts, forgets, history, in both languages.
_SCRIPT = [
    "I live in Hangzhou.",
    "I have a corgi named 豆包.",
    "I live in Hangzhou.",
    "I live in Shanghai.",
    "我不吃辣。",
    "我想尝尝辣的。",
    "I don't like coffee.",
    "I love coffee.",
    "I have a secret crush on my coworker Dan.",
    "Forget that.",
    "我住在朝阳区。",
    "我住在朝阳区",
    "I'm allergic to peanuts.",
    "I'm allergic to peanuts",
]


def _script_messages() -> list[dict[str, str]]:
    return [
        {"role": "user", "content": text, "created_at": f"2023-05-08T10:{minute:02d}:00Z"}
        for minute, text in enumerate(_SCRIPT)
    ]


def _state(subject: str) -> tuple[list[tuple], list[tuple], list[tuple]]:
    facts = sorted(
        (f.text, f.status, f.mention_count, f.pinned, f.sources.count())
        for f in Fact.objects.filter(subject__external_id=subject)
    )
    history = sorted((h.event, h.actor, h.after_text) for h in FactHistory.objects.filter(subject__external_id=subject))
    conflicts = sorted(
        (c.kind, c.state, c.fact_a.text, c.fact_b.text)
        for c in Conflict.objects.filter(subject__external_id=subject).select_related("fact_a", "fact_b")
    )
    return facts, history, conflicts


@pytest.mark.django_db
def test_a_batch_reconciles_exactly_like_one_message_at_a_time(alice) -> None:  # type: ignore[no-untyped-def]
    response = alice.post("messages?wait=true", {"session_id": "s1", "messages": _script_messages()}, user="batched")
    assert response.status_code == 200, response.json()
    for message in _script_messages():
        response = alice.post("messages?wait=true", {"session_id": "s1", "messages": [message]}, user="one-by-one")
        assert response.status_code == 200, response.json()
    batched = _state("batched")
    assert batched == _state("one-by-one")
    facts, history, conflicts = batched
    texts = [f[0] for f in facts]
    assert not any("Dan" in t for t in texts)  # forgotten, also inside one batch
    assert ("superseded" in {f[1] for f in facts if "Hangzhou" in f[0]}) and any("Shanghai" in t for t in texts)
    assert any(f[2] == 2 for f in facts if "Hangzhou" in f[0])  # said twice: merged
    assert any(f[2] == 2 for f in facts if "朝阳区" in f[0]) and any(f[2] == 2 for f in facts if "peanuts" in f[0])
    assert any(c[0] == "contradiction" and c[1] == "open" for c in conflicts)
    assert Message.objects.filter(subject__external_id="batched", extraction_state="done").count() == len(_SCRIPT)


def _one_fact_per_turn(broken: str) -> Callable[[list[dict[str, Any]]], dict[str, Any]]:
    """An LLM answer with each turn as its fact; the turn containing `broken` comes back with a NUL character,
    which PostgreSQL cannot store in text (a model's bad output)."""

    def answer(turns: list[dict[str, Any]]) -> dict[str, Any]:
        def fact(content: str) -> dict[str, str]:
            return {"text": content.replace(broken, broken + "\x00") if broken else content, "type": "other"}

        return {"messages": [{"id": t["id"], "keep": True, "facts": [fact(t["content"])]} for t in turns]}

    return answer


@pytest.mark.django_db
def test_a_failing_message_fails_alone_and_is_recorded(alice, fake_llm) -> None:  # type: ignore[no-untyped-def]
    body = alice.ingest("I live in Lisbon.", "I have a cat named Miso.", "I work at Siemens.", wait=False).json()
    ids = [m["id"] for m in body["messages"]]
    fake_llm.answer = _one_fact_per_turn("Miso")
    with pytest.raises(ExtractionFailed):
        messages_extract(message_ids=ids)
    states = dict(Message.objects.filter(pk__in=ids).values_list("content", "extraction_state"))
    assert states == {"I live in Lisbon.": "done", "I have a cat named Miso.": "pending", "I work at Siemens.": "done"}
    failed = Message.objects.get(pk=ids[1])
    assert failed.extraction_error.startswith("invalid_data: ") and failed.extraction_attempts == 1  # no repr()
    assert not Fact.objects.filter(text__contains="Miso").exists()
    assert Fact.objects.filter(text__contains="Lisbon").exists() and Fact.objects.filter(text__contains="Siemens")
    fake_llm.answer = _one_fact_per_turn("")
    messages_extract(message_ids=ids)  # the retry picks up only the failed one
    assert len(fake_llm.requests) == 2 and [t["content"] for t in _turns(fake_llm.requests[1])] == [
        "I have a cat named Miso."
    ]
    assert Fact.objects.filter(text__contains="Miso").count() == 1
    assert Fact.objects.filter(text__contains="Lisbon").count() == 1


def _turns(request: dict[str, Any]) -> list[dict[str, Any]]:
    return json.loads(request["messages"][-1]["content"])["turns"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("told", "bare_text"),
    [
        ("I live in Lisbon and I have a cat named Miso.", "Thanks, bye!"),
        ("我住在成都。我养了一只叫豆豆的狗。", "好的，谢谢，拜拜！"),
    ],
)
def test_a_message_vector_joins_its_text_its_facts_and_the_turn_before(alice, told: str, bare_text: str) -> None:  # type: ignore[no-untyped-def]
    """One embedding per fact sentence; a message's vector (episodic recall) is its text's (`embed_messages`: the
    int8 copy by default) and its facts' mean, each counting half, then joined with the turn before it in its session
    at CONTEXT_SHARE. The session's first turn has none before it."""
    from facts.embedding import embed_messages
    from facts.services.pipeline import CONTEXT_SHARE

    body = alice.ingest(told, bare_text, wait=False).json()
    ids = [m["id"] for m in body["messages"]]
    messages_extract(message_ids=ids)
    with_facts, bare = Message.objects.get(pk=ids[0]), Message.objects.get(pk=ids[1])
    facts = list(Fact.objects.filter(sources__message_id=with_facts.pk))
    assert len(facts) >= 2 and not Fact.objects.filter(sources__message_id=bare.pk).exists()
    facts_mean = _unit(np.mean([np.asarray(f.embedding, dtype=np.float64) for f in facts], axis=0))
    joined = _unit(facts_mean + _unit(embed_messages([with_facts.content])[0]))
    assert np.allclose(np.asarray(with_facts.embedding), joined, atol=1e-5)
    assert not np.allclose(joined, facts_mean, atol=1e-3)  # the text counts: not the facts' mean alone
    own = _unit(embed_messages([bare.content])[0])
    assert np.allclose(np.asarray(bare.embedding), _unit(own + CONTEXT_SHARE * joined), atol=1e-5)
    assert with_facts.gate_decision == "keep" and bare.extraction_state == "done"


def _unit(v: Any) -> Any:
    v = np.asarray(v, dtype=np.float64)
    return v / np.linalg.norm(v)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "turns",
    [
        [
            "We finally adopted a rescue greyhound called Pip.",
            "How is she settling in?",
            "Great, she naps on the sofa.",
        ],
        ["我们终于领养了一只退役灵缇，叫皮皮。", "它适应得怎么样？", "挺好的，整天在沙发上睡觉。"],
    ],
)
def test_a_turn_is_read_with_the_one_before_it_however_the_turns_arrive(alice, turns: list[str]) -> None:  # type: ignore[no-untyped-def]
    """The same turns get the same vectors posted in one request or one by one (the turn before is this batch's or
    the stored one); a turn is joined only with its own session's. Chinese turns' Chinese vectors alike."""

    def vectors(ids: list[int], column: str = "embedding") -> list[Any]:
        return [np.asarray(getattr(Message.objects.get(pk=pk), column), dtype=np.float64) for pk in ids]

    together = [m["id"] for m in alice.ingest(*turns, session="a", wait=False).json()["messages"]]
    messages_extract(message_ids=together)
    apart = []
    for turn in turns:
        apart.append(alice.ingest(turn, session="b", wait=False).json()["messages"][0]["id"])
        messages_extract(message_ids=apart[-1:])
    for a, b in zip(vectors(together), vectors(apart), strict=True):
        assert np.allclose(a, b, atol=1e-6)
    alone = alice.ingest(turns[-1], session="c", wait=False).json()["messages"][0]["id"]
    messages_extract(message_ids=[alone])
    assert not np.allclose(vectors([alone])[0], vectors(apart)[-1], atol=1e-3)  # the turns before count
    if Message.objects.get(pk=alone).embedding_zh is None:
        assert all(Message.objects.get(pk=pk).embedding_zh is None for pk in together)  # English: no Chinese vector
        return
    for a, b in zip(vectors(together, "embedding_zh"), vectors(apart, "embedding_zh"), strict=True):
        assert np.allclose(a, b, atol=1e-6)
    own = zh_encoder.passages([turns[-1]])[0]
    assert np.allclose(vectors([alone], "embedding_zh")[0], own, atol=1e-5)  # the session's first turn: its own
    assert not np.allclose(vectors(apart, "embedding_zh")[-1], own, atol=1e-3)


@pytest.mark.django_db
def test_bulk_written_rows_have_the_same_search_vectors_as_the_orm(alice) -> None:  # type: ignore[no-untyped-def]
    """Facts and messages are written in one statement per batch; their search vectors are those of
    `search_vector_expr` on the same text, their vectors are stored, and a turn's content words are those the
    re-rank reads of its text (English and Chinese)."""

    body = alice.ingest(
        "My sister Ana moved to Porto last year.", "我住在海淀区，养了一只柯基叫豆包。", wait=False
    ).json()
    ids = [m["id"] for m in body["messages"]]
    messages_extract(message_ids=ids)
    facts = list(Fact.objects.filter(sources__message_id__in=ids))
    assert facts and all(f.embedding is not None and f.search_vector for f in facts)
    for fact in facts:
        expected = Fact.objects.filter(pk=fact.pk).annotate(sv=search_vector_expr(fact.search_text)).get().sv
        assert fact.search_vector == expected
    for message in Message.objects.filter(pk__in=ids):
        from facts.retrieval.rerank import turn_keywords
        from facts.text import search_text

        expected = Message.objects.filter(pk=message.pk).annotate(sv=search_vector_expr(search_text(message.content)))
        assert message.search_vector == expected.get().sv and message.embedding is not None
        assert message.keywords and tuple(message.keywords) == turn_keywords(message.content)


@pytest.mark.django_db
def test_near_duplicates_across_batches_and_within_one_merge(alice) -> None:  # type: ignore[no-untyped-def]
    """The near-duplicate check sees the subject's stored facts (one query per batch) and the batch's own."""
    body = alice.ingest("I have a dog named Rex.", wait=False).json()
    messages_extract(message_ids=[m["id"] for m in body["messages"]])
    body = alice.ingest("I have a dog named Rex!", "I have a dog named Rex.", wait=False).json()
    messages_extract(message_ids=[m["id"] for m in body["messages"]])
    rex = list(Fact.objects.filter(text__contains="Rex"))
    assert len(rex) == 1 and rex[0].mention_count == 3


def _other_connection_locks(message_id: int, mode: str) -> Callable[[], None]:
    """Another connection holds a row lock on the message until the returned `release()` (which returns once
    that transaction has ended)."""
    import psycopg

    from tests.conftest import _database_url

    held, release = threading.Event(), threading.Event()
    url = _database_url()

    def hold() -> None:
        with psycopg.connect(url) as conn:  # one transaction until release
            conn.execute(f"SELECT 1 FROM conversations_message WHERE id = %s FOR {mode}", [message_id])
            held.set()
            release.wait(30)

    thread = threading.Thread(target=hold, daemon=True)
    thread.start()
    assert held.wait(10)

    def release_lock() -> None:
        release.set()
        thread.join(10)

    return release_lock


@pytest.mark.django_db(transaction=True)
def test_a_message_a_summary_references_is_still_claimed(alice) -> None:  # type: ignore[no-untyped-def]
    """A summary written beside extraction holds FOR KEY SHARE on its first and last message (the foreign
    keys); the claim must not skip those messages (it did: they stayed pending until the sweeper)."""
    from tests.factories import MessageFactory

    message = MessageFactory(content="I moved to Chengdu last spring.", extraction_state="pending")
    release = _other_connection_locks(message.pk, "KEY SHARE")
    try:
        messages_extract(message_ids=[message.pk])
        assert Message.objects.get(pk=message.pk).extraction_state == "done"
    finally:
        release()
    assert Fact.objects.filter(sources__message=message).exists()


@pytest.mark.django_db(transaction=True)
def test_a_message_skipped_while_locked_is_sent_again(alice, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from facts import tasks
    from tests.factories import MessageFactory

    message = MessageFactory(content="My daughter Lily starts school in September.", extraction_state="pending")
    sent: list[tuple[list[int], dict[str, int], int]] = []
    monkeypatch.setattr(
        tasks.messages_extract_task,
        "apply_async",
        lambda args, kwargs, countdown: sent.append((args[0], kwargs, countdown)),
    )
    release = _other_connection_locks(message.pk, "UPDATE")
    try:
        assert tasks.messages_extract_task.run([message.pk]) == []
    finally:
        release()
    assert Message.objects.get(pk=message.pk).extraction_state == "pending"
    assert sent == [([message.pk], {"requeues": 1}, 1)]
    # The resent task finds the row free: extracted, nothing sent again.
    assert tasks.messages_extract_task.run([message.pk], requeues=1)
    assert Message.objects.get(pk=message.pk).extraction_state == "done"
    assert len(sent) == 1
    # After EXTRACTION_REQUEUE_MAX sends the sweeper takes over: no endless loop on a row locked for good.
    stuck = MessageFactory(content="I work at a bakery in Suzhou.", extraction_state="pending")
    release = _other_connection_locks(stuck.pk, "UPDATE")
    try:
        tasks.messages_extract_task.run([stuck.pk], requeues=5)
    finally:
        release()
    assert len(sent) == 1


@pytest.mark.django_db
def test_past_the_fact_limit_extraction_adds_no_fact_and_still_finishes(alice) -> None:  # type: ignore[no-untyped-def]
    """At MAX_FACTS_PER_SUBJECT the pipeline stores no new fact row (a new fact, or one superseding or contradicting
    a current one, adds a row) but merges a repeated fact; the messages are done, not retried, with the reason
    recorded and shown on the job; their raw turns stay searchable; forgetting a fact makes room."""
    body = alice.ingest("I live in Lisbon.", "I have a corgi named 豆包.", wait=False).json()
    messages_extract(message_ids=[m["id"] for m in body["messages"]])
    held = Fact.objects.count()
    corgi = Fact.objects.get(text__contains="豆包")
    assert held >= 2 and corgi.mention_count == 1
    with override_settings(MAX_FACTS_PER_SUBJECT=held):
        body = alice.ingest(
            "I have a corgi named 豆包.", "I'm allergic to peanuts.", "I live in Porto.", wait=False
        ).json()
        ids = [m["id"] for m in body["messages"]]
        messages_extract(message_ids=ids)  # no ExtractionFailed: nothing to retry
        assert Fact.objects.count() == held
        corgi.refresh_from_db()
        assert corgi.mention_count == 2 and corgi.sources.filter(message_id=ids[0]).exists()  # the merge applied
        assert Fact.objects.get(text__contains="Lisbon").status == "active"  # not superseded by an unstored fact
        rows = {m.pk: m for m in Message.objects.filter(pk__in=ids)}
        assert {m.extraction_state for m in rows.values()} == {"done"}
        assert rows[ids[0]].extraction_error == ""
        for pk in ids[1:]:
            assert rows[pk].extraction_error.startswith("too_many_facts: "), rows[pk].extraction_error
            assert f"limit {held}" in rows[pk].extraction_error and "peanut" not in rows[pk].extraction_error
        job = alice.client.get(f"/api/v1/jobs/{body['job_id']}").json()
        assert job["state"] == "done" and job["error"]["code"] == "too_many_facts"
        found = alice.search("allergic to peanuts", include_messages=True).json()["results"]
        assert found[0]["kind"] == "message" and found[0]["text"] == "I'm allergic to peanuts."  # the turn
        assert not any("peanuts" in r["text"] for r in found if r["kind"] == "fact")
        assert alice.client.delete(alice.url(f"facts/{corgi.pk}")).status_code in (200, 204)
        again = alice.ingest("I'm allergic to peanuts.", wait=False).json()
        messages_extract(message_ids=[m["id"] for m in again["messages"]])
        assert Fact.objects.filter(text__contains="peanuts").count() == 1 and Fact.objects.count() == held
        assert Message.objects.get(pk=again["messages"][0]["id"]).extraction_error == ""


@pytest.mark.django_db
def test_a_failing_message_gives_back_its_room_under_the_fact_limit(alice, fake_llm) -> None:  # type: ignore[no-untyped-def]
    """Message by message (after a failure), a message rolled back returns the fact rows it counted: the next
    message may still store its fact."""
    fake_llm.answer = _one_fact_per_turn("Miso")
    with override_settings(MAX_FACTS_PER_SUBJECT=1):
        body = alice.ingest("I have a cat named Miso.", "I work at Siemens.", wait=False).json()
        ids = [m["id"] for m in body["messages"]]
        with pytest.raises(ExtractionFailed):
            messages_extract(message_ids=ids)
        assert list(Fact.objects.values_list("text", flat=True)) == ["I work at Siemens."]
        done = Message.objects.get(pk=ids[1])
        assert done.extraction_state == "done" and done.extraction_error == ""


@pytest.mark.django_db
def test_a_reply_posted_after_its_question_is_read_with_it(alice) -> None:  # type: ignore[no-untyped-def]
    """The assistant's question and the user's reply in two requests: the reply is still read with the question."""
    alice.post("messages?wait=true", {"session_id": "s9", "messages": [{"role": "assistant", "content": "Got it. Any allergies I should note?"}]})  # fmt: skip
    alice.post("messages?wait=true", {"session_id": "s9", "messages": [{"role": "user", "content": "Just latex."}]})
    alice.post("messages?wait=true", {"session_id": "s8", "messages": [{"role": "user", "content": "Just latex."}]})
    texts = sorted(Fact.objects.filter(status="active").values_list("text", flat=True))
    assert texts == ["User's allergies: Just latex."]


@pytest.mark.django_db
def test_a_later_answer_to_the_same_thing_replaces_the_earlier(alice) -> None:  # type: ignore[no-untyped-def]
    """ "May I have your name?" answered twice: the later name is the active one, the earlier superseded."""
    for session, name in (("s1", "Sam Okafor"), ("s2", "Samuel Okafor-Reid")):
        turns = [{"role": "assistant", "content": "Thanks for calling. May I have your name?"},
                 {"role": "user", "content": name}]  # fmt: skip
        alice.post("messages?wait=true", {"session_id": session, "messages": turns})
    named = Fact.objects.filter(predicate="name")
    assert sorted(named.values_list("status", "text")) == [
        ("active", "User's name: Samuel Okafor-Reid."),
        ("superseded", "User's name: Sam Okafor."),
    ]


@pytest.mark.django_db(transaction=True)
def test_a_waiting_request_extracts_its_own_turns_and_queues_only_what_it_left(alice, fake_llm, settings) -> None:  # type: ignore[no-untyped-def]
    """`?wait=true` does not hand its turns to a worker as well: a worker's claim would leave the request waiting on
    that worker (a cold process, a long queue) up to INGEST_WAIT_TIMEOUT, and answering without facts. A turn it could
    not extract goes to the workers, as without wait, and the answer is 202: the job is to be followed."""
    extract_sends: list[list[int]] = []

    def record(sender: str | None = None, body: Any = None, **_: Any) -> None:
        if sender == EXTRACT_TASK:
            extract_sends.append(list(body[0][0]))

    before_task_publish.connect(record, weak=False)
    try:
        fake_llm.answer = _one_fact_per_turn("Miso")
        answer = alice.post("messages?wait=true", {"session_id": "s1", "messages": [
            {"role": "user", "content": "I live in Lisbon."}, {"role": "user", "content": "我养了一只猫叫年糕。"}]})  # fmt: skip
        body = answer.json()
        assert answer.status_code == 200 and len(body["facts"]) == 2 and extract_sends == []
        states = Message.objects.filter(pk__in=[m["id"] for m in body["messages"]]).values_list("extraction_state")
        assert {s for (s,) in states} == {"done"}

        answer = alice.post("messages?wait=true", {"session_id": "s1", "messages": [
            {"role": "user", "content": "I have a cat named Miso."}]})  # fmt: skip
        failing = answer.json()
        assert answer.status_code == 202 and failing["facts"] == []
        assert extract_sends == [[failing["messages"][0]["id"]]]

        settings.INGEST_WAIT_TIMEOUT = 0  # no time to extract: all of it queued, the job to follow
        fake_llm.answer = _one_fact_per_turn("")
        answer = alice.post("messages?wait=true", {"session_id": "s1", "messages": [
            {"role": "user", "content": "I work in Porto."}]})  # fmt: skip
        late = answer.json()
        assert answer.status_code == 202 and late["facts"] == [] and late["job_id"]
        assert extract_sends[-1] == [late["messages"][0]["id"]]

        queued = alice.ingest("I work at Siemens.", wait=False).json()
        assert extract_sends[-1] == [queued["messages"][0]["id"]]  # without wait, the turn is queued
    finally:
        before_task_publish.disconnect(record)
