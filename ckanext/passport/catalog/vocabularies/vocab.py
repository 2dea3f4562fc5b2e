"""The controlled vocabularies of the catalog record: EUROVOC, CZ-NACE, Czech territorial units, and the EU data
themes and frequencies a DCAT-AP-CZ record names.

They ship as data files beside this module (labels in cs, en and ru). A full EUROVOC SKOS file loaded with
``ckan passport vocab load`` lands in ``ckanext.passport.vocab_dir`` and extends the shipped EUROVOC list, so
validation, labels and facets know every concept without a deploy. The record stores codes (EUROVOC URIs,
CZ-NACE codes, NUTS/LAU codes); labels are looked up here, in the reader's language, at display time.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Optional

import ckan.plugins.toolkit as tk

from ckanext.passport import settings
from ckanext.passport.language import current_language

DATA_DIR = Path(__file__).resolve().parent  # the shipped data files sit beside this module
LANGUAGES = ("cs", "en", "ru")
EUROVOC = "eurovoc"
CZ_NACE = "cz_nace"
SPATIAL_AREA = "spatial_area"
DATA_THEMES = "data_themes"
FREQUENCY = "accrual_periodicity"
HVD_CATEGORY = "hvd_category"
LOADED_EUROVOC_FILE = "eurovoc-loaded.json"

# Dataset field -> Solr field. CKAN's schema.xml makes ``vocab_*`` multi-valued strings copied into ``text``:
# facetable and searchable without touching Solr's schema.
FACET_FIELDS = {EUROVOC: "vocab_eurovoc", CZ_NACE: "vocab_cz_nace", SPATIAL_AREA: "vocab_spatial_area"}
# EUROVOC's 21 domains ("28 SOCIÁLNÍ OTÁZKY") have a facet of their own: mixed with the microthesauri and concepts
# a record names, their capitals read as a list of something else.
EUROVOC_DOMAIN_FACET = "vocab_eurovoc_domain"
EUROVOC_DOMAIN = "domain"
LABEL_FIELD_SUFFIX = "_labels"


@dataclass(frozen=True)
class Concept:
    key: str
    kind: str
    labels: Mapping[str, str]
    parent: Optional[str] = None
    notation: str = ""
    bbox: Optional[tuple[float, float, float, float]] = None

    def label(self, language: str) -> str:
        """The label in ``language``, else English, else any label, else the key itself."""
        return self.labels.get(language) or self.labels.get("en") or next(iter(self.labels.values()), self.key)


@dataclass(frozen=True)
class Vocabulary:
    name: str
    concepts: Mapping[str, Concept] = field(default_factory=dict)
    # Whether a choice shows its code before its label ("01 Crop production"); the EU tables' codes (TRAN,
    # ANNUAL) mean nothing to a curator.
    coded: bool = True

    def get(self, key: Any) -> Optional[Concept]:
        return self.concepts.get(key) if isinstance(key, str) else None

    def __contains__(self, key: Any) -> bool:
        return self.get(key) is not None

    def __iter__(self) -> Iterator[Concept]:
        return iter(self.concepts.values())

    def with_ancestors(self, keys: Iterable[str]) -> list[str]:
        """``keys`` and their broader concepts (domain, section, region), each once, in a stable order."""
        found: dict[str, None] = {}
        for key in keys:
            concept = self.get(key)
            while concept is not None and concept.key not in found:
                found[concept.key] = None
                concept = self.get(concept.parent)
        return list(found)


def _read(name: str) -> dict[str, Any]:
    with open(DATA_DIR / name, encoding="utf-8") as stream:
        return json.load(stream)


def _concept(entry: Mapping[str, Any], key_field: str) -> Concept:
    bbox = entry.get("bbox")
    return Concept(
        key=entry[key_field],
        kind=entry.get("kind", ""),
        labels={lang: text for lang, text in entry.get("labels", {}).items() if text},
        parent=entry.get("parent"),
        notation=entry.get("notation", ""),
        bbox=tuple(bbox) if bbox else None,
    )


# The EU authority tables (publications.europa.eu/resource/authority/…) the record stores codes of.
EU_TABLES = {DATA_THEMES: "data-theme.json", FREQUENCY: "frequency.json"}


@lru_cache(maxsize=None)
def _shipped(name: str) -> Vocabulary:
    if name == EUROVOC:
        entries, key_field = _read("eurovoc.json")["concepts"], "uri"
    elif name == CZ_NACE:
        entries, key_field = _read("cz_nace.json")["concepts"], "code"
    elif name == SPATIAL_AREA:
        entries, key_field = _read("territory.json")["units"], "code"
    elif name in EU_TABLES:
        entries, key_field = _read(EU_TABLES[name])["concepts"], "code"
    elif name == HVD_CATEGORY:
        # The EU HVD categories (data.europa.eu/bna/asd487ae75), stored as their IRIs like EUROVOC's concepts.
        entries, key_field = _read("hvd-category.json")["concepts"], "uri"
    else:
        raise KeyError(name)
    concepts = {concept.key: concept for concept in (_concept(e, key_field) for e in entries)}
    return Vocabulary(name, concepts, coded=name not in EU_TABLES)


@lru_cache(maxsize=4)
def _loaded_eurovoc(path: str, mtime: float) -> Vocabulary:
    # Keyed on the file's mtime so a new `vocab load` is picked up without restarting the portal. The same object
    # while the file stays: thousands of concepts are not merged again at every lookup, and what is derived from
    # them (the search's folded labels) can be kept beside it.
    with open(path, encoding="utf-8") as stream:
        loaded = {c.key: c for c in (_concept(e, "uri") for e in json.load(stream)["concepts"])}
    return Vocabulary(EUROVOC, {**loaded, **_shipped(EUROVOC).concepts})


def vocabulary(name: str) -> Vocabulary:
    """One vocabulary by field name: ``eurovoc``, ``cz_nace``, ``spatial_area``, ``data_themes``,
    ``accrual_periodicity`` or ``hvd_category``."""
    shipped = _shipped(name)
    directory = settings.vocab_dir()
    if name != EUROVOC or directory is None:
        return shipped
    loaded = directory / LOADED_EUROVOC_FILE
    try:
        mtime = loaded.stat().st_mtime
    except OSError:
        return shipped
    return _loaded_eurovoc(str(loaded), mtime)


def choosable(name: str, concept: Concept) -> bool:
    """Whether the form offers ``concept``: every concept but the six top HVD categories, which a record never names
    (it names the most specific category; the validator refuses a top one)."""
    return not (name == HVD_CATEGORY and concept.parent is None)


def label(name: str, key: Any, language: Optional[str] = None) -> str:
    """Label of ``key`` in ``name`` in the reader's language; an unknown key is shown as it is."""
    concept = vocabulary(name).get(key)
    if concept is None:
        return "" if key is None else str(key)
    return concept.label(language or current_language())


