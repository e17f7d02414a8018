"""Reads of the lifecycle: the rules in force for a tenant (its policies, else the shipped defaults), value parts."""

from __future__ import annotations

import datetime as dt
from typing import Any

from conversations.models import Tenant
from facts.lifecycle import TypeRule
from facts.models import Fact, FactType
from facts.value import DEFAULT_HALF_LIFE_DAYS, value_parts
from policies.models import DEFAULT_RETENTION, LifecycleRun, RetentionPolicy

_FIELDS = ("archive_after_days", "drop_vector_after_days", "delete_after_days", "min_value_to_keep", "half_life_days")


def default_rule(fact_type: str) -> TypeRule:
    """The shipped default for a fact type (docs/lifecycle.md has the table)."""
    values: dict[str, Any] = {"min_value_to_keep": 0.0, "half_life_days": DEFAULT_HALF_LIFE_DAYS}
    values.update(DEFAULT_RETENTION.get(fact_type, {}))
    return _rule(fact_type, f"default/{fact_type}", values)


def _rule(fact_type: str, label: str, values: dict[str, Any]) -> TypeRule:
    days = {k: (int(values[k]) if values.get(k) is not None else None) for k in _FIELDS[:3]}
    return TypeRule(
        type=fact_type, label=label, archive_after_days=days["archive_after_days"],
        drop_vector_after_days=days["drop_vector_after_days"], delete_after_days=days["delete_after_days"],
        min_value_to_keep=float(values["min_value_to_keep"]), half_life_days=float(values["half_life_days"]),
    )  # fmt: skip


def policy_rule(policy: RetentionPolicy) -> TypeRule:
    label = f"{policy.tenant.name}/{policy.fact_type}#{policy.pk}"
    return _rule(policy.fact_type, label, {k: getattr(policy, k) for k in _FIELDS})


def tenant_rules(*, tenant: Tenant) -> list[TypeRule]:
    """One rule per fact type: the tenant's own policy where it has one, else the default. Never another tenant's."""
    own = {p.fact_type: p for p in RetentionPolicy.objects.filter(tenant=tenant).select_related("tenant")}
    return [policy_rule(own[t]) if t in own else default_rule(t) for t in FactType.values]


def fact_value_parts(*, fact: Fact, now: dt.datetime | None = None) -> dict[str, Any] | None:
    """The parts of a fact's value score under its tenant's rule for its type, as the next pass computes them."""
    rule = next(r for r in tenant_rules(tenant=fact.tenant) if r.type == fact.type)
    parts = value_parts(fact_id=fact.pk, half_life_days=rule.half_life_days, now=now or dt.datetime.now(dt.UTC))
    if parts is not None:
        parts["policy"] = rule.label
    return parts


def lifecycle_runs(*, tenant: Tenant | None = None) -> list[LifecycleRun]:
    runs = LifecycleRun.objects.all()
    return list(runs.filter(tenant=tenant) if tenant is not None else runs)
