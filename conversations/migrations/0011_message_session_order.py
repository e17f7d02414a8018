"""A session's turns indexed in their full order (session, created_at, id), in place of (session, created_at): the
search's reply links read a turn's next two turns straight off the index. Built and dropped concurrently, so a
large table keeps taking writes meanwhile (hence not atomic)."""

from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("conversations", "0010_message_keywords"),
    ]

    operations = [
        AddIndexConcurrently(
            model_name="message",
            index=models.Index(fields=["session", "created_at", "id"], name="message_session_order"),
        ),
        RemoveIndexConcurrently(model_name="message", name="message_session_time"),
    ]
