"""What the dataset page's RDFa passport shows: template helpers over the published passport.

The page says what ``meta.json`` says: it is built from the same :func:`links.published_passport`, and
dates carry the writers' own text (``content``) beside a readable form.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Optional

import ckan.plugins.toolkit as tk

from ckanext.passport.language import readable_date
from ckanext.passport.mr.fields import described_by_newest
from ckanext.passport.mr.model import DataVersion, MRDate, Passport, StructureVersion
from ckanext.passport.mr.writers.passport import date_text

from . import links, search

RDFA_PREFIXES = "dc: http://purl.org/dc/terms/ foaf: http://xmlns.com/foaf/0.1/"


@dataclass
class PassportView:
    # As the files state it: the passport and its newest data version lend each other provenance and validity.
    passport: Passport
    url: str
    publisher_node: str
    publishable: bool
    published: bool
    files: list[tuple[str, str]] = field(default_factory=list)
    structure_links: dict[str, str] = field(default_factory=dict)

    @property
    def provenance(self) -> str:
        return self.passport.provenance

    @property
    def valid(self) -> Optional[MRDate]:
        return self.passport.valid

    @property
    def data_versions(self) -> list[DataVersion]:
        return self.passport.data_versions

    @property
    def current_data(self) -> Optional[DataVersion]:
        return self.passport.data_versions[0] if self.passport.data_versions else None

    @property
    def current_structure(self) -> Optional[StructureVersion]:
        return self.passport.structure_versions[0] if self.passport.structure_versions else None

    @property
    def earlier_data(self) -> list[DataVersion]:
        """The data versions before the current one: the page folds them."""
        return self.passport.data_versions[1:]

    @property
    def earlier_structures(self) -> list[StructureVersion]:
        return self.passport.structure_versions[1:]


def passport_view(pkg: dict[str, Any]) -> PassportView:
    passport = described_by_newest(links.published_passport(pkg))
    url = links.passport_url(passport.identifier)
    publishable = links.is_publishable(passport)
    return PassportView(
        passport=passport,
        url=url,
        publisher_node=f"{url}#publisher",
        publishable=publishable,
        # Its files and permanent links exist only for what an anonymous visitor may see.
        published=publishable and search.is_public(pkg["id"]),
        files=[(form, links.passport_file_url(passport.identifier, form)) for form in links.PASSPORT_FORMS],
        structure_links={s.version: s.source for s in passport.structure_versions},
    )


def date_display(date: Optional[MRDate]) -> str:
    """The date for people: in the reader's language and its order (the RDFa ``content`` keeps the files' text)."""
    if date is None:
        return ""
    if isinstance(date.value, dt.date):
        return readable_date(date.value, with_hours=isinstance(date.value, dt.datetime))
    return date.text


def site_relative(url: str) -> str:
    """A link of this portal written from its root ("/opendata/…"): the same IRI for RDFa (resolved against the
    page), half the bytes, for the many versions a long history lists. Other links are left whole."""
    site = (tk.config.get("ckan.site_url") or "").rstrip("/")
    if site and url.startswith(site + "/"):
        return url[len(site):]
    return url


def version_curie(url: str, folder: str) -> str:
    """A version's IRI as an RDFa safe CURIE of the prefix ``v:`` (``folder``, the passport's own folder of files),
    for ``resource`` attributes; a link outside that folder stays a (root-relative) link."""
    if folder and url.startswith(folder) and "/" not in url[len(folder):]:
        return f"[v:{url[len(folder):]}]"
    return site_relative(url)


def short_date(date: Optional[MRDate]) -> str:
    """A version's date in a long history: the language's short numeric form (01.11.2025)."""
    if date is None:
        return ""
    if isinstance(date.value, dt.date):
        return readable_date(date.value, form="short")
    return date.text


def helpers() -> dict[str, Any]:
    return {
        "passport_publish_view": passport_view,
        # RDFa ``content`` holds the date as the passport files write it.
        "passport_publish_date_content": date_text,
        "passport_publish_date_display": date_display,
        "passport_publish_rdfa_prefixes": lambda: RDFA_PREFIXES,
        "passport_publish_site_relative": site_relative,
        "passport_publish_version_curie": version_curie,
        "passport_publish_short_date": short_date,
    }
