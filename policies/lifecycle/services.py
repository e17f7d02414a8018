"""The lifecycle pass: every tenant's facts, a range of primary keys at a time, judged by its retention policies.

Per batch, in order: expiry (past `expires_at`: deleted, history text dropped), deletion by policy, value rescoring,
vector dropping, archiving, and restoring what a search found since it was archived; then, per tenant, consolidation
of near-duplicates. Subjects whose memory is paused are skipped, pinned facts are never moved, a subject at the cold
start (fewer searchable facts than search's threshold) keeps its facts active. Each action re-checks its condition as
it writes, so the pass is idempotent (a second run at the same clock does nothing) and needs no lock but a row's.
A dry run computes the same counts and writes nothing but its LifecycleRun row.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from django.conf import settings
from django.db.models import Max
from django.utils import timezone

from conversations.models import Message, Subject, Tenant
from facts import lifecycle as due
from facts import services as fact_services
from facts.models import Actor, Fact
from facts.retrieval.scope import ScopeTuning
from facts.services import tiers
from policies.lifecycle.selectors import tenant_rules
from policies.models import Feedback, LifecycleRun

logger = logging.getLogger(__name__)

ACTIONS = ("archived", "restored", "deleted", "expired", "merged", "vectors_dropped", "rescored")
# Two facts whose vectors are this alike, of one type and sharing an entity, say the same thing (the write path
# merges at 0.9 only when nothing new is said; consolidation is stricter as it has no candidate text to compare).
CONSOLIDATE_SIMILARITY = 0.92
SUBJECTS_PER_CONSOLIDATION_BATCH = 200
EXPIRY_LABEL = "expires_at"


@dataclass
class PassReport:
    counts: Counter[str] = field(default_factory=Counter)
    details: Counter[tuple[str, str]] = field(default_factory=Counter)  # (policy label, action) -> facts
    scanned: int = 0
    consolidation_mark: dt.datetime | None = None  # the earliest of its tenants' (facts.lifecycle.consolidation_mark)

    def add(self, action: str, by_label: Mapping[str, int]) -> None:
        for label, n in by_label.items():
            if n:
                self.counts[action] += n
                self.details[(label, action)] += n

    def as_counts(self) -> dict[str, int]:
        return {action: int(self.counts.get(action, 0)) for action in ACTIONS}

    def as_details(self) -> list[dict[str, object]]:
        return [{"policy": p, "action": a, "count": n} for (p, a), n in sorted(self.details.items())]


def lifecycle_run(
    *, tenant: Tenant | None = None, now: dt.datetime | None = None, dry_run: bool = False, trigger: str = "manual"
) -> LifecycleRun:
    """Run every lifecycle job once as if at `now` (one tenant, or all); the run's row holds its counts."""
    now = now or timezone.now()
    run = LifecycleRun.objects.create(
        tenant=tenant, trigger=trigger, dry_run=dry_run, as_of=now, state=LifecycleRun.State.RUNNING,
        started_at=timezone.now(),
    )  # fmt: skip
    report = PassReport()
    try:
        for one in [tenant] if tenant is not None else Tenant.objects.order_by("pk"):
            tenant_pass(tenant=one, now=now, dry_run=dry_run, report=report)
    except Exception as exc:
        LifecycleRun.objects.filter(pk=run.pk).update(
            state=LifecycleRun.State.FAILED, error=repr(exc)[:255], finished_at=timezone.now(),
            counts=report.as_counts(), details=report.as_details(), facts_scanned=report.scanned,
        )  # fmt: skip
        raise
    run.state = LifecycleRun.State.DONE
    run.counts, run.details, run.facts_scanned = report.as_counts(), report.as_details(), report.scanned
    run.finished_at, run.consolidation_mark = timezone.now(), report.consolidation_mark
    run.save(update_fields=["state", "counts", "details", "facts_scanned", "finished_at", "consolidation_mark"])
    logger.info("lifecycle run %s (%s): %s", run.pk, "dry" if dry_run else "applied", run.counts)
    return run


