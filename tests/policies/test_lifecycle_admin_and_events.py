"""The lifecycle in the admin (a policy's dry run, runs read-only, a fact's value explained), its webhook events,
its beat entry, search's in-memory state following a move, and consolidation after 50 turns."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from facts.models import Fact, FactChange, FactHistory
from integrations.webhooks.changes import changes_from_history
from policies.lifecycle.services import lifecycle_run, subject_consolidate_if_due
from policies.models import LifecycleRun, RetentionPolicy
from tests.conftest import Persona
from tests.factories import MessageFactory, SessionFactory
from tests.policies.test_lifecycle import NOW, add_fact, keepers, subject_of


@pytest.fixture
def operator(db: None, django_user_model: Any) -> Client:
    user = django_user_model.objects.create_superuser("op", "op@example.com", "pw-long-enough-123")
    client = Client()
    client.force_login(user)
    return client


def test_a_policys_dry_run_in_the_admin_shows_what_it_would_do_and_changes_nothing(
    operator: Client, alice: Persona
) -> None:
    subject = subject_of(alice)
    keepers(subject)
    policy = RetentionPolicy.objects.create(tenant=alice.tenant, fact_type="preference", archive_after_days=0)
    response = operator.post(
        reverse("admin:policies_retentionpolicy_changelist"),
        {"action": "dry_run", "_selected_action": [policy.pk]},
        follow=True,
    )
    assert response.status_code == 200
    shown = " ".join(str(m) for m in response.context["messages"])
    assert f"tenant-a/preference#{policy.pk}: archived 5" in shown
    assert not Fact.objects.filter(tier="archived").exists()
    run = LifecycleRun.objects.get()
    assert run.dry_run and run.trigger == "admin" and run.counts["archived"] == 5
    page = operator.get(reverse("admin:policies_lifecyclerun_change", args=[run.pk]))
    assert page.status_code == 200 and b'name="counts"' not in page.content  # read-only
    assert operator.get(reverse("admin:policies_lifecyclerun_add")).status_code == 403


def test_the_fact_admin_explains_the_value_score(operator: Client, alice: Persona) -> None:
    fact = add_fact(subject_of(alice), "I am allergic to penicillin.", type="health")
    page = operator.get(reverse("admin:facts_fact_change", args=[fact.pk]))
    assert page.status_code == 200
    for part in (b"Value score, explained", b"importance (fact and type)", b"mentions", b"reads", b"feedback",
                 b"time decay", b"default/health"):  # fmt: skip
        assert part in page.content


def test_moves_are_announced_to_webhooks_and_logged_for_search_memory(
    alice: Persona, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = True
    hook = alice.client.post("/api/v1/webhooks", {"url": "http://127.0.0.1:9/h", "events": ["fact.updated"]},
                             format="json")  # fmt: skip
    assert hook.status_code == 201, hook.content
    subject = subject_of(alice)
    keepers(subject)
    inquiry = add_fact(subject, "Does the shop deliver to Hangzhou on Sundays?", type="inquiry")
    logged = FactChange.objects.filter(subject_id=subject.pk).count()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        lifecycle_run(tenant=alice.tenant, now=NOW + dt.timedelta(days=31))
    sent = [c for c in callbacks if getattr(c, "name", "") == "integrations.webhooks.tasks.subject_events_collect_task"]
    assert [c.args for c in sent] == [(subject.pk,)]
    assert FactChange.objects.filter(subject_id=subject.pk).count() > logged  # web processes' held vectors go stale
    rows = list(FactHistory.objects.filter(subject=subject, event="archived"))
    changes = changes_from_history(rows)
    assert [(c.event, c.data["change"], c.data["fact"]["id"]) for c in changes] == [
        ("fact.updated", "archived", inquiry.pk)
    ]


def test_the_nightly_pass_is_in_the_one_beat_schedule() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["lifecycle-nightly"]
    assert entry["task"] == "policies.lifecycle.tasks.lifecycle_nightly_task"
    assert "policies.lifecycle.tasks" in settings.CELERY_IMPORTS


def test_a_subject_is_consolidated_after_50_new_turns_once(alice: Persona) -> None:
    subject = subject_of(alice)
    keepers(subject)
    ents = [{"text": "Lisbon", "type": "place"}]
    add_fact(subject, "I am planning a trip to Lisbon in May.", type="event", entities=ents, entity_keys=["lisbon"])
    add_fact(subject, "I am planning a trip to Lisbon in May!", type="event", entities=ents, entity_keys=["lisbon"])
    session = SessionFactory(tenant=alice.tenant, subject=subject)
    for i in range(49):
        MessageFactory(tenant=alice.tenant, subject=subject, session=session, content=f"turn {i}")
    assert subject_consolidate_if_due(subject_id=subject.pk) == 0
    MessageFactory(tenant=alice.tenant, subject=subject, session=session, content="turn 50")
    assert subject_consolidate_if_due(subject_id=subject.pk) == 1
    assert subject_consolidate_if_due(subject_id=subject.pk) == 0  # claimed: the same turns merge once
    run = LifecycleRun.objects.get(trigger="turns")
    assert run.counts["merged"] == 1
