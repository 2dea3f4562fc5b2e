"""The reasons a record stays out of the LKOD: codes in the project's one problem catalogue (``mr.problems``),
rendered in the reader's language where they are shown (the ``/lkod/`` page). Pure, like ``harvest.problems``.
"""
from __future__ import annotations

from ckanext.passport.mr.model import Severity
from ckanext.passport.mr.problems import N_, define

UNPUBLISHED = define(
    "lkod.unpublished", Severity.INFO, N_("the record is not published (state: {state})"),
    meaning=N_("The record is not published"),
)
PRIVATE = define("lkod.private", Severity.INFO, N_("the record is private"))
NO_ICO_PUBLISHER = define(
    "lkod.no_ico_publisher", Severity.INFO,
    N_("the data provider has no Czech IČO, which the national catalog identifies publishers by"),
)
MISSING_FIELD = define(
    "lkod.missing_field", Severity.INFO,
    N_("the field '{field}' has no value the national catalog accepts"),
    meaning=N_("A field has no value the national catalog accepts"),
)
MISSING_RESOURCE_FIELD = define(
    "lkod.missing_resource_field", Severity.INFO,
    N_("the field '{field}' of the resource '{resource}' has no value the national catalog accepts"),
    meaning=N_("A resource's field has no value the national catalog accepts"),
)
NOT_CZECH = define(
    "lkod.not_czech", Severity.INFO,
    N_("the record's language is '{language}': the national catalog takes titles, descriptions and keywords in Czech"),
    meaning=N_("The record is not in Czech, which the national catalog asks for"),
)
# Why an organization with listed records has no catalog of its own (lkod.organizations; the /lkod/ page).
ORGANIZATION_NO_ICO = define(
    "lkod.organization_no_ico", Severity.INFO,
    N_("the organization has no IČO: a sysadmin gives it in the organization's form"),
)
ORGANIZATION_BAD_ICO = define(
    "lkod.organization_bad_ico", Severity.INFO,
    N_("the organization's IČO '{ico}' is not valid: a sysadmin corrects it in the "
       "organization's form"),
    meaning=N_("The organization's IČO is not valid"),
)
