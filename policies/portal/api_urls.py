"""REST routes of the end user's rights (mounted under /api/v1/)."""

from __future__ import annotations

from django.urls import path

from policies.portal.apis import PortalLinkCreateApi, SubjectEraseApi, SubjectExportApi

urlpatterns = [
    path("users/<str:user>", SubjectEraseApi.as_view(), name="subject-erase"),
    path("users/<str:user>/export", SubjectExportApi.as_view(), name="subject-export"),
    path("users/<str:user>/portal-link", PortalLinkCreateApi.as_view(), name="portal-link"),
]
