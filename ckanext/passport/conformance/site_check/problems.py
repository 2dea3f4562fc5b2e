"""The codes of the publishers' site check: why a check was refused, and why one failed.

Defined in the library's catalogue (``mr.problems``), so they have one English template each, rendered in the
reader's language (cs, ru, en) like every other finding; pure, so the catalogue can be read without CKAN.
"""
from __future__ import annotations

from ckanext.passport.catalog.user_checks import PRIVATE_SYSADMIN_ONLY  # noqa: F401 (a site check code)
from ckanext.passport.mr.model import Severity
from ckanext.passport.mr.problems import N_, Nn_, define

# Refusals when a check is asked for (the action's ValidationError, the form's messages).
URL_MISSING = define(
    "site_check.url_missing", Severity.ERROR, N_("Enter the address of a site, registry or passport."),
)
URL_INVALID = define(
    "site_check.url_invalid", Severity.ERROR,
    N_("'{address}' is not a web address: use a full http:// or https:// address, such as "
       "https://example.ru/opendata/"),
    meaning=N_("The address given for a site check is not a full web address"),
)
URL_TOO_LONG = define(
    "site_check.url_too_long", Severity.ERROR,
    Nn_("The address is too long (at most {limit} character).", "The address is too long (at most {limit} characters).",
        count="limit"),
    meaning=N_("The address given for a site check is too long"),
)
PRIVATE_ADDRESS = define(
    "site_check.private_address", Severity.ERROR,
    N_("This address is on a private, local or special-purpose network, and the site check reads only public sites. "
       "A sysadmin of the portal can check it, with the option to read private addresses."),
)
RATE_USER = define(
    "site_check.rate_user", Severity.ERROR,
    N_("You have used up your site checks (at most {limit} in {minutes} min); please try again later."),
    meaning=N_("A user ran more site checks than the portal allows in a while"),
)
RATE_HOST = define(
    "site_check.rate_host", Severity.ERROR,
    Nn_("{host} has been checked as often as allowed (at most {limit} check in {minutes} min); please try again "
        "later or open an earlier report.",
        "{host} has been checked as often as allowed (at most {limit} checks in {minutes} min); please try "
        "again later or open an earlier report.", count="limit"),
    meaning=N_("A site was checked more often than the portal allows in a while"),
)
BUSY = define(
    "site_check.busy", Severity.ERROR,
    N_("The portal is already running as many site checks as it takes at once ({limit} waiting or running); "
       "please try again in a few minutes."),
    meaning=N_("The portal was running as many site checks as it takes at once"),
)
# A host a check would read besides the one it was asked for (a passport a registry lists elsewhere, a redirect):
# it counts toward its own limit, and past it is left unread.
HOST_LIMITED = define(
    "site_check.host_limited", Severity.ERROR,
    N_("{host} was not read: site checks have read it as often as allowed in {minutes} min (the limit is {limit}); "
       "please try again later."),
    meaning=N_("A site was not read because site checks had read it as often as allowed"),
)
# Why a check that was started ended without a report.
FAILED = define(
    "site_check.failed", Severity.ERROR,
    N_("The check stopped because of an error in the portal ({error}); the portal's administrators can find it "
       "in the jobs worker's log."),
    meaning=N_("A site check stopped because of an error in the portal"),
)
TIMED_OUT = define(
    "site_check.timed_out", Severity.ERROR,
    N_("The check did not finish in time (at most {seconds} s) and was stopped."),
    meaning=N_("A site check did not finish in time and was stopped"),
)
NOT_ALLOWED = define(
    "site_check.sign_in", Severity.ERROR, N_("Sign in to check a site."),
)
# What a kept report says it left out (site_check.report.kept): the report stays within its size bound.
VALUES_CUT = define(
    "site_check.values_cut", Severity.INFO,
    Nn_("{characters} character of long texts was left out of this report: each text is kept to its first "
        "{limit} characters and then ends in …",
        "{characters} characters of long texts were left out of this report: each text is kept to its first "
        "{limit} characters and then ends in …", count="characters"),
    meaning=N_("Long texts were shortened in the report"),
)
FINDINGS_CUT = define(
    "site_check.findings_cut", Severity.INFO,
    Nn_("{count} more finding was left out of this report, to keep it within its size (at most {limit} "
        "characters for each passport and for the site).",
        "{count} more findings were left out of this report, to keep it within its size (at most {limit} "
        "characters for each passport and for the site)."),
    meaning=N_("Findings were left out of the report to keep it within its size"),
)
FIXED_TOO_LARGE = define(
    "site_check.fixed_too_large", Severity.INFO,
    Nn_("No corrected files are offered for this passport: what was read takes {size} character, more than the "
        "{limit} the portal keeps for them.",
        "No corrected files are offered for this passport: what was read takes {size} characters, more than "
        "the {limit} the portal keeps for them.", count="size"),
    meaning=N_("No corrected files are offered because the passport is too large"),
)
