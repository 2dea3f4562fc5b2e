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
from dataclasses import dataclass
from typing import Iterator

import ckan.plugins.toolkit as tk
import pysolr
from ckan.lib.search.common import SearchIndexError, make_connection

_OPTION = "ckan.search.solr_commit"


@dataclass
class ObjectIndexing:
    """What the import of one object did to the index: ``changed`` when it created, updated or removed."""

    changed: bool = False


@contextmanager
def soft_commit_per_object(mode: str) -> Iterator[ObjectIndexing]:
    """Run one harvest object's dataset changes with Solr commits replaced by one soft commit at the end,
    sent when the block marked the object ``changed`` (an unchanged or refused dataset needs none).

    The option is switched for the block only; import stages run one object at a time per process (the fetch
    consumer, ``run-test``), never beside web requests.
    """
    indexing = ObjectIndexing()
    if mode != "soft" or not tk.config.get(_OPTION):
        yield indexing
        return
    tk.config[_OPTION] = False
    try:
        yield indexing
    finally:
        tk.config[_OPTION] = True
    if indexing.changed:
        try:
            make_connection().commit(softCommit=True)
        except pysolr.SolrError as error:
            raise SearchIndexError(f"Solr soft commit failed: {error}") from error
