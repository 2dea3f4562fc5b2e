"""Job summaries keyed by organization: a publisher is an organization, never an INN read from a registry

Summaries made before were keyed by the INN most of their job's identifiers start with and named by a creator
their passports gave, so that anyone's public source could join (and rename) another publisher's row. Each such
summary is keyed here by its source's organization and named by that organization's title: what the new rule
(scoreboard.summary.publisher) gives while no organization holds an INN, as none did before this revision.

Revision ID: 6f1b3d5a7c9e
Revises: e8c2a4f6b1d3
Create Date: 2026-12-06 02:00:00

"""
from alembic import op

# revision identifiers, used by Alembic.
revision = "6f1b3d5a7c9e"
down_revision = "e8c2a4f6b1d3"
branch_labels = None
depends_on = None

# A source without an organization is keyed "org:", as the summary keys it.
REKEY = """
UPDATE passport_job_summary s
SET publisher_key = 'org:' || COALESCE(s.organization_id, ''),
    publisher_name = COALESCE((SELECT COALESCE(NULLIF(g.title, ''), g.name) FROM "group" g
                               WHERE g.id = s.organization_id), '')
WHERE s.publisher_key NOT LIKE 'org:%'
"""


def upgrade():
    op.execute(REKEY)


def downgrade():
    # The INN keys are not kept: a downgraded scoreboard shows every publisher by its organization until each
    # source's next job is summarized again.
    pass
