"""Every ``ckanext.passport.*`` option, read in one place.

The options are declared once, in ``config/*.yaml`` (CKAN config declarations: key, default, type, meaning);
an option read by more than one plugin is declared by the base plugin ``passport`` (``config/catalog.yaml``).
The three plugins and the ``ckan passport`` commands read them only through the accessors below, which give
each value its type: an ini file and ``pytest.mark.ckan_config`` give text.

CKAN fills in the declared defaults when the plugins are loaded. The fetch options are also read where no
plugin is (``ckan passport check`` run as a library, the pure source-config builder): their defaults are the
constants below, which ``tests/test_settings.py`` holds equal to the declarations.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any, Mapping, Optional, Union

import ckan.plugins.toolkit as tk

from ckanext.passport.mr.fetch import DEFAULT_USER_AGENT, FetchPolicy
from ckanext.passport.mr.limits import DEFAULT_LIMITS, ReadLimits

EDITORS_ORGANIZATION = "ckanext.passport.editors_organization"
REVIEW_SCOPE = "ckanext.passport.review_scope"
INITIAL_STATES = "ckanext.passport.initial_states"
NOTIFY_BY_EMAIL = "ckanext.passport.notify_by_email"
FEEDBACK_MAX_LENGTH = "ckanext.passport.feedback_max_length"
FEEDBACK_RATE_PER_CLIENT = "ckanext.passport.feedback_rate_per_client"
FEEDBACK_RATE_PER_DATASET = "ckanext.passport.feedback_rate_per_dataset"
FEEDBACK_RATE_WINDOW = "ckanext.passport.feedback_rate_window"
OPENNESS_SAMPLE_BYTES = "ckanext.passport.openness_sample_bytes"
OPENNESS_RATE_PER_USER = "ckanext.passport.openness_rate_per_user"
OPENNESS_RATE_PER_RECORD = "ckanext.passport.openness_rate_per_record"
OPENNESS_RATE_WINDOW = "ckanext.passport.openness_rate_window"
TRUSTED_PROXIES = "ckanext.passport.trusted_proxies"
VOCAB_DIR = "ckanext.passport.vocab_dir"
IDENTIFIER_FIELD = "ckanext.passport.identifier_field"
DOCS_URL = "ckanext.passport.docs_url"
ALLOW_PRIVATE_ADDRESSES = "ckanext.passport.allow_private_addresses"
USER_AGENT = "ckanext.passport.user_agent"
TIMEOUT = "ckanext.passport.timeout"
MAX_FILE_SIZE = "ckanext.passport.max_file_size"
MAX_PASSPORT_BYTES = "ckanext.passport.max_passport_bytes"
MAX_PAGE_BYTES = "ckanext.passport.max_page_bytes"
MAX_REGISTRY_BYTES = "ckanext.passport.max_registry_bytes"
MAX_STRUCTURE_BYTES = "ckanext.passport.max_structure_bytes"
MAX_LKOD_CATALOG_BYTES = "ckanext.passport.max_lkod_catalog_bytes"
MAX_LKOD_DATASET_BYTES = "ckanext.passport.max_lkod_dataset_bytes"
HARVEST_OBJECT_BUDGET = "ckanext.passport.harvest_object_budget"
HARVEST_FORM_PROBE_HOURS = "ckanext.passport.harvest_form_probe_hours"
STANDARD_VERSION_URL = "ckanext.passport.standard_version_url"
TERMS_OF_USE = "ckanext.passport.terms_of_use"
SITE_CHECK_PUBLIC = "ckanext.passport.site_check_public"
SITE_CHECK_RATE_PER_USER = "ckanext.passport.site_check_rate_per_user"
SITE_CHECK_RATE_PER_HOST = "ckanext.passport.site_check_rate_per_host"
SITE_CHECK_RATE_WINDOW = "ckanext.passport.site_check_rate_window"
SITE_CHECK_MAX_PASSPORTS = "ckanext.passport.site_check_max_passports"
SITE_CHECK_TIMEOUT = "ckanext.passport.site_check_timeout"
SITE_CHECK_PASSPORT_BUDGET = "ckanext.passport.site_check_passport_budget"
SITE_CHECK_MAX_QUEUED = "ckanext.passport.site_check_max_queued"
HEALTH_GRACE = "ckanext.passport.health_grace"
NOTIFY_SOURCES = "ckanext.passport.notify_sources"
NOTIFY_SCORE_DROP = "ckanext.passport.notify_score_drop"
NOTIFY_PUBLISHERS = "ckanext.passport.notify_publishers"
NOTIFY_PUBLISHERS_PER_DAY = "ckanext.passport.notify_publishers_per_day"
LKOD_PUBLISHER_ICO = "ckanext.passport.lkod.publisher_ico"
LKOD_TITLE = "ckanext.passport.lkod.title"
LKOD_DESCRIPTION = "ckanext.passport.lkod.description"
LKOD_CONTACT_EMAIL = "ckanext.passport.lkod.contact_email"
LKOD_HOMEPAGE = "ckanext.passport.lkod.homepage"
LKOD_NORM = "ckanext.passport.lkod.norm"
LINK_CHECK_ON_PUBLISH = "ckanext.passport.lkod.link_check_on_publish"
LINK_CHECK_TIMEOUT = "ckanext.passport.lkod.link_check_timeout"
LINK_CHECK_BUDGET = "ckanext.passport.lkod.link_check_budget"
LINK_CHECK_PRIVATE_ADDRESSES = "ckanext.passport.lkod.link_check_private_addresses"
# CKAN's own option, read here for the language of texts stored for every reader (harvest errors).
LOCALE_DEFAULT = "ckan.locale_default"
# ckanext-harvest's own option (it declares none): minutes after which ``harvester run`` ends a job with no progress.
HARVEST_TIMEOUT = "ckan.harvest.timeout"

# The fetch options' defaults, for the paths that run without the plugins (see the module docstring).
FETCH_DEFAULTS: dict[str, Any] = {
    ALLOW_PRIVATE_ADDRESSES: False,
    USER_AGENT: DEFAULT_USER_AGENT,
    TIMEOUT: 30,
    MAX_FILE_SIZE: FetchPolicy.max_bytes,
    MAX_PASSPORT_BYTES: DEFAULT_LIMITS.passport_bytes,
    MAX_PAGE_BYTES: DEFAULT_LIMITS.page_bytes,
    MAX_REGISTRY_BYTES: DEFAULT_LIMITS.registry_bytes,
    MAX_STRUCTURE_BYTES: DEFAULT_LIMITS.structure_bytes,
}
# A harvest source's (and a command's) fetch options and the site option each one overrides.
FETCH_OVERRIDES = {
    "allow_private_addresses": ALLOW_PRIVATE_ADDRESSES,
    "user_agent": USER_AGENT,
    "timeout": TIMEOUT,
    "max_file_size": MAX_FILE_SIZE,
}

Number = Union[int, float]


# --- fetching (the harvester, the openness check, ``ckan passport check``) ------------------------------


def site_fetch_options() -> dict[str, Any]:
    """The site's fetch options, keyed by option name, as configured (possibly text)."""
    return {key: tk.config.get(key, default) for key, default in FETCH_DEFAULTS.items()}


