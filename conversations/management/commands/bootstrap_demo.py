"""Create the demo tenant, an admin user and a demo API key; print both (idempotent, never with PRODUCTION).

An admin that already exists keeps its password: without the credentials file (deleted, another var/) the
password is not printed, and `manage.py changepassword admin` sets a new one.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from conversations.auth import hash_key
from conversations.models import ApiKey
from conversations.services import api_key_create, tenant_get_or_create


class Command(BaseCommand):
    help = "Create (or reuse) the demo tenant, admin user and API key kept in var/demo_credentials.json."

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.PRODUCTION:
            raise CommandError("PRODUCTION is set: no demo user or key (use createsuperuser and create_api_key)")
        path = settings.VAR_DIR / "demo_credentials.json"
        creds: dict[str, str] = json.loads(path.read_text()) if path.exists() else {}
        tenant = tenant_get_or_create(name="demo")
        user_model = get_user_model()
        admin = user_model.objects.filter(username="admin").first()
        if admin is None:
            creds["admin_password"] = secrets.token_urlsafe(12)
            user_model.objects.create_superuser("admin", "admin@example.com", creds["admin_password"])
        raw = creds.get("api_key")
        if not raw or not ApiKey.objects.filter(key_hash=hash_key(raw), revoked_at__isnull=True).exists():
            _, raw = api_key_create(tenant=tenant, name="demo")
            creds["api_key"] = raw
        path.write_text(json.dumps(creds))
        path.chmod(0o600)
        if "admin_password" in creds:
            self.stdout.write(f"Admin login:  admin / {creds['admin_password']}")
        else:
            self.stdout.write("Admin login:  admin (its password is unchanged: `manage.py changepassword admin`)")
        self.stdout.write(f"Demo API key: {creds['api_key']}")
