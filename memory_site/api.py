"""Shared DRF pieces that import no app: responses that run jobs once sent, input validation, common fields."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import orjson
from rest_framework import serializers
from rest_framework.response import Response

logger = logging.getLogger(__name__)


class ResponseThen(Response):
    """A DRF Response that runs `then`'s jobs once it has been sent: the WSGI server closes every response after
    writing its body (Django's test client too). For work the client need not wait for; a failing job is logged."""

    def __init__(self, data: Any = None, *, then: list[Callable[[], None]], **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self._then = then

    def close(self) -> None:
        jobs, self._then = self._then, []
        for job in jobs:
            try:
                job()
            except Exception:
                logger.exception("a job after the response failed")
        super().close()


class SourceSerializer(serializers.Serializer):
    message_id = serializers.IntegerField()
    external_id = serializers.CharField(allow_null=True)
    session_id = serializers.CharField()
    created_at = serializers.DateTimeField()


_validators = threading.local()  # this thread's serializer instance per input serializer class


def validate_input(serializer_class: type[serializers.Serializer], data: Any, **kwargs: Any) -> dict[str, Any]:
    """The validated data, or a ValidationError (a 400 with the fields' errors).

    Without kwargs, each thread validates with one instance of the class, kept between calls: DRF deep-copies the
    declared fields for every new instance (0.3 ms for the search's ten fields, in every search). After each call
    it holds nothing of the request (no input, validated data, errors or output: what is_valid() looks at), so
    the next call validates its own data afresh and no user's content stays behind in memory.
    """
    if kwargs:
        serializer = serializer_class(data=data, **kwargs)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)
    kept: dict[type[serializers.Serializer], serializers.Serializer] = _validators.__dict__.setdefault("kept", {})
    if serializer_class not in kept:
        kept[serializer_class] = serializer_class()
    serializer = kept[serializer_class]
    serializer.initial_data = data
    try:
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)
    finally:
        del serializer.initial_data
        for attr in ("_validated_data", "_errors", "_data"):
            serializer.__dict__.pop(attr, None)


# --- hostile input: what a JSON body and its free-form fields may hold ------------------------------------------

# A request body nested deeper than this is refused before any view sees it: no field of the API needs more, and
# Python's decoder and orjson's encoder (254 levels) fail past a few hundred.
MAX_BODY_DEPTH = 64
# metadata (messages, facts) is stored as JSONB and sent back on every read: at most this deep and this large.
MAX_METADATA_DEPTH = 16
MAX_METADATA_BYTES = 16 * 1024


def json_depth_over(value: Any, limit: int) -> bool:
    """Whether `value` nests lists and objects more than `limit` deep (iterative: no recursion to exhaust)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def json_has_nul(value: Any) -> bool:
    """Whether a string (or an object's key) anywhere in `value` holds U+0000, which PostgreSQL cannot store."""
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


class MetadataField(serializers.DictField):
    """A free-form JSON object kept as given: no U+0000, at most MAX_METADATA_DEPTH deep and MAX_METADATA_BYTES."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        value = super().to_internal_value(data)
        if json_depth_over(value, MAX_METADATA_DEPTH):
            raise serializers.ValidationError(f"metadata may nest at most {MAX_METADATA_DEPTH} levels.")
        if json_has_nul(value):
            raise serializers.ValidationError("metadata may not contain the NUL character (U+0000).")
        if len(orjson.dumps(value)) > MAX_METADATA_BYTES:
            raise serializers.ValidationError(f"metadata may be at most {MAX_METADATA_BYTES} bytes as JSON.")
        return value


MAX_EXTERNAL_ID_CHARS = 255


def external_id_problem(value: str) -> str | None:
    """Why `value` cannot be a user's (or a session's) external id, or None when it can."""
    if len(value) > MAX_EXTERNAL_ID_CHARS:
        return f"A user id is at most {MAX_EXTERNAL_ID_CHARS} characters."
    if "\x00" in value:
        return "A user id may not contain the NUL character."
    return None
