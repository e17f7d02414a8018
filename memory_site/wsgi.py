from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_site.settings")
application = get_wsgi_application()

if os.environ.get("MEMORY_SITE_WARMUP", "1") != "0":
    # Load the embedder and tokenizer in the background so the first search does not pay for it.
    import threading

    def _warm_up() -> None:
        from facts.embedding import embed_query
        from facts.tokens import count_tokens

        embed_query("warm up")
        count_tokens("warm up")

    threading.Thread(target=_warm_up, name="warm-up", daemon=True).start()
