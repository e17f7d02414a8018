"""A turn's content words, stored with it: what search's re-rank reads of a raw turn (`rerank.Reranker.factor`: how
much it says besides the names the query gives).

Facts store theirs (`Fact.keywords`); turns were cut into words at every search that re-ranked them
(`rerank.turn_keywords`: ~0.02 ms an English turn, ~0.2 a Chinese one through jieba), a cost on the search's path
after the query's vector for every turn not cut since the process started. Extraction now writes them with the turn's other search
fields (pipeline.py, `MessageFinish.keywords`); a turn stored before that, or whose extraction has not finished, has
NULL and search cuts its words as before, with the same function, so results are the same either way.
`manage.py turn_keywords` fills the turns that lack them; its writes change nothing search's change log follows, so
a process holding a subject's turns in memory reads their words at its next whole read (until then it cuts them, to
the same result).
"""

from __future__ import annotations

from conversations.models import Message
from conversations.services import messages_set_keywords
from facts.text import keywords

_CHUNK = 2000  # turns read and written per round by the backfill


def turn_keywords_backfill(*, subject_id: int | None = None) -> int:
    """Give every turn without content words its words (facts.text.keywords of its content), `_CHUNK` at a time;
    returns how many were written. Idempotent: a second run finds nothing. (A turn whose extraction finishes
    meanwhile is written the same words again.)"""
    rows = Message.objects.filter(keywords__isnull=True)
    if subject_id is not None:
        rows = rows.filter(subject_id=subject_id)
    written, last = 0, 0
    while chunk := list(rows.filter(pk__gt=last).order_by("pk").values_list("pk", "content")[:_CHUNK]):
        written += messages_set_keywords(keywords={pk: keywords(content) for pk, content in chunk})
        last = chunk[-1][0]
    return written