def site_fetch_policy(**overrides: Any) -> FetchPolicy:
    """The site's fetch policy; ``overrides`` are fetch options by their short name (``timeout=5``)."""
    return fetch_policy(site_fetch_options(), overrides)


def fetch_policy(site: Mapping[str, Any], overrides: Mapping[str, Any]) -> FetchPolicy:
    """The one rule from options to fetch limits: the site's options (by key), a source's or a command's
    ``overrides`` (by short name) on top.

    ``timeout`` bounds connecting and each read; redirects and retries together get four times as long.
    """
    timeout = float(overrides.get("timeout", site_number(site, TIMEOUT)))
    return FetchPolicy(
        connect_timeout=min(timeout, 10.0),
        read_timeout=timeout,
        total_timeout=max(timeout * 4, 10.0),
        max_bytes=int(overrides.get("max_file_size", site_number(site, MAX_FILE_SIZE))),
        user_agent=overrides.get("user_agent") or site.get(USER_AGENT) or FETCH_DEFAULTS[USER_AGENT],
        allow_private_addresses=tk.asbool(
            overrides.get("allow_private_addresses", site.get(ALLOW_PRIVATE_ADDRESSES, False))
        ),
    )


def read_limits(site: Mapping[str, Any]) -> ReadLimits:
    """How large a publication of each form the readers take, from the site's fetch options (by key): each is
    refused before parsing and never fetched whole."""
    return ReadLimits(
        passport_bytes=int(site_number(site, MAX_PASSPORT_BYTES)),
        page_bytes=int(site_number(site, MAX_PAGE_BYTES)),
        registry_bytes=int(site_number(site, MAX_REGISTRY_BYTES)),
        structure_bytes=int(site_number(site, MAX_STRUCTURE_BYTES)),
    )


