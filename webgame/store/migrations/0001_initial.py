from tortoise import migrations
from tortoise.migrations import operations as ops
from orjson import loads
from tortoise.fields.base import OnDelete
from tortoise.fields.data import JSON_DUMPS
from webgame.store.models import RoomStatus
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    initial = True

    operations = [
        ops.CreateModel(
            name='Room',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('code', fields.CharField(unique=True, description='Short code people type or scan to join', max_length=12)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('rules', fields.CharField(description="Rule set id: 'uz' or 'uk'", max_length=8)),
                ('options', fields.JSONField(default=dict, encoder=JSON_DUMPS, decoder=loads)),
                ('timers', fields.JSONField(default=dict, description='Phase name -> seconds', encoder=JSON_DUMPS, decoder=loads)),
                ('language', fields.CharField(default='en', max_length=16)),
                ('status', fields.CharEnumField(default=RoomStatus.LOBBY, description='LOBBY: lobby\nPLAYING: playing\nFINISHED: finished', enum_type=RoomStatus, max_length=16)),
                ('host_token_hash', fields.CharField(null=True, description="SHA-256 of the host seat's token", max_length=64)),
                ('moderated', fields.BooleanField(default=False, description='A human moderator runs the table')),
                ('version', fields.IntField(default=0, description='Bumped on every change to the room or its seats')),
            ],
            options={'table': 'room', 'app': 'models', 'indexes': [Index(fields=['status'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Game',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('room', fields.ForeignKeyField('models.Room', source_field='room_id', db_constraint=True, to_field='id', related_name='games', on_delete=OnDelete.CASCADE)),
                ('number', fields.IntField(description="1 for the room's first game, then 2, ...")),
                ('rules', fields.CharField(max_length=8)),
                ('options', fields.JSONField(default=dict, encoder=JSON_DUMPS, decoder=loads)),
                ('seed', fields.BigIntField(description="Seed of the engine's RNG, 0 <= seed < 2**63")),
                ('seating', fields.JSONField(description="[{'seat_id': int, 'name': str}, ...] in seat order", encoder=JSON_DUMPS, decoder=loads)),
                ('started_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('finished_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('winner', fields.CharField(null=True, max_length=32)),
                ('deadline_at', fields.FloatField(null=True, description='Epoch seconds when the running phase ends')),
                ('paused_remaining', fields.FloatField(null=True, description='Seconds left while the clock is paused')),
                ('step', fields.IntField(default=0, description='Number of actions recorded in the log')),
            ],
            options={'table': 'game', 'app': 'models', 'unique_together': (('room', 'number'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ActionRecord',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('game', fields.ForeignKeyField('models.Game', source_field='game_id', db_constraint=True, to_field='id', related_name='actions', on_delete=OnDelete.CASCADE)),
                ('index', fields.IntField(description="0-based position in the game's action log")),
                ('payload', fields.JSONField(encoder=JSON_DUMPS, decoder=loads)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'action_record', 'app': 'models', 'unique_together': (('game', 'index'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ChatMessage',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('room', fields.ForeignKeyField('models.Room', source_field='room_id', db_constraint=True, to_field='id', related_name='chat_messages', on_delete=OnDelete.CASCADE)),
                ('game', fields.ForeignKeyField('models.Game', source_field='game_id', null=True, db_constraint=True, to_field='id', related_name='chat_messages', on_delete=OnDelete.CASCADE)),
                ('channel', fields.CharField(description="e.g. 'lobby', 'day', 'mafia', 'dead'", max_length=32)),
                ('seat_position', fields.IntField()),
                ('text', fields.TextField(unique=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'chat_message', 'app': 'models', 'indexes': [Index(fields=['room_id', 'channel'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Seat',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('room', fields.ForeignKeyField('models.Room', source_field='room_id', db_constraint=True, to_field='id', related_name='seats', on_delete=OnDelete.CASCADE)),
                ('token_hash', fields.CharField(unique=True, description='SHA-256 hex of the seat token', max_length=64)),
                ('name', fields.CharField(max_length=64)),
                ('position', fields.IntField(description='Place at the table, 0-based')),
                ('is_moderator', fields.BooleanField(default=False)),
                ('joined_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('left', fields.BooleanField(default=False, description='Left or removed, kept so old games still name it')),
            ],
            options={'table': 'seat', 'app': 'models', 'indexes': [Index(fields=['room_id', 'position'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
