"""python manage.py lifecycle [--now ISO-8601] [--tenant NAME] [--dry-run] [--json]: run every lifecycle job once."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.dateparse import parse_datetime

from conversations.models import Tenant
from policies.lifecycle.services import ACTIONS, lifecycle_run


def _when(value: str) -> dt.datetime:
    parsed = parse_datetime(value)
    if parsed is None:
        try:
            parsed = dt.datetime.combine(dt.date.fromisoformat(value), dt.time())
        except ValueError:
            raise CommandError(f"--now: not an ISO-8601 date or time: {value!r}") from None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=dt.UTC)


class Command(BaseCommand):
    help = (
        "Apply the retention policies once as if at --now (default: now): expiry, deletion, value rescoring, vector "
        "dropping, archiving, restoring, consolidation. Prints per policy and action what it did (or, with "
        "--dry-run, would do); with --json the last line is one JSON object of counts per action."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--now", help="the clock to judge by, ISO-8601 (default: now; no zone means UTC)")
        parser.add_argument("--tenant", help="one tenant's name (default: every tenant)")
        parser.add_argument("--dry-run", action="store_true", help="count what would change; change nothing")
        parser.add_argument("--json", action="store_true", help="end with one JSON line of counts")

    def handle(self, *args: Any, **options: Any) -> None:
        now = _when(options["now"]) if options["now"] else None
        tenant = None
        if options["tenant"]:
            tenant = Tenant.objects.filter(name=options["tenant"]).first()
            if tenant is None:
                raise CommandError(f"No tenant named {options['tenant']!r}.")
        run = lifecycle_run(tenant=tenant, now=now, dry_run=options["dry_run"], trigger="command")
        verb = "would" if run.dry_run else "did"
        self.stdout.write(
            f"lifecycle run {run.pk} as of {run.as_of.isoformat()} ({'dry run' if run.dry_run else 'applied'}): "
            f"{run.facts_scanned} facts in {run.seconds or 0:.2f}s"
        )
        for row in run.details:
            self.stdout.write(f"  {row['policy']:<40} {row['action']:<16} {verb} {row['count']}")
        if not run.details:
            self.stdout.write("  nothing to do")
        counts = {action: int(run.counts.get(action, 0)) for action in ACTIONS}
        if options["json"]:
            self.stdout.write(json.dumps(counts, sort_keys=False))
        else:
            self.stdout.write("total: " + ", ".join(f"{a} {n}" for a, n in counts.items()))
