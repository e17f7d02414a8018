from __future__ import annotations

from django.db import migrations, models

# A statement that changes more of a subject's facts than this logs one row without a fact (tiering, an
# erasure, a bulk import): readers read the subject whole then. Kept in step with facts.models.FACT_CHANGE_IDS_MAX.
FACT_IDS_MAX = 32

# One row per (subject, fact) the statement changed; a subject with more than FACT_IDS_MAX of them gets one row
# with fact_id NULL instead. An update logs the subject before and after (a fact moved between subjects).
_FUNCTION = f"""
CREATE OR REPLACE FUNCTION facts_fact_log_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        WITH c AS (SELECT subject_id, id FROM new_rows),
        n AS (SELECT subject_id, count(*) AS n FROM c GROUP BY subject_id)
        INSERT INTO facts_factchange (subject_id, fact_id)
        SELECT c.subject_id, c.id FROM c JOIN n USING (subject_id) WHERE n.n <= {FACT_IDS_MAX}
        UNION ALL SELECT subject_id, NULL FROM n WHERE n.n > {FACT_IDS_MAX};
    ELSIF TG_OP = 'DELETE' THEN
        WITH c AS (SELECT subject_id, id FROM old_rows),
        n AS (SELECT subject_id, count(*) AS n FROM c GROUP BY subject_id)
        INSERT INTO facts_factchange (subject_id, fact_id)
        SELECT c.subject_id, c.id FROM c JOIN n USING (subject_id) WHERE n.n <= {FACT_IDS_MAX}
        UNION ALL SELECT subject_id, NULL FROM n WHERE n.n > {FACT_IDS_MAX};
    ELSE
        WITH c AS (SELECT subject_id, id FROM new_rows UNION SELECT subject_id, id FROM old_rows),
        n AS (SELECT subject_id, count(*) AS n FROM c GROUP BY subject_id)
        INSERT INTO facts_factchange (subject_id, fact_id)
        SELECT c.subject_id, c.id FROM c JOIN n USING (subject_id) WHERE n.n <= {FACT_IDS_MAX}
        UNION ALL SELECT subject_id, NULL FROM n WHERE n.n > {FACT_IDS_MAX};
    END IF;
    RETURN NULL;
END
$$
"""

# 0010's function: one row per subject, no fact.
_FUNCTION_0010 = """
CREATE OR REPLACE FUNCTION facts_fact_log_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO facts_factchange (subject_id) SELECT DISTINCT subject_id FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO facts_factchange (subject_id) SELECT DISTINCT subject_id FROM old_rows;
    ELSE
        INSERT INTO facts_factchange (subject_id)
        SELECT subject_id FROM new_rows UNION SELECT subject_id FROM old_rows;
    END IF;
    RETURN NULL;
END
$$
"""


class Migration(migrations.Migration):
    """The change log names the facts a statement changed (up to FACT_IDS_MAX a subject), so a process holding
    the subject's facts in memory (facts.retrieval.vector_cache) reads just those again, not the whole subject."""

    dependencies = [("facts", "0012_value_score_beside_the_read_counters")]

    operations = [
        migrations.AddField(model_name="factchange", name="fact_id", field=models.BigIntegerField(null=True)),
        migrations.RunSQL(sql=_FUNCTION, reverse_sql=_FUNCTION_0010),
    ]
