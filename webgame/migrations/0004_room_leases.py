from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0003_seat_is_bot')]

    initial = False

    operations = [
        ops.CreateModel(
            name='RoomLease',
            fields=[
                ('room_id', fields.IntField(generated=False, primary_key=True, unique=True, db_index=True, description='The room (room.id)')),
                ('owner', fields.CharField(null=True, description='The process holding the room, null when free', max_length=96)),
                ('epoch', fields.IntField(default=0, description='Bumped at every change of owner')),
                ('expires_at', fields.FloatField(default=0.0, description='Database epoch seconds when the lease lapses')),
                ('wanted_by', fields.CharField(null=True, description='A process the proxy now sends the room to', max_length=96)),
            ],
            options={'table': 'room_lease', 'app': 'models', 'pk_attr': 'room_id'},
            bases=['Model'],
        ),
    ]