def bbox_polygon(bbox: tuple[float, float, float, float]) -> dict[str, Any]:
    """A GeoJSON polygon for ``[west, south, east, north]`` (counter-clockwise, closed ring)."""
    west, south, east, north = bbox
    ring = [[west, south], [east, south], [east, north], [west, north], [west, south]]
    return {"type": "Polygon", "coordinates": [ring]}


def area_geometry(codes: Any) -> Optional[dict[str, Any]]:
    """The GeoJSON geometry of the record's territorial units (one code, or several as stored): the box around all
    of their boxes, so a spatial search finds the record wherever one of its units lies; ``None`` without a known
    unit."""
    units = [vocabulary(SPATIAL_AREA).get(code) for code in as_list(codes)]
    boxes = [unit.bbox for unit in units if unit is not None and unit.bbox is not None]
    if not boxes:
        return None
    west, south, east, north = zip(*boxes)
    return bbox_polygon((min(west), min(south), max(east), max(north)))


# --- values as stored on a dataset -------------------------------------------------------------------------


def as_list(value: Any) -> list[Any]:
    """A stored vocabulary value as a list: datasets reach the index as dicts or as JSON text of extras."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return [value]
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def listed(value: Any) -> list[Any]:
    """A list field's value as the form and the record's validators read it. Lists arrive as lists (API), as JSON
    text (stored) or as one line per item (text areas)."""
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("["):
            try:
                value = json.loads(stripped)
            except ValueError:
                raise tk.Invalid(tk._("A list is expected"))
        else:
            value = stripped.splitlines()
    if not isinstance(value, (list, tuple)):
        raise tk.Invalid(tk._("A list is expected"))
    return [item.strip() if isinstance(item, str) else item for item in value if item not in ("", None)]


def dataset_keys(pkg_dict: Mapping[str, Any], name: str) -> list[str]:
    """The vocabulary keys a dataset uses: EUROVOC URIs, CZ-NACE codes or the territorial unit."""
    keys: list[str] = []
    for item in as_list(pkg_dict.get(name)):
        key = item.get("uri") if isinstance(item, Mapping) else item
        if isinstance(key, str) and key:
            keys.append(key)
    return keys


# --- plugin hooks ---------------------------------------------------------------------------------------


def choices(field: Mapping[str, Any]) -> list[dict[str, Any]]:
    """ckanext-scheming ``choices_helper``: the concepts of the field's ``passport_vocabulary``."""
    vocab = vocabulary(field["passport_vocabulary"])
    return [
        {"value": concept.key, "label": {lang: choice_label(concept, lang, vocab.coded) for lang in LANGUAGES}}
        for concept in vocab
    ]


