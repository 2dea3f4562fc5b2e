"""Keep a site check's passports apart from its report: one row per passport read, for its corrected files

The report a view renders (``passport_site_check.result``) no longer holds the passports read; checks kept
before move theirs to ``passport_site_check_passport`` as they were (only new checks bound what they keep).

Revision ID: e5a1c9d3b2f7
Revises: b7e2c4d1a9f3
Create Date: 2026-12-01 21:00:00

"""
import json

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e5a1c9d3b2f7"
down_revision = "b7e2c4d1a9f3"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "passport_site_check_passport",
        sa.Column("check_id", sa.UnicodeText,
                  sa.ForeignKey("passport_site_check.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("url", sa.UnicodeText, nullable=False),
        sa.Column("passport", sa.UnicodeText, nullable=False),
    )
    connection = op.get_bind()
    checks = connection.execute(sa.text("SELECT id, result FROM passport_site_check WHERE result IS NOT NULL"))
    for check_id, result in checks.fetchall():
        summary = json.loads(result)
        for number, entry in enumerate(summary.get("passports", []), start=1):
            passport = entry.pop("passport", None)
            entry["fixed"] = passport is not None
            if passport is not None:
                connection.execute(
                    sa.text("INSERT INTO passport_site_check_passport (check_id, number, url, passport) "
                            "VALUES (:check_id, :number, :url, :passport)"),
                    {"check_id": check_id, "number": number, "url": entry.get("url") or "",
                     "passport": json.dumps(passport, ensure_ascii=False)})
        connection.execute(sa.text("UPDATE passport_site_check SET result = :result WHERE id = :id"),
                           {"result": json.dumps(summary, ensure_ascii=False), "id": check_id})


def downgrade():
    connection = op.get_bind()
    kept = connection.execute(sa.text("SELECT check_id, number, passport FROM passport_site_check_passport"))
    passports = {(check_id, number): json.loads(passport) for check_id, number, passport in kept.fetchall()}
    checks = connection.execute(sa.text("SELECT id, result FROM passport_site_check WHERE result IS NOT NULL"))
    for check_id, result in checks.fetchall():
        summary = json.loads(result)
        for number, entry in enumerate(summary.get("passports", []), start=1):
            entry.pop("fixed", None)
            entry["passport"] = passports.get((check_id, number))
        connection.execute(sa.text("UPDATE passport_site_check SET result = :result WHERE id = :id"),
                           {"result": json.dumps(summary, ensure_ascii=False), "id": check_id})
    op.drop_table("passport_site_check_passport")
