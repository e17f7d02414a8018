"""python manage.py verify_erasure --tenant NAME --user ID: prove a subject's erasure; non-zero on any remnant."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations.models import Tenant
from policies.portal.verify import erasure_verify


class Command(BaseCommand):
    help = (
        "Scan every table for the ids an erased subject's rows had and for its former texts' fingerprints. "
        "Exit status: 0 when erased with no remnant, 1 on any remnant, 2 when no erasure of that user is on record."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", required=True, help="the tenant's name")
        parser.add_argument("--user", required=True, help="the subject's external id, as the API names it")

    def handle(self, *args: Any, **options: Any) -> None:
        tenant = Tenant.objects.filter(name=options["tenant"]).first()
        if tenant is None:
            raise CommandError(f"No tenant named {options['tenant']!r}.", returncode=2)
        check = erasure_verify(tenant=tenant, external_id=options["user"])
        if not check.erasures:
            raise CommandError("No erasure of this user is on record: nothing to verify.", returncode=2)
        self.stdout.write(
            f"{check.erasures} erasure(s) on record; scanned {check.tables} tables for {check.ids} former row ids "
            f"and {check.fingerprints} text fingerprints."
        )
        if check.recreated:
            self.stdout.write("A new subject with this id was created after the erasure: its rows were checked "
                              "for the former texts only.")  # fmt: skip
        for remnant in check.remnants:
            self.stdout.write(self.style.ERROR(f"remnant: {remnant}"))
        if check.remnants:
            raise CommandError(f"{len(check.remnants)} remnant(s) found.", returncode=1)
        self.stdout.write(self.style.SUCCESS("No remnant: the erasure is complete."))
