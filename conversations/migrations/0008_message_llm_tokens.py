from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("conversations", "0007_apikey_read_only"),
    ]

    operations = [
        migrations.AddField(
            model_name="message",
            name="llm_tokens",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
