from __future__ import annotations

from django.db import migrations
from pgvector.django import VectorExtension


class Migration(migrations.Migration):
    """Create the pgvector extension before any table uses a vector column."""

    initial = True
    dependencies: list[tuple[str, str]] = []
    operations = [VectorExtension()]
