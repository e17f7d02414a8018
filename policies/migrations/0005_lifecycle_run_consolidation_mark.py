from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("policies", "0004_usage_daily"),
    ]

    operations = [
        migrations.AddField(
            model_name="lifecyclerun",
            name="consolidation_mark",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
