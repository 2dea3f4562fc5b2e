"""A DCAT-AP-CZ dataset read back into the Czech record: the reverse of ``graph_out``.

The result holds every field of ``DATASET_FIELDS`` (and each resource every field of ``RESOURCE_FIELDS``),
empty when the graph says nothing, so a harvest that writes them clears what the source no longer states;
no other field is touched (docs/lkod-mapping.md: which IRIs have no field and are dropped).
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

from rdflib import Graph, Literal, URIRef
from rdflib.term import Node

from ckanext.passport.catalog.record import conditions
from ckanext.passport.catalog.vocabularies import vocab
from ckanext.passport.lkod import iris, series
from ckanext.passport.lkod.graph_out import DCAT, DCATAP, DCT, ENGLISH, FOAF, LANGUAGE, VCARD, date_part
from ckanext.passport.catalog.record.mapping import tag_names

# The fields the LKOD mapping fills: an `lkod` harvest writes these and no others.
DATASET_FIELDS = (
    "lkod_iri", "record_language", "title", "notes", "tags", "title_en", "notes_en", "keywords_en",
    "publisher_id_scheme", "publisher_id", "publisher_name", "publisher_email",
    "data_themes", "accrual_periodicity", "spatial_area", "eurovoc", "temporal_start", "temporal_end",
    "documentation_url", "hvd_category", "resources", series.KIND_FIELD, series.IN_SERIES_FIELD,
)
CONDITION_FIELDS = tuple(iris.CONDITION_PARTS) + tuple(iris.CONDITION_AUTHORS)
RESOURCE_FIELDS = (
    "lkod_iri", "url", "name", "source_type", "format", "mimetype", "mimetype_inner", "schema_urls", "format_docs",
) + CONDITION_FIELDS
# Preference among a text's languages: the record's own, then untagged, then English, then any.
_LANGUAGE_ORDER = (LANGUAGE, None, "en")


def _objects(graph: Graph, subject: Node, predicate: URIRef) -> list[Node]:
    return list(graph.objects(subject, predicate))


def _iris(graph: Graph, subject: Node, predicate: URIRef) -> list[str]:
    return [str(value) for value in graph.objects(subject, predicate) if isinstance(value, URIRef)]


def _first(values: Iterable[Optional[str]]) -> str:
    return next((value for value in values if value), "")


def _texts(graph: Graph, subject: Node, predicate: URIRef) -> list[str]:
    """The literals of ``predicate`` in the preferred language (all of them in that one language)."""
    literals = [value for value in graph.objects(subject, predicate) if isinstance(value, Literal)]
    for language in _LANGUAGE_ORDER:
        chosen = [str(value).strip() for value in literals if value.language == language and str(value).strip()]
        if chosen:
            return chosen
    return [str(value).strip() for value in literals if str(value).strip()]


def _text(graph: Graph, subject: Node, predicate: URIRef) -> str:
    return _first(_texts(graph, subject, predicate))


def _texts_in(graph: Graph, subject: Node, predicate: URIRef, language: str) -> list[str]:
    """The literals of ``predicate`` tagged ``language`` (the record's English texts: ``@en`` only)."""
    return [
        str(value).strip() for value in graph.objects(subject, predicate)
        if isinstance(value, Literal) and value.language == language and str(value).strip()
    ]


def _date(values: list[Node]) -> str:
    # xsd:date, or the date part of an xsd:dateTime: the record keeps dates.
    return _first(date_part(value) for value in values if isinstance(value, Literal))


def read_dataset(graph: Graph, dataset_ref: Node) -> dict[str, Any]:
    """The record fields of the dataset at ``dataset_ref`` (see ``DATASET_FIELDS``)."""
    publisher = _first(iris.publisher_ico(value) for value in _iris(graph, dataset_ref, DCT.publisher))
    contact = next(iter(_objects(graph, dataset_ref, DCAT.contactPoint)), None)
    themes = _iris(graph, dataset_ref, DCAT.theme)
    temporal = next(iter(_objects(graph, dataset_ref, DCT.temporal)), None)
    known_eurovoc = vocab.vocabulary(vocab.EUROVOC)
    return {
        "lkod_iri": str(dataset_ref) if isinstance(dataset_ref, URIRef) else "",
        # The norm's texts are Czech (the mapping reads the cs text first): the record is in Czech.
        "record_language": LANGUAGE,
        "title": _text(graph, dataset_ref, DCT.title),
        "notes": _text(graph, dataset_ref, DCT.description),
        "tags": [{"name": name} for name in tag_names(_texts(graph, dataset_ref, DCAT.keyword))],
        "title_en": _first(_texts_in(graph, dataset_ref, DCT.title, ENGLISH)),
        "notes_en": _first(_texts_in(graph, dataset_ref, DCT.description, ENGLISH)),
        "keywords_en": tag_names(_texts_in(graph, dataset_ref, DCAT.keyword, ENGLISH)),
        "publisher_id_scheme": "ico" if publisher else "",
        "publisher_id": publisher,
        "publisher_name": _text(graph, contact, VCARD.fn) if contact is not None else "",
        "publisher_email": _email(graph, contact),
        "data_themes": [code for code in (iris.theme_code(theme) for theme in themes) if code],
        "accrual_periodicity": _first(
            iris.frequency_code(value) for value in _iris(graph, dataset_ref, DCT.accrualPeriodicity)
        ),
        # Every unit the record names, each once (RÚIAN elements other than the country and the regions have none).
        "spatial_area": list(dict.fromkeys(
            code for code in (iris.territory_code(value) for value in _iris(graph, dataset_ref, DCT.spatial)) if code
        )),
        # The record's EUROVOC field accepts only the concepts its vocabulary knows.
        "eurovoc": [{"uri": theme} for theme in themes if iris.is_eurovoc(theme) and theme in known_eurovoc],
        "temporal_start": _date(_objects(graph, temporal, DCAT.startDate)) if temporal is not None else "",
        "temporal_end": _date(_objects(graph, temporal, DCAT.endDate)) if temporal is not None else "",
        "documentation_url": _first(_iris(graph, dataset_ref, FOAF.page)),
        "hvd_category": _hvd_category(_iris(graph, dataset_ref, DCATAP.hvdCategory)),
        # A series (dcat:DatasetSeries), or a dataset naming its series by the source's IRI, which the record keeps
        # (catalog.record.series: its page links the record harvested from that IRI).
        **series.read(graph, dataset_ref),
        "resources": [
            read_distribution(graph, distribution, _iris(graph, dataset_ref, FOAF.page))
            for distribution in _objects(graph, dataset_ref, DCAT.distribution)
        ],
    }


def _hvd_category(values: list[str]) -> str:
    # The record holds one category: a listed sub-category first (a dataset may name its top category beside it,
    # as the norm's 2026 example does), else whatever HVD IRI it names, for the validator to refuse with its reason.
    listed = vocab.vocabulary(vocab.HVD_CATEGORY)
    categories = [value for value in values if iris.is_hvd_category(value)]
    return _first(value for value in categories if value in listed and listed.get(value).parent) or _first(categories)


def _email(graph: Graph, contact: Optional[Node]) -> str:
    # vcard:hasEmail is a mailto: IRI in DCAT-AP-CZ; older records (and the norm's Turtle example) use a literal.
    if contact is None:
        return ""
    for value in graph.objects(contact, VCARD.hasEmail):
        text = str(value).strip()
        address = iris.email_address(text) or (text if isinstance(value, Literal) else None)
        if address:
            return address
    return ""


def read_distribution(graph: Graph, distribution: Node, dataset_pages: Iterable[str] = ()) -> dict[str, Any]:
    """The resource fields of one distribution (see ``RESOURCE_FIELDS``).

    A service documented by the dataset's own documentation page (``graph_out`` falls back to it) has no
    documentation of its own: that page stays the dataset's ``documentation_url``.
    """
    service = next(iter(_objects(graph, distribution, DCAT.accessService)), None)
    resource = {
        "lkod_iri": str(distribution) if isinstance(distribution, URIRef) else "",
        "name": _text(graph, distribution, DCT.title),
        **_conditions(graph, next(iter(_objects(graph, distribution, iris.PU.specifikace)), None)),
    }
    access = _first(_iris(graph, distribution, DCAT.accessURL))
    if service is not None:
        endpoint = _first(_iris(graph, service, DCAT.endpointURL))
        specifications = _iris(graph, service, DCT.conformsTo)
        return {
            **resource,
            "name": resource["name"] or _text(graph, service, DCT.title),
            "url": endpoint or access,
            "source_type": "sparql_endpoint" if iris.SPARQL_PROTOCOL in specifications else "web_service",
            "format": "",
            "mimetype": "",
            "mimetype_inner": "",
            "schema_urls": [value for value in specifications if value != iris.SPARQL_PROTOCOL],
            "format_docs": [page for page in _iris(graph, service, FOAF.page) if page not in set(dataset_pages)],
        }
    media = _first(iris.media_type(value) for value in _iris(graph, distribution, DCAT.mediaType))
    outer = _first(
        iris.media_type(value)
        for value in _iris(graph, distribution, DCAT.compressFormat) + _iris(graph, distribution, DCAT.packageFormat)
    )
    return {
        **resource,
        "url": _first(_iris(graph, distribution, DCAT.downloadURL)) or access,
        "source_type": "file",
        "format": _format(graph, distribution),
        "mimetype": outer or media,
        "mimetype_inner": media if outer else "",
        "schema_urls": _iris(graph, distribution, DCT.conformsTo),
        "format_docs": [],
    }


def _format(graph: Graph, distribution: Node) -> str:
    # An EU file-type IRI gives the record's label; a format written as text is kept as it is.
    for value in _objects(graph, distribution, DCT["format"]):
        label = iris.format_label(str(value)) if isinstance(value, URIRef) else str(value).strip()
        if label:
            return label
    return ""


def _conditions(graph: Graph, specification: Optional[Node]) -> dict[str, str]:
    values = dict.fromkeys(CONDITION_FIELDS, "")
    if specification is None:
        return values
    for field, part in iris.CONDITION_PARTS.items():
        values[field] = _first(iris.condition_code(field, value) for value in _iris(graph, specification, URIRef(part)))
    for work, author in conditions.AUTHOR_OF.items():
        if values[work] == conditions.CC_BY_4:
            values[author] = _text(graph, specification, URIRef(iris.CONDITION_AUTHORS[author]))
    return values
