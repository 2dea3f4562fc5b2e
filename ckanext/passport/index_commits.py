"""How a harvest import makes its datasets searchable: one soft Solr commit per object.

CKAN indexes a dataset created with resources twice (as new, and as changed through its new resources) and
asks Solr for a hard commit each time: a segment flush and a new searcher, about 20 ms apiece, a third of a
first harvest's time. Under :func:`soft_commit_per_object` the object's index updates go to Solr without a
commit and a single soft commit follows, so the dataset is searchable when its import returns, as with CKAN's
own commits; durability is Solr's (its update log and ``autoCommit``, on in CKAN's Solr configurations).

A site that turned ``ckan.search.solr_commit`` off relies on Solr's auto-commits and is left as it is; a
source with ``index_commit: "hard"`` keeps CKAN's commits.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import ckan.plugins.toolkit as tk
import pysolr
from ckan.lib.search.common import SearchIndexError, make_connection

_OPTION = "ckan.search.solr_commit"


@contextmanager
def soft_commit_per_object(mode: str) -> Iterator[None]:
    """Run one harvest object's dataset changes with Solr commits replaced by one soft commit at the end.

    The option is switched for the block only; import stages run one object at a time per process (the fetch
    consumer, ``run-test``), never beside web requests.
    """
    if mode != "soft" or not tk.config.get(_OPTION):
        yield
        return
    tk.config[_OPTION] = False
    try:
        yield
    finally:
        tk.config[_OPTION] = True
    try:
        make_connection().commit(softCommit=True)
    except pysolr.SolrError as error:
        raise SearchIndexError(f"Solr soft commit failed: {error}") from error
