"""The DCAT-AP-CZ JSON-LD context: its official URL, the copy shipped with the package, and the one way a JSON-LD
document is read.

Documents name the context by its URL (NKOD and the public validator require exactly that string), but nothing
here ever fetches it: reading a document (a harvested LKOD's, or our own in tests) resolves that URL to the local
copy, taken unchanged from the norm's repository (2024-05-28, 2021-01-11 and the older draft URL's; the 2026 contexts, one per kind of document, are
the drafts' texts named by their dated URLs: ``norms.CONTEXT_FILES``). Any other context reference, in any shape a
JSON-LD processor would follow (a string, an array, ``@import``, a term- or type-scoped ``@context``, a context
inside a nested node), is refused before rdflib sees the document; and rdflib's own context loader is replaced by
one that knows the official URL alone, so a reference the walk missed cannot reach the network or a file either.
"""
from __future__ import annotations

import copy
import json
from functools import lru_cache
from importlib import resources
from typing import Any, Optional

import rdflib
from rdflib.plugins.shared.jsonld import context as rdflib_context

from ckanext.passport.lkod.norms import CONTEXT_2024, CONTEXT_FILES, read_norm
from ckanext.passport.mr.jsontext import nesting_depth

CONTEXT_URL = CONTEXT_2024
# Deeper than any DCAT-AP-CZ document nests (the official examples: 6), shallow enough that rdflib's recursive
# JSON-LD reader stays far from Python's recursion limit.
MAX_DEPTH = 100

_CONTEXT = "@context"
_IMPORT = "@import"


class RemoteContextRefused(ValueError):
    """A JSON-LD document refers to a context other than the official one (it is never fetched)."""


class ContextInvalid(ValueError):
    """A document, ``@context`` or ``@import`` value of a type JSON-LD does not allow."""


class TooDeep(ValueError):
    """A JSON-LD document nests arrays and objects deeper than :data:`MAX_DEPTH`."""


@lru_cache(maxsize=None)
def local_context(url: str = CONTEXT_URL) -> dict[str, Any]:
    """The term definitions (the value of its ``@context``) of the context at ``url``, one of ``CONTEXT_FILES``."""
    path = resources.files(__package__).joinpath("context", *CONTEXT_FILES[url].split("/"))
    return json.loads(path.read_text(encoding="utf-8"))[_CONTEXT]


def _is_local(value: Any) -> bool:
    """Whether ``value`` is one of the shipped definitions (ours: never walked)."""
    return isinstance(value, dict) and any(value is local_context(url) for url in CONTEXT_FILES)


def with_local_context(document: Any) -> Any:
    """The document with every context reference resolved to the local definitions, in place.

    Raises :class:`RemoteContextRefused` for a reference to any other context and :class:`ContextInvalid` for a
    context value JSON-LD does not allow. The walk is iterative, over a document whose depth
    :func:`parse_jsonld` measured before decoding it.
    """
    root = [document]
    # (container, key or index, whether the value sits where JSON-LD reads a context)
    pending: list[tuple[Any, Any, bool]] = [(root, 0, False)]
    while pending:
        container, key, in_context = pending.pop()
        value = container[key]
        if in_context:
            value = container[key] = _resolved(value)
            if value is None or _is_local(value):  # nothing to walk: null, or our own definitions
                continue
        if isinstance(value, list):
            pending.extend((value, index, in_context) for index in range(len(value)))
            continue
        if not isinstance(value, dict):
            continue
        names = [name for name in value if not (in_context and name == _IMPORT)]
        if in_context and _IMPORT in value:
            value = container[key] = _imported(value)
        pending.extend((value, name, name == _CONTEXT) for name in names)
    return root[0]


def _resolved(context: Any) -> Any:
    """One value in a context position: an official URL becomes its local definitions (not walked: they are
    ours); another string is refused; arrays and objects are walked on."""
    if isinstance(context, str) and context in CONTEXT_FILES:
        return local_context(context)
    if isinstance(context, str):
        raise RemoteContextRefused()
    if context is None or isinstance(context, (dict, list)):
        return context
    raise ContextInvalid("a @context is an object, an array, null or the DCAT-AP-CZ context's URL")


def _imported(definitions: dict[str, Any]) -> dict[str, Any]:
    """A context object importing the official context: its definitions over the local ones (JSON-LD 1.1
    ``@import``), so no processor has anything to import."""
    imported = definitions[_IMPORT]
    if not isinstance(imported, str):
        raise ContextInvalid("@import names a context by its URL")
    if imported not in CONTEXT_FILES:
        raise RemoteContextRefused()
    own = {name: value for name, value in definitions.items() if name != _IMPORT}
    return {**local_context(imported), **own}


def _load_context(source: Any, *args: Any, **kwargs: Any) -> tuple[dict[str, Any], None]:
    """rdflib's context loader, replaced: an official URL is its local copy, anything else is refused."""
    if isinstance(source, str) and source in CONTEXT_FILES:
        # rdflib merges an importing context into what it loaded: a copy keeps the cached one intact.
        return {_CONTEXT: copy.deepcopy(local_context(source))}, None
    raise RemoteContextRefused()


def guard_rdflib() -> None:
    """Make rdflib's JSON-LD processor unable to fetch a context (the network, or ``file:`` paths), in this
    whole process: whoever parses JSON-LD with it, remote contexts are refused. The LKOD plugins install it when
    they load (ckanext-dcat's parser reads JSON-LD through rdflib too); our own reader before every read."""
    rdflib_context.source_to_json = _load_context


def parse_jsonld(data: str | bytes, base: Optional[str] = None, graph: Optional[rdflib.Graph] = None) -> rdflib.Graph:
    """Parse a JSON-LD document into ``graph`` (a new one by default), never reaching the network or a file
    (:func:`read_jsonld`, its norm left aside)."""
    return read_jsonld(data, base, graph)[0]


def read_jsonld(data: str | bytes, base: Optional[str] = None,
                graph: Optional[rdflib.Graph] = None) -> tuple[rdflib.Graph, str]:
    """Parse a JSON-LD document into ``graph`` (a new one by default), never reaching the network or a file; and
    the norm it names (``norms.read_norm``).

    Raises ``ValueError`` for text that is not JSON (or not UTF-8), :class:`TooDeep` for a document nesting deeper
    than :data:`MAX_DEPTH` (measured by the MR readers' linear bracket scan before anything recurses),
    :class:`RemoteContextRefused` for a reference to a context other than the official one and
    :class:`ContextInvalid` (see :func:`with_local_context`).
    """
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    if nesting_depth(text) > MAX_DEPTH:
        raise TooDeep(MAX_DEPTH)
    document = json.loads(text)
    if not isinstance(document, (dict, list)):
        raise ContextInvalid("a JSON-LD document is an object or an array")
    norm = read_norm(document)
    document = with_local_context(document)
    target = graph if graph is not None else rdflib.Graph()
    guard_rdflib()
    target.parse(data=json.dumps(document), format="json-ld", base=base)
    return target, norm
