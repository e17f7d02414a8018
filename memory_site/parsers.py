"""The API's JSON parser: refuses what would fail later (too deep, not UTF-8) with a 400 before any view runs."""

from __future__ import annotations

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

from memory_site.api import MAX_BODY_DEPTH, json_depth_over


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:  # a body nested a thousand deep exhausts the decoder's recursion
            raise ParseError(f"JSON parse error - nested more than {MAX_BODY_DEPTH} levels.") from None
        if json_depth_over(data, MAX_BODY_DEPTH):
            raise ParseError(f"JSON parse error - nested more than {MAX_BODY_DEPTH} levels.")
        return data
