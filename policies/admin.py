from __future__ import annotations

from django.contrib import admin

from policies.models import RetentionPolicy


@admin.register(RetentionPolicy)
class RetentionPolicyAdmin(admin.ModelAdmin):
    list_display = (
        "tenant", "fact_type", "archive_after_days", "drop_vector_after_days", "delete_after_days",
        "min_value_to_keep", "half_life_days",
    )  # fmt: skip
    list_filter = ("tenant", "fact_type")
    list_editable = (
        "archive_after_days",
        "drop_vector_after_days",
        "delete_after_days",
        "min_value_to_keep",
        "half_life_days",
    )
    readonly_fields = ("created_at", "updated_at")
