"""The licences a record may carry: the list the extension ships, and their titles in the reader's language.

``licences.json`` is in the form of CKAN's ``licenses_group_url`` (a JSON list of ``{id, title, url,
od_conformance, osd_conformance, …}``): the licences Czech and Russian publishers use, with their versions. Where a
licence is one of CKAN's default list it keeps CKAN's id (``cc-by``, ``cc-by-sa``, ``cc-zero``, ``odc-*``,
``other-*``), so records saved before keep their licence. Each entry also holds ``title_translated`` by language;
CKAN knows nothing of it, so the record keeps only the licence's id and every title shown (the form's picker, the
record's ``license_title`` in pages and in ``package_show``, the licence facet) is chosen here, in the reader's
language, not the saver's (``package_show`` answers from the search index, written in the saver's request).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from ckan import model

from ckanext.passport.language import current_language

LICENCE_FILE = Path(__file__).with_name("licences.json")
GROUP_URL_OPTION = "licenses_group_url"


def default_group_url() -> str:
    """The ``file://`` URL of the shipped licence list, from the package's own path."""
    return "file://" + str(LICENCE_FILE.resolve())


def use_shipped_list(config: Any) -> None:
    """Points CKAN's ``licenses_group_url`` at the shipped list unless the site's admin configured one."""
    if not config.get(GROUP_URL_OPTION):
        config[GROUP_URL_OPTION] = default_group_url()


def title(license_id: Optional[str], language: Optional[str] = None) -> str:
    """The licence's title in ``language`` (the reader's by default); an unknown licence is its id."""
    licence = model.Package.get_license_register().get(license_id or "")
    if licence is None:
        return license_id or ""
    translated = getattr(licence, "title_translated", None)
    if isinstance(translated, dict):
        chosen = translated.get(language or current_language())
        if chosen:
            return chosen
    return licence.title


def options(existing_license_id: Optional[str] = None) -> list[tuple[str, str]]:
    """The picker's ``(title, id)`` pairs in the reader's language, by title; a record's licence that is not in
    the list (a site's earlier list) stays offered, so saving the form keeps it."""
    language = current_language()
    pairs = sorted(((title(licence.id, language), licence.id)
                    for licence in model.Package.get_license_register().values()),
                   key=lambda pair: pair[0].casefold())
    if existing_license_id and existing_license_id not in {licence_id for _, licence_id in pairs}:
        pairs.insert(0, (existing_license_id, existing_license_id))
    return pairs


def show_in_reader_language(pkg_dict: dict) -> dict:
    """``package_show``'s ``license_title`` in the reader's language (``after_dataset_show``)."""
    if pkg_dict.get("license_id"):
        pkg_dict["license_title"] = title(pkg_dict["license_id"])
    return pkg_dict


def search_in_reader_language(search_results: dict) -> dict:
    """Each result's ``license_title`` and the licence facet's names in the reader's language
    (``after_dataset_search``)."""
    for result in search_results.get("results") or []:
        show_in_reader_language(result)
    facet = (search_results.get("search_facets") or {}).get("license_id") or {}
    for item in facet.get("items") or []:
        item["display_name"] = title(item.get("name"))
    return search_results


def helpers() -> dict[str, Any]:
    return {"passport_licence_options": options}
