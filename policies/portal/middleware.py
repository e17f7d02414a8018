"""The pages' language: the browser's (Accept-Language) or the one chosen with the switch (a cookie)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils import translation

PAGE_PREFIXES = ("/me/", "/i18n/")


def is_page(path: str) -> bool:
    return path == "/" or path.startswith(PAGE_PREFIXES)


class PageLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware for the home page and the portal only.

    The API keeps its English messages whatever a client's Accept-Language says, and the search path pays
    nothing. The language is deactivated after each page, so a thread's next request starts from the default.
    """

    def process_request(self, request: HttpRequest) -> None:
        if is_page(request.path_info):
            super().process_request(request)

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not is_page(request.path_info):
            return response
        try:
            return super().process_response(request, response)  # type: ignore[arg-type]
        finally:
            translation.deactivate()
