"""Embed the extraction's fixed texts once per machine (`make run` and `make test` call it; so can an image build)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Embed the extraction's fixed texts (the classifier's training turns, the type exemplars, the Chinese type "
        "heads' turns) into VAR_DIR/gate, so that the first message after an install does not wait for them."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        from facts.extraction import classifier, type_definitions

        started = time.monotonic()
        model = classifier.model()
        if model is None:
            self.stdout.write("the embedder is unavailable: nothing to warm (the rules decide alone)")
            return
        type_definitions.nearest_type("I moved to Leeds last spring.")
        chars, vectors = model.chinese.heads() if model.chinese is not None else (None, None)
        chinese = "characters and meaning" if vectors is not None else "characters only" if chars else "none"
        self.stdout.write(f"extraction warm in {time.monotonic() - started:.1f} s (Chinese type heads: {chinese})")
