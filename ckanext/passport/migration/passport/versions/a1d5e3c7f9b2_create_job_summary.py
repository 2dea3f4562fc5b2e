"""Create the job summary table: a finished job of a `passport` source, summarized once for the scoreboard

Revision ID: a1d5e3c7f9b2
Revises: f2b6d8a4c1e3
Create Date: 2026-12-03 17:00:00

"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

# revision identifiers, used by Alembic.
revision = "a1d5e3c7f9b2"
down_revision = "f2b6d8a4c1e3"
branch_labels = None
depends_on = None


def upgrade():
    # No foreign keys: the base plugin's migrations run without ckanext-harvest's tables (as
    # passport_harvest_finding); a summary whose job is gone is never reached (the scoreboard joins the sources).
    op.create_table(
        "passport_job_summary",
        sa.Column("job_id", sa.UnicodeText, primary_key=True),
        sa.Column("source_id", sa.UnicodeText, nullable=False),
        sa.Column("organization_id", sa.UnicodeText, nullable=True),
        sa.Column("publisher_key", sa.UnicodeText, nullable=False),
        sa.Column("publisher_name", sa.UnicodeText, nullable=False, server_default=""),
        sa.Column("finished", sa.DateTime, nullable=False),
        sa.Column("status", sa.UnicodeText, nullable=False),
        sa.Column("failure_code", sa.UnicodeText, nullable=True),
        sa.Column("listed", sa.Integer, nullable=False, server_default="0"),
        sa.Column("read", sa.Integer, nullable=False, server_default="0"),
        sa.Column("conformant", sa.Integer, nullable=False, server_default="0"),
        sa.Column("refused", sa.Integer, nullable=False, server_default="0"),
        sa.Column("mean_score", sa.Float, nullable=True),
        sa.Column("errors", sa.Integer, nullable=False, server_default="0"),
        sa.Column("codes", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
    )
    # The scoreboard reads each source's latest summaries and a publisher's in time order.
    op.create_index("ix_passport_job_summary_source_finished", "passport_job_summary", ["source_id", "finished"])
    op.create_index("ix_passport_job_summary_publisher_finished", "passport_job_summary",
                    ["publisher_key", "finished"])


def downgrade():
    op.drop_table("passport_job_summary")
