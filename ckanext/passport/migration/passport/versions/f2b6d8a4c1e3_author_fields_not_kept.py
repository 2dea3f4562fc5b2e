"""Empty the author fields every save filled with whoever saved the record (issue 24)

The catalog set a record's ``author`` and ``author_email`` to the acting user's name and e-mail on every save, and
they were published. They keep nothing now (``catalog.record.validators.NOT_KEPT``); what earlier saves stored goes too.
Every value there came from that rule (it overwrote whatever was given), so nothing typed as a contact is lost. Run
``ckan search-index rebuild`` after the upgrade so that the index forgets them as well.

Revision ID: f2b6d8a4c1e3
Revises: c4d8e2f1a6b9
Create Date: 2026-12-03 12:00:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "f2b6d8a4c1e3"
down_revision = "c4d8e2f1a6b9"
branch_labels = None
depends_on = None


def upgrade():
    op.get_bind().execute(sa.text(
        "UPDATE package SET author = NULL, author_email = NULL"
        " WHERE type = 'dataset' AND (author IS NOT NULL OR author_email IS NOT NULL)"
    ))


def downgrade():
    # What was emptied was never the record's: nothing to put back.
    pass
