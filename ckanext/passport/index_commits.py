"""How a harvest import makes its datasets searchable: each dataset indexed once per database commit, then one
soft Solr commit.

CKAN indexes a dataset created with resources twice in the same commit (as new, and as changed through its new
resources), each time reading the dataset back and validating it, and asks Solr for a hard commit each time: a
segment flush and a new searcher, about 20 ms apiece. Under :func:`harvest_indexing` a dataset's first index
update in a database commit is its only one (the second would send the same state: both read it after the same
flush), it goes to Solr without a commit, and a soft commit follows at once. The dataset is searchable before
the action returns, as with CKAN's own commits, so the activity stream's read of it is answered from the index;
durability is Solr's (its update log and ``autoCommit``, on in CKAN's Solr configurations).

A site that turned ``ckan.search.solr_commit`` off relies on Solr's auto-commits: its datasets are still indexed
once, with no commit. A source with ``index_commit: "hard"`` keeps CKAN's indexing as it is.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional

import ckan.plugins.toolkit as tk
import pysolr
from ckan import model
from ckan.lib.search import SynchronousSearchPlugin
from ckan.lib.search.common import SearchIndexError, make_connection

_OPTION = "ckan.search.solr_commit"


class _OncePerCommit:
    """CKAN's search observer, indexing each dataset once per database commit, soft-committing each update."""

    def __init__(self, notify: Callable[[Any, str], None], soft_commit: bool) -> None:
        self._notify = notify
        self._soft_commit = soft_commit
        self._commit: Optional[dict] = None
        self._indexed: set[str] = set()

    def __call__(self, entity: Any, operation: str) -> None:
        if not isinstance(entity, model.Package):
            return
        # CKAN gathers a commit's changed objects in the session's object cache, made anew for each commit.
        commit = getattr(model.Session(), "_object_cache", None)
        if commit is not self._commit:
            self._commit, self._indexed = commit, set()
        if entity.id in self._indexed:
            return
        self._indexed.add(entity.id)
        self._notify(entity, operation)
        if self._soft_commit:
            try:
                make_connection().commit(softCommit=True)
            except pysolr.SolrError as error:
                raise SearchIndexError(f"Solr soft commit failed: {error}") from error


@contextmanager
def harvest_indexing(mode: str) -> Iterator[None]:
    """Run one harvest object's dataset changes with each dataset indexed once per database commit and made
    searchable by one soft commit (``mode`` ``"soft"``), or with CKAN's indexing as it is (``"hard"``).

    The option and the observer are switched for the block only; import stages run one object at a time per
    process (the fetch consumer, ``run-test``), never beside web requests.
    """
    if mode != "soft":
        yield
        return
    observer = SynchronousSearchPlugin()  # the system plugin's one instance
    commits = bool(tk.config.get(_OPTION))
    observer.notify = _OncePerCommit(SynchronousSearchPlugin.notify.__get__(observer), soft_commit=commits)
    tk.config[_OPTION] = False
    try:
        yield
    finally:
        tk.config[_OPTION] = commits
        del observer.notify
