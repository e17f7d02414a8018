"""Remove the schedule entry that sent the sweep to the worker: beat runs the sweep itself now
(BEAT_IN_PROCESS_JOBS). django-celery-beat keeps entries settings no longer name, so without this beat would
go on sending the task every minute."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def retire(apps: Any, schema_editor: Any) -> None:
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")  # noqa: N806 (a model class)
    PeriodicTask.objects.filter(name="messages-sweep", task="facts.tasks.messages_sweep_task").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("memory_site", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(retire, migrations.RunPython.noop)]
