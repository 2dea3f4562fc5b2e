"""The codes the harvest adds to the MR library's (``mr.problems``): a source's config refused, and what a job
refused to do. Defined in the same catalogue, so one list holds every code a harvest can write; pure, like
``mr/``, so the catalogue can be read without CKAN.
"""
from __future__ import annotations

from ckanext.passport.mr.model import Severity
from ckanext.passport.mr.problems import N_, Nn_, define

# A source's config (shown on the source form, in the reader's language).
CONFIG_INVALID = define(
    "config.invalid", Severity.ERROR, N_("Invalid configuration: {errors}"),
    meaning=N_("The source's configuration is invalid"),
)
# What is invalid about it: each the ``errors`` of one config.invalid finding.
REASON_NOT_JSON = define(
    "config.reason_not_json", Severity.INFO, N_("it is not valid JSON (line {row}, column {column})"),
    meaning=N_("The configuration is not valid JSON"),
)
REASON_NOT_OBJECT = define("config.reason_not_object", Severity.INFO, N_("it must be a JSON object"))
REASON_UNKNOWN_OPTION = define(
    "config.reason_unknown_option", Severity.INFO, N_("unknown option '{option}'"),
    meaning=N_("The configuration names an option the source type does not have"),
)
REASON_ORGANIZATION_OR_CREATE = define(
    "config.reason_organization_or_create", Severity.INFO,
    N_("use either 'organization' or 'create_organizations', not both"),
)
REASON_NOT_ONE_OF = define(
    "config.reason_not_one_of", Severity.INFO, N_("'{option}' must be one of: {choices}"),
    meaning=N_("An option has a value outside its allowed choices"),
)
REASON_WRONG_TYPE = define(
    "config.reason_wrong_type", Severity.INFO, N_("'{option}' must be a JSON {kind}"),
    meaning=N_("An option has a value of the wrong JSON type"),
)
REASON_TOO_SMALL = define(
    "config.reason_too_small", Severity.INFO, N_("'{option}' must be at least {limit}"),
    meaning=N_("An option's value is below its lowest allowed value"),
)
REASON_NOT_ABOVE = define(
    "config.reason_not_above", Severity.INFO, N_("'{option}' must be greater than {limit}"),
    meaning=N_("An option's value is not above its lower bound"),
)
REASON_TOO_LARGE = define(
    "config.reason_too_large", Severity.INFO, N_("'{option}' must be at most {limit}"),
    meaning=N_("An option's value is above its highest allowed value"),
)
REASON_NOT_HTTP = define(
    "config.reason_not_http", Severity.INFO, N_("'{option}' must be an http:// or https:// address"),
    meaning=N_("An option that takes a web address has another value"),
)
REASON_NOT_ALLOWED = define(
    "config.reason_not_allowed", Severity.INFO,
    N_("'{option}' has a value that is not allowed (see the harvest source configuration page)"),
    meaning=N_("An option has a value that is not allowed"),
)
REASON_UNKNOWN_ENCODING = define(
    "config.reason_unknown_encoding", Severity.INFO, N_("unknown text encoding '{encoding}'"),
    meaning=N_("The configuration names an unknown text encoding"),
)
USER_SYSADMIN_ONLY = define(
    "config.user_sysadmin_only", Severity.ERROR,
    N_("Only a sysadmin may choose the user that harvests run as (option 'user')."),
)
CREATE_ORGANIZATIONS_SYSADMIN_ONLY = define(
    "config.create_organizations_sysadmin_only", Severity.ERROR,
    N_("Only a sysadmin may let a source create organizations (option 'create_organizations')."),
)
PRIVATE_ADDRESSES_SYSADMIN_ONLY = define(
    "config.private_addresses_sysadmin_only", Severity.ERROR,
    N_("Only a sysadmin may allow harvesting private addresses."),
)
EDITORIAL_STATE_NOT_ALLOWED = define(
    "config.editorial_state_not_allowed", Severity.ERROR,
    N_("The site does not let new records start as '{state}' (ckanext.passport.initial_states)."),
    meaning=N_("The site does not let new records start in the chosen editorial state"),
)
EDITORIAL_STATE_SYSADMIN_ONLY = define(
    "config.editorial_state_sysadmin_only", Severity.ERROR,
    N_("Only a sysadmin may let harvested records start as '{state}' (option 'default_editorial_state')."),
    meaning=N_("Only a sysadmin may let harvested records start in the chosen editorial state"),
)
ABOVE_SITE_LIMIT = define(
    "config.above_site_limit", Severity.ERROR,
    N_("'{option}' may be at most {limit} (the site's setting {setting})."),
    meaning=N_("An option's value is above the limit the site sets"),
)
ORGANIZATION_UNKNOWN = define(
    "config.organization_unknown", Severity.ERROR, N_("There is no organization '{organization}'."),
    meaning=N_("The configuration names an organization the portal does not have"),
)
ORGANIZATION_NOT_ALLOWED = define(
    "config.organization_not_allowed", Severity.ERROR,
    N_("You may not create datasets in the organization '{organization}', so a source may not harvest "
       "into it on your behalf."),
    meaning=N_("The user may not create datasets in the organization the source names"),
)
# The mails a source makes the portal send to outsiders (conformance.notices): the portal's to decide.
NOTIFY_PUBLISHER_SYSADMIN_ONLY = define(
    "config.notify_publisher_sysadmin_only", Severity.ERROR,
    N_("Only a sysadmin may let a source mail the publishers of its passports (option 'notify_publisher')."),
)
NOTIFY_SCORE_DROP_SYSADMIN_ONLY = define(
    "config.notify_score_drop_sysadmin_only", Severity.ERROR,
    N_("Only a sysadmin may set 'notify_score_drop' below the site's {limit} points "
       "(ckanext.passport.notify_score_drop)."),
    meaning=N_("Only a sysadmin may set a score drop alert below the site's setting"),
)
# A source keeps what a sysadmin set only where it points: moving it is a sysadmin's too.
RETARGET_SYSADMIN_ONLY = define(
    "config.retarget_sysadmin_only", Severity.ERROR,
    N_("Only a sysadmin may change the address, type or organization of this source: its configuration holds "
       "options only a sysadmin may set ({options})."),
    meaning=N_("Only a sysadmin may change the address, type or organization of a source with "
               "sysadmin-only options"),
)

