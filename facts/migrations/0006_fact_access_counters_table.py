from __future__ import annotations

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """Move the per-fact read counters (access_count, last_accessed_at) off facts_fact into facts_factaccess.

    Every search bumped them on the facts it returned. facts_fact is wide (inline vector, bit column, tsvector)
    with pages full and `last_accessed_at` indexed (fact_tenant_tier_access), so those UPDATEs were never HOT:
    each added entries to every fact index, HNSW included (bench DB: 201,007 updates, 111 HOT), and the worker
    doing it competed with searches for the two cores. facts_factaccess is narrow, has only its primary key,
    and leaves 30% of each page free (fillfactor 70), so a bump is a HOT update. The index goes: nothing reads
    facts by last access time.

    Existing counts are copied over (only facts read at least once get a row); the reverse copies them back.
    """

    dependencies = [("facts", "0005_facts_inline_up_to_4kb")]

    operations = [
        migrations.CreateModel(
            name="FactAccess",
            fields=[
                (
                    "fact",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="access",
                        serialize=False,
                        to="facts.fact",
                    ),
                ),
                ("access_count", models.PositiveIntegerField(default=0)),
                ("last_accessed_at", models.DateTimeField(blank=True, null=True)),
            ],
        ),
        migrations.RunSQL(
            sql="ALTER TABLE facts_factaccess SET (fillfactor = 70)",
            reverse_sql=migrations.RunSQL.noop,  # the table is dropped
        ),
        migrations.RunSQL(
            sql=(
                "INSERT INTO facts_factaccess (fact_id, access_count, last_accessed_at) "
                "SELECT id, access_count, last_accessed_at FROM facts_fact "
                "WHERE access_count > 0 OR last_accessed_at IS NOT NULL"
            ),
            reverse_sql=(
                "UPDATE facts_fact f SET access_count = a.access_count, last_accessed_at = a.last_accessed_at "
                "FROM facts_factaccess a WHERE a.fact_id = f.id"
            ),
        ),
        migrations.RemoveIndex(
            model_name="fact",
            name="fact_tenant_tier_access",
        ),
        migrations.RemoveField(
            model_name="fact",
            name="access_count",
        ),
        migrations.RemoveField(
            model_name="fact",
            name="last_accessed_at",
        ),
    ]
