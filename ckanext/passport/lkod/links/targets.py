"""Which links of a record are checked, and as what: the URLs its LKOD document points to for people and machines to
follow. Pure (a ``package_show`` dict in, links out).

- a file distribution's URL is its ``download_url`` (the document's dcat:downloadURL and dcat:accessURL alike);
  a data service's is its ``access_url`` (the endpoint);
- each of a resource's schema URLs is a ``conforms_to`` (dct:conformsTo);
- a resource's format documentation and the record's documentation are ``documentation`` (foaf:page);
- the record's licence text link is its ``terms_of_use``.

A link is checked as the record holds it, valid or not: a URL the document cannot carry is a broken link too
(``links.invalid_url``), and its curator is the one to fix it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Optional

from ckanext.passport.catalog.vocabularies import vocab
from ckanext.passport.lkod import graph_out

DOWNLOAD_URL = "download_url"
ACCESS_URL = "access_url"
CONFORMS_TO = "conforms_to"
DOCUMENTATION = "documentation"
TERMS_OF_USE = "terms_of_use"
FIELDS = (DOWNLOAD_URL, ACCESS_URL, CONFORMS_TO, DOCUMENTATION, TERMS_OF_USE)


@dataclass(frozen=True)
class Link:
    field: str
    url: str
    # The resource (distribution) holding it; ``None`` for the record's own links.
    resource_id: Optional[str] = None


def links_of(dataset: Mapping[str, Any]) -> list[Link]:
    """Every link of ``dataset`` once, in the record's order: its own, then each resource's."""
    return list(dict.fromkeys(_every_link(dataset)))


def _every_link(dataset: Mapping[str, Any]) -> Iterator[Link]:
    yield from _links(DOCUMENTATION, dataset.get("documentation_url"))
    yield from _links(TERMS_OF_USE, dataset.get("license_url"))
    for resource in dataset.get("resources") or []:
        resource_id = resource.get("id")
        field = ACCESS_URL if graph_out.is_service(resource) else DOWNLOAD_URL
        yield from _links(field, resource.get("url"), resource_id)
        yield from _links(CONFORMS_TO, resource.get("schema_urls"), resource_id)
        yield from _links(DOCUMENTATION, resource.get("format_docs"), resource_id)


def _links(field: str, value: Any, resource_id: Optional[str] = None) -> Iterator[Link]:
    for item in vocab.as_list(value):
        url = item.strip() if isinstance(item, str) else ""
        if url:
            yield Link(field, url, resource_id)
