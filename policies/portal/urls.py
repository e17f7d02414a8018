"""The privacy portal's pages (mounted at /me/)."""

from __future__ import annotations

from django.urls import path

from policies.portal import views

app_name = "portal"
urlpatterns = [
    path("", views.index, name="index"),
    path("link/<str:token>", views.link_open, name="link"),
    path("logout/", views.logout, name="logout"),
    path("facts/<int:fact_id>/", views.fact_detail, name="fact"),
    path("facts/<int:fact_id>/correct/", views.fact_correct, name="fact-correct"),
    path("facts/<int:fact_id>/forget/", views.fact_forget, name="fact-forget"),
    path("forget-everything/", views.forget_all, name="forget-all"),
    path("pause/", views.pause, name="pause"),
    path("conflicts/<int:conflict_id>/resolve/", views.conflict_resolve, name="conflict-resolve"),
    path("export/", views.export_start, name="export-start"),
    path("exports/<uuid:uid>/", views.export_progress, name="export"),
    path("exports/<uuid:uid>/download/", views.export_file, name="export-file"),
]
