"""The IRIs of DCAT-AP-CZ and the record's codes they stand for, both ways: the one place for each rule.

Every function here is pure (apart from reading ``ckan.site_url`` for this portal's own IRIs). A value with
no IRI maps to ``None``, and an IRI outside a vocabulary maps back to ``None``: the two directions of the
profile (``graph_out``, ``graph_in``) decide what to do with it.
"""
from __future__ import annotations

import re
from typing import Optional
from urllib.parse import quote

import ckan.plugins.toolkit as tk
from rdflib import Namespace

from ckanext.passport.catalog.vocabularies import vocab
from ckanext.passport.catalog.record.ico import is_ico
from ckanext.passport.catalog.record.media_type import split_media_type

PU = Namespace("https://data.gov.cz/slovník/podmínky-užití/")
PU_VALUES = "https://data.gov.cz/podmínky-užití/"
EU_AUTHORITY = "http://publications.europa.eu/resource/authority/"
DATA_THEME = Namespace(EU_AUTHORITY + "data-theme/")
FREQUENCY = Namespace(EU_AUTHORITY + "frequency/")
FILE_TYPE = Namespace(EU_AUTHORITY + "file-type/")
RUIAN = "https://linked.cuzk.cz/resource/ruian/"
RPP_PUBLISHER = "https://rpp-opendata.egon.gov.cz/odrpp/zdroj/orgán-veřejné-moci/"
IANA_MEDIA_TYPES = "http://www.iana.org/assignments/media-types/"
EUROVOC = "http://eurovoc.europa.eu/"
HVD_CATEGORY = "http://data.europa.eu/bna/c_"
HVD_LEGISLATION = "http://data.europa.eu/eli/reg_impl/2023/138/oj"
CC_BY_4 = "https://creativecommons.org/licenses/by/4.0/"
CC0 = "https://creativecommons.org/publicdomain/zero/1.0/"
MAILTO = "mailto:"
# What a SPARQL endpoint conforms to (the norm's example): tells a SPARQL endpoint from another service.
SPARQL_PROTOCOL = "https://www.w3.org/TR/sparql11-protocol/"

# --- EU data themes and frequencies -----------------------------------------------------------------------

# The codes are the record's vocabularies (catalog/vocabularies/data-theme.json, frequency.json): every code a
# record may hold has its IRI here.


def _code_iri(namespace: Namespace, vocabulary: str, code: object) -> Optional[str]:
    return str(namespace[code]) if isinstance(code, str) and code in vocab.vocabulary(vocabulary) else None


def _iri_code(namespace: Namespace, vocabulary: str, iri: object) -> Optional[str]:
    if not isinstance(iri, str) or not iri.startswith(str(namespace)):
        return None
    code = iri[len(str(namespace)):]
    return code if code in vocab.vocabulary(vocabulary) else None


def theme_iri(code: object) -> Optional[str]:
    return _code_iri(DATA_THEME, vocab.DATA_THEMES, code)


def theme_code(iri: object) -> Optional[str]:
    return _iri_code(DATA_THEME, vocab.DATA_THEMES, iri)


def frequency_iri(code: object) -> Optional[str]:
    return _code_iri(FREQUENCY, vocab.FREQUENCY, code)


def frequency_code(iri: object) -> Optional[str]:
    return _iri_code(FREQUENCY, vocab.FREQUENCY, iri)


# --- conditions of use (pu:Specifikace) --------------------------------------------------------------------