def choice_label(concept: Concept, language: str, coded: bool) -> str:
    """How a choice reads in a form: the code before the label ("01 Crop production") where codes mean something."""
    code = concept.notation or ("" if concept.key.startswith("http") or not coded else concept.key)
    text = concept.label(language)
    return f"{code} {text}" if code else text


def _harvest_facet_titles(name: str) -> Optional[dict[str, str]]:
    """Titles of the values of ckanext-harvest's own source facets (type and frequency), which index codes."""
    if name == "source_type":
        try:
            return {info["name"]: tk._(info["title"]) for info in tk.h.harvesters_info()}
        except (AttributeError, KeyError, TypeError):
            return {}
    if name == "frequency":
        return {
            "MANUAL": tk._("Manual"),
            "MONTHLY": tk._("Monthly"),
            "WEEKLY": tk._("Weekly"),
            "BIWEEKLY": tk._("Biweekly"),
            "DAILY": tk._("Daily"),
            "ALWAYS": tk._("Always"),
        }
    return None


def facet_items(name: str, search_facets: Mapping[str, Any]) -> Optional[list[dict[str, Any]]]:
    """Facet items of our vocabulary facets with labels in the reader's language, and of a harvest source's type
    and frequency with their titles; ``None`` for other facets."""
    vocab_name = EUROVOC if name == EUROVOC_DOMAIN_FACET else next(
        (vocab for vocab, solr in FACET_FIELDS.items() if solr == name), None)
    if vocab_name is None:
        titles = _harvest_facet_titles(name)
        if titles is None:
            return None
        items = tk.h.get_facet_items_dict(name, search_facets)
        return [dict(item, display_name=titles.get(item["name"], item["display_name"])) for item in items]
    language = current_language()
    items = tk.h.get_facet_items_dict(name, search_facets)
    if name == EUROVOC_DOMAIN_FACET:
        # A domain's label is in capitals, EUROVOC's typography: in a list of choices, written as a name.
        return [dict(item, display_name=label(vocab_name, item["name"], language).capitalize()) for item in items]
    return [dict(item, display_name=label(vocab_name, item["name"], language)) for item in items]


def helpers() -> dict[str, Any]:
    return {
        "passport_vocab_choices": choices,
        "passport_vocab_label": label,
        "passport_facet_items": facet_items,
    }


def dataset_facets(facets: dict, package_type: str) -> dict:
    """The vocabulary facets, on the search of catalog records only (not of harvest sources, which have none)."""
    if package_type != "dataset":
        return facets
    facets[EUROVOC_DOMAIN_FACET] = tk._("EUROVOC domain")
    facets[FACET_FIELDS[EUROVOC]] = tk._("EUROVOC")
    facets[FACET_FIELDS[CZ_NACE]] = tk._("CZ-NACE")
    facets[FACET_FIELDS[SPATIAL_AREA]] = tk._("Territory")
    return facets


def before_dataset_index(pkg_dict: dict) -> dict:
    """Index each vocabulary field as codes (with their broader concepts) and labels in every language.

    Reads the validated dataset CKAN puts in the index document: other plugins (ckanext-dcat) remove or
    flatten repeating fields such as ``eurovoc`` before this hook runs.
    """
    try:
        validated = json.loads(pkg_dict.get("validated_data_dict") or "{}")
    except ValueError:
        validated = {}
    for name, solr_field in FACET_FIELDS.items():
        vocab = vocabulary(name)
        keys = vocab.with_ancestors(dataset_keys(validated, name) or dataset_keys(pkg_dict, name))
        if not keys:
            continue
        pkg_dict[solr_field] = keys
        if name == EUROVOC:
            kinds = {key: getattr(vocab.get(key), "kind", "") for key in keys}
            pkg_dict[solr_field] = [key for key in keys if kinds[key] != EUROVOC_DOMAIN]
            pkg_dict[EUROVOC_DOMAIN_FACET] = [key for key in keys if kinds[key] == EUROVOC_DOMAIN]
        pkg_dict[solr_field + LABEL_FIELD_SUFFIX] = sorted(
            {text for key in keys if (concept := vocab.get(key)) for text in concept.labels.values()}
        )
    return pkg_dict
