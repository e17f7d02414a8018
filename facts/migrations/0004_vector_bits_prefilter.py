from __future__ import annotations

from django.db import migrations

from conversations.models import EMBEDDING_DIMENSIONS


class Migration(migrations.Migration):
    """A binary-quantised copy of each fact vector (one bit per dimension, 48 bytes), kept by PostgreSQL, and a
    partial btree over the searchable facts that holds it, so a large subject's vector search reads no heap page
    in its first stage.

    facts/retrieval/candidates.py (`vector_facts`): for a subject above SEARCH_VECTOR_EXACT_MAX facts, the
    SEARCH_VECTOR_PREFILTER_DEPTH nearest by Hamming distance (an index-only scan) are re-ranked by exact cosine.
    Only SQL reads the column: it is not a model field.
    """

    dependencies = [("facts", "0003_inline_vector_storage")]

    operations = [
        migrations.RunSQL(
            sql=[
                "ALTER TABLE facts_fact ADD COLUMN IF NOT EXISTS embedding_bits "
                f"bit({EMBEDDING_DIMENSIONS}) GENERATED ALWAYS AS "
                f"(binary_quantize(embedding)::bit({EMBEDDING_DIMENSIONS})) STORED",
                "CREATE INDEX IF NOT EXISTS fact_vector_bits ON facts_fact (subject_id) "
                "INCLUDE (id, expires_at, embedding_bits) "
                "WHERE tier = 'active' AND status IN ('active', 'conflicted') AND embedding IS NOT NULL",
            ],
            reverse_sql=[
                "DROP INDEX IF EXISTS fact_vector_bits",
                "ALTER TABLE facts_fact DROP COLUMN IF EXISTS embedding_bits",
            ],
        ),
    ]
