"""The privacy portal's pages at /me/: one view serves the full page, and for htmx a partial of the same template.

Every view but the link's runs for the subject of the request's portal session only (`portal_view`); a fact,
conflict or export of anyone else is a 404. Forms post with CSRF (the token in each form, and in htmx's header).
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from facts import services as facts_services
from facts.exceptions import ConflictAlreadyResolved, FactNotFound, InvalidKeep
from facts.models import Actor, Fact, FactType
from facts.services.subject_data import access_log_record
from policies.models import ExportJob, PortalLink
from policies.portal import labels
from policies.portal.erasure import subject_erase
from policies.portal.export import CONTENT_TYPES, EXPORTERS, export_filename, export_total
from policies.portal.links import LinkRefused, portal_link_redeem, portal_session_end, portal_session_link
from policies.portal.selectors import (
    FactFilters,
    fact_history,
    fact_rows,
    open_conflicts,
    portal_conflict,
    portal_fact,
    portal_facts,
    type_counts,
)
from policies.portal.services import export_download, export_job_create, subject_memory_pause

PortalView = Callable[..., HttpResponseBase]


def _private(response: HttpResponseBase) -> HttpResponseBase:
    """Nothing of a portal page is cached or indexed."""
    response["Cache-Control"] = "no-store"
    response["X-Robots-Tag"] = "noindex"
    return response


def portal_view(view: PortalView) -> PortalView:
    """Run the view for the session's portal link (`request.portal`); without an open portal session, the
    signed-out page with status 403."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        link = portal_session_link(session=request.session)
        if link is None:
            return _private(render(request, "portal/signed_out.html", {"ended": False}, status=403))
        request.portal = link  # type: ignore[attr-defined]
        return _private(view(request, link, *args, **kwargs))

    return wrapper


def _actor_id(link: PortalLink) -> str:
    return f"portal:{link.jti.hex[:8]}"


def _partial_or_page(request: HttpRequest, template: str, partial: str, context: dict[str, Any]) -> HttpResponse:
    name = f"{template}#{partial}" if getattr(request, "htmx", False) else template
    return render(request, name, context)


# --- the way in and out -----------------------------------------------------------------------------------------


@require_GET
def link_open(request: HttpRequest, token: str) -> HttpResponseBase:
    """Open a portal link: start the session and leave the token's address (a redirect), or refuse with 403."""
    try:
        portal_link_redeem(token=token, session=request.session)
    except LinkRefused:
        response: HttpResponseBase = render(request, "portal/refused.html", status=403)
    else:
        response = redirect("portal:index")
    # The token's address is sent on to nobody, not even as the next page's referrer. (Only here: a page with
    # no-referrer makes its forms post with Origin: null, which CSRF refuses.)
    response["Referrer-Policy"] = "no-referrer"
    return _private(response)


@require_POST
def logout(request: HttpRequest) -> HttpResponseBase:
    link = portal_session_link(session=request.session)
    if link is not None:
        portal_session_end(link=link, session=request.session)
    else:
        request.session.flush()
    return _private(render(request, "portal/signed_out.html", {"ended": True}))


# --- facts ------------------------------------------------------------------------------------------------------


def _groups(rows: list[Any]) -> list[dict[str, Any]]:
    groups: dict[str, dict[str, Any]] = {}
    for row in rows:
        key = row.fact.type
        groups.setdefault(key, {"type": key, "label": labels.fact_type(key), "rows": []})["rows"].append(row)
    return list(groups.values())


