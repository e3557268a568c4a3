from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0007_evening')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Game',
            name='night_left',
            field=fields.FloatField(null=True, description="Seconds of the running phase's clock after the day's result held on the screens"),
        ),
    ]
