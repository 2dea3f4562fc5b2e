"""Create the site check table: a publisher's check of a site, its progress and its report

Revision ID: b7e2c4d1a9f3
Revises: 3c1f2a7d9e41
Create Date: 2026-12-01 10:00:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b7e2c4d1a9f3"
down_revision = "3c1f2a7d9e41"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "passport_site_check",
        sa.Column("id", sa.UnicodeText, primary_key=True),
        sa.Column("url", sa.UnicodeText, nullable=False),
        sa.Column("host", sa.UnicodeText, nullable=False),
        # A purged user leaves the checks they started readable by their link.
        sa.Column("user_id", sa.UnicodeText, sa.ForeignKey("user.id", ondelete="SET NULL"), nullable=True),
        sa.Column("allow_private_addresses", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("status", sa.UnicodeText, nullable=False, server_default="queued"),
        sa.Column("done", sa.Integer, nullable=False, server_default="0"),
        sa.Column("total", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.Column("started", sa.DateTime, nullable=True),
        sa.Column("finished", sa.DateTime, nullable=True),
        sa.Column("result", sa.UnicodeText, nullable=True),
        sa.Column("failure", sa.UnicodeText, nullable=True),
    )
    op.create_index("ix_passport_site_check_user_id", "passport_site_check", ["user_id"])


def downgrade():
    op.drop_table("passport_site_check")
