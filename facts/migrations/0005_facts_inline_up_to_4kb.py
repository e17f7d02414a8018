from __future__ import annotations

from django.db import migrations


class Migration(migrations.Migration):
    """Keep a fact row up to ~4 kB whole in its heap page.

    A fact row is ~2.4 kB, most of it the 1.5 kB vector kept inline (0003): above PostgreSQL's default 2 kB
    target it compressed or moved the other columns (keywords, entities, entity keys, search text) to the
    TOAST table, and every search that read them fetched them back. Measured on the LoCoMo bench facts:
    entity matching 9.0 -> 3.7 ms, candidate rows 2.4 -> 0.9 ms, exact vector scan 1.9 -> 1.1 ms per query.
    Only new and rewritten rows are affected.
    """

    dependencies = [("facts", "0004_vector_bits_prefilter")]

    operations = [
        migrations.RunSQL(
            sql="ALTER TABLE facts_fact SET (toast_tuple_target = 4080)",
            reverse_sql="ALTER TABLE facts_fact RESET (toast_tuple_target)",
        ),
    ]