# Record field -> the pu: property of its part, and each code's IRI. The names of the authors are literals.
CONDITION_PARTS: dict[str, str] = {
    "use_author_work": str(PU["autorské-dílo"]),
    "use_database_work": str(PU["databáze-jako-autorské-dílo"]),
    "use_database_right": str(PU["databáze-chráněná-zvláštními-právy"]),
    "use_personal_data": str(PU["osobní-údaje"]),
}
CONDITION_AUTHORS: dict[str, str] = {
    "use_author": str(PU["autor"]),
    "use_database_author": str(PU["autor-databáze"]),
}
CONDITION_VALUES: dict[str, dict[str, str]] = {
    "use_author_work": {
        "no-copyright-work": PU_VALUES + "neobsahuje-autorská-díla/",
        "cc-by-4.0": CC_BY_4,
    },
    "use_database_work": {
        "not-copyright-database": PU_VALUES + "není-autorskoprávně-chráněnou-databází/",
        "cc-by-4.0": CC_BY_4,
    },
    "use_database_right": {
        "not-protected": PU_VALUES + "není-chráněna-zvláštním-právem-pořizovatele-databáze/",
        "cc0": CC0,
    },
    "use_personal_data": {
        "no-personal-data": PU_VALUES + "neobsahuje-osobní-údaje/",
        "contains-personal-data": PU_VALUES + "obsahuje-osobní-údaje/",
        # data.gov.cz publishes this IRI, but the norm's schema (2024-05-28) admits only the two above:
        # eligibility keeps a record with it out of the LKOD (see docs/lkod-mapping.md).
        "unspecified": PU_VALUES + "není-specifikováno-zda-obsahuje-osobní-údaje/",
    },
}
# The codes whose IRI the norm's schema accepts (the values an LKOD document may carry).
PUBLISHABLE_CONDITIONS: dict[str, tuple[str, ...]] = {
    "use_author_work": ("no-copyright-work", "cc-by-4.0"),
    "use_database_work": ("not-copyright-database", "cc-by-4.0"),
    "use_database_right": ("not-protected", "cc0"),
    "use_personal_data": ("no-personal-data", "contains-personal-data"),
}


def condition_iri(field: str, code: object) -> Optional[str]:
    return CONDITION_VALUES.get(field, {}).get(code) if isinstance(code, str) else None


def condition_code(field: str, iri: object) -> Optional[str]:
    for code, value in CONDITION_VALUES.get(field, {}).items():
        if value == iri:
            return code
    return None


# --- territory (RÚIAN) -------------------------------------------------------------------------------------

COUNTRY_CODE = "CZ0"
COUNTRY_IRI = RUIAN + "stat/1"
# NUTS 3 code of a region -> its RÚIAN VÚSC code. District (okres) RÚIAN codes cannot be derived from LAU codes
# and no reliable table ships with the portal: a district maps to its region's IRI.
REGION_VUSC: dict[str, str] = {
    "CZ010": "19", "CZ020": "27", "CZ031": "35", "CZ032": "43", "CZ041": "51", "CZ042": "60", "CZ051": "78",
    "CZ052": "86", "CZ053": "94", "CZ063": "108", "CZ064": "116", "CZ071": "124", "CZ072": "141", "CZ080": "132",
}
_VUSC_REGION = {vusc: region for region, vusc in REGION_VUSC.items()}


def territory_iri(code: object) -> Optional[str]:
    """The RÚIAN IRI of a territorial unit: the country, a region, or a district's region."""
    if code == COUNTRY_CODE:
        return COUNTRY_IRI
    unit = vocab.vocabulary(vocab.SPATIAL_AREA).get(code)
    while unit is not None and unit.key not in REGION_VUSC:
        unit = vocab.vocabulary(vocab.SPATIAL_AREA).get(unit.parent)
    return RUIAN + "vusc/" + REGION_VUSC[unit.key] if unit is not None else None


def territory_code(iri: object) -> Optional[str]:
    """The territorial unit of a RÚIAN IRI: ``stat/1`` and the regions; ``None`` for any other element."""
    if iri == COUNTRY_IRI:
        return COUNTRY_CODE
    if isinstance(iri, str) and iri.startswith(RUIAN + "vusc/"):
        return _VUSC_REGION.get(iri[len(RUIAN + "vusc/"):])
    return None


def is_ruian(iri: object) -> bool:
    return isinstance(iri, str) and iri.startswith(RUIAN)


# --- publisher (RPP) ---------------------------------------------------------------------------------------

def publisher_iri(ico: object) -> Optional[str]:
    # The IRI is named by the IČO's form; its check digit is the record validator's verdict (catalog.record.ico).
    return RPP_PUBLISHER + ico if is_ico(ico, check_digit=False) else None


def publisher_ico(iri: object) -> Optional[str]:
    """The IČO in an RPP publisher IRI (percent-encoded or not); ``None`` for any other IRI."""
    if not isinstance(iri, str):
        return None
    for prefix in (RPP_PUBLISHER, quote(RPP_PUBLISHER, safe=":/")):
        if iri.startswith(prefix) and is_ico(iri[len(prefix):], check_digit=False):
            return iri[len(prefix):]
    return None


