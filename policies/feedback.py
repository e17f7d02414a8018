"""Feedback on recall: which facts a search or context call returned helped the agent, which did not.

It feeds each fact's value score (useful_count / not_useful_count) and the contribution rate the console charts.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from conversations.models import ApiKey, Subject
from facts.models import Fact
from facts.services import tiers
from memory_site.errors import NotFound
from policies.models import Feedback


class FactsNotFound(NotFound):
    message = "No such fact for this user."


@transaction.atomic
def feedback_record(
    *,
    subject: Subject,
    call_type: str,
    call_id: str,
    useful_ids: list[int],
    not_useful_ids: list[int],
    api_key: ApiKey | None = None,
) -> list[Feedback]:
    """Store one rating per fact and count it on the fact. FactsNotFound (nothing written) when any id is not one
    of this subject's facts: unknown, forgotten, or another subject's."""
    ids = sorted(set(useful_ids) | set(not_useful_ids))
    own = set(Fact.objects.filter(subject=subject, pk__in=ids).values_list("pk", flat=True))
    missing = [pk for pk in ids if pk not in own]
    if missing:
        raise FactsNotFound(details={"fact_ids": missing})
    rows = [
        Feedback(
            tenant_id=subject.tenant_id,
            subject=subject,
            call_type=call_type,
            call_id=call_id,
            fact_id=pk,
            fact_id_rated=pk,
            useful=useful,
            api_key=api_key,
        )  # fmt: skip
        for useful, group in ((True, sorted(set(useful_ids))), (False, sorted(set(not_useful_ids))))
        for pk in group
    ]
    Feedback.objects.bulk_create(rows)
    tiers.facts_rate(
        subject_id=subject.pk, useful_ids=sorted(set(useful_ids)), not_useful_ids=sorted(set(not_useful_ids))
    )
    return rows


def contribution_rate(*, tenant_id: int, since: dt.datetime | None = None) -> dict[str, float | int | None]:
    """Of the facts agents rated (since `since`), the share that helped: {"useful", "rated", "rate"}."""
    rows = Feedback.objects.filter(tenant_id=tenant_id)
    if since is not None:
        rows = rows.filter(created_at__gte=since)
    rated = rows.count()
    useful = rows.filter(useful=True).count()
    return {"useful": useful, "rated": rated, "rate": round(useful / rated, 4) if rated else None}