@require_GET
@portal_view
def index(request: HttpRequest, link: PortalLink) -> HttpResponse:
    subject = link.subject
    filters = FactFilters.from_query(request.GET)
    try:
        page = max(1, int(request.GET.get("page", "1")))
    except ValueError:
        page = 1
    facts, more = portal_facts(subject=subject, filters=filters, page=page)
    context = {
        "subject": subject,
        "filters": filters,
        "groups": _groups(fact_rows(subject=subject, facts=facts)),
        "page": page,
        "more": more,
        "counts": type_counts(subject=subject),
        "type_choices": labels.type_choices(),
        "status_choices": labels.status_choices(),
        "tier_choices": labels.tier_choices(),
        "conflicts": open_conflicts(subject=subject),
        "inline_max": settings.EXPORT_INLINE_MAX,
    }
    htmx = getattr(request, "htmx", None)
    if htmx and htmx.target == "fact-list":  # the search form: the list alone
        return render(request, "portal/index.html#fact-list", context)
    return render(request, "portal/index.html", context)


def _fact_or_404(link: PortalLink, fact_id: int) -> Fact:
    fact = portal_fact(subject=link.subject, fact_id=fact_id)
    if fact is None:
        raise Http404("No such fact.")
    return fact


def _fact_context(link: PortalLink, fact: Fact, **extra: Any) -> dict[str, Any]:
    row = fact_rows(subject=link.subject, facts=[fact])[0]
    history = list(fact_history(subject=link.subject, fact=fact))
    return {"subject": link.subject, "row": row, "history": history, "type_choices": labels.type_choices(), **extra}


@require_GET
@portal_view
def fact_detail(request: HttpRequest, link: PortalLink, fact_id: int) -> HttpResponse:
    fact = _fact_or_404(link, fact_id)
    return _partial_or_page(request, "portal/fact.html", "fact-detail", _fact_context(link, fact))


class CorrectionForm(forms.Form):
    text = forms.CharField(max_length=2000, strip=True)
    type = forms.ChoiceField(choices=[("", ""), *FactType.choices], required=False)


@require_http_methods(["GET", "POST"])
@portal_view
def fact_correct(request: HttpRequest, link: PortalLink, fact_id: int) -> HttpResponse:
    """GET: the correction form (inline with htmx); POST: correct the fact as the user (re-embedded, in history)."""
    fact = _fact_or_404(link, fact_id)
    form = CorrectionForm(request.POST or None, initial={"text": fact.text, "type": fact.type})
    if request.method == "POST" and form.is_valid():
        try:
            fact = facts_services.fact_correct(
                fact=fact, actor=Actor.END_USER, actor_id=_actor_id(link),
                text=form.cleaned_data["text"], type=form.cleaned_data["type"] or None,
            )  # fmt: skip
        except FactNotFound:
            raise Http404("No such fact.") from None
        if getattr(request, "htmx", False):
            row = fact_rows(subject=link.subject, facts=[fact])[0]
            return render(request, "portal/index.html#fact-card", {"row": row, "saved": True})
        messages.success(request, _("Your correction is saved."))
        return redirect(reverse("portal:index") + f"#fact-{fact.pk}")
    context = _fact_context(link, fact, form=form, editing=True)
    status = 400 if request.method == "POST" else 200
    name = "portal/index.html#fact-edit" if getattr(request, "htmx", False) else "portal/fact.html"
    return render(request, name, context, status=status)


@require_http_methods(["GET", "POST"])
@portal_view
def fact_forget(request: HttpRequest, link: PortalLink, fact_id: int) -> HttpResponse:
    """GET: ask for confirmation; POST: forget the fact (it never comes back from the same words)."""
    fact = _fact_or_404(link, fact_id)
    if request.method == "POST":
        facts_services.fact_delete(fact=fact, actor=Actor.END_USER, actor_id=_actor_id(link))
        if getattr(request, "htmx", False):
            return render(request, "portal/index.html#fact-forgotten", {"fact_id": fact_id})
        messages.success(request, _("The fact is forgotten."))
        return redirect("portal:index")
    context = _fact_context(link, fact, confirming=True)
    name = "portal/index.html#fact-forget" if getattr(request, "htmx", False) else "portal/fact.html"
    return render(request, name, context)


