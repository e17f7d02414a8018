"""Production layout: `manage.py check --deploy` passes with the production variables, the security headers are
sent, and the Dockerfile and compose file describe the service as pyproject.toml does."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from django.db import connection

from tests.stack import database_url

ROOT = Path(__file__).resolve().parent.parent

HEADERS_SCRIPT = """
import json
import django
django.setup()
from django.test import Client
response = Client().get("/", secure=True, HTTP_HOST="memory.example.com")
print(json.dumps({"status": response.status_code, "headers": dict(response.headers),
                  "cookies": {k: dict(v) for k, v in response.cookies.items()}}))
"""


def _production_env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PRODUCTION": "true",
        "SECRET_KEY": "x7!" + "k" * 20 + os.urandom(24).hex(),
        "ALLOWED_HOSTS": "memory.example.com",
        "CSRF_TRUSTED_ORIGINS": "https://memory.example.com",
        "DATABASE_URL": database_url(connection.settings_dict),
        "DEBUG": "false",
        "MEMORY_SITE_VAR_DIR": str(tmp_path / "var"),
        "DJANGO_SETTINGS_MODULE": "memory_site.settings",
    }


@pytest.mark.django_db
def test_check_deploy_passes_with_the_production_variables(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT, env=_production_env(tmp_path), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "security." not in output, output  # no deployment warning at all (drf-spectacular's naming hint aside)


@pytest.mark.django_db
def test_check_deploy_without_production_warns(tmp_path: Path) -> None:
    """The check can fail: without PRODUCTION it reports the missing HSTS, secure cookies and redirect."""
    env = {**_production_env(tmp_path), "PRODUCTION": "false"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert "security.W004" in result.stdout + result.stderr


@pytest.mark.django_db
def test_security_headers_in_production(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-c", HEADERS_SCRIPT], cwd=ROOT, env=_production_env(tmp_path),
                            capture_output=True, text=True, timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    headers = {k.lower(): v for k, v in answer["headers"].items()}
    assert answer["status"] == 200
    assert headers["strict-transport-security"].startswith("max-age=31536000")
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    assert headers["x-frame-options"] == "DENY"
    assert headers["cross-origin-opener-policy"] == "same-origin"
    for cookie in answer["cookies"].values():  # any cookie set on the way is secure and kept from scripts
        assert cookie["secure"] is True


def _torch_pin() -> str:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    return next(d.split("==")[1] for d in deps if d.startswith("torch=="))


def test_dockerfile_installs_the_package_with_the_torch_pin() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11", text, re.M)
    assert f"ARG TORCH_VERSION={_torch_pin()}" in text
    assert re.search(r'pip install "torch==\$\{TORCH_VERSION\}" \. ', text)
    assert "memory_site.accesslog.QuietLogger" in text and "collectstatic" in text
    assert re.search(r"^USER (?!root)\w+", text, re.M)  # not run as root
    for copied in re.findall(r"^COPY (\S+)", text, re.M):
        assert (ROOT / copied).exists(), copied


def test_compose_file_names_the_services() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"db", "redis", "web", "worker", "beat"} <= set(services)
    assert services["db"]["image"].startswith("pgvector/pgvector:")
    assert services["redis"]["image"].startswith("redis:")
    env = services["web"]["environment"]
    assert env["PRODUCTION"] == "true" and env["DATABASE_URL"].startswith("postgres://")
    assert env["CELERY_BROKER_URL"].startswith("redis://redis:")
    assert "worker" in services["worker"]["command"] and "beat" in services["beat"]["command"]
    assert services["migrate"]["command"][-2:] == ["migrate", "--noinput"]
