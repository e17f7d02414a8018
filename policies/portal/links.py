"""The way into the portal: signed, expiring, single-use links, and the portal session one opens.

A link's token is `django.core.signing` over the link row's `jti` (salted, timestamped): tampering breaks the
signature, and the row says when it expires and whether it was used. Race: redeeming locks the row, so two
openings of one link at the same moment start one session.
"""

from __future__ import annotations

import datetime as dt
import uuid

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.core import signing
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.module_loading import import_string

from conversations.models import ApiKey, Subject
from memory_site.errors import InvalidInput, NotFound
from policies.models import PortalLink

LINK_SALT = "memory-site.portal-link"
SESSION_KEY = "portal_link"  # the session holds the link row's id, nothing about the subject


class LinkRefused(NotFound):
    """The link is tampered with, expired, already used or unknown: one answer for all, naming nobody."""

    code = "link_refused"
    message = "This link cannot be used."


def link_ttl(ttl_minutes: int | None) -> dt.timedelta:
    minutes = settings.PORTAL_LINK_TTL_MINUTES if ttl_minutes is None else ttl_minutes
    if not 1 <= minutes <= settings.PORTAL_LINK_MAX_TTL_MINUTES:
        raise InvalidInput(
            f"ttl_minutes must be between 1 and {settings.PORTAL_LINK_MAX_TTL_MINUTES}.",
            details={"ttl_minutes": minutes},
        )
    return dt.timedelta(minutes=minutes)


def portal_link_create(
    *, subject: Subject, api_key: ApiKey | None, ttl_minutes: int | None = None
) -> tuple[PortalLink, str]:
    """Create a link for this one subject; return the row and its token (shown once, never stored)."""
    now = timezone.now()
    link = PortalLink.objects.create(
        tenant_id=subject.tenant_id, subject=subject, created_by=api_key, created_at=now,
        expires_at=now + link_ttl(ttl_minutes),
    )  # fmt: skip
    token = signing.dumps({"j": link.jti.hex}, salt=LINK_SALT, compress=False)
    return link, token


def _jti(token: str) -> uuid.UUID:
    max_age = dt.timedelta(minutes=settings.PORTAL_LINK_MAX_TTL_MINUTES)
    try:
        payload = signing.loads(token, salt=LINK_SALT, max_age=max_age)
        return uuid.UUID(hex=str(payload["j"]))
    except (signing.BadSignature, KeyError, TypeError, ValueError):  # SignatureExpired is a BadSignature
        raise LinkRefused() from None


def portal_link_redeem(*, token: str, session: SessionBase) -> PortalLink:
    """Open a link: start a portal session for its subject in `session` (a new session key), or LinkRefused.

    Opening the link again in the session it opened changes nothing; anywhere else a used link is refused, and
    the refusal is counted on the row (reuse is detectable).
    """
    jti = _jti(token)
    now = timezone.now()
    with transaction.atomic():
        link = PortalLink.objects.select_for_update().filter(jti=jti).first()
        if link is None or (link.used_at is None and link.expires_at <= now):
            raise LinkRefused()
        if link.used_at is None:
            session.cycle_key()  # a fresh session key: nothing set before the link (fixation) carries over
            session[SESSION_KEY] = link.pk
            session.save()
            link.used_at, link.session_key = now, session.session_key or ""
            link.save(update_fields=["used_at", "session_key"])
            return link
    if session.get(SESSION_KEY) == link.pk and session.session_key == link.session_key:
        return link
    PortalLink.objects.filter(pk=link.pk).update(refused_count=F("refused_count") + 1)
    raise LinkRefused()


def portal_session_link(*, session: SessionBase) -> PortalLink | None:
    """The link whose portal session this is, with its subject and tenant; None when none is open.

    Open means: the session is the one the link started, not logged out, younger than PORTAL_SESSION_MINUTES,
    and the subject's tenant is active. A subject erased meanwhile has no links left, so none is open.
    """
    link_id = session.get(SESSION_KEY)
    if not isinstance(link_id, int) or not session.session_key:
        return None
    link = (
        PortalLink.objects.select_related("subject__tenant")
        .filter(pk=link_id, session_key=session.session_key, ended_at__isnull=True, used_at__isnull=False)
        .first()
    )
    if link is None or link.used_at is None or not link.subject.tenant.is_active:
        return None
    if link.used_at + dt.timedelta(minutes=settings.PORTAL_SESSION_MINUTES) <= timezone.now():
        return None
    return link


def portal_session_end(*, link: PortalLink, session: SessionBase) -> None:
    """Log out: the link's session ends for good and the browser's session is emptied."""
    PortalLink.objects.filter(pk=link.pk, ended_at__isnull=True).update(ended_at=timezone.now())
    session.flush()


def portal_sessions_delete(*, subject: Subject) -> int:
    """Delete every browser session a link of the subject opened (its erasure); return how many links had one."""
    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")
    keys = [k for k in PortalLink.objects.filter(subject_id=subject.pk).values_list("session_key", flat=True) if k]
    for key in keys:
        store(session_key=key).delete()
    return len(keys)
