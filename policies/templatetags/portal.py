"""Template filters of the portal: the domain's codes in the reader's language."""

from __future__ import annotations

from django import template

from policies.portal import labels

register = template.Library()


@register.filter
def fact_type_label(code: str) -> str:
    return labels.fact_type(code)


@register.filter
def status_label(code: str) -> str:
    return str(labels.STATUSES.get(code, code))


@register.filter
def tier_label(code: str) -> str:
    return str(labels.TIERS.get(code, code))


@register.filter
def event_label(code: str) -> str:
    return str(labels.EVENTS.get(code, code))


@register.filter
def actor_label(code: str) -> str:
    return str(labels.ACTORS.get(code, code))


@register.filter
def get_count(counts: dict[str, int], code: str) -> int:
    return counts.get(code, 0) if isinstance(counts, dict) else 0
