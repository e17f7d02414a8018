"""Context: recent turns, summaries, relevant facts, relevant earlier turns and the profile under a token budget."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from conversations.apis import TenantApi
from facts.context.services import DEFAULT_BUDGET, MAX_BUDGET, MIN_BUDGET, context_build
from memory_site.api import SourceSerializer, validate_input


class ContextApi(TenantApi):
    reads_only = True  # a POST that only reads: a read-only key may use it

    class InputSerializer(serializers.Serializer):
        query = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
        session_id = serializers.CharField(max_length=255, required=False, allow_null=True, default=None)
        token_budget = serializers.IntegerField(min_value=MIN_BUDGET, max_value=MAX_BUDGET, default=DEFAULT_BUDGET)
        as_of = serializers.DateTimeField(required=False, allow_null=True, default=None)
        known_at = serializers.DateTimeField(required=False, allow_null=True, default=None)

    class OutputSerializer(serializers.Serializer):
        class RecentSerializer(serializers.Serializer):
            id = serializers.IntegerField()
            role = serializers.CharField()
            name = serializers.CharField()
            content = serializers.CharField()
            created_at = serializers.DateTimeField()

        class TurnSerializer(RecentSerializer):
            """An earlier turn relevant to the query, verbatim (found by the search with include_messages)."""

            session_id = serializers.CharField()
            rank = serializers.IntegerField(help_text="Its place among the turns the search found (0 = best).")

        class SummarySerializer(serializers.Serializer):
            kind = serializers.ChoiceField(choices=["mid", "far"])
            session_id = serializers.CharField()
            text = serializers.CharField()
            entities = serializers.ListField(child=serializers.CharField())
            message_count = serializers.IntegerField()
            covers_from = serializers.DateTimeField(source="from", allow_null=True)
            covers_until = serializers.DateTimeField(source="until", allow_null=True)

        class FactSerializer(serializers.Serializer):
            id = serializers.IntegerField()
            text = serializers.CharField()
            type = serializers.CharField()
            score = serializers.FloatField()
            relevance = serializers.FloatField(allow_null=True)
            valid_from = serializers.DateTimeField(allow_null=True)
            event_time = serializers.DateTimeField(allow_null=True)
            created_at = serializers.DateTimeField()
            sources = SourceSerializer(many=True)

        class SectionsSerializer(serializers.Serializer):
            recent = serializers.ListField(child=serializers.DictField())
            summaries = serializers.ListField(child=serializers.DictField())
            facts = serializers.ListField(child=serializers.DictField())
            turns = serializers.ListField(child=serializers.DictField())
            profile = serializers.CharField(allow_blank=True)

        context = serializers.CharField(allow_blank=True)  # type: ignore[assignment]  # DRF pops declared fields
        sections = SectionsSerializer()
        tokens = serializers.IntegerField()
        full_history_tokens = serializers.IntegerField()
        session_id = serializers.CharField(allow_null=True)

    @extend_schema(
        request=InputSerializer,
        responses={200: OutputSerializer},
        operation_id="context",
        description=(
            "Prompt-ready memory for the user under `token_budget` tokens (50..32000, default 2000), counted with "
            "an offline WordPiece tokenizer. Priority when room runs short: the 2 newest turns; facts relevant "
            "to `query` (or to the newest turn) up to half the budget; earlier turns relevant to it, verbatim "
            "with date and speaker, up to 45% (`sections.turns`: the same search over the raw turns, under the "
            "same relevance floor, without the recent turns and without turns a chosen fact cites as its "
            "source); the other recent turns (an unbroken run ending at the newest); the profile (at most a "
            "fifth); summaries (this session's mid-term, its far summary, then other sessions'); then more "
            "facts and turns. `session_id` picks the session (default: the latest). Every line carries a date. "
            "`full_history_tokens` is what the whole history would cost."
        ),
    )
    def post(self, request: Request, user: str) -> Response:
        data = validate_input(self.InputSerializer, request.data)
        subject = self.subject(request, user)
        result = context_build(
            subject=subject,
            query=data["query"],
            session_external_id=data["session_id"],
            token_budget=data["token_budget"],
            api_key=self.api_key(request),
            as_of=data["as_of"],
            known_at=data["known_at"],
        )
        out = self.OutputSerializer
        sections = {
            "recent": out.RecentSerializer(result.sections["recent"], many=True).data,
            "summaries": out.SummarySerializer(result.sections["summaries"], many=True).data,
            "facts": out.FactSerializer(result.sections["facts"], many=True).data,
            "turns": out.TurnSerializer(result.sections["turns"], many=True).data,
            "profile": result.sections["profile"],
        }
        return Response(
            {
                "context": result.context,
                "sections": sections,
                "tokens": result.tokens,
                "full_history_tokens": result.full_history_tokens,
                "session_id": result.session_id,
            }
        )
