"""The words the portal shows for the domain's codes (fact types, states, history events), in both languages."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from facts.models import Actor, Fact, FactHistory, FactType

FACT_TYPES: dict[str, Promise] = {
    FactType.PROFILE: _("About you"),
    FactType.PREFERENCE: _("Preferences"),
    FactType.EVENT: _("Events"),
    FactType.RELATIONSHIP: _("Relationships"),
    FactType.COMPLAINT: _("Complaints"),
    FactType.INQUIRY: _("Questions"),
    FactType.COMMITMENT: _("Commitments"),
    FactType.DECISION: _("Decisions"),
    FactType.HEALTH: _("Health"),
    FactType.LEGAL: _("Legal"),
    FactType.OTHER: _("Other"),
}
STATUSES: dict[str, Promise] = {
    Fact.Status.ACTIVE: _("current"),
    Fact.Status.SUPERSEDED: _("replaced"),
    Fact.Status.CONFLICTED: _("disputed"),
}
TIERS: dict[str, Promise] = {Fact.Tier.ACTIVE: _("active"), Fact.Tier.ARCHIVED: _("archived")}
EVENTS: dict[str, Promise] = {
    FactHistory.Event.CREATED: _("learned"),
    FactHistory.Event.MERGED: _("heard again"),
    FactHistory.Event.UPDATED: _("updated"),
    FactHistory.Event.SUPERSEDED: _("replaced"),
    FactHistory.Event.CONFLICTED: _("found in conflict"),
    FactHistory.Event.CORRECTED: _("corrected"),
    FactHistory.Event.ARCHIVED: _("archived"),
    FactHistory.Event.RESTORED: _("restored"),
    FactHistory.Event.FORGOTTEN: _("forgotten"),
    FactHistory.Event.PINNED: _("pinned"),
    FactHistory.Event.RESOLVED: _("conflict settled"),
}
ACTORS: dict[str, Promise] = {
    Actor.AGENT: _("an agent"),
    Actor.OPERATOR: _("an operator"),
    Actor.END_USER: _("you"),
    Actor.SYSTEM: _("the system"),
}


def fact_type(code: str) -> str:
    return str(FACT_TYPES.get(code, code))


def type_choices() -> list[tuple[str, str]]:
    return [(code, str(label)) for code, label in FACT_TYPES.items()]


def status_choices() -> list[tuple[str, str]]:
    return [(code, str(label)) for code, label in STATUSES.items()]


def tier_choices() -> list[tuple[str, str]]:
    return [(code, str(label)) for code, label in TIERS.items()]
