"""The document a portal's operator submits to NKOD to register this portal as a local catalog.

NKOD's registration form ("registrace lokálního katalogu") produces it, and the operator sends it from the
institution's data box. This module writes the same document from the site's options, in the form's own
shape: expanded JSON-LD (full IRIs, no context), the catalog typed both ``dcat:Catalog`` and
``nkod:DcatApLkod``, its endpoint being the catalog document's URL.
"""
from __future__ import annotations

from typing import Any

DCAT = "http://www.w3.org/ns/dcat#"
DCT = "http://purl.org/dc/terms/"
VCARD = "http://www.w3.org/2006/vcard/ns#"
FOAF = "http://xmlns.com/foaf/0.1/"
NKOD_LKOD = "https://data.gov.cz/slovník/nkod/DcatApLkod"
XSD_ANY_URI = "http://www.w3.org/2001/XMLSchema#anyURI"
# What the registration needs of the catalog's options, beyond what the catalog document itself needs.
REQUIRED = ("title", "contact_email", "homepage")


def missing(catalog: dict[str, str]) -> list[str]:
    """The ``catalog_dict`` keys a registration needs that are not set."""
    return [key for key in REQUIRED if not catalog.get(key)]


def registration_document(catalog: dict[str, str], endpoint_url: str) -> dict[str, Any]:
    """The registration of the catalog whose document is at ``endpoint_url``.

    The contact point is the catalog's publisher as an organization: its name is the catalog's title (the
    options name no person, and NKOD shows the name beside the e-mail address).
    """
    return {
        "@type": [f"{DCAT}Catalog", NKOD_LKOD],
        f"{DCAT}endpointURL": {"@value": endpoint_url, "@type": XSD_ANY_URI},
        f"{DCT}title": {"@language": "cs", "@value": catalog["title"]},
        f"{DCAT}contactPoint": {
            "@type": [f"{VCARD}Organization"],
            f"{VCARD}fn": {"@language": "cs", "@value": catalog["title"]},
            f"{VCARD}hasEmail": catalog["contact_email"],
        },
        f"{FOAF}homepage": {"@id": catalog["homepage"]},
    }
