"""Create an API key for a tenant (created if missing); the key alone is printed on the last line."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from conversations.services import api_key_create, tenant_get_or_create


class Command(BaseCommand):
    help = "Create an API key for a tenant and print it (it is shown once; only its hash is stored)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", required=True, help="Tenant name (created if it does not exist)")
        parser.add_argument("--name", default="default", help="A label for the key")

    def handle(self, *args: Any, **options: Any) -> None:
        tenant = tenant_get_or_create(name=options["tenant"])
        key, raw = api_key_create(tenant=tenant, name=options["name"])
        self.stderr.write(f"Created key {key.prefix}… for tenant {tenant.name!r}. Store it now; it is not shown again.")
        self.stdout.write(raw)
