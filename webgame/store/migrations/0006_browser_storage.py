from tortoise import migrations
from tortoise.migrations import operations as ops
from orjson import loads
from tortoise.fields.data import JSON_DUMPS
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0005_room_leases')]

    initial = False

    operations = [
        ops.CreateModel(
            name='BrowserStorage',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, description="NiceGUI's storage id (the session's id)", max_length=64)),
                ('data', fields.JSONField(default=dict, description="The browser's storage", encoder=JSON_DUMPS, decoder=loads)),
                ('version', fields.BigIntField(default=0, description='Bumped at every write')),
                ('updated_at', fields.FloatField(default=0.0, description='Database epoch seconds of the last write')),
            ],
            options={'table': 'browser_storage', 'app': 'models', 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
