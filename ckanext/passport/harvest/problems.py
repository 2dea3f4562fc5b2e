"""The codes the harvest adds to the MR library's (``mr.problems``): a source's config refused, and what a job
refused to do. Defined in the same catalogue, so one list holds every code a harvest can write; pure, like
``mr/``, so the catalogue can be read without CKAN.
"""
from __future__ import annotations



# An error of an object's import stage means nothing of the entry was written, save these (the record was kept).
RECORD_KEPT = frozenset({"harvest.index_failed"})