# A job's refusals (gather and import errors).
REGISTRY_EMPTY = define(
    "harvest.registry_empty", Severity.ERROR,
    Nn_("The registry lists no datasets now (it listed {largest} dataset); nothing was deleted",
        "The registry lists no datasets now (it listed {largest} datasets); nothing was deleted", count="largest"),
    meaning=N_("The registry listed no datasets, so nothing was deleted"),
)
REGISTRY_INCOMPLETE = define(
    "harvest.registry_incomplete", Severity.ERROR,
    Nn_("The registry was not read whole ({codes}), so the {gone} dataset missing from it was not deleted",
        "The registry was not read whole ({codes}), so the {gone} datasets missing from it were not deleted",
        count="gone"),
    meaning=N_("The registry was not read whole, so datasets missing from it were not deleted"),
)
MASS_DELETION = define(
    "harvest.mass_deletion", Severity.ERROR,
    Nn_("{gone} dataset is gone from the registry, which lists {kept} now and up to {largest} in recent "
        "harvests: more than max_delete_ratio={max_ratio}; nothing was deleted",
        "{gone} datasets are gone from the registry, which lists {kept} now and up to {largest} in recent "
        "harvests: more than max_delete_ratio={max_ratio}; nothing was deleted", count="gone"),
    meaning=N_("More datasets were gone from the registry than the source lets a harvest delete, so "
               "nothing was deleted"),
)
IDENTIFIER_TAKEN = define(
    "harvest.identifier_taken", Severity.ERROR,
    N_("The identifier {identifier} belongs to the record {name} ({title}) of {holder}; this entry was not "
       "imported and that record was left as it is"),
    meaning=N_("The entry's identifier belongs to another record, so the entry was not imported"),
)
# Who holds the record: each the ``holder`` of one harvest.identifier_taken finding.
HOLDER_SOURCE = define(
    "harvest.holder_source", Severity.INFO, N_("the harvest source {source}"),
    meaning=N_("Another harvest source holds the record"),
)
HOLDER_PORTAL = define("harvest.holder_portal", Severity.INFO, N_("the portal (a record not harvested)"))
INVALID_DATASET = define(
    "harvest.invalid_dataset", Severity.ERROR, N_("The dataset was refused by validation: {details}"),
    meaning=N_("The dataset was refused by validation"),
)
# What nobody foresaw (stage_guard): the exception's class only, its traceback is in the portal's log.
UNEXPECTED = define(
    "harvest.unexpected", Severity.ERROR,
    N_("An unexpected failure ({error}) stopped the harvest of this entry; it was not imported (the portal's log "
       "has the details)"),
    meaning=N_("An unexpected failure stopped the harvest of an entry, which was not imported"),
)
GATHER_UNEXPECTED = define(
    "harvest.gather_unexpected", Severity.ERROR,
    N_("An unexpected failure ({error}) stopped reading the registry; nothing was gathered or deleted (the "
       "portal's log has the details)"),
    meaning=N_("An unexpected failure stopped reading the registry; nothing was gathered or deleted"),
)
REGISTRY_UNEXPECTED = define(
    "harvest.registry_unexpected", Severity.ERROR,
    N_("Reading the registry stopped at an unexpected failure ({error}): the entries before it were gathered, "
       "and nothing was deleted"),
    meaning=N_("Reading the registry stopped at an unexpected failure, and nothing was deleted"),
)

