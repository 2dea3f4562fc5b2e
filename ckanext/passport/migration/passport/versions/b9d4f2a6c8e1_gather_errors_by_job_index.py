"""Index a job's gather errors by job, so that reading them does not follow the portal's age

A job's report reads its gather errors with their findings (conformance.harvest.report, and the scoreboard's
health), and ckanext-harvest's own job status reads them too: ``harvest_gather_error`` is indexed by id only, so at
50,000 records and a hundred finished jobs a source each read was a sequential scan over every job's gather errors
(bench/bench_portal_scale.py prints the plans).

Revision ID: b9d4f2a6c8e1
Revises: 7a3e9c1d5b24
Create Date: 2026-12-06 08:30:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b9d4f2a6c8e1"
down_revision = "7a3e9c1d5b24"
branch_labels = None
depends_on = None

INDEX = "ix_passport_harvest_gather_error_job"


def _has_table() -> bool:
    # ckanext-harvest's tables may not exist yet when the base plugin's migrations run: then nothing is indexed.
    return "harvest_gather_error" in sa.inspect(op.get_bind()).get_table_names()


def upgrade():
    if _has_table():
        op.execute(f'CREATE INDEX IF NOT EXISTS {INDEX} ON "harvest_gather_error" (harvest_job_id)')


def downgrade():
    op.execute(f"DROP INDEX IF EXISTS {INDEX}")
