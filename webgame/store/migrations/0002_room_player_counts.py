from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0001_initial')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Room',
            name='max_players',
            field=fields.IntField(null=True, description="Most players the host allows (null: the rule set's maximum)"),
        ),
        ops.AddField(
            model_name='Room',
            name='min_players',
            field=fields.IntField(null=True, description="Fewest players the host allows (null: the rule set's minimum)"),
        ),
    ]
