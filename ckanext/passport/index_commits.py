"""How a harvest import makes its datasets searchable: each dataset indexed once per database commit, then one
soft Solr commit.

CKAN 2.11 indexes a dataset created with resources twice in the same commit (its model observer sees it as new,
and as changed through its new resources), each time reading the dataset back and validating it; CKAN 2.12
indexes once, in the action. Either asks Solr for a hard commit on every index write: a segment flush and a new
searcher, about 20 ms apiece. Under :func:`harvest_indexing` a dataset's first index update in a database commit
is its only one (a second would send the same state: both read it after the same flush), each index write goes
to Solr without a commit, and a soft commit follows it at once. The dataset is searchable before the action
returns, as with CKAN's own commits, so the activity stream's read of it is answered from the index; durability
is Solr's (its update log and ``autoCommit``, on in CKAN's Solr configurations).

A site that turned ``ckan.search.solr_commit`` off relies on Solr's auto-commits: its datasets are still indexed
once, with no commit. A source with ``index_commit: "hard"`` keeps CKAN's indexing as it is.
"""
from __future__ import annotations

from contextlib import ExitStack, contextmanager
from typing import Any, Callable, Iterator, Optional

import ckan.plugins.toolkit as tk
import pysolr
from ckan import model
from ckan.lib.search.common import SearchIndexError, make_connection
from ckan.lib.search.index import PackageSearchIndex

try:  # CKAN 2.11 indexes through a model observer, the system plugin
    from ckan.lib.search import SynchronousSearchPlugin
except ImportError:  # CKAN 2.12 indexes once, in the dataset actions themselves
    SynchronousSearchPlugin = None

_OPTION = "ckan.search.solr_commit"


class _OncePerCommit:
    """CKAN 2.11's search observer, indexing each dataset once per database commit."""

    def __init__(self, notify: Callable[[Any, str], None]) -> None:
        self._notify = notify
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


def _soft_commit() -> None:
    try:
        make_connection().commit(softCommit=True)
    except pysolr.SolrError as error:
        raise SearchIndexError(f"Solr soft commit failed: {error}") from error


@contextmanager
def _replaced(owner: Any, name: str, replacement: Any) -> Iterator[None]:
    original = owner.__dict__.get(name)
    setattr(owner, name, replacement)
    try:
        yield
    finally:
        if original is None:
            delattr(owner, name)
        else:
            setattr(owner, name, original)


@contextmanager
def _soft_commit_after_each_write() -> Iterator[None]:
    """Each index write of the block followed by one soft commit. A write nested in another (``index_package``
    removing a deleted dataset through ``delete_package``) commits once, when the outer write ends."""
    depth = 0

    def then_soft_commit(write: Callable[..., None]) -> Callable[..., None]:
        def written(index: PackageSearchIndex, *args: Any, **kwargs: Any) -> None:
            nonlocal depth
            depth += 1
            try:
                write(index, *args, **kwargs)
            finally:
                depth -= 1
            if depth == 0:
                _soft_commit()
        return written

    with ExitStack() as stack:
        for name in ("index_package", "delete_package"):
            stack.enter_context(_replaced(PackageSearchIndex, name, then_soft_commit(getattr(PackageSearchIndex, name))))
        yield


@contextmanager
def harvest_indexing(mode: str) -> Iterator[None]:
    """Run one harvest object's dataset changes with each dataset indexed once per database commit and each index
    write made searchable by one soft commit (``mode`` ``"soft"``), or with CKAN's indexing as it is (``"hard"``).

    The option, the index writes and the observer are switched for the block only; import stages run one object
    at a time per process (the fetch consumer, ``run-test``), never beside web requests.
    """
    if mode != "soft":
        yield
        return
    commits = bool(tk.config.get(_OPTION))
    with ExitStack() as stack:
        if SynchronousSearchPlugin is not None:
            observer = SynchronousSearchPlugin()  # the system plugin's one instance
            stack.enter_context(_replaced(observer, "notify", _OncePerCommit(type(observer).notify.__get__(observer))))
        if commits:
            stack.enter_context(_soft_commit_after_each_write())
        tk.config[_OPTION] = False
        try:
            yield
        finally:
            tk.config[_OPTION] = commits
