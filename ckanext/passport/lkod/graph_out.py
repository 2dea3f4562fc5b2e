"""The Czech record written as DCAT-AP-CZ: the dataset (with its distributions and data services) and the catalog.

Pure functions over an ``rdflib.Graph``: the profile class and the JSON-LD documents both call them, so the
mapping is written once. Values come from the record as text typed in by curators or harvested from another
catalog: each one becomes a language-tagged or typed literal, or an IRI only after ``iris`` accepted it;
text that is not a valid IRI is never written as one.
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Optional

from rdflib import RDF, XSD, BNode, Graph, Literal, Namespace, URIRef
from rdflib.term import Node

from ckanext.passport.catalog.record import conditions
from ckanext.passport.catalog.vocabularies import vocab
from ckanext.passport.lkod import iris

DCAT = Namespace("http://www.w3.org/ns/dcat#")
DCT = Namespace("http://purl.org/dc/terms/")
DCATAP = Namespace("http://data.europa.eu/r5r/")
FOAF = Namespace("http://xmlns.com/foaf/0.1/")
VCARD = Namespace("http://www.w3.org/2006/vcard/ns#")

PREFIXES = {
    "dcat": DCAT, "dct": DCT, "dcatap": DCATAP, "foaf": FOAF, "vcard": VCARD, "pu": Namespace(str(iris.PU)),
    "xsd": XSD,
}
# The language of a record that names none (``record_language``) and of the catalog's own texts: Czech, the
# national catalog's (see docs/lkod-mapping.md). A record's texts carry its own language: a Russian record's title is
# tagged ru, never claimed Czech (issue 24); eligibility keeps a record whose texts are not Czech out of the catalog.
LANGUAGE = "cs"
_LANGUAGE_TAG = re.compile(r"[a-z]{2,3}(-[a-z0-9]{1,8})*")
SERVICE_SOURCE_TYPES = ("web_service", "api", "sparql_endpoint")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?![\d])")


def bind_prefixes(graph: Graph) -> None:
    """The prefixes a Turtle serialization of the LKOD's graphs uses."""
    for prefix, namespace in PREFIXES.items():
        graph.bind(prefix, namespace, replace=True)


def record_language(dataset: Mapping[str, Any]) -> str:
    """The language tag of the record's texts: its ``record_language`` (``ru``, ``en`` …), else Czech."""
    language = str(dataset.get("record_language") or "").strip().lower()
    return language if _LANGUAGE_TAG.fullmatch(language) else LANGUAGE


def _text(graph: Graph, subject: Node, predicate: URIRef, value: Any, language: str = LANGUAGE) -> None:
    if isinstance(value, str) and value.strip():
        graph.add((subject, predicate, Literal(value.strip(), lang=language)))


def _iri(graph: Graph, subject: Node, predicate: URIRef, value: Optional[str]) -> None:
    if value:
        graph.add((subject, predicate, URIRef(value)))


def date_part(value: Any) -> Optional[str]:
    """``YYYY-MM-DD`` of a date or date-time text (an ISO date, an ``xsd:date`` with a zone, a date-time)."""
    text = str(value).strip() if value is not None else ""
    return text[:10] if _DATE.match(text) else None


def _date(graph: Graph, subject: Node, predicate: URIRef, value: Any) -> None:
    date = date_part(value) if isinstance(value, str) else None
    if date:
        graph.add((subject, predicate, Literal(date, datatype=XSD.date)))


def _urls(value: Any) -> list[str]:
    return [iri for iri in (iris.web_iri(item) for item in vocab.as_list(value)) if iri]


def tag_names(dataset: Mapping[str, Any]) -> list[str]:
    """The record's keywords: its tags (``tags`` as CKAN returns them, else ``tag_string``)."""
    tags = dataset.get("tags")
    if isinstance(tags, list):
        names = [tag.get("name") if isinstance(tag, Mapping) else tag for tag in tags]
    else:
        names = str(dataset.get("tag_string") or "").split(",")
    return [name.strip() for name in names if isinstance(name, str) and name.strip()]


def is_service(resource: Mapping[str, Any]) -> bool:
    return resource.get("source_type") in SERVICE_SOURCE_TYPES


def is_hvd(dataset: Mapping[str, Any]) -> bool:
    return iris.is_hvd_category(dataset.get("hvd_category"))


def publisher(dataset: Mapping[str, Any]) -> Optional[str]:
    """The publisher's RPP IRI: only an IČO names a Czech public body there."""
    if dataset.get("publisher_id_scheme", "ico") != "ico":
        return None
    return iris.publisher_iri(str(dataset.get("publisher_id") or "").strip())


