from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0006_browser_storage')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Evening',
            fields=[
                ('room_id', fields.IntField(generated=False, primary_key=True, unique=True, db_index=True, description='The room (room.id)')),
                ('first_game', fields.IntField(default=1, description='The first game number the evening counts')),
                ('started_at', fields.FloatField(default=0.0, description='Epoch seconds when the host started it')),
            ],
            options={'table': 'evening', 'app': 'models', 'pk_attr': 'room_id'},
            bases=['Model'],
        ),
    ]
