"""Create the notice tables: the conformance mails sent (for their limits) and the addresses that opted out

Revision ID: d3f7b1e9c5a8
Revises: a1d5e3c7f9b2
Create Date: 2026-12-03 17:00:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d3f7b1e9c5a8"
down_revision = "a1d5e3c7f9b2"
branch_labels = None
depends_on = None


def upgrade():
    # No foreign keys: a notice names a job, a publisher or an organization by key, and outlives them.
    op.create_table(
        "passport_notice_sent",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("recipient", sa.UnicodeText, nullable=False),
        sa.Column("kind", sa.UnicodeText, nullable=False),
        sa.Column("about", sa.UnicodeText, nullable=False),
        sa.Column("sent", sa.DateTime, nullable=False),
    )
    # The limits ask "was this kind sent to this address (about this) since then?".
    op.create_index("ix_passport_notice_sent_recipient", "passport_notice_sent", ["recipient", "kind", "sent"])
    op.create_index("ix_passport_notice_sent_about", "passport_notice_sent", ["kind", "about"])
    op.create_table(
        "passport_notice_optout",
        sa.Column("address", sa.UnicodeText, primary_key=True),
        sa.Column("created", sa.DateTime, nullable=False),
    )


def downgrade():
    op.drop_table("passport_notice_optout")
    op.drop_table("passport_notice_sent")
