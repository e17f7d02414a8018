"""The lifecycle jobs with a fixed clock: tiering, expiry, deletion, consolidation, dry runs, pins, pauses, tenants."""

from __future__ import annotations

import datetime as dt
import io
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from conversations.models import Subject
from conversations.services import subject_get_or_create
from facts.embedding import embed_texts
from facts.extraction.base import Candidate
from facts.models import Fact, FactChange, FactHistory
from facts.retrieval.access import flush_access_records
from facts.services import fact_insert
from policies.lifecycle.services import ACTIONS, consolidate, lifecycle_run
from policies.models import LifecycleRun, RetentionPolicy
from tests.conftest import Persona, wait_until

worker = pytest.mark.usefixtures("celery_worker_process")

# The clock every test judges by: the facts are made "now" (real time, a few seconds before), the runs are at
# NOW + n days.
NOW = timezone.now().replace(microsecond=0) + dt.timedelta(minutes=5)

KEEPERS_EN = [
    "I work as a nurse at the city hospital.",
    "My favourite colour is green.",
    "I moved to Shanghai in 2019.",
    "My sister lives in Hangzhou.",
    "I play tennis every Saturday morning.",
]
KEEPERS_ZH = ["我住在北京朝阳区。", "我喜欢喝美式咖啡。", "我对花生过敏。", "我在一家银行工作。", "我每周六去游泳。"]


def subject_of(persona: Persona, external_id: str | None = None) -> Subject:
    return subject_get_or_create(tenant=persona.tenant, external_id=external_id or persona.name)


def add_fact(subject: Subject, text: str, *, type: str = "preference", **fields: Any) -> Fact:
    """A fact stored as the pipeline stores it (search fields, embedding), then any extra fields set."""
    entities = fields.pop("entities", [])
    candidate = Candidate(message_id=0, text=text, type=type, entities=entities)
    fact = fact_insert(subject=subject, candidate=candidate, embedding=embed_texts([text])[0])
    if fields:
        Fact.objects.filter(pk=fact.pk).update(**fields)
    fact.refresh_from_db()
    return fact


def keepers(subject: Subject, texts: list[str] = KEEPERS_EN) -> list[Fact]:
    """Five preferences: past the cold start, and valued enough to stay active for years."""
    return [add_fact(subject, t, type="preference") for t in texts]


def run(days: float, *args: str) -> dict[str, int]:
    """`manage.py lifecycle --now NOW+days --json ...`; the counts of its last line."""
    out = io.StringIO()
    call_command("lifecycle", "--now", (NOW + dt.timedelta(days=days)).isoformat(), "--json", *args, stdout=out)
    last = out.getvalue().strip().splitlines()[-1]
    counts = json.loads(last)
    assert set(counts) == set(ACTIONS) and all(isinstance(v, int) for v in counts.values())
    return counts


def has_vector(fact: Fact) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT embedding IS NOT NULL, embedding_bits IS NOT NULL FROM facts_fact WHERE id = %s", [fact.pk]
        )
        vector, bits = cursor.fetchone()
    assert vector == bits  # the quantised copy follows the vector
    return bool(vector)


def found(persona: Persona, query: str, **kw: Any) -> list[int]:
    response = persona.search(query, **kw)
    assert response.status_code == 200, response.content
    return [r["id"] for r in response.json()["results"]]


def test_an_inquiry_unread_for_31_days_is_archived_and_found_by_keyword_only_with_include_archived(
    alice: Persona,
) -> None:
    subject = subject_of(alice)
    keepers(subject)
    inquiry = add_fact(subject, "Does the shop deliver to Hangzhou on Sundays?", type="inquiry")
    assert run(29)["archived"] == 0
    counts = run(31)
    assert counts["archived"] == 1
    inquiry.refresh_from_db()
    assert inquiry.tier == Fact.Tier.ARCHIVED
    assert not has_vector(inquiry)
    event = FactHistory.objects.filter(fact_uid=inquiry.uid, event=FactHistory.Event.ARCHIVED).get()
    assert event.actor == "system" and event.actor_id == "policy:default/inquiry"
    assert event.data["job"] == "lifecycle.tiering"
    assert inquiry.pk not in found(alice, "deliver Sundays")
    hits = alice.search("deliver Sundays", include_archived=True).json()["results"]
    assert [h["id"] for h in hits][:1] == [inquiry.pk]
    assert "vector" not in hits[0]["matched_by"]


