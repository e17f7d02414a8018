"""Create the demo tenant, an admin user and a demo API key; print both (idempotent)."""

from __future__ import annotations

import json
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from conversations.auth import hash_key
from conversations.models import ApiKey
from conversations.services import api_key_create, tenant_get_or_create


class Command(BaseCommand):
    help = "Create (or reuse) the demo tenant, admin user and API key kept in var/demo_credentials.json."

    def handle(self, *args: Any, **options: Any) -> None:
        path = settings.VAR_DIR / "demo_credentials.json"
        creds: dict[str, str] = json.loads(path.read_text()) if path.exists() else {}
        tenant = tenant_get_or_create(name="demo")
        user_model = get_user_model()
        admin = user_model.objects.filter(username="admin").first()
        if admin is None or "admin_password" not in creds:
            creds["admin_password"] = secrets.token_urlsafe(12)
            if admin is None:
                admin = user_model.objects.create_superuser("admin", "admin@example.com", creds["admin_password"])
            else:
                admin.set_password(creds["admin_password"])
                admin.save()
        raw = creds.get("api_key")
        if not raw or not ApiKey.objects.filter(key_hash=hash_key(raw), revoked_at__isnull=True).exists():
            _, raw = api_key_create(tenant=tenant, name="demo")
            creds["api_key"] = raw
        path.write_text(json.dumps(creds))
        path.chmod(0o600)
        self.stdout.write(f"Admin login:  admin / {creds['admin_password']}")
        self.stdout.write(f"Demo API key: {creds['api_key']}")