def site_read_limits() -> ReadLimits:
    """The site's :func:`read_limits` (the site check, ``ckan passport check``)."""
    return read_limits(site_fetch_options())


def site_number(site: Mapping[str, Any], key: str) -> Number:
    """A numeric fetch option of ``site`` (text from an ini file, or unset); whole numbers stay whole."""
    value = site.get(key)
    number = float(value) if value not in (None, "") else float(FETCH_DEFAULTS[key])
    return int(number) if number.is_integer() else number


def max_lkod_catalog_bytes() -> int:
    """The largest catalog document an ``lkod`` harvest reads (refused before parsing, never fetched whole)."""
    return tk.asint(tk.config.get(MAX_LKOD_CATALOG_BYTES))


def max_lkod_dataset_bytes() -> int:
    """The largest dataset document an ``lkod`` harvest reads."""
    return tk.asint(tk.config.get(MAX_LKOD_DATASET_BYTES))


def harvest_object_budget() -> int:
    """Seconds all the fetches of one harvested passport share."""
    return tk.asint(tk.config.get(HARVEST_OBJECT_BUDGET))


def harvest_form_probe_interval() -> timedelta:
    """How long a harvest trusts the passport form it last read before trying every form again (0: never)."""
    return timedelta(hours=max(0, tk.asint(tk.config.get(HARVEST_FORM_PROBE_HOURS))))


def harvest_timeout() -> Optional[int]:
    """ckanext-harvest's ``ckan.harvest.timeout``, minutes a running job may go without progress; ``None`` when
    unset. Read as ckanext-harvest reads it (any value set counts), so that our source types end exactly the jobs
    it would end."""
    value = tk.config.get(HARVEST_TIMEOUT)
    return tk.asint(value) if value else None


# --- language -----------------------------------------------------------------------------------------------


def locale_default() -> str:
    """The site's default language (CKAN's ``ckan.locale_default``): of texts stored for every reader, and of
    whatever is shown outside a request."""
    return tk.config.get(LOCALE_DEFAULT) or "en"


# --- the catalog record and its workflow ------------------------------------------------------------------


def identifier_field() -> str:
    """The dataset field holding a record's MR identifier: harvests write it, publishing and uniqueness read it."""
    return tk.config.get(IDENTIFIER_FIELD)


def docs_page_url(page: str) -> str:
    """The address of a page of the extension's documentation site (``page``: its path there, ``harvest-source/``),
    or ``""`` while the site's address is not configured."""
    base = (tk.config.get(DOCS_URL) or "").strip()
    return f"{base.rstrip('/')}/{page}" if base else ""


def editors_organization() -> str:
    return tk.config.get(EDITORS_ORGANIZATION)


def review_scope() -> str:
    return tk.config.get(REVIEW_SCOPE)


def initial_states() -> list[str]:
    """The states the site lets a sysadmin give a new record (see ``catalog.workflow.states``)."""
    return tk.aslist(tk.config.get(INITIAL_STATES))


def notify_by_email() -> bool:
    return tk.asbool(tk.config.get(NOTIFY_BY_EMAIL))


# CKAN's own option; CKAN declares ``localhost`` as its default, so a site that never set it reads that.
SMTP_SERVER = "smtp.server"
SMTP_SERVER_UNSET = ("", "localhost")


def smtp_server() -> str:
    """The mail server the site set, ``""`` when it set none.

    CKAN fills in its declared default ``localhost`` for a site that never set ``smtp.server``, and the loaded
    config cannot tell that default from the same word written in the ini: ``localhost`` (or nothing) counts as
    unset. A site with a mail server on this machine names its port, ``localhost:25`` (docs/workflow.md).
    """
    server = str(tk.config.get(SMTP_SERVER) or "").strip()
    return "" if server.lower() in SMTP_SERVER_UNSET else server


