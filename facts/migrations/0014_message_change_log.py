from __future__ import annotations

import django.db.models.functions.datetime
from django.db import migrations, models

# Kept in step with facts.models.MESSAGE_CHANGE_IDS_MAX.
MESSAGE_IDS_MAX = 32

# What search reads of a message (facts.retrieval.held_messages): an update that changes none of these (the
# extraction's claim, state, attempts, gate) logs nothing.
_SEARCHED = ("subject_id", "session_id", "role", "name", "content", "external_id", "created_at", "search_vector",
             "embedding")  # fmt: skip
_DIFFERS = " OR ".join(f"n.{c} IS DISTINCT FROM o.{c}" for c in _SEARCHED)

_LOG = f"""
        n AS (SELECT subject_id, count(*) AS n FROM c GROUP BY subject_id)
        INSERT INTO facts_messagechange (subject_id, message_id)
        SELECT c.subject_id, c.id FROM c JOIN n USING (subject_id) WHERE n.n <= {MESSAGE_IDS_MAX}
        UNION ALL SELECT subject_id, NULL FROM n WHERE n.n > {MESSAGE_IDS_MAX};"""

# One row per (subject, message) the statement changed as search reads it; a subject with more than
# MESSAGE_IDS_MAX of them gets one row with message_id NULL instead. An update logs the subject before and after.
_FUNCTION = f"""
CREATE OR REPLACE FUNCTION facts_message_log_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        WITH c AS (SELECT subject_id, id FROM new_rows),{_LOG}
    ELSIF TG_OP = 'DELETE' THEN
        WITH c AS (SELECT subject_id, id FROM old_rows),{_LOG}
    ELSE
        WITH d AS (SELECT n.subject_id AS sn, o.subject_id AS so, n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
                   WHERE {_DIFFERS}),
        c AS (SELECT sn AS subject_id, id FROM d UNION SELECT so, id FROM d),{_LOG}
    END IF;
    RETURN NULL;
END
$$
"""


class Migration(migrations.Migration):
    """A change log of the messages as search reads them, so a process holding a subject's messages in memory
    (facts.retrieval.held_messages) knows when they changed and reads just the changed ones again."""

    dependencies = [
        ("conversations", "0008_message_llm_tokens"),
        ("facts", "0013_fact_change_names_the_facts"),
    ]

    operations = [
        migrations.CreateModel(
            name="MessageChange",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("subject_id", models.BigIntegerField()),
                ("message_id", models.BigIntegerField(null=True)),
                ("created_at", models.DateTimeField(db_default=django.db.models.functions.datetime.Now())),
            ],
            options={
                "indexes": [models.Index(fields=["subject_id", "id"], name="message_change_subject_id")],
            },
        ),
        migrations.RunSQL(
            sql=[
                "ALTER TABLE facts_messagechange ADD CONSTRAINT facts_messagechange_subject_fk FOREIGN KEY (subject_id) "
                "REFERENCES conversations_subject (id) ON DELETE CASCADE",
                _FUNCTION,
                # One trigger per event: PostgreSQL allows transition tables only on single-event triggers.
                "CREATE TRIGGER facts_message_log_insert AFTER INSERT ON conversations_message "
                "REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION facts_message_log_change()",
                "CREATE TRIGGER facts_message_log_update AFTER UPDATE ON conversations_message "
                "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows "
                "FOR EACH STATEMENT EXECUTE FUNCTION facts_message_log_change()",
                "CREATE TRIGGER facts_message_log_delete AFTER DELETE ON conversations_message "
                "REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION facts_message_log_change()",
            ],
            reverse_sql=[
                "DROP TRIGGER IF EXISTS facts_message_log_insert ON conversations_message",
                "DROP TRIGGER IF EXISTS facts_message_log_update ON conversations_message",
                "DROP TRIGGER IF EXISTS facts_message_log_delete ON conversations_message",
                "DROP FUNCTION IF EXISTS facts_message_log_change()",
                "ALTER TABLE facts_messagechange DROP CONSTRAINT IF EXISTS facts_messagechange_subject_fk",
            ],
        ),
    ]