def _contact_point(graph: Graph, subject: Node, name: Any, email: Any, language: str = LANGUAGE) -> None:
    mailto = iris.mailto_iri(email)
    if not mailto and not (isinstance(name, str) and name.strip()):
        return
    node = BNode()
    graph.add((subject, DCAT.contactPoint, node))
    graph.add((node, RDF.type, VCARD.Organization))
    _text(graph, node, VCARD.fn, name, language)
    _iri(graph, node, VCARD.hasEmail, mailto)


def _hvd(graph: Graph, subject: Node, dataset: Mapping[str, Any], with_category: bool) -> None:
    if not is_hvd(dataset):
        return
    graph.add((subject, DCATAP.applicableLegislation, URIRef(iris.HVD_LEGISLATION)))
    if with_category:
        graph.add((subject, DCATAP.hvdCategory, URIRef(dataset["hvd_category"])))


# --- the dataset -------------------------------------------------------------------------------------------


def add_dataset(graph: Graph, dataset: Mapping[str, Any], dataset_ref: URIRef) -> None:
    """Write ``dataset`` (a package_show dict) at ``dataset_ref``, its distributions and services at their IRIs."""
    language = record_language(dataset)
    graph.add((dataset_ref, RDF.type, DCAT.Dataset))
    _text(graph, dataset_ref, DCT.title, dataset.get("title"), language)
    _text(graph, dataset_ref, DCT.description, dataset.get("notes"), language)
    _english(graph, dataset_ref, dataset, language)
    _iri(graph, dataset_ref, DCT.publisher, publisher(dataset))
    for code in vocab.as_list(dataset.get("data_themes")):
        _iri(graph, dataset_ref, DCAT.theme, iris.theme_iri(code))
    _iri(graph, dataset_ref, DCT.accrualPeriodicity, iris.frequency_iri(dataset.get("accrual_periodicity")))
    for keyword in tag_names(dataset):
        _text(graph, dataset_ref, DCAT.keyword, keyword, language)
    for code in vocab.as_list(dataset.get("spatial_area")):
        _iri(graph, dataset_ref, DCT.spatial, iris.territory_iri(code))
    for concept in vocab.dataset_keys(dataset, vocab.EUROVOC):
        _iri(graph, dataset_ref, DCAT.theme, concept if iris.is_eurovoc(concept) else None)
    _temporal(graph, dataset_ref, dataset)
    _contact_point(graph, dataset_ref, dataset.get("publisher_name"), dataset.get("publisher_email"), language)
    _iri(graph, dataset_ref, FOAF.page, iris.web_iri(dataset.get("documentation_url")))
    _hvd(graph, dataset_ref, dataset, with_category=True)
    for resource in dataset.get("resources") or []:
        if iris.web_iri(resource.get("url")):
            _add_distribution(graph, dataset, resource, dataset_ref)


ENGLISH = "en"


def english_keywords(dataset: Mapping[str, Any]) -> list[str]:
    """The record's English keywords (``keywords_en``: a list as package_show gives it, or its stored JSON)."""
    return [keyword.strip() for keyword in vocab.as_list(dataset.get("keywords_en"))
            if isinstance(keyword, str) and keyword.strip()]


def _english(graph: Graph, dataset_ref: URIRef, dataset: Mapping[str, Any], language: str) -> None:
    # title_en, notes_en and keywords_en beside the record's own texts; a record in English has its texts @en already.
    if language == ENGLISH:
        return
    _text(graph, dataset_ref, DCT.title, dataset.get("title_en"), ENGLISH)
    _text(graph, dataset_ref, DCT.description, dataset.get("notes_en"), ENGLISH)
    for keyword in english_keywords(dataset):
        _text(graph, dataset_ref, DCAT.keyword, keyword, ENGLISH)


def _temporal(graph: Graph, dataset_ref: URIRef, dataset: Mapping[str, Any]) -> None:
    start, end = dataset.get("temporal_start"), dataset.get("temporal_end")
    if not start and not end:
        return
    node = BNode()
    graph.add((dataset_ref, DCT.temporal, node))
    graph.add((node, RDF.type, DCT.PeriodOfTime))
    _date(graph, node, DCAT.startDate, start)
    _date(graph, node, DCAT.endDate, end)


