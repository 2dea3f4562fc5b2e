"""The DCAT-AP-CZ JSON-LD context: its official URL, and the copy shipped with the package.

Documents name the context by its URL (NKOD and the public validator require exactly that string), but
nothing here ever fetches it: reading a document (a harvested LKOD's, or our own in tests) and compacting
one resolve that URL to the local copy, taken unchanged from the norm's repository (2024-05-28).
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

import rdflib

CONTEXT_URL = (
    "https://ofn.gov.cz/dcat-ap-cz-rozhraní-katalogů-otevřených-dat/2024-05-28/kontexty/"
    "rozhraní-katalogů-otevřených-dat.jsonld"
)
_CONTEXT_FILE = "rozhraní-katalogů-otevřených-dat.jsonld"


@lru_cache(maxsize=1)
def local_context() -> dict[str, Any]:
    """The context's term definitions (the value of its ``@context``)."""
    text = resources.files(__package__).joinpath("context", _CONTEXT_FILE).read_text(encoding="utf-8")
    return json.loads(text)["@context"]


def with_local_context(document: Any) -> Any:
    """The document with every ``@context`` naming the official URL replaced by the local definitions.

    Any other remote context is left as it is; ``parse_jsonld`` refuses to fetch it.
    """
    if isinstance(document, list):
        return [with_local_context(item) for item in document]
    if not isinstance(document, dict):
        return document
    replaced = {key: with_local_context(value) for key, value in document.items() if key != "@context"}
    if "@context" in document:
        replaced["@context"] = _resolve(document["@context"])
    return replaced


def _resolve(context: Any) -> Any:
    if context == CONTEXT_URL:
        return local_context()
    if isinstance(context, list):
        return [_resolve(item) for item in context]
    return context


class RemoteContextRefused(ValueError):
    """A JSON-LD document names a context other than the official one by URL."""


def _remote_contexts(document: Any) -> list[str]:
    found: list[str] = []
    if isinstance(document, list):
        for item in document:
            found += _remote_contexts(item)
    elif isinstance(document, dict):
        for key, value in document.items():
            if key == "@context":
                contexts = value if isinstance(value, list) else [value]
                found += [item for item in contexts if isinstance(item, str)]
            else:
                found += _remote_contexts(value)
    return found


def parse_jsonld(data: str | bytes, base: str | None = None, graph: rdflib.Graph | None = None) -> rdflib.Graph:
    """Parse a JSON-LD document into ``graph`` (a new one by default), never reaching the network.

    Raises ``ValueError`` for text that is not JSON, and ``RemoteContextRefused`` for a context named by a
    URL other than the official one (rdflib would fetch it).
    """
    document = with_local_context(json.loads(data))
    remote = _remote_contexts(document)
    if remote:
        raise RemoteContextRefused(remote[0])
    target = graph if graph is not None else rdflib.Graph()
    target.parse(data=json.dumps(document), format="json-ld", base=base)
    return target
