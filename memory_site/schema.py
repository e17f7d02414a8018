"""OpenAPI generation: bearer key auth, and unique component names for nested serializers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema


class MemorySiteAutoSchema(AutoSchema):
    def _get_serializer_name(self, serializer: Any, direction: Any, bypass_extensions: bool = False) -> str:
        name = super()._get_serializer_name(serializer, direction, bypass_extensions)
        # Views nest `InputSerializer`/`OutputSerializer`; prefix the view's name to keep components unique.
        qualname = type(serializer).__qualname__.split(".")
        if len(qualname) > 1:
            prefix = "".join(part.removesuffix("Api") for part in qualname[:-1])
            if not name.startswith(prefix):
                name = prefix + name
        return name


class ApiKeyAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "conversations.auth.ApiKeyAuthentication"
    name = "ApiKeyAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer", "description": "API key from `manage.py create_api_key`"}
