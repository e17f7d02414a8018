"""The export (API and portal, JSON and CSV, one schema) and the erasure that cascades and is proven."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from conversations.models import Message, Subject
from facts.fingerprints import subject_key
from facts.models import AccessLog, Fact, FactChange, FactHistory, ForgottenFingerprint, SearchCall
from facts.retrieval.access import AccessRecord, facts_record_access
from facts.services import messages_extract
from policies.models import ExportJob, PortalLink, SubjectErasure
from policies.portal.services import export_job_run, exports_purge_expired
from tests.conftest import Persona
from tests.policies.conftest import portal_client

TOP_LEVEL = [
    "schema", "exported_at", "subject", "facts", "messages", "forgotten_facts", "conflicts", "sessions", "summaries",
    "profile", "access_log", "search_calls", "context_calls",
]  # fmt: skip


def _export(persona: Persona, fmt: str = "json", user: str | None = None):  # type: ignore[no-untyped-def]
    return persona.get("export", user=user, data={"format": fmt})


def _body(response) -> bytes:  # type: ignore[no-untyped-def]
    return b"".join(response.streaming_content)


def _verify(tenant: str, user: str) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("verify_erasure", tenant=tenant, user=user, stdout=out)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue()
    except Exception as exc:  # CommandError outside the command line
        return int(getattr(exc, "returncode", 1)), out.getvalue() + str(exc)
    return 0, out.getvalue()


@pytest.mark.django_db
def test_json_export_holds_everything_in_the_documented_schema(alice: Persona) -> None:
    alice.ingest("I live in Hangzhou.", "My sister Lin is a doctor.", external_id=None)
    corrected = alice.post("facts", {"text": "User likes green tea."}).json()
    alice.client.patch(
        f"/api/v1/users/alice/facts/{corrected['id']}", {"text": "User likes jasmine tea."}, format="json"
    )
    forgotten = alice.post("facts", {"text": "User owes Bob 50 yuan."}).json()
    alice.client.delete(f"/api/v1/users/alice/facts/{forgotten['id']}")
    response = _export(alice)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="memory-export-')
    data = json.loads(_body(response))
    assert list(data) == TOP_LEVEL and data["schema"] == "memory-site.export/1"
    assert data["subject"]["user"] == "alice" and data["subject"]["memory_paused"] is False
    texts = {f["text"]: f for f in data["facts"]}
    assert "User likes jasmine tea." in texts and "User owes Bob 50 yuan." not in json.dumps(data)
    tea = texts["User likes jasmine tea."]
    assert [h["event"] for h in tea["history"]] == ["created", "corrected"]
    assert tea["history"][1]["before_text"] == "User likes green tea."
    from_message = next(f for f in data["facts"] if f["sources"])
    assert {"message_id", "external_id", "session_id", "created_at"} <= set(from_message["sources"][0])
    assert [m["content"] for m in data["messages"]] == ["I live in Hangzhou.", "My sister Lin is a doctor."]
    assert data["messages"][0]["session_id"] == "s1"
    assert [e["event"] for e in data["forgotten_facts"]] == ["created", "forgotten"]
    assert data["access_log"] and data["access_log"][-1]["operation"] == "export:json"  # this export is logged
    assert data["access_log"][-1]["agent"].startswith("alice (ms_")


@pytest.mark.django_db
def test_csv_export_is_the_facts_with_their_sources_and_no_formulas(alice: Persona) -> None:
    alice.ingest("我住在杭州。")
    alice.post("facts", {"text": '=HYPERLINK("http://x") is what user typed'})
    response = _export(alice, "csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    text = _body(response).decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    assert len(rows) == Fact.objects.filter(subject__external_id="alice").count() == 2
    chinese = next(r for r in rows if "杭州" in r["text"])
    assert chinese["source_texts"] == "我住在杭州。" and chinese["source_message_ids"]
    formula = next(r for r in rows if "HYPERLINK" in r["text"])
    assert formula["text"].startswith("'=")
    assert alice.get("export", data={"format": "xml"}).status_code == 400


@pytest.mark.django_db
def test_export_and_erase_are_only_for_the_callers_tenant_and_user(
    alice: Persona, bob: Persona, carol: Persona, anon_client
) -> None:  # type: ignore[no-untyped-def]
    alice.post("facts", {"text": "User lives in Hangzhou."})
    bob.post("facts", {"text": "User lives in Chengdu."}, user="bob")
    assert carol.get("export", user="alice").status_code == 404
    assert carol.client.delete("/api/v1/users/alice").status_code == 404
    assert anon_client.get("/api/v1/users/alice/export").status_code == 401
    assert anon_client.delete("/api/v1/users/alice").status_code == 401
    assert alice.get("export", user="nobody").status_code == 404
    bobs = json.loads(_body(bob.get("export", user="bob")))
    assert [f["text"] for f in bobs["facts"]] == ["User lives in Chengdu."]
    assert Subject.objects.filter(external_id="alice").exists()


@pytest.mark.django_db
def test_delete_user_erases_every_trace_and_verify_erasure_proves_it(alice: Persona, bob: Persona) -> None:
    alice.ingest("I live in Hangzhou.", "I have a corgi named Doubao.", "My sister Lin is a doctor.", "I like tea.")
    alice.ingest("I moved to Beijing.", external_id="m5")
    alice.post("facts", {"text": "User is allergic to penicillin."})
    bob.post("facts", {"text": "User lives in Chengdu."}, user="bob")
    subject = Subject.objects.get(external_id="alice")
    fact_ids = list(Fact.objects.filter(subject=subject).values_list("pk", flat=True))
    facts_record_access(record=AccessRecord(subject_id=subject.pk, tenant_id=subject.tenant_id, fact_ids=fact_ids,
                                            api_key_id=None, took_ms=1.0, result_count=len(fact_ids)))  # fmt: skip
    alice.post("context", {"query": "where do I live"})
    link = portal_client(alice)
    assert AccessLog.objects.filter(subject=subject).exists() and SearchCall.objects.filter(subject=subject).exists()
    assert FactChange.objects.filter(subject_id=subject.pk).exists()
    assert _verify("tenant-a", "alice")[0] == 2  # nothing erased yet: nothing to prove

    response = alice.client.delete("/api/v1/users/alice")
    assert response.status_code == 204
    for path in ("facts", "export", f"facts/{fact_ids[0]}", "conflicts"):
        assert alice.get(path).status_code == 404, path
    assert alice.search("Hangzhou").status_code == 404
    assert alice.post("context", {"query": "x"}).status_code == 404
    assert alice.post("portal-link", {}).status_code == 404
    assert alice.client.delete("/api/v1/users/alice").status_code == 404
    assert link.get("/me/").status_code == 403  # the portal session went with the subject
    assert not Message.objects.filter(content__contains="Hangzhou").exists()
    assert not FactHistory.objects.filter(subject_id=subject.pk).exists()
    assert not FactChange.objects.filter(subject_id=subject.pk).exists()
    assert not PortalLink.objects.exists()
    assert Fact.objects.filter(subject__external_id="bob").count() == 1  # bob is untouched
    receipt = SubjectErasure.objects.get()
    assert receipt.actor == "agent" and receipt.counts["facts.fact"] == len(fact_ids)
    assert "Hangzhou" not in json.dumps(receipt.former_ids) + json.dumps(receipt.counts)
    code, out = _verify("tenant-a", "alice")
    assert code == 0, out
    assert "No remnant" in out
    key = subject_key(tenant_id=alice.tenant.pk, external_id="alice")
    assert ForgottenFingerprint.objects.filter(subject_key=key).count() >= len(fact_ids)  # hashes, no text


@pytest.mark.django_db
def test_verify_erasure_finds_a_remnant_and_a_forgotten_text_that_came_back(alice: Persona) -> None:
    alice.ingest("I have a corgi named Doubao.")
    subject = Subject.objects.get(external_id="alice")
    fact_ids = list(Fact.objects.filter(subject=subject).values_list("pk", flat=True))
    alice.client.delete("/api/v1/users/alice")
    assert _verify("tenant-a", "alice")[0] == 0
    # A row holding a former id (written behind the erasure's back) is a remnant.
    FactChange.objects.create(subject_id=subject.pk)
    code, out = _verify("tenant-a", "alice")
    assert code == 1 and "facts_factchange.subject_id" in out
    FactChange.objects.filter(subject_id=subject.pk).delete()
    FactChange.objects.create(subject_id=subject.pk + 1000, fact_id=fact_ids[0])  # a former fact named elsewhere
    code, out = _verify("tenant-a", "alice")
    assert code == 1 and "facts_factchange.fact_id" in out
    FactChange.objects.filter(fact_id=fact_ids[0]).delete()
    # The user comes back later and the same words are written directly: the former text is found again.
    alice.post("facts", {"text": "I have a corgi named Doubao."})
    code, out = _verify("tenant-a", "alice")
    assert code == 1 and "facts_fact" in out and "created after the erasure" in out


@pytest.mark.django_db
def test_re_sent_messages_do_not_bring_erased_facts_back(alice: Persona) -> None:
    fact = alice.ingest("I have a corgi named Doubao.", external_id="m1").json()["facts"][0]
    alice.client.delete("/api/v1/users/alice")
    again = alice.ingest("I have a corgi named Doubao.", external_id="m1").json()
    assert again["facts"] == [] and not Fact.objects.filter(text=fact["text"]).exists()


@pytest.mark.django_db
def test_tasks_left_behind_by_an_erased_subject_find_nothing(alice: Persona) -> None:
    alice.ingest("I live in Hangzhou.", wait=False)
    subject = Subject.objects.get(external_id="alice")
    message_ids = list(Message.objects.filter(subject=subject).values_list("pk", flat=True))
    session_id = Message.objects.get(pk=message_ids[0]).session_id
    alice.client.delete("/api/v1/users/alice")
    from conversations.tasks import session_summarize_task
    from facts.context.tasks import profile_rebuild_task

    assert messages_extract(message_ids=message_ids) == []
    assert profile_rebuild_task(subject.pk) == 0
    assert session_summarize_task(session_id) == {"mid_created": 0, "far_rounds": 0, "snapshots": 0}
    facts_record_access(record=AccessRecord(subject_id=subject.pk, tenant_id=alice.tenant.pk, fact_ids=[1],
                                            api_key_id=None, took_ms=1.0, result_count=1))  # fmt: skip
    assert not AccessLog.objects.exists() and not SearchCall.objects.exists()
    assert _verify("tenant-a", "alice")[0] == 0


@pytest.mark.django_db
def test_forget_everything_in_the_portal_is_the_same_erasure(alice: Persona) -> None:
    alice.ingest("I live in Hangzhou.")
    browser = portal_client(alice)
    page = browser.get("/me/forget-everything/").content.decode()
    assert "cannot be undone" in page
    assert browser.post("/me/forget-everything/", {}).status_code == 400  # not confirmed: nothing happens
    assert Subject.objects.filter(external_id="alice").exists()
    done = browser.post("/me/forget-everything/", {"confirm": "yes"})
    assert done.status_code == 200 and "Everything about you is erased" in done.content.decode()
    assert not Subject.objects.filter(external_id="alice").exists()
    assert SubjectErasure.objects.get().actor == "end_user"
    assert browser.get("/me/").status_code == 403
    assert _verify("tenant-a", "alice")[0] == 0


@pytest.mark.django_db
def test_a_small_export_downloads_from_the_portal_at_once(alice: Persona) -> None:
    alice.ingest("I live in Hangzhou.")
    browser = portal_client(alice)
    response = browser.post("/me/export/", {"format": "json"})
    assert response.status_code == 200 and response["Content-Disposition"].startswith("attachment;")
    data = json.loads(b"".join(response.streaming_content))
    assert data["subject"]["user"] == "alice" and data["access_log"][-1]["actor"] == "end_user"
    csv_response = browser.post("/me/export/", {"format": "csv"})
    assert "I live in Hangzhou." in b"".join(csv_response.streaming_content).decode()  # the source's text
    assert Client().post("/me/export/", {"format": "json"}).status_code == 403


@pytest.mark.django_db
def test_a_worker_built_export_downloads_until_its_link_expires(alice: Persona, bob: Persona, settings) -> None:  # type: ignore[no-untyped-def]
    settings.EXPORT_INLINE_MAX = 0
    alice.ingest("I live in Hangzhou.")
    bob.post("facts", {"text": "User lives in Chengdu."}, user="bob")
    browser = portal_client(alice)
    location = browser.post("/me/export/", {"format": "csv"})["Location"]
    job = ExportJob.objects.get()
    assert 'data-state="pending"' in browser.get(location).content.decode()
    assert export_job_run(export_id=job.pk) and not export_job_run(export_id=job.pk)  # built once
    page = browser.get(location).content.decode()
    assert 'data-state="done"' in page and "hx-trigger" not in page  # done: the bar stops polling
    download = browser.get(location + "download/")
    assert download.status_code == 200 and b"I live in Hangzhou." in download.content
    assert portal_client(bob, user="bob").get(location + "download/").status_code == 404  # alice's, not bob's
    ExportJob.objects.update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    assert browser.get(location + "download/").status_code == 410
    assert exports_purge_expired() == 1 and not ExportJob.objects.exists()
