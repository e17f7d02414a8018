"""REST routes of the policies app besides the portal's (mounted under /api/v1/)."""

from __future__ import annotations

from django.urls import path

from policies.apis import FeedbackApi

urlpatterns = [path("users/<str:user>/feedback", FeedbackApi.as_view(), name="feedback")]
