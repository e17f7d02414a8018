"""The policies app's REST operations under /api/v1/ besides the portal's: feedback on recall."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from conversations.apis import TenantApi
from memory_site.api import validate_input
from policies.feedback import feedback_record
from policies.models import Feedback

MAX_RATED = 50


class FeedbackApi(TenantApi):
    class InputSerializer(serializers.Serializer):
        call_type = serializers.ChoiceField(choices=Feedback.CallType.choices, default=Feedback.CallType.SEARCH)
        call_id = serializers.CharField(max_length=64, required=False, allow_blank=True, default="")
        fact_ids = serializers.ListField(
            child=serializers.IntegerField(min_value=1), required=False, max_length=MAX_RATED, default=list
        )
        useful = serializers.BooleanField(required=False, allow_null=True, default=None)
        helped = serializers.ListField(
            child=serializers.IntegerField(min_value=1), required=False, max_length=MAX_RATED, default=list
        )
        not_helped = serializers.ListField(
            child=serializers.IntegerField(min_value=1), required=False, max_length=MAX_RATED, default=list
        )

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if attrs["fact_ids"] and attrs["useful"] is None:
                raise serializers.ValidationError({"useful": "required with fact_ids"})
            if not (attrs["fact_ids"] or attrs["helped"] or attrs["not_helped"]):
                raise serializers.ValidationError({"fact_ids": "rate at least one fact (fact_ids, helped, not_helped)"})
            useful = set(attrs["helped"]) | (set(attrs["fact_ids"]) if attrs["useful"] else set())
            not_useful = set(attrs["not_helped"]) | (set(attrs["fact_ids"]) if attrs["useful"] is False else set())
            if useful & not_useful:
                raise serializers.ValidationError({"fact_ids": f"rated both ways: {sorted(useful & not_useful)}"})
            attrs["useful_ids"], attrs["not_useful_ids"] = sorted(useful), sorted(not_useful)
            return attrs

    @extend_schema(
        request=InputSerializer,
        responses={204: None},
        operation_id="feedback",
        description="Rate the facts a search or context call returned: `fact_ids` with `useful`, or `helped` and "
        "`not_helped`. Feeds each fact's value score and the contribution rate. A fact id that is not this user's: "
        "404, nothing stored.",
    )
    def post(self, request: Request, user: str) -> Response:
        data = validate_input(self.InputSerializer, request.data)
        subject = self.subject(request, user)
        feedback_record(
            subject=subject, call_type=data["call_type"], call_id=data["call_id"], useful_ids=data["useful_ids"],
            not_useful_ids=data["not_useful_ids"], api_key=self.api_key(request),
        )  # fmt: skip
        return Response(status=status.HTTP_204_NO_CONTENT)
