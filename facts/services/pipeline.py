"""The extraction pipeline over a batch of stored messages: claim -> gate and extract -> embed -> apply.

Each stage reads and fills one `_Batch`. Claiming and finishing messages are conversations' services (it owns
the messages table); this module computes what they write. The extractor (maybe an LLM) and the embedder run
outside any transaction. Then each subject's messages are applied in one transaction under the subject's row
lock (`select_for_update`), so two workers reconciling one subject are serialised and a fact is never created
twice.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, transaction
from django.utils import timezone

from conversations.joberrors import job_error_coded, job_error_record
from conversations.models import Message, Subject
from conversations.selectors import (
    message_previous_turns,
    message_previous_user_turn,
    messages_any_running,
    messages_pending,
    messages_running_attempts,
)
from conversations.services import MessageFinish, messages_claim, messages_finish, messages_mark_failed
from facts import embedding as embedding_backend  # module import: safe when threads import it concurrently
from facts.exceptions import ExtractionFailed, TooManyFacts
from facts.extraction.base import Command, ExtractionOutput, MessageView
from facts.extraction.llm import get_extractor
from facts.extraction.slot_vectors import slots_second_opinion
from facts.models import Actor, Fact, FactSource
from facts.profile import profile_schedule_rebuild
from facts.services.commands import fact_forget, fact_pin
from facts.services.reconcile import NEIGHBOUR_DISTANCE, fact_reconcile
from facts.services.subject_data import forgotten_fingerprints, is_forgotten
from facts.services.writes import CURRENT, WriteBuffer
from facts.services.zh_vectors import facts_fill_zh, zh_vectors
from facts.text import keywords as text_keywords
from facts.text import normalize, search_text
from memory_site.events import task_send_on_commit

logger = logging.getLogger(__name__)

ExtractionState = Message.ExtractionState
# The pipeline embeds a task's sentences sorted by length, this many per batch (less padding than one batch).
EMBED_CHUNK = 16
# How many turns before a user's message the extractor reads (an answer's question, a pronoun's relative).
RECENT_TURNS = 4
# The lifecycle's consolidation of one subject (policies; enqueued by name: facts never imports policies).
CONSOLIDATE_TASK = "policies.lifecycle.tasks.subject_consolidate_task"


@dataclass
class _Extracted:
    """One message with what the extractor and the embedder made of it."""

    message: Message
    output: ExtractionOutput
    vectors: list[list[float] | None]  # one per candidate
    message_vector: list[float] | None  # the message's own (episodic recall)
    message_vector_zh: list[float] | None = None  # a Chinese turn's, from the encoder that reads Chinese


@dataclass
class _Batch:
    """One call's messages as they pass through the stages."""

    messages: list[Message]
    outputs: dict[int, ExtractionOutput] = field(default_factory=dict)
    by_subject: dict[int, list[_Extracted]] = field(default_factory=dict)
    fact_ids: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    touched: set[int] = field(default_factory=set)
    zh: dict[str, list[float]] = field(default_factory=dict)  # the Chinese texts' vectors (zh_vectors.py)
    # The stored turns before each message that is its session's first in this batch, the nearest first (read once:
    # the gate reads their roles and texts, the context join the nearest's vectors).
    stored_before: dict[int, list[Message]] = field(default_factory=dict)

    def turns_before(self, m: Message) -> list[Message]:
        if m.pk not in self.stored_before:
            self.stored_before[m.pk] = message_previous_turns(message=m, limit=RECENT_TURNS)
        return self.stored_before[m.pk]

    def turn_before(self, m: Message) -> Message | None:
        return next(iter(self.turns_before(m)), None)


def messages_extract(*, message_ids: list[int], claim: str = "") -> list[int]:
    """Run the write pipeline over messages; return the ids of facts created or merged.

    Idempotent: only messages still pending are claimed, so a task delivered twice (late ack, sweeper) does
    nothing the second time; `claim` (the task's id) lets a redelivered task take back what its killed earlier
    delivery left running (conversations.services.messages_claim). Each subject's messages are applied in one transaction, each message failing alone;
    ExtractionFailed when any did (they are pending again, or failed after their last attempt).
    """
    messages = messages_claim(message_ids=message_ids, claim=claim)
    if not messages:
        return []
    batch = _Batch(messages)
    try:
        _gate_and_extract(batch)
        _embed(batch)
    except Exception as exc:
        messages_mark_failed(message_ids=[m.pk for m in messages], error=job_error_record(exc))
        raise
    _apply(batch)
    if batch.zh:  # after the apply: a stop here leaves them to the backfill
        facts_fill_zh(fact_ids=batch.fact_ids, known=batch.zh)
    for subject_id in batch.touched:
        profile_schedule_rebuild(subject_id=subject_id)
    consolidation_schedule(subject_ids=sorted({m.subject_id for m in messages}))
    if batch.failed:
        raise ExtractionFailed(f"extraction failed for messages {batch.failed}")
    return batch.fact_ids


