"""The top-level base template the portal and operator pages extend."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.template import engines
from django.test import RequestFactory


def test_a_page_extending_base_gets_pinned_htmx_csrf_header_and_escapes_its_content() -> None:
    template = engines["django"].from_string(
        '{% extends "base.html" %}{% block title %}Page{% endblock %}{% block content %}<p>{{ text }}</p>{% endblock %}'
    )
    request = RequestFactory().get("/")
    html = template.render({"text": "<script>alert(1)</script>"}, request)
    assert "<title>Page</title>" in html
    assert "vendor/htmx-2.0.8/htmx.min.js" in html
    assert "X-CSRFToken" in html and "NOTPROVIDED" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert(1)" not in html
    assert finders.find("vendor/htmx-2.0.8/htmx.min.js") and finders.find("css/site.css")