# The two stores a record lives in, the database and the search index (index_commits, index_check), and the
# objects a dead consumer or connection left mid-stage (recovery).
INDEX_FAILED = define(
    "harvest.index_failed", Severity.ERROR,
    N_("The record was saved, but the search index did not take it ({error}): search, the source page, /opendata/ "
       "and the LKOD catalog show its previous state until the next harvest of this source indexes it again"),
    meaning=N_("A record was saved, but the search index did not take it"),
)
INDEX_CHECK_FAILED = define(
    "harvest.index_check_failed", Severity.ERROR,
    N_("The search index could not be compared with the database before this harvest ({error}); records it "
       "holds out of date stay so until a later harvest or `ckan passport check-index --repair`"),
    meaning=N_("The search index could not be compared with the database before a harvest"),
)
INDEX_REPAIR_REFUSED = define(
    "harvest.index_repair_refused", Severity.ERROR,
    N_("The search index refused again the records it holds out of date or lacks ({names}); search shows them as "
       "they were until it takes them (the portal's log has the details)"),
    meaning=N_("The search index refused again records it holds out of date or lacks"),
)
OBJECT_STALLED = define(
    "harvest.object_stalled", Severity.ERROR,
    Nn_("The harvest of this entry did not finish within {seconds} second (its consumer or its database "
        "connection died midway); what it had not saved was dropped, and the next harvest reads the entry again",
        "The harvest of this entry did not finish within {seconds} seconds (its consumer or its database "
        "connection died midway); what it had not saved was dropped, and the next harvest reads the entry again",
        count="seconds"),
    meaning=N_("The harvest of an entry did not finish in time and is read again by the next harvest"),
)
# A job ckanext-harvest's ``ckan.harvest.timeout`` ended (recovery): no object finished for that long.
JOB_TIMEOUT = define(
    "harvest.job_timeout", Severity.ERROR,
    Nn_("The harvest job made no progress for more than {minutes} minute (its last action was at {last_action}) "
        "and was ended as failed (ckan.harvest.timeout); its harvest consumers may have stopped",
        "The harvest job made no progress for more than {minutes} minutes (its last action was at {last_action}) "
        "and was ended as failed (ckan.harvest.timeout); its harvest consumers may have stopped",
        count="minutes"),
    meaning=N_("A harvest job made no progress for too long and was ended as failed"),
)
# A source's health (conformance/scoreboard/health.py, for sysadmins): a job that is not ended yet, a harvest late.
SOURCE_STALLED = define(
    "harvest.source_stalled", Severity.ERROR,
    Nn_("The source's harvest job has made no progress for more than {minutes} minute (its last action was at "
        "{last_action}); check that `ckan harvester run` runs from cron and that the harvest consumers are up",
        "The source's harvest job has made no progress for more than {minutes} minutes (its last action was at "
        "{last_action}); check that `ckan harvester run` runs from cron and that the harvest consumers are up",
        count="minutes"),
    meaning=N_("The source's harvest job has made no progress for too long"),
)
SOURCE_OVERDUE = define(
    "harvest.source_overdue", Severity.WARNING,
    Nn_("The source is to be harvested every {days} day, but no harvest of it has finished since {last}",
        "The source is to be harvested every {days} days, but no harvest of it has finished since {last}",
        count="days"),
    meaning=N_("No harvest of the source has finished as often as its schedule asks"),
)

# An error of an object's import stage means nothing of the entry was written, save these (the record was kept).
RECORD_KEPT = frozenset({INDEX_FAILED})

