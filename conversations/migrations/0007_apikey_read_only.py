from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("conversations", "0005_message_extraction_claim"),
    ]

    operations = [
        migrations.AddField(
            model_name="apikey",
            name="read_only",
            field=models.BooleanField(default=False),
        ),
    ]
