from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    """Move the stored value score off facts_fact into facts_factaccess (as 0006 did for the read counters).

    The lifecycle pass stores every fact's score as it moves. On facts_fact (wide: inline vector, tsvector; about
    fourteen indexes, three GIN) each write was a non-HOT update of the whole row, every index taking new entries,
    and a change logged for the subject's search state that holds no score: a first pass over 200k facts spent
    51 s of 136 s rescoring (bench.lifecycle_pass). facts_factaccess is narrow and unindexed but for its key.

    Scores other than the default are copied over (a fact without a row reads as the default 0.5); the reverse
    copies them back.
    """

    dependencies = [("facts", "0011_forgotten_fingerprints")]

    operations = [
        migrations.AddField(
            model_name="factaccess",
            name="value_score",
            field=models.FloatField(db_default=0.5, default=0.5),
        ),
        migrations.RunSQL(
            sql=(
                "INSERT INTO facts_factaccess (fact_id, access_count, value_score) "
                "SELECT id, 0, value_score FROM facts_fact WHERE value_score <> 0.5 "
                "ON CONFLICT (fact_id) DO UPDATE SET value_score = EXCLUDED.value_score"
            ),
            reverse_sql=(
                "UPDATE facts_fact f SET value_score = a.value_score FROM facts_factaccess a "
                "WHERE a.fact_id = f.id AND a.value_score <> 0.5"
            ),
        ),
        migrations.RemoveField(model_name="fact", name="value_score"),
    ]
