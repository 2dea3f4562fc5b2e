"""Table ``passport_job_summary``: one row per finished job of a ``passport`` source, written once when the job
finishes (``summary.summarize``), so that the scoreboard reads these rows and never the harvest objects.

Created by the alembic migrations of plugin ``passport`` (``ckan db upgrade -p passport``).
"""
from __future__ import annotations

from typing import Optional

import ckan.model as model
from ckan.plugins.toolkit import BaseModel
from sqlalchemy import Column, DateTime, Float, Integer, UnicodeText
from sqlalchemy.dialects.postgresql import JSONB

FINISHED, FAILED = "finished", "failed"


class JobSummary(BaseModel):
    __tablename__ = "passport_job_summary"

    job_id = Column(UnicodeText, primary_key=True)
    source_id = Column(UnicodeText, nullable=False)
    organization_id = Column(UnicodeText, nullable=True)
    # "org:<organization id>": the organization the job speaks for (summary.publisher), and its title then.
    publisher_key = Column(UnicodeText, nullable=False)
    publisher_name = Column(UnicodeText, nullable=False, default="")
    finished = Column(DateTime, nullable=False)
    status = Column(UnicodeText, nullable=False)  # FINISHED or FAILED
    failure_code = Column(UnicodeText, nullable=True)  # the coded reason of a failed job
    # The job's report summary's numbers (conformance.shape), and its error findings and findings by code.
    listed = Column(Integer, nullable=False, default=0)
    read = Column(Integer, nullable=False, default=0)
    conformant = Column(Integer, nullable=False, default=0)
    refused = Column(Integer, nullable=False, default=0)
    mean_score = Column(Float, nullable=True)
    errors = Column(Integer, nullable=False, default=0)
    codes = Column(JSONB, nullable=False, default=dict)

    @classmethod
    def get(cls, job_id: str) -> Optional["JobSummary"]:
        return model.Session.get(cls, job_id) if job_id else None