@worker
@pytest.mark.django_db(transaction=True)
def test_a_search_that_finds_an_archived_fact_restores_it_re_embedded_by_a_worker(alice: Persona) -> None:
    subject = subject_of(alice)
    keepers(subject, KEEPERS_ZH)
    inquiry = add_fact(subject, "请问杭州周日可以送货吗？", type="inquiry")
    assert run(31)["archived"] == 1
    assert inquiry.pk in found(alice, "杭州 送货", include_archived=True)
    flush_access_records()  # the web process's read records go to the worker now, not in a second
    assert wait_until(
        lambda: Fact.objects.get(pk=inquiry.pk).tier == Fact.Tier.ACTIVE, timeout=240
    )  # the worker loads its model first
    assert has_vector(inquiry)
    restored = FactHistory.objects.get(fact_uid=inquiry.uid, event=FactHistory.Event.RESTORED)
    assert restored.actor_id == "lifecycle:restore-on-search"
    assert inquiry.pk in found(alice, "杭州 送货")  # active again: found without include_archived


@worker
@pytest.mark.django_db(transaction=True)
def test_an_archived_fact_mentioned_again_comes_back_re_embedded(alice: Persona) -> None:
    subject = subject_of(alice)
    keepers(subject)
    inquiry = add_fact(subject, "Does the shop deliver to Hangzhou on Sundays?", type="inquiry")
    assert run(31)["archived"] == 1
    response = alice.post("facts", {"text": "Does the shop deliver to Hangzhou on Sundays?", "type": "inquiry"})
    assert response.status_code in (200, 201), response.content
    assert wait_until(
        lambda: Fact.objects.get(pk=inquiry.pk).tier == Fact.Tier.ACTIVE, timeout=240
    )  # the worker loads its model first
    inquiry.refresh_from_db()
    assert inquiry.mention_count == 2 and has_vector(inquiry)
    assert FactHistory.objects.filter(fact_uid=inquiry.uid, actor_id="lifecycle:restore-on-mentioned").exists()


def test_a_complaint_loses_its_vector_at_91_days_and_is_gone_at_181(alice: Persona) -> None:
    subject = subject_of(alice)
    keepers(subject)
    complaint = add_fact(subject, "The courier broke my blender and nobody answered my emails.", type="complaint")
    assert run(89)["vectors_dropped"] == 0
    assert run(91)["vectors_dropped"] == 1
    complaint.refresh_from_db()
    assert complaint.tier == Fact.Tier.ACTIVE and not has_vector(complaint)
    assert complaint.pk in found(alice, "courier blender")  # still found, by keyword
    assert run(179)["deleted"] == 0
    counts = run(181)
    assert counts["deleted"] == 1
    assert alice.get(f"facts/{complaint.pk}").status_code == 404
    forgotten = FactHistory.objects.get(fact_uid=complaint.uid, event=FactHistory.Event.FORGOTTEN)
    assert forgotten.actor_id == "policy:default/complaint"
    assert not FactHistory.objects.filter(fact_uid=complaint.uid).exclude(before_text="", after_text="").exists()


def test_a_fact_deleted_by_policy_can_be_learnt_again(alice: Persona) -> None:
    """Retention deletes without a forgotten fingerprint: the user never asked to forget it."""
    subject = subject_of(alice)
    keepers(subject)
    add_fact(subject, "The courier broke my blender.", type="complaint")
    assert run(181)["deleted"] == 1
    response = alice.post("facts", {"text": "The courier broke my blender.", "type": "complaint"})
    assert response.status_code == 201, response.content


def test_an_expired_fact_is_deleted_by_the_job(alice: Persona) -> None:
    subject = subject_of(alice)
    keepers(subject)
    fact = add_fact(subject, "My door code is 4321 this week.", type="other", expires_at=NOW + dt.timedelta(days=7))
    assert run(6)["expired"] == 0
    assert run(8)["expired"] == 1
    assert not Fact.objects.filter(pk=fact.pk).exists()
    event = FactHistory.objects.get(fact_uid=fact.uid, event=FactHistory.Event.FORGOTTEN)
    assert event.actor_id == "policy:expires_at" and event.after_text == "" and event.before_text == ""


