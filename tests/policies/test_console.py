"""The dashboard: figures counted by the periodic job (never on a page view), per tenant and period, with and
without data; a tenant's operator sees its tenant only; the cost calculator matches a hand-computed example."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from conversations.models import Message
from facts.models import Fact, SearchCall
from policies.console.cost import CostInputs, cost_compare
from policies.console.selectors import histogram_percentile
from policies.console.services import usage_aggregate
from policies.console.tasks import usage_aggregate_task
from policies.models import LATENCY_BUCKETS_MS, UsageDaily
from tests.conftest import Persona
from tests.test_admin_tenancy import make_operator

DASHBOARD = "/admin/dashboard/"


@pytest.fixture
def superuser(db: None, django_user_model) -> Client:  # type: ignore[no-untyped-def]
    user = django_user_model.objects.create_superuser("root", "root@example.com", "pw-long-enough-123")
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def activity(
    alice: Persona, carol: Persona, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    """Ingest, direct writes (a conflict), searches and a context call in tenant A; a little in tenant B."""
    from celery import current_app

    # Searches are recorded (SearchCall) on commit, in batches sent to the worker; here, at once in-process.
    monkeypatch.setitem(current_app.conf, "task_always_eager", True)
    alice.ingest("Hi!", "I live in Beijing and I have a corgi named 豆包.", "我对花生过敏。", "Thanks!")
    alice.post("facts", {"text": "User doesn't like coffee."})
    alice.post("facts", {"text": "User loves coffee."})
    with django_capture_on_commit_callbacks(execute=True):
        for query in ("Where do I live?", "corgi", "quantum chromodynamics"):
            assert alice.search(query).status_code == 200
        assert alice.post("context", {"query": "What am I allergic to?"}).status_code == 200
        carol.ingest("I work at a bakery in Lyon.")
        assert carol.search("bakery").status_code == 200


def test_the_dashboard_renders_with_no_data(superuser: Client) -> None:
    page = superuser.get(DASHBOARD)
    assert page.status_code == 200
    html = page.content.decode()
    assert "No figures yet" in html and 'data-testid="cost-result"' in html and "<svg" in html


def test_the_job_counts_what_happened_and_the_page_only_reads_its_rows(
    superuser: Client, alice: Persona, activity: None
) -> None:
    assert usage_aggregate(days=2) >= 2
    assert usage_aggregate(days=2) >= 2  # idempotent: the same rows again
    row = UsageDaily.objects.get(tenant=alice.tenant, day__gte=UsageDaily.objects.latest("day").day)
    assert row.messages == Message.objects.filter(tenant=alice.tenant).count() == 4
    assert row.messages_skipped >= 2 and row.messages_kept >= 1  # "Hi!" and "Thanks!" are dropped by the gate
    assert row.gate_reasons and sum(row.gate_reasons.values()) == row.messages_skipped
    assert (row.searches, row.context_calls) == (4, 1)  # the context call's query is a search too
    assert row.search_hits == SearchCall.objects.filter(tenant=alice.tenant, result_count__gt=0).count()
    assert sum(row.latency_histogram) == 4 and row.latency_p95_ms is not None
    assert row.conflicts_opened == 1 and row.full_history_tokens > 0 and row.context_tokens > 0
    held = sum(n for by_type in row.facts_by_tier_type.values() for n in by_type.values())
    assert held == Fact.objects.filter(tenant=alice.tenant).count()

    with CaptureQueriesContext(connection) as queries:
        page = superuser.get(DASHBOARD)
    assert page.status_code == 200
    tables = " ".join(q["sql"] for q in queries.captured_queries)
    assert "facts_fact" not in tables and "facts_searchcall" not in tables and "conversations_message" not in tables
    html = page.content.decode()
    assert f'data-testid="facts-total">{Fact.objects.count()}<' in html
    assert 'data-testid="searches">5<' in html


def test_an_operator_sees_only_its_tenant_on_the_dashboard(alice: Persona, carol: Persona, activity: None) -> None:
    usage_aggregate(days=1)
    operator, _ = make_operator("tenant-a", "ops-a")
    html = operator.get(DASHBOARD).content.decode()
    assert f'data-testid="facts-total">{Fact.objects.filter(tenant=alice.tenant).count()}<' in html
    assert 'data-testid="searches">4<' in html and "tenant-b" not in html
    assert operator.get(f"{DASHBOARD}?tenant={carol.tenant.pk}").status_code == 404
    assert operator.get(f"{DASHBOARD}?tenant={alice.tenant.pk}&days=7").status_code == 200


def test_a_superuser_picks_a_tenant_and_a_period(superuser: Client, carol: Persona, activity: None) -> None:
    usage_aggregate(days=1)
    html = superuser.get(f"{DASHBOARD}?tenant={carol.tenant.pk}&days=90").content.decode()
    assert 'data-testid="searches">1<' in html and "last 90 days" in html
    assert superuser.get(f"{DASHBOARD}?tenant=999999").status_code == 404


def test_the_cost_calculator_matches_the_hand_computed_seed_example() -> None:
    # 100 conversations a day for 30 days = 3000; each long-context prompt carries 30 days x 100 x (200 + 300)
    # = 1,500,000 history tokens + 200 = 1,500,200 input tokens: 4,500,600,000 in all, $13,501.80 at $3/M, plus
    # 900,000 output tokens at $15/M = $13.50. With memory: (2000 + 200) x 3000 = 6,600,000 input tokens = $19.80
    # + $13.50 = $33.30. An LLM extracting every turn adds 3000 x ((500 + 400) x 3 + 100 x 15) / 1e6 = $12.60.
    seed = cost_compare(CostInputs())
    assert seed.long_context_input_tokens == 4_500_600_000
    assert round(seed.long_context_cost, 2) == 13_515.30
    assert round(seed.memory_cost, 2) == 33.30
    assert round(seed.saved_share, 4) == round(1 - 33.30 / 13_515.30, 4)
    llm = cost_compare(CostInputs(llm_share=1.0))
    assert round(llm.extraction_cost, 2) == 12.60 and round(llm.memory_cost, 2) == 45.90
    stored = cost_compare(CostInputs(stored_facts=1_000_000))  # 2.5 GB at $0.10 per GB-month
    assert round(stored.storage_cost, 2) == 0.25


def test_the_calculator_on_the_page_takes_edited_prices_and_refuses_bad_input(superuser: Client) -> None:
    fields = {name: getattr(CostInputs(), name) for name in CostInputs.field_names()}
    html = superuser.get(DASHBOARD, {**fields, "price_input": 1, "price_output": 2}).content.decode()
    # 4,500,600,000 x $1/M + 900,000 x $2/M = $4,502.40; memory 6,600,000 x $1/M + $1.80 = $8.40
    assert 'data-testid="long-context-cost">$4,502.40<' in html
    assert 'data-testid="memory-cost">$8.40<' in html
    bad = superuser.get(DASHBOARD, {**fields, "price_input": -1, "llm_share": 2})
    assert bad.status_code == 400 and 'data-testid="cost-result"' not in bad.content.decode()
    assert "errornote" in bad.content.decode()


def test_the_job_is_on_the_beat_schedule_and_runs_as_a_task(alice: Persona) -> None:
    alice.ingest("I live in Hangzhou.")
    entry = settings.CELERY_BEAT_SCHEDULE["console-usage-aggregate"]
    assert entry["task"] == usage_aggregate_task.name
    assert usage_aggregate_task.apply(kwargs={"days": 1}).get() == 1
    assert UsageDaily.objects.get(tenant=alice.tenant).messages == 1


def test_period_percentiles_come_from_the_summed_histograms() -> None:
    histogram = [0] * (len(LATENCY_BUCKETS_MS) + 1)
    histogram[3] = 50  # <= 8 ms
    histogram[9] = 45  # <= 30 ms
    histogram[-1] = 5  # slower than the last bound
    assert histogram_percentile(histogram, 0.5) == 8.0
    assert histogram_percentile(histogram, 0.95) == 30.0
    assert histogram_percentile(histogram, 0.99) == float("inf")
    assert histogram_percentile([0] * len(histogram), 0.5) is None


def test_the_contribution_rate_counts_the_agents_ratings(superuser: Client, alice: Persona, carol: Persona) -> None:
    helped = alice.post("facts", {"text": "I am allergic to peanuts."}).json()["id"]
    useless = alice.post("facts", {"text": "我喜欢喝美式咖啡。"}).json()["id"]
    mine = carol.post("facts", {"text": "I work at a bakery in Lyon."}).json()["id"]
    assert alice.post("feedback", {"helped": [helped], "not_helped": [useless]}).status_code == 204
    assert alice.post("feedback", {"fact_ids": [helped], "useful": True, "call_type": "context"}).status_code == 204
    assert carol.post("feedback", {"not_helped": [mine]}).status_code == 204
    usage_aggregate(days=1)
    row = UsageDaily.objects.get(tenant=alice.tenant, day=UsageDaily.objects.latest("day").day)
    assert (row.feedback_useful, row.feedback_total) == (2, 3)
    html = superuser.get(f"{DASHBOARD}?tenant={alice.tenant.pk}").content.decode()
    assert 'data-testid="contribution-rate">67%<' in html
    html = superuser.get(f"{DASHBOARD}?tenant={carol.tenant.pk}").content.decode()
    assert 'data-testid="contribution-rate">0%<' in html
