"""Recall: deterministic hybrid search with no LLM."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from facts.selectors import fact_search
from memory_site.api import SourceSerializer, TenantApi, validate_input


class SearchApi(TenantApi):
    class InputSerializer(serializers.Serializer):
        query = serializers.CharField(max_length=2000, trim_whitespace=True)
        limit = serializers.IntegerField(min_value=1, max_value=50, default=5)

    class OutputSerializer(serializers.Serializer):
        class ResultSerializer(serializers.Serializer):
            kind = serializers.ChoiceField(choices=["fact", "message"])
            id = serializers.IntegerField()
            text = serializers.CharField()
            type = serializers.CharField()
            score = serializers.FloatField()
            matched_by = serializers.ListField(child=serializers.CharField())
            valid_from = serializers.DateTimeField(allow_null=True)
            created_at = serializers.DateTimeField()
            sources = SourceSerializer(many=True)

        results = ResultSerializer(many=True)
        took_ms = serializers.FloatField()

    @extend_schema(request=InputSerializer, responses={200: OutputSerializer}, operation_id="search")
    def post(self, request: Request, user: str) -> Response:
        data = validate_input(self.InputSerializer, request.data)
        subject = self.subject(request, user)
        hits, took_ms = fact_search(subject=subject, query=data["query"], limit=data["limit"])
        payload = {"results": [hit.__dict__ for hit in hits], "took_ms": round(took_ms, 2)}
        return Response(self.OutputSerializer(payload).data)
