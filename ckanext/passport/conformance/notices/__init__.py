"""Conformance mails (issue 25): whoever must act is told when a harvest got worse.

- jobs: a finished job that got worse, mailed to its source's organization admins (and the MR publisher's contact)
- changes: the rule of "worse" (errors grew, score dropped, registry unread) and the passports that broke
- compose: the mails' texts in the site's language · send: recipients and CKAN's mailer, only with ``smtp.server``
- digest: the weekly digest per organization (``ckan passport notices digest``) · cli: that command
- model: the sent notices (the limits) and the opt-outs · tokens: the signed unsubscribe link · views: its page
"""
from __future__ import annotations


def job_finished(job_id: str) -> None:
    """Called by ``conformance.finished_jobs`` once the job is summarized (imported here late: the package is
    imported where ckanext-harvest's models may not be loaded yet)."""
    from .jobs import job_finished as finished

    finished(job_id)
