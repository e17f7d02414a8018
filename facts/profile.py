"""The profile: a short structured view (about 500 tokens) of a subject's current durable facts, by type.

Durable (facts/durable.py): never quotes of small talk, bare questions, inquiries or typeless remarks, nor a fact
that opens on a pronoun standing for something it does not name ("It's like therapy for her."), or whose object
is one ("Glazed it at a night class", 觉得那个挺适合她的; still found by search). Within a
section, facts that fill a slot (residence, employer, diet ...) come first: they are the person's current truth.

Current means status active or conflicted (shown as disputed), tier active, not ended (valid_to unset) and
not expired. Superseded, archived, expired and forgotten facts are never in it. The build is a pure function
of those facts, so rebuilding twice is harmless.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from conversations.models import Subject
from facts.durable import NOT_DURABLE_TYPES, is_durable, is_self_contained, refers_elsewhere
from facts.models import VALUE_SCORE_DEFAULT, Fact, FactType, Profile
from facts.tokens import count_tokens

PROFILE_TOKENS = 500
FACTS_CONSIDERED = 300
# Fetched before the durable filter, so a history of small talk still leaves FACTS_CONSIDERED to choose from.
FACTS_FETCHED = 3 * FACTS_CONSIDERED
# Section order is the order of importance when the budget runs short.
SECTIONS: list[tuple[str, str, list[str]]] = [
    ("identity", "Identity", [FactType.PROFILE]),
    ("health", "Health", [FactType.HEALTH]),
    ("preferences", "Preferences", [FactType.PREFERENCE]),
    ("relationships", "Relationships", [FactType.RELATIONSHIP]),
    ("open_complaints", "Open complaints", [FactType.COMPLAINT]),
    ("commitments", "Commitments", [FactType.COMMITMENT]),
    ("legal", "Legal", [FactType.LEGAL]),
    ("decisions", "Decisions", [FactType.DECISION]),
    ("events", "Events", [FactType.EVENT]),
    ("other", "Other", [FactType.INQUIRY, FactType.OTHER]),
]
REBUILD_TASK = "facts.context.tasks.profile_rebuild_task"


def profile_facts(*, subject: Subject, now: dt.datetime | None = None) -> list[Fact]:
    """The subject's current facts, most important first."""
    now = now or timezone.now()
    rows = (
        Fact.objects.filter(
            subject=subject,
            status__in=[Fact.Status.ACTIVE, Fact.Status.CONFLICTED],
            tier=Fact.Tier.ACTIVE,
            valid_to__isnull=True,
        )
        .exclude(Q(type__in=NOT_DURABLE_TYPES) & Q(pinned=False) & Q(event_time__isnull=True))
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
        .defer("embedding", "embedding_zh", "search_vector")
        .order_by(
            "-pinned",
            "-importance",
            Coalesce("access__value_score", Value(VALUE_SCORE_DEFAULT)).desc(),
            "-mention_count",
            "-valid_from",
            "-id",
        )[:FACTS_FETCHED]  # fmt: skip
    )
    durable = [
        f
        for f in rows
        if f.pinned
        or is_durable(text=f.text, type=f.type, has_time=f.event_time is not None)
        and is_self_contained(f.text)
    ]
    # Stable: slot facts first, then facts that say all they mean before those with a pronoun standing for a thing
    # named elsewhere; the order above kept otherwise.
    durable.sort(key=lambda f: (not f.predicate, refers_elsewhere(f.text)))
    return durable[:FACTS_CONSIDERED]


def _line(fact: Fact) -> str:
    disputed = " (disputed)" if fact.status == Fact.Status.CONFLICTED else ""
    if fact.event_time is not None:  # an event: the day it happened
        return f"- {fact.text}{disputed} [{fact.event_time:%Y-%m-%d}]"
    when = fact.valid_from or fact.created_at
    return f"- {fact.text}{disputed} [since {when:%Y-%m-%d}]"


def profile_render(*, subject: Subject, facts: list[Fact], max_tokens: int = PROFILE_TOKENS) -> tuple[str, dict]:
    """Text and sections under max_tokens: sections take turns adding their next fact, in section order."""
    by_section: dict[str, list[Fact]] = {key: [] for key, _, _ in SECTIONS}
    type_to_section = {t: key for key, _, types in SECTIONS for t in types}
    for fact in facts:
        by_section[type_to_section.get(fact.type, "other")].append(fact)
    header = f"Profile of {subject.external_id}"
    used = count_tokens(header)
    chosen: dict[str, list[Fact]] = {key: [] for key in by_section}
    titles = {key: title for key, title, _ in SECTIONS}
    progress = True
    depth = 0
    while progress:
        progress = False
        for key, _, _ in SECTIONS:
            items = by_section[key]
            if depth >= len(items):
                continue
            cost = count_tokens(_line(items[depth])) + (count_tokens(titles[key] + ":") if depth == 0 else 0)
            if used + cost <= max_tokens:
                chosen[key].append(items[depth])
                used += cost
            progress = True
        depth += 1
    lines = [header]
    sections: dict[str, list[dict[str, Any]]] = {}
    for key, title, _ in SECTIONS:
        if not chosen[key]:
            continue
        lines.append(f"{title}:")
        lines.extend(_line(f) for f in chosen[key])
        sections[key] = [
            {
                "id": f.pk,
                "text": f.text,
                "type": f.type,
                "status": f.status,
                "valid_from": _iso(f.valid_from),
                "event_time": _iso(f.event_time),
            }  # fmt: skip
            for f in chosen[key]
        ]
    text = "\n".join(lines) if sections else ""
    return text, sections


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None


@transaction.atomic
def profile_build(subject: Subject) -> Profile:
    """Rebuild and store the subject's profile from its current facts."""
    text, sections = profile_render(subject=subject, facts=profile_facts(subject=subject))
    profile, _ = Profile.objects.update_or_create(
        subject=subject,
        defaults={
            "tenant_id": subject.tenant_id,
            "text": text,
            "sections": sections,
            "tokens": count_tokens(text),
            "built_at": timezone.now(),
            "stale": False,
        },
    )
    return profile


def profile_current(*, subject: Subject) -> Profile:
    """The stored profile, rebuilt in place first when missing or marked stale (a bounded, cheap query)."""
    profile = Profile.objects.filter(subject=subject).first()
    if profile is None or profile.stale:
        try:
            profile = profile_build(subject)
        except IntegrityError:  # a concurrent request created it first
            profile = Profile.objects.get(subject=subject)
    return profile


def profile_schedule_rebuild(*, subject_id: int) -> None:
    """Mark the profile stale and rebuild it off the request once the transaction commits.

    Cheap and safe to call often: one UPDATE, and at most one task per subject every few seconds.
    """
    Profile.objects.filter(subject_id=subject_id, stale=False).update(stale=True)

    def enqueue() -> None:
        if cache.add(f"profile-rebuild:{subject_id}", 1, timeout=5):
            from celery import current_app

            current_app.send_task(REBUILD_TASK, args=[subject_id])

    transaction.on_commit(enqueue)


def profiles_due(*, older_than: dt.timedelta) -> list[int]:
    """Subjects with facts whose profile is stale, missing or older than older_than."""
    cutoff = timezone.now() - older_than
    with_facts = Fact.objects.values("subject_id").distinct()
    fresh = Profile.objects.filter(stale=False, built_at__gte=cutoff).values("subject_id")
    return list(
        Subject.objects.filter(pk__in=with_facts).exclude(pk__in=fresh).order_by("pk").values_list("pk", flat=True)
    )