def consolidation_schedule(*, subject_ids: list[int]) -> None:
    """Ask the lifecycle (policies, by task name) to consolidate each subject with LIFECYCLE_CONSOLIDATE_EVERY_TURNS
    new turns since its last consolidation; the task claims the turns, so asking twice merges once."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT s.id FROM conversations_subject s WHERE s.id = ANY(%s) AND NOT s.memory_paused AND "
            "(SELECT count(*) FROM conversations_message m WHERE m.subject_id = s.id) "
            "- s.last_consolidated_message_count >= %s",
            [subject_ids, settings.LIFECYCLE_CONSOLIDATE_EVERY_TURNS],
        )
        due = [int(r[0]) for r in cursor.fetchall()]
    for subject_id in due:
        task_send_on_commit(CONSOLIDATE_TASK, subject_id)


def messages_extract_now(*, message_ids: list[int]) -> None:
    """Extract in this process for `?wait=true`; wait for any message a worker already claimed (a turn posted again
    by its external_id while an earlier request's task holds it).

    The request's new turns were not queued (the ingest API leaves them to this call and queues what is still
    pending after it); a task that runs anyway finds nothing pending, so nothing is extracted twice.
    """
    deadline = time.monotonic() + settings.INGEST_WAIT_TIMEOUT
    todo = list(message_ids)
    while todo and time.monotonic() < deadline:
        try:
            messages_extract(message_ids=todo)
        except ExtractionFailed:
            logger.warning("inline extraction failed for some of %s", todo)
            return  # failed messages are pending again, for the workers the caller queues them to, not for this loop
        while messages_any_running(message_ids=message_ids):
            if time.monotonic() >= deadline:
                return
            time.sleep(0.05)
        todo = messages_pending(message_ids=message_ids)  # skipped by the claim while another lock held them
        if todo:
            time.sleep(0.05)


# --- gate and extract, embed ------------------------------------------------------------------------------------


def _gate_and_extract(batch: _Batch) -> None:
    """The extractor's gate decision, candidates and commands for every message: one call per subject.

    A batch may hold several tenants' messages (the sweeper's, a redelivered task's); an extractor call (an LLM
    prompt) never does: each subject's messages go alone, so no tenant's words reach a prompt about another.
    """
    extractor = get_extractor()
    by_subject: dict[int, list[MessageView]] = {}
    for recent, m in _with_recent(batch):
        # An assistant's read-back the user's next turn may confirm ("So your new address is ...?" / "Yes."), or
        # its question the reply answers: the turn before in the batch, else (posted in an earlier request) stored.
        previous = recent[0] if recent else None
        asked = previous.content if previous is not None and previous.role == "assistant" else ""
        # The relative a "he" or "she" stands for: named by the speaker's own last turns, or by the one just before.
        own = [t.content for t in recent if _same_speaker(t, m)]
        other = previous.content if previous is not None and not _same_speaker(previous, m) else ""
        view = MessageView(id=m.pk, role=m.role, name=m.name, content=m.content, created_at=m.created_at,
                           previous_assistant_content=asked, previous_user_content="\n".join(own),
                           previous_other_content=other)  # fmt: skip
        by_subject.setdefault(m.subject_id, []).append(view)
    for views in by_subject.values():
        batch.outputs.update(extractor.extract(views))


def _embed(batch: _Batch) -> None:
    """One vector per candidate sentence (all candidates of the batch in one embedder pass), and each message's own:
    its text's (`embed_messages`, the int8 copy by default) joined with the mean of its facts' when it yields any.

    The two count alike: the facts say what the turn is about, its text the rest of what it says (over the LoCoMo dev
    questions a turn's own text and its facts together find the evidence turns better than either alone: bench/README.md,
    session 29)."""
    texts: list[str] = []
    for m in batch.messages:
        texts.extend(c.text for c in batch.outputs[m.pk].candidates)
    vectors = _embed_unique(texts, embedding_backend.embed_texts)
    said = dict(zip(batch.messages, _embed_unique([m.content for m in batch.messages], embedding_backend.embed_messages),
                    strict=True))  # fmt: skip
    batch.zh = zh_vectors([*texts, *(m.content for m in batch.messages)])  # Chinese texts only
    offset = 0
    for message in batch.messages:
        output = batch.outputs[message.pk]
        n = len(output.candidates)
        own = vectors[offset : offset + n]
        offset += n
        # The vectors' second opinion on slots (facts/extraction/slot_vectors.py), before anything is applied.
        slots_second_opinion(content=message.content, speaker=message.name or "User", candidates=output.candidates,
                             vectors=own)  # fmt: skip
        vector = _mean_vector([v for v in (_mean_vector(own), said[message]) if v is not None])
        item = _Extracted(message, output, own, vector, batch.zh.get(message.content))
        batch.by_subject.setdefault(message.subject_id, []).append(item)
    _in_context(batch)


# A turn is read with the one before it: its vector joins the previous turn's stored vector at this share (which
# holds the turn before that at this share again, and so on), so a reply ("Twice a week, since March.") carries what
# it answers. LoCoMo dev over HTTP, facts+messages recall@10: 0.790 without, 0.797 at 0.3, 0.796 at 0.5 (single-hop and
# temporal up 0.02, multi-hop down 0.03; bench/README.md, session 29). A Chinese turn's Chinese vector likewise:
# bench/zh_calibration.json facts+messages 0.977 -> 0.984 (session 30).
CONTEXT_SHARE = 0.3


def _in_context(batch: _Batch) -> None:
    """Join each message's vector with the vector of the turn before it in its session: this batch's (already joined)
    or the stored one. The same turns get the same vectors whether they came in one request or one by one, as long
    as each was extracted before the next (a turn whose predecessor is still being extracted is read alone; a batch's
    turns of one session are taken as consecutive, as a request's are)."""
    items = {x.message.pk: x for xs in batch.by_subject.values() for x in xs}
    for before, m in _with_before(batch.messages):
        item = items[m.pk]
        if before is not None:  # already joined with its own
            previous, previous_zh = items[before.pk].message_vector, items[before.pk].message_vector_zh
        else:
            stored = batch.turn_before(m)
            previous, previous_zh = (
                (None, None) if stored is None else (_floats(stored.embedding), _floats(stored.embedding_zh))
            )
        item.message_vector = _joined(item.message_vector, previous)
        item.message_vector_zh = _joined(item.message_vector_zh, previous_zh)  # a Chinese turn after a Chinese one


def _joined(vector: list[float] | None, previous: list[float] | None) -> list[float] | None:
    if vector is None or previous is None:
        return vector
    joined = np.asarray(vector, dtype=np.float64) + CONTEXT_SHARE * np.asarray(previous)
    return [float(x) for x in joined / (float(np.linalg.norm(joined)) or 1.0)]


def _turn_order(m: Message) -> tuple[int, int, dt.datetime, int]:
    return (m.subject_id, m.session_id or 0, m.created_at, m.pk)


def _with_before(messages: list[Message]) -> Iterator[tuple[Message | None, Message]]:
    """Each message in turn order, with the batch's turn just before it in its session (None: the session's first
    here; a batch's turns of one session are taken as consecutive)."""
    ordered = sorted(messages, key=_turn_order)
    for before, m in zip([None, *ordered], ordered, strict=False):
        yield (before if before is not None and _turn_order(before)[:2] == _turn_order(m)[:2] else None), m


def _with_recent(batch: _Batch) -> Iterator[tuple[list[Message], Message]]:
    """Each user message with the RECENT_TURNS turns before it in its session, the nearest first: the batch's, then
    the stored ones (an assistant's or a system's message gets none: the extractor reads no context for it)."""
    earlier: list[Message] = []
    first: Message | None = None  # the session's first message in this batch
    for before, m in _with_before(batch.messages):
        earlier, first = ([before, *earlier][:RECENT_TURNS], first) if before is not None else ([], m)
        if m.role != "user":
            yield [], m
        elif len(earlier) < RECENT_TURNS and first is not None:
            yield [*earlier, *batch.turns_before(first)][:RECENT_TURNS], m
        else:
            yield earlier, m


def _same_speaker(turn: Message, m: Message) -> bool:
    return turn.role == m.role and turn.name == m.name


def _floats(vector: Any) -> list[float] | None:
    return None if vector is None else [float(x) for x in vector]


def _embed_unique(texts: list[str], embed: Callable[[list[str]], list[list[float]]]) -> list[list[float] | None]:
    """Embed each distinct text once with `embed` (a fact sentence repeated in a batch costs one encoding)."""
    unique = sorted(dict.fromkeys(texts), key=len)
    by_text: dict[str, list[float]] = {}
    try:
        # Small batches of similar length: one batch of a whole task pads every sentence to the longest.
        for start in range(0, len(unique), EMBED_CHUNK):
            chunk = unique[start : start + EMBED_CHUNK]
            by_text.update(zip(chunk, embed(chunk), strict=True))
    except embedding_backend.EmbedderUnavailable as exc:
        # Facts are still stored and found by keyword; the vectors can be filled in later.
        logger.warning("embedder unavailable during extraction: %s", exc)
        return [None] * len(texts)
    return [by_text[t] for t in texts]


def _mean_vector(vectors: list[list[float] | None]) -> list[float] | None:
    present = [v for v in vectors if v is not None]
    if not present:
        return None
    if len(present) == 1:
        return list(present[0])
    mean = np.mean(np.asarray(present, dtype=np.float64), axis=0)
    norm = float(np.linalg.norm(mean)) or 1.0
    return [float(x) for x in mean / norm]


# --- apply ------------------------------------------------------------------------------------------------------


def _apply(batch: _Batch) -> None:
    """Apply each subject's messages in its own transaction; record the messages that failed."""
    for subject_id, items in batch.by_subject.items():
        try:
            ids, bad = _subject_apply_extraction(subject_id=subject_id, items=items)
        except Exception as exc:  # the whole transaction failed (the database went away, say)
            logger.exception("extraction failed for subject %s", subject_id)
            messages_mark_failed(message_ids=[item.message.pk for item in items], error=job_error_record(exc))
            batch.failed.extend(item.message.pk for item in items)
            continue
        for pk, error in bad.items():
            messages_mark_failed(message_ids=[pk], error=error)
            batch.failed.append(pk)
        batch.fact_ids.extend(ids)
        batch.touched.add(subject_id)


def _subject_apply_extraction(*, subject_id: int, items: list[_Extracted]) -> tuple[list[int], dict[int, str]]:
    """Reconcile one subject's messages in one transaction; return fact ids and {message id: error}.

    Fast path first: the whole batch without savepoints, its rows written in a few bulk statements. If any
    message fails, that transaction rolls back and the batch runs again with one savepoint per message, so
    the failing message fails alone.
    """
    try:
        return _subject_apply(subject_id=subject_id, items=items, isolate=False)
    except (OperationalError, InterfaceError):
        raise  # the database went away: the caller records it on every message
    except Exception:
        logger.warning("batch of subject %s failed, retrying message by message", subject_id, exc_info=True)
    return _subject_apply(subject_id=subject_id, items=items, isolate=True)


def _subject_apply(*, subject_id: int, items: list[_Extracted], isolate: bool) -> tuple[list[int], dict[int, str]]:
    fact_ids: list[int] = []
    errors: dict[int, str] = {}
    finished: list[MessageFinish] = []
    over_cap: dict[int, int] = {}  # message id -> candidates not stored: the subject is at MAX_FACTS_PER_SUBJECT
    with transaction.atomic():
        subject = Subject.objects.select_for_update().get(pk=subject_id)
        # Re-check under the lock: another worker may have finished a message meanwhile (sweeper + late ack).
        attempts = messages_running_attempts(message_ids=[item.message.pk for item in items])
        items = [item for item in items if attempts.get(item.message.pk) == item.message.extraction_attempts]
        buffer = WriteBuffer(isolate=isolate)
        # What the subject forgot never comes back (fingerprints; "forget that" in this batch adds to them).
        forgotten = set(forgotten_fingerprints(subject=subject)) if items and not subject.memory_paused else set()
        if not subject.memory_paused and items:
            buffer.prefetch(
                subject,
                [normalize(c.text) for item in items for c in item.output.candidates],
                vectors=[v for item in items for v in item.vectors],
                within=NEIGHBOUR_DISTANCE,
            )
            buffer.reserve(sum(len(item.output.candidates) for item in items))
            if any(item.output.candidates for item in items):  # counted under the lock, as fact_create does
                buffer.room = settings.MAX_FACTS_PER_SUBJECT - Fact.objects.filter(subject=subject).count()
        for item in items:
            if not isolate:
                fact_ids.extend(_message_apply(subject=subject, item=item, buffer=buffer, forgotten=forgotten,
                                               over_cap=over_cap))  # fmt: skip
                finished.append(_finish(subject, item, over_cap=over_cap.get(item.message.pk, 0)))
                continue
            room = buffer.room
            try:
                with transaction.atomic():  # a savepoint: a failing message rolls back alone
                    ids = _message_apply(subject=subject, item=item, buffer=buffer, forgotten=forgotten,
                                         over_cap=over_cap)  # fmt: skip
            except Exception as exc:
                logger.exception("extraction failed for message %s", item.message.pk)
                errors[item.message.pk] = job_error_record(exc)
                buffer.reset()
                buffer.room = room  # its rows were rolled back
                continue
            fact_ids.extend(ids)
            finished.append(_finish(subject, item, over_cap=over_cap.get(item.message.pk, 0)))
        buffer.flush()
        messages_finish(finished=finished)  # one UPDATE for the batch, at its end
    if over_cap:
        logger.warning("subject %s is at its fact limit: %d candidates of %d messages not stored", subject_id,
                       sum(over_cap.values()), len(over_cap))  # fmt: skip
    return fact_ids, errors


def _message_apply(
    *, subject: Subject, item: _Extracted, buffer: WriteBuffer, forgotten: set[str], over_cap: dict[int, int]
) -> list[int]:
    """Reconcile one message's candidates and apply its commands (the caller holds the subject's lock).

    A candidate whose text the subject forgot (its fingerprint is in `forgotten`) is skipped. Past
    MAX_FACTS_PER_SUBJECT (the buffer's room) a candidate that needs a new row is not stored and counted in
    `over_cap`; merges into current facts, pins and forgets still apply."""
    if subject.memory_paused:
        return []
    message, output = item.message, item.output
    fact_ids: list[int] = []
    if output.commands:
        buffer.flush()  # the commands read sources and history
        for command in output.commands:
            fact_ids.extend(_command_apply(message, command))
        buffer.reset()  # forgotten or pinned facts: ask the database again
        forgotten |= forgotten_fingerprints(subject=subject)
    for candidate, vector in zip(output.candidates, item.vectors, strict=True):
        if is_forgotten(subject=subject, forgotten=forgotten, text=candidate.text):
            continue
        try:
            result = fact_reconcile(subject=subject, candidate=candidate, embedding=vector, buffer=buffer)
        except TooManyFacts:  # raised before anything of this candidate was written
            over_cap[message.pk] = over_cap.get(message.pk, 0) + 1
            continue
        fact_ids.append(result.fact.pk)
    if buffer.isolate:
        buffer.flush()  # this message's rows inside its own savepoint
    return fact_ids


def _finish(subject: Subject, item: _Extracted, *, over_cap: int = 0) -> MessageFinish:
    """What the message's row records once it is applied: done (skipped while memory is paused), with why some of
    its facts were not stored (the subject's fact limit: a job error the API shows, though the job is done) and
    the extractor's notes."""
    paused, output = subject.memory_paused, item.output
    notes = [f"llm fallback: {output.fallback_reason}" if output.fallback_reason else output.dropped_reason]
    if over_cap:
        detail = f"{over_cap} not stored, limit {settings.MAX_FACTS_PER_SUBJECT}"
        notes.insert(0, job_error_coded("too_many_facts", detail))
    return MessageFinish(
        message_id=item.message.pk,
        state=ExtractionState.SKIPPED if paused else ExtractionState.DONE,
        finished_at=timezone.now(),
        error="; ".join(n for n in notes if n),
        extractor=output.extractor,
        gate_decision="keep" if output.gate.keep else "skip",
        gate_reason="memory paused" if paused else output.gate.reason,
        search_text=search_text(item.message.content),
        keywords=text_keywords(item.message.content),  # what the re-rank reads of a turn (rerank.turn_keywords)
        embedding=None if paused else item.message_vector,
        embedding_zh=None if paused else item.message_vector_zh,
        llm_tokens=output.llm_tokens,
    )


# --- commands found in messages ("forget that", "remember this") -----------------------------------------------


def _command_targets(message: Message, command: Command) -> list[Fact]:
    """The facts a command refers to: those matching its words, else those from the previous user message."""
    current = Fact.objects.filter(subject_id=message.subject_id, status__in=CURRENT)
    words = set(text_keywords(command.target))
    if words:
        matches = [f for f in current.filter(keywords__overlap=list(words)) if len(words & set(f.keywords)) >= 1]
        if matches:
            best = max(len(words & set(f.keywords)) for f in matches)
            return [f for f in matches if len(words & set(f.keywords)) == best]
    previous = message_previous_user_turn(message=message)
    if previous is None:
        return []
    return list(current.filter(sources__message=previous).distinct())


def _command_apply(message: Message, command: Command) -> list[int]:
    targets = _command_targets(message, command)
    actor_id = f"message:{message.pk}"
    if command.kind == "forget":
        for fact in targets:
            fact_forget(fact=fact, actor=Actor.END_USER, actor_id=actor_id, reason="forget command")
        return []
    for fact in targets:
        fact_pin(fact=fact, actor=Actor.END_USER, actor_id=actor_id, importance=1.0)
        FactSource.objects.get_or_create(fact=fact, message=message)
    return [f.pk for f in targets]
