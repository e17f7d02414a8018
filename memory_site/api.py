"""Shared DRF pieces that import no app: responses that run jobs once sent, input validation, common fields."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

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
