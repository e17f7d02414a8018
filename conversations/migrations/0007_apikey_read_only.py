from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("conversations", "0006_operators_and_message_received_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="apikey",
            name="read_only",
            field=models.BooleanField(default=False),
        ),
    ]
