from __future__ import annotations

from django.db import migrations


class Migration(migrations.Migration):
    """Keep a message row up to ~4 kB whole in its heap page (see facts 0005): its 1.5 kB vector and search
    vector otherwise pushed the content and metadata of an ordinary turn to the TOAST table."""

    dependencies = [("conversations", "0003_drop_unused_message_hnsw")]

    operations = [
        migrations.RunSQL(
            sql="ALTER TABLE conversations_message SET (toast_tuple_target = 4080)",
            reverse_sql="ALTER TABLE conversations_message RESET (toast_tuple_target)",
        ),
    ]
