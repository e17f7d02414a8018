"""Raw turns for the scale subjects timed by size (bench.search_latency's SIZES), so that a search with
`include_messages` reads messages: until 2026-12-02 those subjects had none, and "with messages" timed the message
statements over an empty set.

Each subject gets MESSAGES_PER_FACT turns a fact (LoCoMo's conversations have ~3 turns a fact; one is the
bench's conservative figure), in sessions of 20: the English sentences and unit vectors of other scale subjects'
facts (the same Zipf vocabulary), every seventh with a Chinese sentence appended, search vectors as the pipeline
computes them, content words as extraction stores them. Made once per subject (kept while its count is right).
"""

from __future__ import annotations

from typing import Any

MESSAGES_PER_FACT = 1
SESSION_TURNS = 20
CHINESE = [
    "我喜欢喝龙井茶。",
    "周末我们去公园散步。",
    "我对花生过敏。",
    "我在一家银行工作。",
    "我的猫叫年糕。",
    "明天要去看医生。",
    "我们计划去杭州旅行。",
    "我每周六去游泳。",
]


def subject_messages(tenant_id: int, subject_id: int, facts: int, measured: list[int]) -> None:
    """Give the subject `facts * MESSAGES_PER_FACT` messages, unless it has that many already."""
    from django.db import connection

    from conversations.models import Message, Session
    from memory_site.pgio import SEARCH_VECTOR_SQL

    n = facts * MESSAGES_PER_FACT
    if Message.objects.filter(subject_id=subject_id).count() == n:
        return
    Message.objects.filter(subject_id=subject_id).delete()
    Session.objects.filter(subject_id=subject_id).delete()
    sessions = Session.objects.bulk_create(
        Session(tenant_id=tenant_id, subject_id=subject_id, external_id=f"scale-s{i}")
        for i in range((n + SESSION_TURNS - 1) // SESSION_TURNS)
    )
    template = Message.objects.create(
        tenant_id=tenant_id, subject_id=subject_id, session=sessions[0], role="user", content="template"
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'conversations_message' "
            "AND column_name <> 'id' AND is_generated = 'NEVER' ORDER BY ordinal_position"
        )
        cols = [c for (c,) in cursor.fetchall()]
        sv = SEARCH_VECTOR_SQL.replace("%s", "d.content")
        overrides: dict[str, str] = {
            "session_id": f"(%s::bigint[])[(d.i - 1) / {SESSION_TURNS} + 1]",
            "content": "d.content",
            "external_id": "'scale-m' || d.i",
            "job_id": "gen_random_uuid()",
            "extraction_state": "'done'",
            "search_vector": sv,
            "embedding": "d.embedding",
            "created_at": "now() - (d.i * interval '1 hour')",
            "updated_at": "now()",
            "received_at": "now() - (d.i * interval '1 hour')",
        }
        select = ", ".join(overrides.get(c, f"tpl.{c}") for c in cols)
        zh = "ARRAY[" + ", ".join(f"'{t}'" for t in CHINESE) + "]"
        cursor.execute(
            f"INSERT INTO conversations_message ({', '.join(cols)}) SELECT {select} FROM ("
            f"SELECT row_number() OVER (ORDER BY f.id) AS i, f.embedding, f.text || CASE WHEN f.id %% 7 = 0 "
            f"THEN ' ' || ({zh})[f.id %% {len(CHINESE)} + 1] ELSE '' END AS content FROM facts_fact f "
            "WHERE f.subject_id <> ALL(%s) ORDER BY f.id LIMIT %s) d "
            "CROSS JOIN (SELECT * FROM conversations_message WHERE id = %s) tpl",
            [[s.pk for s in sessions], measured, n, template.pk],
        )
        cursor.execute("DELETE FROM conversations_message WHERE id = %s", [template.pk])
        cursor.execute("ANALYZE conversations_message")


def scale_messages(sizes: Any, tenant_name: str) -> None:
    """Messages for each timed subject (external id, facts)."""
    from conversations.models import Subject
    from conversations.services import tenant_get_or_create
    from facts.services.turn_keywords import turn_keywords_backfill

    tenant = tenant_get_or_create(name=tenant_name)
    subjects = {
        s.external_id: s.pk for s in Subject.objects.filter(tenant=tenant, external_id__in=[x for x, _ in sizes])
    }
    measured = list(subjects.values())
    for external_id, facts in sizes:
        if external_id in subjects:
            subject_messages(tenant.pk, subjects[external_id], facts, measured)
            turn_keywords_backfill(subject_id=subjects[external_id])  # as extraction stores them
