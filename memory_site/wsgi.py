from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_site.settings")
application = get_wsgi_application()

if os.environ.get("MEMORY_SITE_WARMUP", "1") != "0":
    # Load the embedder and tokenizer before the worker takes requests, so the first search does not pay
    # for it. Synchronous on purpose: a background thread importing numpy/torch while requests import
    # them too left numpy half-initialised in a worker.
    from facts.embedding import embed_query
    from facts.tokens import count_tokens

    embed_query("warm up")
    count_tokens("warm up")
