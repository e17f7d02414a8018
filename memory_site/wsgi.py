from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_site.settings")
application = get_wsgi_application()


def _check_search_config() -> None:
    """Build the search's configuration now: a bad SEARCH_TUNING stops the worker before it takes requests."""
    from facts.retrieval.config import search_config

    search_config()


_check_search_config()

if os.environ.get("MEMORY_SITE_WARMUP", "1") != "0":
    # Load the embedder and tokenizer before the worker takes requests, so the first search does not pay
    # for it. Synchronous on purpose: a background thread importing numpy/torch while requests import
    # them too left numpy half-initialised in a worker.
    from django.conf import settings

    from facts.embedding import embed_query, limit_torch_threads
    from facts.text import segment
    from facts.tokens import count_tokens

    # One intra-op torch thread per web worker (WEB_TORCH_THREADS): the workers already run side by side, and a
    # query is a dozen tokens; torch's default of one thread per core oversubscribes the CPU and a busy core
    # holds the other thread's half of every matrix product back (measured 5x slower p50 on 2 shared cores).
    limit_torch_threads(settings.WEB_TORCH_THREADS)
    embed_query("warm up")
    count_tokens("warm up")
    segment("预热")  # jieba's dictionary: the first Chinese query otherwise waits ~0.6 s for it
