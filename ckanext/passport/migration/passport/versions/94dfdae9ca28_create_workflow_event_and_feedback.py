"""Create the workflow event and feedback tables

Revision ID: 94dfdae9ca28
Revises:
Create Date: 2025-11-30 02:00:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "94dfdae9ca28"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "passport_workflow_event",
        sa.Column("id", sa.UnicodeText, primary_key=True),
        sa.Column("package_id", sa.UnicodeText, sa.ForeignKey("package.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.UnicodeText, sa.ForeignKey("user.id", ondelete="SET NULL"), nullable=True),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.Column("from_state", sa.UnicodeText, nullable=False),
        sa.Column("to_state", sa.UnicodeText, nullable=False),
        sa.Column("comment", sa.UnicodeText, nullable=False, server_default=""),
    )
    op.create_index("ix_passport_workflow_event_package_id", "passport_workflow_event", ["package_id"])
    op.create_table(
        "passport_feedback",
        sa.Column("id", sa.UnicodeText, primary_key=True),
        sa.Column("package_id", sa.UnicodeText, sa.ForeignKey("package.id", ondelete="CASCADE"), nullable=False),
        sa.Column("text", sa.UnicodeText, nullable=False),
        sa.Column("email", sa.UnicodeText, nullable=True),
        sa.Column("kind", sa.UnicodeText, nullable=False, server_default="comment"),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.Column("client_hash", sa.UnicodeText, nullable=False),
        sa.Column("state", sa.UnicodeText, nullable=False, server_default="new"),
    )
    op.create_index("ix_passport_feedback_package_id", "passport_feedback", ["package_id"])


def downgrade():
    op.drop_table("passport_feedback")
    op.drop_table("passport_workflow_event")
