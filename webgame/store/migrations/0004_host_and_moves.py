from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0003_seat_is_bot')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Room',
            name='handover_seconds',
            field=fields.IntField(default=30, description="Seconds the host's phone may be gone before the host role passes on"),
        ),
        ops.AddField(
            model_name='Room',
            name='moderator_takeover',
            field=fields.BooleanField(default=False, description="A player may take a gone moderator's controls mid-game"),
        ),
    ]
