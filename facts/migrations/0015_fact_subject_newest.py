"""A subject's facts newest first from an index on (subject, created_at, id), which replaces the index on subject alone."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("conversations", "0008_message_llm_tokens"),
        ("facts", "0014_message_change_log"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="fact",
            index=models.Index(fields=["subject", "created_at", "id"], name="fact_subject_newest"),
        ),
        migrations.AlterField(
            model_name="fact",
            name="subject",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="facts",
                to="conversations.subject",
            ),
        ),
    ]
