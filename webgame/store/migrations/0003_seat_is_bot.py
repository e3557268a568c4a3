from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0002_room_player_counts')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Seat',
            name='is_bot',
            field=fields.BooleanField(default=False, description="A bot the server plays (its token is never given out)"),
        ),
        ops.AddField(
            model_name='Seat',
            name='bot_level',
            field=fields.CharField(default='simple', description="A bot's level: simple or strong", max_length=8),
        ),
    ]