@require_http_methods(["GET", "POST"])
@portal_view
def forget_all(request: HttpRequest, link: PortalLink) -> HttpResponse:
    """GET: ask for confirmation; POST (confirmed): erase everything about the subject and end the session."""
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        receipt = subject_erase(subject=link.subject, actor=Actor.END_USER, actor_id=_actor_id(link))
        request.session.flush()
        return render(request, "portal/erased.html", {"receipt": receipt})
    status = 400 if request.method == "POST" else 200
    return render(
        request, "portal/forget_all.html", {"subject": link.subject, "unconfirmed": status == 400}, status=status
    )


# --- pause, conflicts -------------------------------------------------------------------------------------------


@require_POST
@portal_view
def pause(request: HttpRequest, link: PortalLink) -> HttpResponse:
    subject = subject_memory_pause(subject=link.subject, paused=request.POST.get("paused") == "1")
    if getattr(request, "htmx", False):
        return render(request, "portal/index.html#pause-panel", {"subject": subject})
    messages.success(request, _("Memory is paused.") if subject.memory_paused else _("Memory is on again."))
    return redirect("portal:index")


@require_POST
@portal_view
def conflict_resolve(request: HttpRequest, link: PortalLink, conflict_id: int) -> HttpResponse:
    """Settle one of the user's open conflicts: keep one statement, both or neither."""
    conflict = portal_conflict(subject=link.subject, conflict_id=conflict_id)
    if conflict is None:
        raise Http404("No such conflict.")
    choice = request.POST.get("keep", "")
    keep: str | int = {"a": conflict.fact_a_id, "b": conflict.fact_b_id}.get(choice) or choice
    try:
        facts_services.conflict_resolve(conflict=conflict, keep=keep, actor=Actor.END_USER, actor_id=_actor_id(link))
    except ConflictAlreadyResolved:
        pass  # resolved meanwhile (another tab, an operator): the list below shows what is left
    except InvalidKeep:
        return HttpResponse(status=400)
    if getattr(request, "htmx", False):
        return render(request, "portal/index.html#conflicts", {"conflicts": open_conflicts(subject=link.subject)})
    messages.success(request, _("The conflict is settled."))
    return redirect("portal:index")


# --- export -----------------------------------------------------------------------------------------------------


@require_POST
@portal_view
def export_start(request: HttpRequest, link: PortalLink) -> HttpResponseBase:
    """Download everything now (a small history), or have a worker build it and follow its progress."""
    fmt = request.POST.get("format", "json")
    if fmt not in EXPORTERS:
        return HttpResponse(status=400)
    subject = link.subject
    if export_total(subject=subject, format=fmt) > settings.EXPORT_INLINE_MAX:
        job = export_job_create(subject=subject, format=fmt)
        return redirect("portal:export", uid=job.uid)
    access_log_record(subject=subject, operation=f"export:{fmt}", actor=Actor.END_USER, actor_id=_actor_id(link))
    response = StreamingHttpResponse(EXPORTERS[fmt](subject=subject), content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{export_filename(format=fmt)}"'
    return response


def _job_or_404(link: PortalLink, uid: uuid.UUID) -> ExportJob:
    job = ExportJob.objects.filter(subject=link.subject, uid=uid).defer("content").first()
    if job is None:
        raise Http404("No such export.")
    return job


@require_GET
@portal_view
def export_progress(request: HttpRequest, link: PortalLink, uid: uuid.UUID) -> HttpResponse:
    job = _job_or_404(link, uid)
    return _partial_or_page(request, "portal/export.html", "export-progress", {"subject": link.subject, "job": job})


@require_GET
@portal_view
def export_file(request: HttpRequest, link: PortalLink, uid: uuid.UUID) -> HttpResponse:
    """The built export, while its link lasts (EXPORT_TTL_MINUTES); afterwards 410 Gone."""
    job = _job_or_404(link, uid)
    found = export_download(job=job)
    if found is None:
        return render(request, "portal/export.html", {"subject": link.subject, "job": job, "gone": True}, status=410)
    response = HttpResponse(found[0], content_type=CONTENT_TYPES[job.format])
    response["Content-Disposition"] = f'attachment; filename="{export_filename(format=job.format)}"'
    return response