def _add_distribution(graph: Graph, dataset: Mapping[str, Any], resource: Mapping[str, Any], dataset_ref: URIRef) -> None:
    url = iris.web_iri(resource.get("url"))
    distribution = URIRef(iris.distribution_iri(dataset["id"], resource["id"]))
    graph.add((dataset_ref, DCAT.distribution, distribution))
    graph.add((distribution, RDF.type, DCAT.Distribution))
    _text(graph, distribution, DCT.title, resource.get("name"), record_language(dataset))
    _conditions(graph, distribution, conditions.effective_conditions(dataset, resource), record_language(dataset))
    _iri(graph, distribution, DCAT.accessURL, url)
    _hvd(graph, distribution, dataset, with_category=False)
    if is_service(resource):
        _add_service(graph, dataset, resource, distribution, url)
        return
    _iri(graph, distribution, DCAT.downloadURL, url)
    _iri(graph, distribution, DCT["format"], iris.format_iri(resource.get("format")))
    inner = iris.media_type_iri(resource.get("mimetype_inner"))
    outer = iris.media_type_iri(resource.get("mimetype")) or iris.media_type_iri(
        iris.default_media_type(resource.get("format"))
    )
    # CKAN's mimetype is the file's (a ZIP), mimetype_inner the data's inside it: DCAT's mediaType is the data's.
    _iri(graph, distribution, DCAT.mediaType, inner or outer)
    if inner:
        _iri(graph, distribution, DCAT.compressFormat, outer)
    # The norm's distribution has one schema (dct:conformsTo, "schéma"): the first the record lists.
    _iri(graph, distribution, DCT.conformsTo, next(iter(_urls(resource.get("schema_urls"))), None))


def _conditions(graph: Graph, distribution: URIRef, values: Mapping[str, str], language: str) -> None:
    node = BNode()
    graph.add((distribution, iris.PU.specifikace, node))
    graph.add((node, RDF.type, iris.PU.Specifikace))
    for field, part in iris.CONDITION_PARTS.items():
        _iri(graph, node, URIRef(part), iris.condition_iri(field, values.get(field)))
    for field, author in conditions.AUTHOR_OF.items():
        if values.get(field) == conditions.CC_BY_4:
            _text(graph, node, URIRef(iris.CONDITION_AUTHORS[author]), values.get(author), language)


def service_pages(dataset: Mapping[str, Any], resource: Mapping[str, Any]) -> list[str]:
    """A data service's documentation: the resource's format documentation, else the dataset's documentation."""
    return _urls(resource.get("format_docs")) or _urls(dataset.get("documentation_url"))


def _add_service(
    graph: Graph, dataset: Mapping[str, Any], resource: Mapping[str, Any], distribution: URIRef, url: Optional[str]
) -> None:
    service = URIRef(iris.service_iri(dataset["id"], resource["id"]))
    graph.add((distribution, DCAT.accessService, service))
    graph.add((service, RDF.type, DCAT.DataService))
    _text(graph, service, DCT.title, resource.get("name") or dataset.get("title"), record_language(dataset))
    _iri(graph, service, DCAT.endpointURL, url)
    if resource.get("source_type") == "sparql_endpoint":
        _iri(graph, service, DCT.conformsTo, iris.SPARQL_PROTOCOL)
    for schema in _urls(resource.get("schema_urls")):
        _iri(graph, service, DCT.conformsTo, schema)
    for page in service_pages(dataset, resource):
        _iri(graph, service, FOAF.page, page)
    _contact_point(graph, service, dataset.get("publisher_name"), dataset.get("publisher_email"), record_language(dataset))
    _hvd(graph, service, dataset, with_category=True)


# --- the catalog -------------------------------------------------------------------------------------------


def add_catalog(graph: Graph, catalog: Mapping[str, Any], catalog_ref: URIRef, datasets: Iterable[str] = ()) -> None:
    """Write the catalog (``title``, ``description``, ``publisher_ico``, ``contact_email``, ``homepage``)."""
    graph.add((catalog_ref, RDF.type, DCAT.Catalog))
    _text(graph, catalog_ref, DCT.title, catalog.get("title"))
    _text(graph, catalog_ref, DCT.description, catalog.get("description"))
    _iri(graph, catalog_ref, DCT.publisher, iris.publisher_iri(str(catalog.get("publisher_ico") or "").strip()))
    _contact_point(graph, catalog_ref, catalog.get("title"), catalog.get("contact_email"))
    _iri(graph, catalog_ref, FOAF.homepage, iris.web_iri(catalog.get("homepage")))
    for dataset in datasets:
        graph.add((catalog_ref, DCAT.dataset, URIRef(dataset)))


def new_graph() -> Graph:
    """An empty graph without rdflib's default prefixes (binding them is a fifth of a document's time)."""
    return Graph(bind_namespaces="none")


def dataset_graph(dataset: Mapping[str, Any]) -> tuple[Graph, URIRef]:
    """A new graph holding ``dataset`` at its LKOD IRI."""
    graph = new_graph()
    dataset_ref = URIRef(iris.dataset_iri(dataset["id"]))
    add_dataset(graph, dataset, dataset_ref)
    return graph, dataset_ref


def catalog_graph(catalog: Mapping[str, Any]) -> tuple[Graph, URIRef]:
    """A new graph holding the catalog's header at its LKOD IRI (``catalog["iri"]``: an organization's catalog)."""
    graph = new_graph()
    catalog_ref = URIRef(catalog.get("iri") or iris.catalog_iri())
    add_catalog(graph, catalog, catalog_ref)
    return graph, catalog_ref
