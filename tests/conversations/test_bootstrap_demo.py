"""`bootstrap_demo` (run by `make run`): a demo admin and key for a first look, never in production."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command


@pytest.fixture
def var_dir(settings: Any, tmp_path: Path) -> Path:
    settings.VAR_DIR = tmp_path
    return tmp_path


@pytest.mark.django_db
def test_creates_the_admin_and_a_key_once(var_dir: Path) -> None:
    call_command("bootstrap_demo")
    creds = json.loads((var_dir / "demo_credentials.json").read_text())
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser and admin.check_password(creds["admin_password"])
    call_command("bootstrap_demo")
    assert json.loads((var_dir / "demo_credentials.json").read_text()) == creds


@pytest.mark.django_db
def test_an_existing_admin_keeps_its_password_when_the_credentials_file_is_gone(var_dir: Path) -> None:
    get_user_model().objects.create_superuser("admin", "ops@example.com", "chosen by the operator")
    call_command("bootstrap_demo")
    assert get_user_model().objects.get(username="admin").check_password("chosen by the operator")
    assert "admin_password" not in json.loads((var_dir / "demo_credentials.json").read_text())


@pytest.mark.django_db
def test_refuses_with_production(var_dir: Path, settings: Any) -> None:
    settings.PRODUCTION = True
    with pytest.raises(CommandError):
        call_command("bootstrap_demo")
    assert not get_user_model().objects.filter(username="admin").exists()
    assert not (var_dir / "demo_credentials.json").exists()
