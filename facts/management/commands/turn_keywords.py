"""Give every turn that lacks them its content words (facts/services/turn_keywords.py)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = (
        "Store the content words of the turns stored before extraction wrote them, so that searches with messages "
        "read them instead of cutting each turn into words. Results are the same either way. Idempotent."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--subject", type=int, default=None, help="one subject's turns (its database id)")

    def handle(self, *args: Any, **options: Any) -> None:
        from facts.services.turn_keywords import turn_keywords_backfill

        started = time.monotonic()
        written = turn_keywords_backfill(subject_id=options["subject"])
        self.stdout.write(f"{written} turns given their words in {time.monotonic() - started:.1f} s")
