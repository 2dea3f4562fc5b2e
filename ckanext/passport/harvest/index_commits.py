"""How a harvest import reaches the search index: after the database kept it, and only as the database keeps it.

CKAN writes a dataset to Solr before its database commit (2.11: a model observer at ``before_commit``; 2.12: the
action, just before its commit). A commit that then fails leaves Solr holding a state the database never kept, and
an index write that fails after the commit leaves the object COMPLETE while search shows the old record. So inside
:func:`import_indexed` CKAN's index writes only record which dataset they were for. Once the stage's transaction
has ended, committed or rolled back, each recorded dataset is indexed from what the database holds then (CKAN's own
``search.rebuild`` of those ids; a dataset the database no longer has is removed), with no commit per write, and one
commit follows: soft (a source's ``index_commit: "soft"``, the default: searchable at once, durable through Solr's
update log) or CKAN's hard commit (``"hard"``). A site that turned ``ckan.search.solr_commit`` off gets no commit.

An index write that fails makes the object an error, ``harvest.index_failed``, and the record stays as the database
kept it: the next harvest's index check (:mod:`ckanext.passport.harvest.index_check`) writes it again, unchanged passport or
not. This module also repairs what that check finds, through :func:`index_from_database`.

Neither CKAN version offers a seam for holding its index writes (no context flag or interface defers them; a
dataset action indexes, or its observer does, before the commit), so :func:`held_index_writes` replaces CKAN's index
methods for the import stage only, here and nowhere else; likewise ``ckan.search.solr_commit`` is switched off only
while :func:`index_from_database` sends the writes its one commit stands for.
"""
from __future__ import annotations

import logging
from contextlib import ExitStack, contextmanager
from typing import Any, Callable, Iterable, Iterator, TypeVar, Union

import ckan.plugins.toolkit as tk
import pysolr
from ckan import model
from ckan.lib import search
from ckan.lib.search.common import SearchError, SearchIndexError, make_connection
from ckan.lib.search.index import PackageSearchIndex

from ckanext.passport.harvest import stage_guard
from ckanext.passport.harvest.findings import save_object_error
from ckanext.passport.mr.problems import problem

try:  # CKAN 2.11 indexes through a model observer, the system plugin
    from ckan.lib.search import SynchronousSearchPlugin
except ImportError:  # CKAN 2.12 indexes in the dataset actions themselves
    SynchronousSearchPlugin = None

log = logging.getLogger(__name__)

T = TypeVar("T")
_OPTION = "ckan.search.solr_commit"
# What a refused or unreachable index raises: CKAN's own errors, pysolr's, and a socket's.
INDEX_ERRORS = (SearchIndexError, SearchError, pysolr.SolrError, OSError)


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
def held_index_writes() -> Iterator[list[str]]:
    """Inside the block CKAN's index writes reach no index: the list yielded collects the ids of the datasets they
    were for, in order, repeats included.

    Import stages run one object at a time per process (the fetch consumer, ``run-test``), never beside web
    requests, so replacing CKAN's index methods for the block holds back no one else's writes.
    """
    held: list[str] = []

    def record(index: PackageSearchIndex, pkg_dict: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        held.append(pkg_dict["id"])

    def observe(entity: Any, operation: str) -> None:
        # 2.11's observer reads the whole dataset before it indexes; recording its id here spares that read.
        if isinstance(entity, model.Package):
            held.append(entity.id)

    with ExitStack() as stack:
        if SynchronousSearchPlugin is not None:
            stack.enter_context(_replaced(SynchronousSearchPlugin(), "notify", observe))  # the plugin's one instance
        for name in ("index_package", "delete_package"):
            stack.enter_context(_replaced(PackageSearchIndex, name, record))
        yield held


def index_from_database(package_ids: Iterable[str], mode: str = "soft") -> None:
    """Index each dataset as the database holds it now (CKAN removes a deleted one, as its own indexing does; one the
    database has not got is removed), then one commit, ``"soft"`` or ``"hard"``. Raises one of
    :data:`INDEX_ERRORS` when the index refuses a write or its commit."""
    ids = list(dict.fromkeys(package_ids))
    if not ids:
        return
    stored = {row.id for row in model.Session.query(model.Package.id).filter(model.Package.id.in_(ids))}
    commits = bool(tk.config.get(_OPTION))
    # CKAN's removal of a deleted dataset commits by this option; the one commit below stands for every write.
    tk.config[_OPTION] = False
    try:
        for package_id in ids:
            if package_id in stored:
                search.rebuild(package_ids=[package_id], defer_commit=True)
            else:
                search.index_for(model.Package).remove_dict({"id": package_id})
    finally:
        tk.config[_OPTION] = commits
    if not commits:
        return
    if mode == "soft":
        make_connection().commit(softCommit=True)
    else:
        search.commit()


def import_indexed(harvest_object: Any, mode: str, work: Callable[[], T], again: bool = False) -> Union[T, bool]:
    """``work()`` run as a harvest object's import stage (:func:`stage_guard.object_stage`), its datasets indexed
    once its transaction has ended; False, with ``harvest.index_failed`` on the object, when the index refused them
    (the database keeps what the stage committed)."""
    with held_index_writes() as held:
        outcome = stage_guard.object_stage(harvest_object, "Import", work, again)
    try:
        index_from_database(held, mode)
    except INDEX_ERRORS as error:
        model.Session.rollback()
        log.warning("Harvest object %s: the search index refused %s: %s", harvest_object.id, held, error)
        save_object_error(problem("harvest.index_failed", error=failure_name(error)), harvest_object, "Import")
        model.Session.commit()
        return False
    return outcome


def failure_name(error: BaseException) -> str:
    """The class of what failed: CKAN wraps Solr's and the socket's errors in its own, the cause names the kind."""
    return type(error.__cause__ or error.__context__ or error).__name__


def commit_mode(load_config: Callable[[], Any]) -> str:
    """A source's ``index_commit``; a stored config that no longer loads is the import stage's own error (inside
    its guard), and its writes are indexed the default way."""
    try:
        return load_config().index_commit
    except (ValueError, TypeError, AttributeError):
        return "soft"