def tenant_pass(*, tenant: Tenant, now: dt.datetime, dry_run: bool, report: PassReport) -> None:
    """One tenant: its facts in batches of LIFECYCLE_BATCH_IDS primary keys, then consolidation."""
    bounds = due.fact_id_bounds(tenant_id=tenant.pk)
    if bounds is None:
        return
    rules = tenant_rules(tenant=tenant)
    cold = ScopeTuning().cold_start_min_facts
    step = settings.LIFECYCLE_BATCH_IDS
    for lo in range(bounds[0], bounds[1] + 1, step):
        scope = due.Scope(tenant_id=tenant.pk, lo=lo, hi=lo + step, now=now, rules=rules, cold_start=cold)
        batch_pass(scope, dry_run=dry_run, report=report)
    since = _last_consolidation_mark(tenant)
    mark = due.consolidation_mark()
    report.consolidation_mark = min(mark, report.consolidation_mark or mark)
    tenant_consolidate(tenant=tenant, dry_run=dry_run, report=report, since=since)


def _last_consolidation_mark(tenant: Tenant) -> dt.datetime | None:
    """From when the last applied pass over this tenant left changes to the next consolidation (None: never, or
    only before marks were kept): consolidation looks at subjects and facts changed since."""
    runs = LifecycleRun.objects.filter(
        state=LifecycleRun.State.DONE,
        dry_run=False,
        trigger__in=["nightly", "command"],
        consolidation_mark__isnull=False,
    )
    last = runs.filter(tenant__in=[tenant.pk]).aggregate(at=Max("consolidation_mark"))["at"]
    last_all = runs.filter(tenant__isnull=True).aggregate(at=Max("consolidation_mark"))["at"]
    found = [t for t in (last, last_all) if t is not None]
    return max(found) if found else None


def batch_pass(scope: due.Scope, *, dry_run: bool, report: PassReport) -> None:
    """One batch: one read of what is due (and the scores to store), then one statement per bulk action that has
    work (moves re-checked as they are written), deletions a few subjects at a time, and restores one by one."""
    todo = due.batch_due(scope)
    report.scanned += todo.scanned
    report.add("expired", _forget(todo.expired, dry_run, reason="expired", label=lambda _: EXPIRY_LABEL))
    report.add("deleted", _forget(todo.deleted, dry_run, reason="retention policy", label=lambda label: label))
    if todo.rescored:
        if dry_run:
            report.add("rescored", Counter(label for _, label in todo.rescored))
        else:
            report.add("rescored", tiers.facts_rescore([(pk, label, todo.scores[pk]) for pk, label in todo.rescored]))
    for action, write in (("vectors_dropped", tiers.facts_drop_vectors), ("archived", tiers.facts_archive)):
        items: list[tuple[int, str]] = getattr(todo, action)
        if not items:
            continue
        if dry_run:
            report.add(action, Counter(label for _, label in items))
        else:
            report.add(action, write(replace(scope, ids=tuple(pk for pk, _ in items))))
    restore = lambda fact, _: _restore(fact, "lifecycle:read-while-archived")  # noqa: E731
    report.add("restored", _each(todo.restored, dry_run, restore))


def _each(
    items: Iterable[tuple[int, str]],
    dry_run: bool,
    apply: Callable[[Fact, str], bool],
    label: Callable[[str], str] = str,
) -> Counter[str]:
    """Apply a one-fact service to each (fact id, policy label); label -> facts it changed (would change, dry)."""
    done: Counter[str] = Counter()
    items = list(items)
    facts = {f.pk: f for f in Fact.objects.filter(pk__in=[pk for pk, _ in items]).defer("embedding", "embedding_zh")}
    for pk, policy in items:
        fact = facts.get(pk)
        if fact is not None and (dry_run or apply(fact, policy)):
            done[label(policy)] += 1
    return done


def _forget(items: list[tuple[int, str]], dry_run: bool, *, reason: str, label: Callable[[str], str]) -> Counter[str]:
    """Delete facts as retention does (facts_forget_many): the row, vector and history text go; no fingerprint (the
    user did not ask to forget it, so saying it again is learnt again). Policy label -> facts deleted."""
    if not items:
        return Counter()
    if not dry_run:
        actor_ids = {pk: f"policy:{label(policy)}" for pk, policy in items}
        tiers.facts_forget_many(fact_ids=sorted(actor_ids), actor_ids=actor_ids, reason=reason)
        present = set(Fact.objects.filter(pk__in=list(actor_ids)).values_list("pk", flat=True))
        items = [(pk, policy) for pk, policy in items if pk not in present]
    return Counter(label(policy) for _, policy in items)