def test_consolidation_merges_two_near_duplicates_keeping_both_histories_and_sources(alice: Persona) -> None:
    subject = subject_of(alice)
    keepers(subject)
    ents = [{"text": "Lisbon", "type": "place"}]
    older = add_fact(subject, "I am planning a trip to Lisbon in May.", type="event", entities=ents,
                     entity_keys=["lisbon"])  # fmt: skip
    newer = add_fact(subject, "I am planning a trip to Lisbon in May!", type="event", entities=ents,
                     entity_keys=["lisbon"])  # fmt: skip
    FactHistory.objects.create(
        tenant_id=subject.tenant_id, subject=subject, fact=newer, fact_uid=newer.uid, event="created", actor="system",
        after_text=newer.text,
    )  # fmt: skip
    counts = run(1)
    assert counts["merged"] == 1
    assert not Fact.objects.filter(pk=newer.pk).exists()
    older.refresh_from_db()
    assert older.mention_count == 2
    history = alice.get(f"facts/{older.pk}/history").json()
    events = history["results"] if isinstance(history, dict) and "results" in history else history
    texts = {e.get("after_text") for e in events} | {e.get("before_text") for e in events}
    assert newer.text in texts  # the merged fact's history is the kept fact's now
    assert any(e["event"] == "merged" for e in events)
    assert run(1)["merged"] == 0


def test_consolidation_keeps_alike_facts_that_name_different_things(alice: Persona) -> None:
    """Two cats with their own names read alike as vectors; they are two facts, never merged."""
    subject = subject_of(alice)
    keepers(subject)
    for name in ("Pixel1", "Pixel2"):
        add_fact(subject, f"I adopted a cat named {name} and she sleeps on the red sofa.", type="profile",
                 entities=[{"text": name, "type": "pet"}], entity_keys=[name.lower(), "sofa"])  # fmt: skip
    assert run(1)["merged"] == 0
    assert Fact.objects.filter(subject=subject, text__contains="Pixel", mention_count=1).count() == 2


@pytest.mark.django_db(transaction=True)
def test_after_a_pass_consolidation_looks_only_at_subjects_and_facts_changed_since(alice: Persona) -> None:
    """The nightly consolidation reads what changed since the last one: a new fact is merged into an older, unchanged
    one; a subject without changes is not read (its pair, left from before, waits for its next change)."""
    hour_ago = timezone.now() - dt.timedelta(hours=1)
    lisbon = [{"text": "Lisbon", "type": "place"}]
    changed = subject_of(alice)
    older = add_fact(changed, "I am planning a trip to Lisbon in May.", type="event", entities=lisbon,
                     entity_keys=["lisbon"], updated_at=hour_ago)  # fmt: skip
    keepers(changed)
    quiet = subject_of(alice, "alice-quiet")
    keepers(quiet, KEEPERS_ZH)
    porto = [{"text": "Porto", "type": "place"}]
    for text in ("I am planning a trip to Porto in June.", "I am planning a trip to Porto in June!"):
        add_fact(quiet, text, type="event", entities=porto, entity_keys=["porto"], updated_at=hour_ago)
    # A pass consolidated everything up to now (its mark), as if the pair above had been left by an older rule.
    LifecycleRun.objects.create(
        trigger="nightly", state=LifecycleRun.State.DONE, as_of=NOW, consolidation_mark=timezone.now()
    )
    newer = add_fact(changed, "I am planning a trip to Lisbon in May!", type="event", entities=lisbon,
                     entity_keys=["lisbon"])  # fmt: skip
    counts = run(1)
    assert counts["merged"] == 1
    assert not Fact.objects.filter(pk=newer.pk).exists()
    older.refresh_from_db()
    assert older.mention_count == 2
    assert Fact.objects.filter(subject=quiet, text__contains="Porto").count() == 2
    whole = consolidate(tenant_id=quiet.tenant_id, subject_ids=[quiet.pk], dry_run=True, since=None)
    assert sum(whole.values()) == 1  # found when the whole subject is read (its next change, or 50 new turns)
    assert run(1)["merged"] == 0