def feedback_max_length() -> int:
    return tk.asint(tk.config.get(FEEDBACK_MAX_LENGTH))


def feedback_rate_per_client() -> int:
    return tk.asint(tk.config.get(FEEDBACK_RATE_PER_CLIENT))


def feedback_rate_per_dataset() -> int:
    return tk.asint(tk.config.get(FEEDBACK_RATE_PER_DATASET))


def feedback_rate_window() -> int:
    return tk.asint(tk.config.get(FEEDBACK_RATE_WINDOW))


def openness_sample_bytes() -> int:
    """The most bytes of a file the openness check reads (its first ones): it judges the file by them."""
    return max(1, tk.asint(tk.config.get(OPENNESS_SAMPLE_BYTES)))


def openness_rate_per_user() -> int:
    """Openness checks one user may start per window."""
    return tk.asint(tk.config.get(OPENNESS_RATE_PER_USER))


def openness_rate_per_record() -> int:
    """Openness checks of one record, whoever starts them, per window."""
    return tk.asint(tk.config.get(OPENNESS_RATE_PER_RECORD))


def openness_rate_window() -> int:
    return tk.asint(tk.config.get(OPENNESS_RATE_WINDOW))


def trusted_proxies() -> int:
    """Reverse proxies in front of CKAN whose ``X-Forwarded-For`` entries name the client (0: none trusted)."""
    return max(0, tk.asint(tk.config.get(TRUSTED_PROXIES) or 0))


def vocab_dir() -> Optional[Path]:
    """Where ``ckan passport vocab load`` keeps a loaded EUROVOC; ``None`` when the site has none."""
    configured = tk.config.get(VOCAB_DIR)
    return Path(configured) if configured else None


# --- publication -------------------------------------------------------------------------------------------


def standard_version_url() -> str:
    return tk.config.get(STANDARD_VERSION_URL)


def terms_of_use() -> str:
    return (tk.config.get(TERMS_OF_USE) or "").strip()


# --- the publishers' site check (plugin ``passport_conformance``) ------------------------------------------


def site_check_public() -> bool:
    """Whether anonymous visitors may run a site check (signed-in users always may)."""
    return tk.asbool(tk.config.get(SITE_CHECK_PUBLIC))


def site_check_rate_per_user() -> int:
    """Checks one user (an anonymous visitor: one client address) may start per window."""
    return tk.asint(tk.config.get(SITE_CHECK_RATE_PER_USER))


def site_check_rate_per_host() -> int:
    """Checks of one host, whoever starts them, per window: the checked site is spared a flood."""
    return tk.asint(tk.config.get(SITE_CHECK_RATE_PER_HOST))


def site_check_rate_window() -> int:
    return tk.asint(tk.config.get(SITE_CHECK_RATE_WINDOW))


def site_check_max_passports() -> int:
    """The most passports one site check reads (a registry's first entries)."""
    return tk.asint(tk.config.get(SITE_CHECK_MAX_PASSPORTS))


def site_check_timeout() -> int:
    """Seconds one site check may run before its job is stopped and the check counts as failed."""
    return tk.asint(tk.config.get(SITE_CHECK_TIMEOUT))


def site_check_passport_budget() -> int:
    """Seconds all the fetches of one passport in a site check share."""
    return tk.asint(tk.config.get(SITE_CHECK_PASSPORT_BUDGET))


def site_check_fetch_policy(allow_private_addresses: bool, **overrides: Any) -> FetchPolicy:
    """The site's fetch policy for a site check: its limits, but private addresses only when a sysadmin asked.

    The site option ``allow_private_addresses`` opens private networks to harvests a sysadmin or an
    organization admin configured; a site check is started by anyone allowed to, so it does not inherit it. The
    one rule of every check a user's action starts (the link check's too, see :func:`link_check_fetch_policy`);
    ``overrides`` are fetch options by their short name, as :func:`site_fetch_policy` takes them.
    """
    return site_fetch_policy(**{**overrides, "allow_private_addresses": allow_private_addresses})


