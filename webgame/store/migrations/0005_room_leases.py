from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0004_host_and_moves')]

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
        ops.CreateModel(
            name='RateBucket',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('limiter', fields.CharField(description='Which limit (ratelimit.Limiter.name)', max_length=32)),
                ('key', fields.CharField(description='Whose: an address or browser key', max_length=128)),
                ('tokens', fields.FloatField(description='Attempts left as of at')),
                ('at', fields.FloatField(description='Database epoch seconds of the last change')),
            ],
            options={'table': 'rate_bucket', 'app': 'models', 'unique_together': (('limiter', 'key'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
