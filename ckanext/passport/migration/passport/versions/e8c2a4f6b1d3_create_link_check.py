"""Create the link check table: each published record's links as its latest link check found them

Revision ID: e8c2a4f6b1d3
Revises: d3f7b1e9c5a8
Create Date: 2026-12-03 20:30:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e8c2a4f6b1d3"
down_revision = "d3f7b1e9c5a8"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "passport_link_check",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("package_id", sa.UnicodeText, sa.ForeignKey("package.id", ondelete="CASCADE"), nullable=False),
        sa.Column("resource_id", sa.UnicodeText, nullable=True),
        sa.Column("field", sa.UnicodeText, nullable=False),
        sa.Column("url", sa.UnicodeText, nullable=False),
        sa.Column("status", sa.UnicodeText, nullable=False),
        sa.Column("code", sa.UnicodeText, nullable=True),
        sa.Column("http_status", sa.Integer, nullable=True),
        sa.Column("finding", sa.UnicodeText, nullable=True),
        sa.Column("checked_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_passport_link_check_package_id", "passport_link_check", ["package_id"])


def downgrade():
    op.drop_table("passport_link_check")
