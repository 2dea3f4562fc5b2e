"""Create the harvest finding table: the finding behind each ckanext-harvest error row we write

Revision ID: 3c1f2a7d9e41
Revises: 94dfdae9ca28
Create Date: 2026-12-01 03:00:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "3c1f2a7d9e41"
down_revision = "94dfdae9ca28"
branch_labels = None
depends_on = None


def upgrade():
    # No foreign key: the base plugin's migrations run without ckanext-harvest's tables; a finding whose error
    # row is gone is never read (findings are reached through their error rows).
    op.create_table(
        "passport_harvest_finding",
        sa.Column("error_id", sa.UnicodeText, primary_key=True),
        sa.Column("code", sa.UnicodeText, nullable=False),
        sa.Column("finding", sa.UnicodeText, nullable=False),
        sa.Column("repeats", sa.Integer, nullable=False, server_default="1"),
    )


def downgrade():
    op.drop_table("passport_harvest_finding")
