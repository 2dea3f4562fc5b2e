"""Each MR harvest object that read a passport gets its conformance score as an extra (harvest.stored.SCORE)

Readers select and sum read objects by that extra; objects stored before it existed hold the score only in their
content, from which it is copied here once.

Revision ID: c4d8e2f1a6b9
Revises: e5a1c9d3b2f7
Create Date: 2026-12-03 11:00:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "c4d8e2f1a6b9"
down_revision = "e5a1c9d3b2f7"
branch_labels = None
depends_on = None

# Only `passport` sources' objects: their content is the JSON harvest.stored.MrContent writes. The text test
# finds the ones holding a read passport before any content is parsed.
BACKFILL = """
INSERT INTO harvest_object_extra (id, harvest_object_id, key, value)
SELECT gen_random_uuid()::text, o.id, 'conformance_score', (o.content::json -> 'conformance' ->> 'score')
FROM harvest_object o JOIN harvest_source s ON s.id = o.harvest_source_id
WHERE s.type = 'passport' AND o.content LIKE '%"conformance": {%'
  AND (o.content::json -> 'conformance' ->> 'score') IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM harvest_object_extra e
                  WHERE e.harvest_object_id = o.id AND e.key = 'conformance_score')
"""


def upgrade():
    # The base plugin's migrations may run before ckanext-harvest has made its tables: nothing to copy then.
    if sa.inspect(op.get_bind()).has_table("harvest_object_extra"):
        op.execute(BACKFILL)


def downgrade():
    if sa.inspect(op.get_bind()).has_table("harvest_object_extra"):
        op.execute("DELETE FROM harvest_object_extra WHERE key = 'conformance_score'")
