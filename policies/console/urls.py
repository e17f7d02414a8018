"""/admin/dashboard/: the operator's dashboard, behind the admin's login (staff only)."""

from __future__ import annotations

from django.contrib import admin
from django.urls import path

from policies.console.views import dashboard_view

urlpatterns = [path("", admin.site.admin_view(dashboard_view), name="console-dashboard")]