# An ``lkod`` source (another Czech catalog, DCAT-AP-CZ documents): its catalog document and its dataset documents.
LKOD_NOT_RDF = define(
    "harvest.lkod_not_rdf", Severity.ERROR,
    N_("The document is neither JSON-LD nor Turtle that can be read: {detail}"),
    meaning=N_("The catalog document is neither JSON-LD nor Turtle that can be read"),
)
# One text whatever the context named: a refusal that told a closed port from a readable file would be a scanner.
LKOD_REMOTE_CONTEXT = define(
    "harvest.lkod_remote_context", Severity.ERROR,
    N_("The document refers to a JSON-LD context other than the DCAT-AP-CZ one; such contexts are never "
       "fetched, so the document was not read"),
)
LKOD_TOO_DEEP = define(
    "harvest.lkod_too_deep", Severity.ERROR,
    Nn_("The document nests arrays and objects more than {limit} level deep; it was not read",
        "The document nests arrays and objects more than {limit} levels deep; it was not read", count="limit"),
    meaning=N_("The catalog document nests arrays and objects too deep to be read"),
)
LKOD_UNREADABLE = define(
    "harvest.lkod_unreadable", Severity.ERROR, N_("The document could not be read ({error})"),
    meaning=N_("The catalog document could not be read"),
)
LKOD_NO_CATALOG = define(
    "harvest.lkod_no_catalog", Severity.ERROR,
    N_("The document describes no catalog (dcat:Catalog) with the IRI {iri}, nor exactly one other catalog"),
    meaning=N_("The document describes no catalog at its address"),
)
# A catalog document whose catalog has another IRI than its address (copied from another publisher's template).
LKOD_CATALOG_ELSEWHERE = define(
    "harvest.lkod_catalog_elsewhere", Severity.WARNING,
    N_("The catalog document describes the catalog {iri}, not its own address; its datasets were read all the same"),
    meaning=N_("The catalog document describes a catalog at another address"),
)
LKOD_DATASET_NOT_IRI = define(
    "harvest.lkod_dataset_not_iri", Severity.ERROR,
    N_("The catalog lists a dataset that is not an IRI ({value}); it was skipped"),
    meaning=N_("The catalog lists a dataset that is not an IRI, which was skipped"),
)
LKOD_NO_DATASET = define(
    "harvest.lkod_no_dataset", Severity.ERROR,
    N_("The document describes no dataset (dcat:Dataset) with the IRI {iri}"),
    meaning=N_("The dataset's document describes no dataset at its IRI"),
)
LKOD_SERIES = define(
    "harvest.lkod_series", Severity.ERROR,
    N_("{iri} is a dataset series (dcat:DatasetSeries): the portal keeps datasets, so it was not imported; the "
       "datasets of the series are harvested when the catalog lists them"),
    meaning=N_("A dataset series was not imported; its datasets are harvested when the catalog lists them"),
)
LKOD_UNREADABLE_DATASET = define(
    "harvest.lkod_unreadable_dataset", Severity.ERROR,
    N_("The dataset {iri} could not be read as DCAT-AP-CZ: {detail}"),
    meaning=N_("A dataset could not be read as DCAT-AP-CZ"),
)
LKOD_IRI_TAKEN = define(
    "harvest.lkod_iri_taken", Severity.ERROR,
    N_("The dataset IRI {iri} belongs to the record {name} ({title}) of another source; this dataset was not "
       "imported and that record was left as it is"),
    meaning=N_("The dataset's IRI belongs to another source's record, so it was not imported"),
)

# Publishers are who a sysadmin says they are (catalog.publishers): options that harvest past the source's
# organization or its catalog's host, and the entries refused under another organization's INN or on another host.
PUBLISHER_ORGANIZATIONS_SYSADMIN_ONLY = define(
    "config.publisher_organizations_sysadmin_only", Severity.ERROR,
    N_("Only a sysadmin may let a source harvest for other organizations (option 'publisher_organizations')."),
)
IRI_HOSTS_SYSADMIN_ONLY = define(
    "config.iri_hosts_sysadmin_only", Severity.ERROR,
    N_("Only a sysadmin may let a source take dataset IRIs on other hosts (option 'iri_hosts')."),
)
INN_PROTECTED = define(
    "harvest.inn_protected", Severity.ERROR,
    N_("The identifier {identifier} is under the INN {inn} of the organization {organization}: only that "
       "organization's sources, or a source a sysadmin lets harvest for it, may import it; this entry was not "
       "imported"),
    meaning=N_("The entry's identifier is under another organization's INN, so it was not imported"),
)
LKOD_IRI_FOREIGN_HOST = define(
    "harvest.lkod_iri_foreign_host", Severity.ERROR,
    N_("The dataset IRI {iri} is on the host {host}, not on the catalog's host {catalog_host} or a host a sysadmin "
       "listed for this source (option 'iri_hosts'); this dataset was not imported"),
    meaning=N_("The dataset's IRI is on a host the source may not harvest, so it was not imported"),
)

# A source's current objects compared with their records (records.drift): a record deleted in the portal, by
# someone other than the harvest, stays deleted unless the source restores such records.
RECORD_DELETED_IN_PORTAL = define(
    "harvest.record_deleted_in_portal", Severity.WARNING,
    N_("The source still lists this entry, but its record {name} ({title}) was deleted in the portal by {deleter} "
       "({deleted}); it stays deleted (the source option 'restore_deleted' brings such records back)"),
    meaning=N_("The source still lists an entry whose record was deleted in the portal; it stays deleted"),
)
# Who deleted it and when, where the portal keeps no activity: each the ``deleter`` or ``deleted`` of one finding.
DELETER_UNKNOWN = define("harvest.deleter_unknown", Severity.INFO, N_("an unknown user"))
DELETED_UNKNOWN = define("harvest.deleted_unknown", Severity.INFO, N_("time unknown"))
