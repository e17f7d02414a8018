from __future__ import annotations

from django.db import migrations


class Migration(migrations.Migration):
    """Keep fact vectors and tsvectors inline in the row.

    A 384-dim vector is 1.5 kB; with the default EXTENDED storage PostgreSQL moved it out of line (TOAST),
    and reading it back dominated the exact per-subject vector scan (p50 112 ms -> 51 ms at 1M facts in
    bench/search_latency.py). PLAIN keeps the vector in the heap page; MAIN prefers inline for the tsvector.
    Only new and rewritten rows are affected.
    """

    dependencies = [("facts", "0002_initial")]

    operations = [
        migrations.RunSQL(
            sql=[
                "ALTER TABLE facts_fact ALTER COLUMN embedding SET STORAGE PLAIN",
                "ALTER TABLE facts_fact ALTER COLUMN search_vector SET STORAGE MAIN",
            ],
            reverse_sql=[
                "ALTER TABLE facts_fact ALTER COLUMN embedding SET STORAGE EXTENDED",
                "ALTER TABLE facts_fact ALTER COLUMN search_vector SET STORAGE EXTENDED",
            ],
        ),
    ]