def test_a_dry_run_changes_nothing_and_a_second_run_reports_zero(alice: Persona, carol: Persona) -> None:
    for persona in (alice, carol):
        subject = subject_of(persona)
        keepers(subject)
        add_fact(subject, "Does the shop deliver to Hangzhou on Sundays?", type="inquiry")
        add_fact(subject, "The courier broke my blender.", type="complaint")
        add_fact(subject, "My door code is 4321.", type="other", expires_at=NOW + dt.timedelta(days=3))
    before = list(Fact.objects.order_by("pk").values_list("pk", "tier", "access__value_score", "embedding_model"))
    history = FactHistory.objects.count()
    changes = FactChange.objects.count()
    dry = run(120, "--dry-run")
    assert dry["archived"] == 2 and dry["vectors_dropped"] == 2 and dry["expired"] == 2
    assert (
        list(Fact.objects.order_by("pk").values_list("pk", "tier", "access__value_score", "embedding_model")) == before
    )
    assert FactHistory.objects.count() == history and FactChange.objects.count() == changes
    applied = run(120)
    assert {k: applied[k] for k in ("archived", "vectors_dropped", "expired")} == {
        "archived": 2, "vectors_dropped": 2, "expired": 2,
    }  # fmt: skip
    assert applied["rescored"] > 0
    assert run(120) == dict.fromkeys(ACTIONS, 0)
    assert LifecycleRun.objects.filter(dry_run=True).count() == 1
    assert LifecycleRun.objects.filter(dry_run=False, state="done").count() == 2


def test_pinned_facts_and_paused_subjects_are_untouched(alice: Persona, bob: Persona) -> None:
    subject = subject_of(alice)
    keepers(subject)
    pinned = add_fact(subject, "Does the shop deliver to Hangzhou on Sundays?", type="inquiry", pinned=True)
    complaint = add_fact(subject, "The courier broke my blender.", type="complaint", pinned=True)
    paused = subject_of(bob)
    keepers(paused)
    bobs = add_fact(paused, "Does the shop deliver to Hangzhou on Sundays?", type="inquiry")
    bobs_complaint = add_fact(paused, "The courier broke my blender.", type="complaint")
    Subject.objects.filter(pk=paused.pk).update(memory_paused=True)
    bob_rows = list(Fact.objects.filter(subject=paused).order_by("pk").values_list("pk", "tier", "access__value_score"))
    counts = run(400)
    for fact in (pinned, complaint, bobs, bobs_complaint):
        fact.refresh_from_db()
        assert fact.tier == Fact.Tier.ACTIVE and has_vector(fact)
    assert (
        list(Fact.objects.filter(subject=paused).order_by("pk").values_list("pk", "tier", "access__value_score"))
        == bob_rows
    )
    assert counts["deleted"] == 0 and counts["archived"] == 0


def test_a_subject_at_the_cold_start_keeps_its_facts_active(alice: Persona) -> None:
    subject = subject_of(alice)
    inquiry = add_fact(subject, "Does the shop deliver to Hangzhou on Sundays?", type="inquiry")
    assert run(31)["archived"] == 0
    inquiry.refresh_from_db()
    assert inquiry.tier == Fact.Tier.ACTIVE


def test_another_tenants_policy_never_applies(alice: Persona, carol: Persona) -> None:
    RetentionPolicy.objects.create(tenant=carol.tenant, fact_type="preference", archive_after_days=1)
    for persona in (alice, carol):
        keepers(subject_of(persona))
    counts = lifecycle_run(tenant=alice.tenant, now=NOW + dt.timedelta(days=2)).counts
    assert counts["archived"] == 0
    assert not Fact.objects.filter(tier="archived").exists()
    counts = lifecycle_run(now=NOW + dt.timedelta(days=2)).counts  # every tenant: carol's policy, on carol only
    assert counts["archived"] == 5
    assert set(Fact.objects.filter(tier="archived").values_list("subject__tenant", flat=True)) == {carol.tenant.pk}
    event = FactHistory.objects.filter(event="archived").first()
    assert event is not None and event.actor_id.startswith("policy:tenant-b/preference#")


def test_the_value_score_is_explained_and_follows_reads_and_feedback(alice: Persona) -> None:
    from policies.lifecycle.selectors import fact_value_parts

    subject = subject_of(alice)
    keepers(subject)
    fact = add_fact(subject, "I am allergic to penicillin.", type="health")
    run(0)
    fact.refresh_from_db()
    parts = fact_value_parts(fact=fact, now=NOW)
    assert parts is not None and parts["score"] == fact.value_score
    assert parts["p_feedback"] == pytest.approx(0.5)
    assert alice.post("feedback", {"fact_ids": [fact.pk], "useful": True}).status_code == 204
    assert run(0)["rescored"] >= 1
    higher = Fact.objects.get(pk=fact.pk).value_score
    assert higher > fact.value_score
    later = run(730)
    assert later["rescored"] >= 1 and Fact.objects.get(pk=fact.pk).value_score < higher
