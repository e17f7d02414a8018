"""Create a staff user who operates one tenant (created if missing); the password alone is printed on the last line."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations.services import operator_create, tenant_get_or_create


class Command(BaseCommand):
    help = "Create an operator of one tenant: a staff user who sees and changes only that tenant's rows in /admin/."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", required=True, help="Tenant name (created if it does not exist)")
        parser.add_argument("--username", required=True, help="The operator's login name")

    def handle(self, *args: Any, **options: Any) -> None:
        tenant = tenant_get_or_create(name=options["tenant"])
        try:
            user, password = operator_create(tenant=tenant, username=options["username"])
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.stderr.write(f"Created operator {user.get_username()!r} of tenant {tenant.name!r}; the password follows.")
        self.stdout.write(password)