def site_check_max_queued() -> int:
    """Site checks that may wait or run at once across the portal; one more is refused until one ends."""
    return tk.asint(tk.config.get(SITE_CHECK_MAX_QUEUED))


# --- harvest health (plugin ``passport_conformance``) --------------------------------------------------------


def health_grace() -> int:
    """Minutes of lateness the harvest health view allows a source's harvests (see the declaration)."""
    return tk.asint(tk.config.get(HEALTH_GRACE))


def health_stalled_after() -> int:
    """Minutes without progress after which a running job is stalled: ``ckan.harvest.timeout`` when set (past it the
    next ``harvester run`` ends the job), else the grace."""
    return harvest_timeout() or health_grace()


# --- conformance mails (plugin ``passport_conformance``; a source's config overrides each) ------------------


def notify_sources() -> bool:
    """Whether sources' organization admins hear of jobs that got worse and get the weekly digest."""
    return tk.asbool(tk.config.get(NOTIFY_SOURCES))


def notify_score_drop() -> int:
    """Points a job's mean score must drop against the previous job's to be mailed."""
    return tk.asint(tk.config.get(NOTIFY_SCORE_DROP))


def notify_publishers() -> bool:
    """Whether the MR publisher's own contact (``publishermbox``) is mailed too, at most once a week; off, no
    source's config mails them."""
    return tk.asbool(tk.config.get(NOTIFY_PUBLISHERS))


def notify_publishers_per_day() -> int:
    """How many publishers' contacts the jobs of one source may mail in 24 hours."""
    return tk.asint(tk.config.get(NOTIFY_PUBLISHERS_PER_DAY))


# --- the Czech local open-data catalog (LKOD) ---------------------------------------------------------------


def lkod_options() -> dict[str, str]:
    """The catalog's options by their ``catalog_dict`` key (what ``lkod.jsonld`` reads)."""
    return {
        "publisher_ico": LKOD_PUBLISHER_ICO,
        "title": LKOD_TITLE,
        "description": LKOD_DESCRIPTION,
        "contact_email": LKOD_CONTACT_EMAIL,
        "homepage": LKOD_HOMEPAGE,
    }


def lkod_catalog() -> dict[str, str]:
    """The catalog's own description (``catalog_dict`` of ``lkod.jsonld``): publisher IČO, Czech title and
    description, contact e-mail and home page; an unset option is ``""``."""
    return {key: (tk.config.get(option) or "").strip() for key, option in lkod_options().items()}


def lkod_norm() -> str:
    """The DCAT-AP-CZ norm of a /lkod/ document whose request names none (``?norm=``), as configured; the
    views check it against ``lkod.norms.NORMS`` (an unknown one answers 400 naming the option)."""
    return str(tk.config.get(LKOD_NORM) or "").strip()


# --- link checks of published records (plugin ``passport_lkod``) ---------------------------------------------


def link_check_on_publish() -> bool:
    """Whether a publication (and an update of a published public record) queues the record's link check."""
    return tk.asbool(tk.config.get(LINK_CHECK_ON_PUBLISH))


def link_check_budget() -> int:
    """Seconds all the links of one record share in one check."""
    return tk.asint(tk.config.get(LINK_CHECK_BUDGET))


def link_check_private_addresses() -> bool:
    """Whether link checks may ask private addresses (an intranet portal's sysadmin's choice; never the harvests')."""
    return tk.asbool(tk.config.get(LINK_CHECK_PRIVATE_ADDRESSES))


def link_check_fetch_policy() -> FetchPolicy:
    """The site check's fetch policy (:func:`site_check_fetch_policy`) with the link check's own time: each link ends
    within ``link_check_timeout`` seconds, its retry included, so one slow host cannot eat a budget.

    A curator's links are checked by their saving a record and the result is shown to them, so the harvests' site
    option ``allow_private_addresses`` does not open private networks here: only ``link_check_private_addresses``.
    """
    timeout = float(tk.asint(tk.config.get(LINK_CHECK_TIMEOUT)))
    policy = site_check_fetch_policy(link_check_private_addresses(), timeout=timeout)
    return replace(policy, total_timeout=timeout, retries=1)
