"""factory_boy factories for the core rows."""

from __future__ import annotations

import factory
from django.utils import timezone

from conversations.models import Message, Session, Subject, Tenant


class TenantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tenant
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"tenant-{n}")


class SubjectFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Subject
        django_get_or_create = ("tenant", "external_id")

    tenant = factory.SubFactory(TenantFactory)
    external_id = factory.Sequence(lambda n: f"user-{n}")


class SessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Session
        django_get_or_create = ("subject", "external_id")

    subject = factory.SubFactory(SubjectFactory)
    tenant = factory.LazyAttribute(lambda o: o.subject.tenant)
    external_id = "s1"


class MessageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Message

    session = factory.SubFactory(SessionFactory)
    subject = factory.LazyAttribute(lambda o: o.session.subject)
    tenant = factory.LazyAttribute(lambda o: o.session.tenant)
    role = "user"
    content = "I live in Beijing."
    created_at = factory.LazyFunction(timezone.now)
