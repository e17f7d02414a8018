# Memory Site: `make run` serves, `make test` tests. Everything installs itself into .venv.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PORT ?= 8000
# Tests use a real broker: Redis on this machine (a spare database number), unless told otherwise.
TEST_BROKER_URL ?= redis://127.0.0.1:6379/15

.PHONY: install warm chromium run test bench lint format clean

$(STAMP): pyproject.toml clients/python/pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# The Python client (clients/python, import name memsite, the memsite command) is installed beside the server.
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $(PY) -m pip install -q -e ".[dev]" -e clients/python
	touch $(STAMP)

# The browser tests' browser: Debian's chromium package, and a font for the Chinese pages' screenshots, installed
# when missing (Playwright never downloads a browser).
chromium:
	@(command -v chromium && fc-list :lang=zh | grep -q .) >/dev/null 2>&1 || (apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei >/dev/null)

install: $(STAMP)

# The extraction's fixed texts embedded once per machine (var/gate), not by the first message or test that needs them.
warm: install
	CELERY_BROKER_URL=$${CELERY_BROKER_URL:-memory://} $(PY) manage.py warm_extraction

run: install warm
	PORT=$(PORT) $(PY) manage.py serve

test: install chromium warm
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 CELERY_BROKER_URL=$${CELERY_BROKER_URL:-$(TEST_BROKER_URL)} $(PY) -m pytest $(PYTEST_ARGS)

bench: install
	$(PY) -m bench.run $(BENCH_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	# mypy's Django plugin imports the settings: a broker URL keeps them from starting the embedded broker, which
	# would outlive the check (nothing is sent to it).
	CELERY_BROKER_URL=$${CELERY_BROKER_URL:-memory://} $(VENV)/bin/mypy conversations facts policies integrations memory_site clients/python/memsite
	$(VENV)/bin/lint-imports

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) var