# --- formats (EU file types) and media types (IANA) -------------------------------------------------------

# EU file-type code -> how the record writes the format (CKAN's format labels), and its usual media type.
FILE_TYPES: dict[str, tuple[str, str]] = {
    "CSV": ("CSV", "text/csv"),
    "TSV": ("TSV", "text/tab-separated-values"),
    "JSON": ("JSON", "application/json"),
    "JSON_LD": ("JSON-LD", "application/ld+json"),
    "GEOJSON": ("GeoJSON", "application/geo+json"),
    "XML": ("XML", "application/xml"),
    "RDF_XML": ("RDF/XML", "application/rdf+xml"),
    "RDF_TURTLE": ("Turtle", "text/turtle"),
    "N_TRIPLES": ("N-Triples", "application/n-triples"),
    "XLSX": ("XLSX", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    "XLS": ("XLS", "application/vnd.ms-excel"),
    "ODS": ("ODS", "application/vnd.oasis.opendocument.spreadsheet"),
    "DOCX": ("DOCX", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    "DOC": ("DOC", "application/msword"),
    "ODT": ("ODT", "application/vnd.oasis.opendocument.text"),
    "PDF": ("PDF", "application/pdf"),
    "HTML": ("HTML", "text/html"),
    "TXT": ("TXT", "text/plain"),
    "ZIP": ("ZIP", "application/zip"),
    "GZIP": ("GZIP", "application/gzip"),
    "TAR": ("TAR", "application/x-tar"),
    "7Z": ("7Z", "application/x-7z-compressed"),
    "KML": ("KML", "application/vnd.google-earth.kml+xml"),
    "GML": ("GML", "application/gml+xml"),
    "SHP": ("SHP", "application/vnd.shp"),
    "GPKG": ("GPKG", "application/geopackage+sqlite3"),
    "PARQUET": ("Parquet", "application/vnd.apache.parquet"),
    "YAML": ("YAML", "application/yaml"),
    "PNG": ("PNG", "image/png"),
    "JPEG": ("JPEG", "image/jpeg"),
    "TIFF": ("TIFF", "image/tiff"),
}
# Other spellings of a format that the record may hold.
_FORMAT_ALIASES = {
    "TTL": "RDF_TURTLE", "TURTLE": "RDF_TURTLE", "JSONLD": "JSON_LD", "RDF": "RDF_XML", "RDFXML": "RDF_XML",
    "NTRIPLES": "N_TRIPLES", "NT": "N_TRIPLES", "GZ": "GZIP", "SHAPEFILE": "SHP", "JPG": "JPEG", "TIF": "TIFF",
    "HTM": "HTML", "TEXT": "TXT", "YML": "YAML", "GEOPACKAGE": "GPKG",
}
_FORMAT_PUNCTUATION = re.compile(r"[\s\-/.]+")


def file_type_code(fmt: object) -> Optional[str]:
    """The EU file-type code of a record's format (``csv``, ``GeoJSON``, ``.ttl`` …), or ``None``."""
    if not isinstance(fmt, str):
        return None
    key = _FORMAT_PUNCTUATION.sub("_", fmt.strip().upper()).strip("_")
    if key in FILE_TYPES:
        return key
    return _FORMAT_ALIASES.get(key.replace("_", ""))


def format_iri(fmt: object) -> Optional[str]:
    code = file_type_code(fmt)
    return str(FILE_TYPE[code]) if code else None


def format_label(iri: object) -> Optional[str]:
    """The record's format for an EU file-type IRI; an unlisted code is kept as the code itself."""
    if not isinstance(iri, str) or not iri.startswith(str(FILE_TYPE)):
        return None
    code = iri[len(str(FILE_TYPE)):]
    return FILE_TYPES[code][0] if code in FILE_TYPES else code or None


def default_media_type(fmt: object) -> Optional[str]:
    code = file_type_code(fmt)
    return FILE_TYPES[code][1] if code else None


def media_type_iri(mimetype: object) -> Optional[str]:
    """The IANA IRI of a MIME type (parameters dropped), or ``None`` for text that is not one."""
    parts = split_media_type(mimetype.lower()) if isinstance(mimetype, str) else None
    return IANA_MEDIA_TYPES + "/".join(parts) if parts else None


def media_type(iri: object) -> Optional[str]:
    """The MIME type of an IANA IRI (``http`` or ``https``), or ``None``."""
    if not isinstance(iri, str):
        return None
    for prefix in (IANA_MEDIA_TYPES, "https" + IANA_MEDIA_TYPES[4:]):
        rest = iri[len(prefix):].lower() if iri.startswith(prefix) else ""
        # The whole rest is the media type: an IRI carries no parameters nor spaces.
        parts = split_media_type(rest)
        if parts is not None and "/".join(parts) == rest:
            return rest
    return None


# --- web addresses, EuroVoc, HVD, e-mail ----------------------------------------------------------------------------------


# Characters an IRI may not hold (RFC 3987); a typed-in URL may, and Turtle would break on them.
_NOT_IN_IRI = re.compile(r'[\x00-\x20<>"{}|\\^`]')


def web_iri(url: object) -> Optional[str]:
    """An ``http(s)`` URL as an IRI, characters an IRI cannot hold percent-encoded; ``None`` for other text."""
    if not isinstance(url, str):
        return None
    text = url.strip()
    if not re.match(r"https?://[^/\s]", text, re.IGNORECASE):
        return None
    return _NOT_IN_IRI.sub(lambda match: quote(match.group(0), safe=""), text)


# What stays as written in an IRI's key (:func:`iri_key`): the reserved characters, and ``%`` of the escapes kept.
_KEY_SAFE = "!#$&'()*+,/:;=?@[]%"
_ESCAPE = re.compile(rb"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def iri_key(iri: str) -> str:
    """The form two spellings of one IRI share: raw non-ASCII letters, their percent-encoded UTF-8, ``%20`` or a
    mix of them (what a browser sends for each), scheme and host in lower case.

    Escapes of unreserved characters and of non-ASCII bytes are decoded, escapes of reserved characters kept (they
    mean something else decoded: ``%2F`` is no ``/``), then every byte outside the unreserved and reserved sets is
    percent-encoded, upper-case."""
    def decoded(match: re.Match[bytes]) -> bytes:
        byte = int(match.group(1), 16)
        return bytes([byte]) if byte in _UNRESERVED or byte >= 0x80 else b"%" + match.group(1).upper()

    text = quote(_ESCAPE.sub(decoded, iri.strip().encode("utf-8")), safe=_KEY_SAFE)
    scheme, separator, rest = text.partition("://")
    if not separator:
        return text
    authority = re.match(r"[^/?#]*", rest).group(0)
    return f"{scheme.lower()}://{authority.lower()}{rest[len(authority):]}"


def is_eurovoc(iri: object) -> bool:
    return isinstance(iri, str) and iri.startswith(EUROVOC) and len(iri) > len(EUROVOC)


def is_hvd_category(iri: object) -> bool:
    return isinstance(iri, str) and iri.startswith(HVD_CATEGORY) and len(iri) > len(HVD_CATEGORY)


def mailto_iri(email: object) -> Optional[str]:
    if not isinstance(email, str) or "@" not in email.strip():
        return None
    address = email.strip()
    return address if address.startswith(MAILTO) else MAILTO + address


def email_address(iri: object) -> Optional[str]:
    return iri[len(MAILTO):] if isinstance(iri, str) and iri.startswith(MAILTO) else None


# --- this portal's own IRIs --------------------------------------------------------------------------------


def _site_url() -> str:
    # CKAN's option (not the extension's): the portal's public address, the base of every IRI it serves.
    return str(tk.config.get("ckan.site_url") or "").rstrip("/")


def catalog_iri() -> str:
    return f"{_site_url()}/lkod/catalog"


def organization_catalog_iri(name: str) -> str:
    """An organization's catalog: its URL, which NKOD registers, is its IRI (lkod.organizations)."""
    return f"{_site_url()}/lkod/organization/{quote(name, safe='')}/catalog"


def dataset_iri(dataset_id: str) -> str:
    return f"{_site_url()}/lkod/dataset/{quote(dataset_id, safe='')}"


def distribution_iri(dataset_id: str, resource_id: str) -> str:
    return f"{dataset_iri(dataset_id)}/distribution/{quote(resource_id, safe='')}"


def service_iri(dataset_id: str, resource_id: str) -> str:
    return f"{dataset_iri(dataset_id)}/service/{quote(resource_id, safe='')}"
