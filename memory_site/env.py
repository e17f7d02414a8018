"""Typed environment helpers that fail loudly."""

from __future__ import annotations

import json
import os
from typing import Any

from django.core.exceptions import ImproperlyConfigured


def env_str(name: str, default: str | None = None) -> str:
    value = os.environ.get(name)
    if value is None or value == "":
        if default is None:
            raise ImproperlyConfigured(f"Environment variable {name} is required")
        return default
    return value


def env_opt(name: str) -> str | None:
    value = os.environ.get(name)
    return value if value else None


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    lowered = value.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"Environment variable {name} must be a boolean, got {value!r}")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise ImproperlyConfigured(f"Environment variable {name} must be an integer, got {value!r}") from exc


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return float(value)
    except ValueError as exc:
        raise ImproperlyConfigured(f"Environment variable {name} must be a number, got {value!r}") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_json_object(name: str) -> dict[str, Any]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return {}
    try:
        parsed = json.loads(value)
    except ValueError as exc:
        raise ImproperlyConfigured(f"Environment variable {name} must be a JSON object, got {value!r}") from exc
    if not isinstance(parsed, dict):
        raise ImproperlyConfigured(f"Environment variable {name} must be a JSON object, got {value!r}")
    return parsed