def _restore(fact: Fact, actor_id: str) -> bool:
    restored = fact_services.fact_restore(fact=fact, actor=Actor.SYSTEM, actor_id=actor_id)
    return restored.tier == Fact.Tier.ACTIVE


# --- consolidation ----------------------------------------------------------------------------------------------


def tenant_consolidate(*, tenant: Tenant, dry_run: bool, report: PassReport, since: dt.datetime | None) -> None:
    """Merge the tenant's near-duplicates, a range of subjects at a time: every subject with facts the first time;
    after a consolidation (`since`, its mark), only the subjects whose facts changed since (the change log) and in
    them the pairs with a changed fact, so a pass where nothing changed reads no fact here."""
    size = SUBJECTS_PER_CONSOLIDATION_BATCH
    if since is not None:
        changed = due.subjects_changed(tenant_id=tenant.pk, since=since)
        for i in range(0, len(changed), size):
            chunk = changed[i : i + size]
            report.add("merged", consolidate(tenant_id=tenant.pk, subject_ids=chunk, dry_run=dry_run, since=since))
        return
    after = 0
    while subjects := due.subjects_with_facts(tenant_id=tenant.pk, after=after, limit=size):
        report.add("merged", consolidate(tenant_id=tenant.pk, subject_ids=subjects, dry_run=dry_run, since=None))
        after = subjects[-1]


def consolidate(
    *, tenant_id: int, subject_ids: list[int], dry_run: bool, since: dt.datetime | None, job: str = "nightly"
) -> Counter[str]:
    """Merge each near-duplicate pair of these subjects into its older fact; kind -> merges."""
    pairs = due.duplicate_pairs(
        tenant_id=tenant_id, subject_ids=subject_ids, min_similarity=CONSOLIDATE_SIMILARITY, changed_since=since,
        cold_start=ScopeTuning().cold_start_min_facts,
    )  # fmt: skip
    merged: Counter[str] = Counter()
    for pair in pairs:
        label = f"consolidation/{pair.kind}"
        if dry_run:
            merged[label] += 1
            continue
        data = {"job": f"lifecycle.consolidation.{job}", "kind": pair.kind, "similarity": pair.similarity}
        if tiers.fact_absorb(keep_id=pair.keep_id, duplicate_id=pair.duplicate_id, actor_id=label, data=data):
            Feedback.objects.filter(fact__isnull=True, fact_id_rated=pair.duplicate_id).update(fact=pair.keep_id)
            merged[label] += 1
    return merged


def subject_consolidate_if_due(*, subject_id: int, every: int | None = None) -> int:
    """After every `every` (LIFECYCLE_CONSOLIDATE_EVERY_TURNS) new turns of a subject: consolidate its facts.

    The claim is a conditional update of the subject's turn mark, so two tasks for the same turns merge once.
    """
    every = every or settings.LIFECYCLE_CONSOLIDATE_EVERY_TURNS
    subject = Subject.objects.filter(pk=subject_id, memory_paused=False).first()
    if subject is None:
        return 0
    turns = Message.objects.filter(subject_id=subject_id).count()
    mark = subject.last_consolidated_message_count
    if turns - mark < every:
        return 0
    claimed = Subject.objects.filter(pk=subject_id, last_consolidated_message_count=mark).update(
        last_consolidated_message_count=turns
    )
    if claimed != 1:
        return 0
    merged = consolidate(tenant_id=subject.tenant_id, subject_ids=[subject_id], dry_run=False, since=None, job="turns")
    if merged:
        report = PassReport()
        report.add("merged", merged)
        LifecycleRun.objects.create(
            tenant_id=subject.tenant_id, trigger="turns", as_of=timezone.now(), state=LifecycleRun.State.DONE,
            counts=report.as_counts(), details=report.as_details(), started_at=timezone.now(),
            finished_at=timezone.now(),
        )  # fmt: skip
    return sum(merged.values())
