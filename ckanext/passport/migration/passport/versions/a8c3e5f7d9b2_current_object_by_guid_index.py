"""Index a source's current objects by guid, so that finding a record's last object does not follow the source's size

Every fetch asks for the current object of its guid in its source (harvest.objects.previous_object). ckanext-harvest
indexes ``harvest_object`` by guid and by source apart, and the planner ANDs the two bitmaps: the source's part reads
every object the source has, so each fetch cost more as the source grew, and a 5,000-passport job more per passport
than a 1,000 one (bench/bench_portal_scale.py). One partial index of the current objects by source and guid answers it
in one lookup.

Revision ID: a8c3e5f7d9b2
Revises: b9d4f2a6c8e1
Create Date: 2026-12-06 10:00:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "a8c3e5f7d9b2"
down_revision = "b9d4f2a6c8e1"
branch_labels = None
depends_on = None

INDEX = "ix_passport_harvest_object_current_guid"


def _has_table() -> bool:
    # ckanext-harvest's tables may not exist yet when the base plugin's migrations run: then nothing is indexed.
    return "harvest_object" in sa.inspect(op.get_bind()).get_table_names()


def upgrade():
    if _has_table():
        op.execute(f'CREATE INDEX IF NOT EXISTS {INDEX} ON "harvest_object" (harvest_source_id, guid) WHERE current')


def downgrade():
    op.execute(f"DROP INDEX IF EXISTS {INDEX}")
