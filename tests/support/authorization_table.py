"""Who may do what: every action and page route the extension adds or chains, and what each role gets.

This table is how the project keeps its boundaries. tests/test_every_action_and_route.py asks each case as each
role on the real stack, and fails when an action, a chained auth function or a blueprint route is registered without
a row here (or a row names one that is not registered). A new action or route therefore comes with its row.

Roles (``ROLES``): an anonymous visitor; a signed-in user of no organization; the member, editor and admin of the
organization owning the objects; the editor and admin of another organization; a reviewer (a member of the
editors organization, ``ckanext.passport.editors_organization``); a sysadmin. The workflow's transitions by
state are tests/catalog/test_authorization_matrix.py's, beside this one.

Answers: ``ALLOWED`` (authorization lets the caller through: the action answers, or refuses the deliberately invalid
data some cases send so that nothing changes; a page answers 2xx or 3xx, or 400 for such data), ``REFUSED``
(NotAuthorized, 403), ``NOT_FOUND`` (ObjectNotFound, 404: what the caller may not know exists, or what is not
there for anyone) and ``NAMING_NO_USER`` (allowed, and no portal user's login is in the answer).

A case's ``data`` (an action's data dict, a POST route's form) and ``path`` (a route's address) name the objects of
the test's world in braces: ``{published}`` (a record published through the workflow), ``{draft}`` and
``{submitted}`` (complete records of the owning organization in those states), ``{listed}`` (a published record
the LKOD lists) and ``{listed_resource}`` (its distribution), ``{unowned}`` (a record of no
organization, the signed-in user's), ``{harvested}`` (a record of the private source's harvest), ``{public_source}`` and ``{private_source}`` (``passport`` sources of the owning
organization; the private one harvested once), ``{lkod_source}``, ``{job}`` and ``{object}`` (the private source's
job and one of its harvest objects), ``{check}`` (a finished site check) and ``{private_check}`` (one a sysadmin
ran on private addresses), ``{owner_org}`` (the owning organization, with its IČO), ``{public_publisher}`` and
``{private_publisher}`` (scoreboard keys of the public and the private source), ``{token}`` (an unsubscribe link's
token), ``{group}`` (a group the member belongs to), ``{activity}`` (a change of the published record by its curator), ``{member}`` (the member's user name), ``{identifier}`` (the published record's MR identifier) and
``{version_file}`` (one of its version files).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ROLES = ("anonymous", "signed_in", "member", "editor", "admin", "other_editor", "other_admin", "reviewer",
         "sysadmin")

ALLOWED = "allowed"
REFUSED = "refused"
NOT_FOUND = "not found"
# Allowed, and the answer names no user (no login: no member list, no activity's actor).
NAMING_NO_USER = "allowed, naming no user"


def only(*roles: str, otherwise: str = REFUSED) -> dict[str, str]:
    """``roles`` allowed, every other role answered ``otherwise``."""
    unknown = set(roles) - set(ROLES)
    assert not unknown, f"no such role: {unknown}"
    return {role: ALLOWED if role in roles else otherwise for role in ROLES}


def everyone(answer: str) -> dict[str, str]:
    return {role: answer for role in ROLES}


EVERYONE = only(*ROLES)
SIGNED_IN = only(*ROLES[1:])
SYSADMIN = only("sysadmin")
# Everyone reads it; only signed-in users learn who the people in it are.
PEOPLE_SIGNED_IN = {**EVERYONE, "anonymous": NAMING_NO_USER}
# Who may change the owning organization's things (CKAN's package_update: its editors and admins).
CURATORS = ("editor", "admin", "sysadmin")
# Who may see the owning organization's private things (CKAN's package_show: its members of any capacity).
MEMBERS = ("member", "editor", "admin", "sysadmin")
# Who reads an unpublished record of the owning organization: its members and the reviewers.
READERS = (*MEMBERS, "reviewer")
# Who works on a record: its curators and the reviewers.
CURATORS_AND_REVIEWERS = (*CURATORS, "reviewer")
REVIEWERS = ("reviewer", "sysadmin")


@dataclass(frozen=True)
class Case:
    """One question to the stack: ``target`` (an action's name, or a route as ``"METHOD rule"``) about ``what``."""

    target: str
    what: str
    answers: dict[str, str]
    data: dict[str, Any] = field(default_factory=dict)
    path: str = ""

    @property
    def is_route(self) -> bool:
        return " " in self.target


def action(name: str, what: str, answers: dict[str, str], /, **data: Any) -> Case:
    return Case(name, what, answers, data)


def route(target: str, what: str, answers: dict[str, str], path: str, /, **form: Any) -> Case:
    return Case(target, what, answers, form, path)


INVALID_NAME = "Not a valid name!"  # package_update refuses it after authorization: nothing changes
NOT_HTTP = "ftp://example.org/opendata/"  # a site check refuses it after authorization: no check is started

CASES: list[Case] = [
    # --- the catalog record and its workflow (plugin passport) ----------------------------------------------------
    action("package_update", "a record of the organization", only(*CURATORS), id="{draft}", name=INVALID_NAME),
    # With create_unowned_dataset off (test.ini, a portal), CKAN lets no one outside every organization, its creator
    # neither, change a record of no organization, and catalog/workflow/unowned.py refuses every organization's people.
    action("package_update", "a record of no organization", only("sysadmin"), id="{unowned}", name=INVALID_NAME),
    action("passport_workflow_state", "a published record", EVERYONE, id="{published}"),
    action("passport_workflow_state", "a draft", only(*READERS), id="{draft}"),
    action("passport_workflow_history", "a published record", only(*CURATORS_AND_REVIEWERS), id="{published}"),
    # Submitting a published record is no transition: whoever may submit is told so, nothing changes.
    action("passport_workflow_transition", "submitting a record", only(*CURATORS), id="{published}", to="submitted"),
    # Returning without the comment it requires: whoever may return is told so, nothing changes.
    action("passport_workflow_transition", "returning a submitted record", only(*REVIEWERS),
           id="{submitted}", to="returned"),
    action("passport_workflow_queue", "the review queue", only(*REVIEWERS)),
    # Everyone signed in gets their own list: the records they curate that wait for them (none for most).
    action("passport_workflow_my_records", "one's own records waiting", SIGNED_IN),
    # An empty text is refused after authorization: no feedback is stored.
    action("passport_feedback_create", "a published record", EVERYONE, id="{published}", text=""),
    action("passport_feedback_create", "a draft", only(*READERS), id="{draft}", text=""),
    action("passport_feedback_list", "a published record", only(*CURATORS_AND_REVIEWERS), id="{published}"),
    action("passport_openness_check", "a record of the organization", only(*CURATORS), id="{draft}"),
    action("passport_vocab_search", "EUROVOC", EVERYONE, vocabulary="eurovoc", q="obyvatel"),
    # CKAN's user pages and lists, their auth chained: no login is published.
    action("user_show", "a portal user", SIGNED_IN, id="{member}"),
    action("user_list", "the portal's users", SIGNED_IN),
    action("member_list", "the organization's users", SIGNED_IN, id="{owner_org}", object_type="user"),
    action("organization_list_for_user", "another user's organizations", SIGNED_IN, id="{member}"),
    # Organizations and groups are public; their members are not.
    action("organization_show", "the organization with its users", PEOPLE_SIGNED_IN, id="{owner_org}",
           include_users=True),
    action("group_show", "a group with its users", PEOPLE_SIGNED_IN, id="{group}", include_users=True),
    # A dataset's collaborators are its member list: for who would manage them (CKAN's rule: the organization's
    # admins), never a visitor.
    action("package_collaborator_list", "a published record", only("admin", "sysadmin"), id="{published}"),
    # ckanext-activity's streams chained: a visitor reads what changed, never who changed it.
    action("package_activity_list", "a published record", PEOPLE_SIGNED_IN, id="{published}"),
    action("organization_activity_list", "the organization", PEOPLE_SIGNED_IN, id="{owner_org}"),
    action("group_activity_list", "a group", PEOPLE_SIGNED_IN, id="{group}"),
    action("recently_changed_packages_activity_list", "the portal", PEOPLE_SIGNED_IN),
    action("activity_show", "a published record's activity", PEOPLE_SIGNED_IN, id="{activity}"),
    # An activity's data is the record whole as it was then: for who may change it (ckanext-activity's rule).
    action("activity_data_show", "a published record's activity", only(*CURATORS), id="{activity}"),
    route("GET /passport/queue", "the review queue", only(*REVIEWERS), "/passport/queue"),
    route("GET /passport/my-records", "one's own records waiting", SIGNED_IN, "/passport/my-records"),
    route("POST /dataset/<id>/passport/transition", "returning a submitted record", only(*REVIEWERS),
          "/dataset/{submitted}/passport/transition", to="returned"),
    route("POST /dataset/<id>/passport/feedback", "a published record", EVERYONE,
          "/dataset/{published}/passport/feedback", text=""),
    # The feedback form does not tell a record it hides from one that is not there.
    route("POST /dataset/<id>/passport/feedback", "a draft", only(*READERS, otherwise=NOT_FOUND),
          "/dataset/{draft}/passport/feedback", text=""),
    route("POST /dataset/<id>/passport/openness-check", "a record of the organization", only(*CURATORS),
          "/dataset/{draft}/passport/openness-check"),
    route("GET /api/i18n/cs", "the script messages", EVERYONE, "/api/i18n/cs"),
    # --- ckanext-harvest's actions chained (plugin passport_harvester) --------------------------------------------
    action("harvest_source_show_status", "a public source", EVERYONE, id="{public_source}"),
    action("harvest_source_show_status", "a private source", only(*MEMBERS), id="{private_source}"),
    action("harvest_job_show", "a private source's job", only(*CURATORS), id="{job}"),
    action("harvest_job_report", "a private source's job", only(*CURATORS), id="{job}"),
    action("harvest_object_show", "a private source's object", only(*MEMBERS), id="{object}"),
    action("harvest_jobs_run", "the pending jobs", SYSADMIN, source_id="{public_source}"),
    # --- conformance (plugin passport_conformance) ----------------------------------------------------------------
    action("passport_conformance_report", "a public source", EVERYONE, id="{public_source}"),
    action("passport_conformance_report", "a private source", only(*MEMBERS), id="{private_source}"),
    action("passport_conformance_report", "an lkod source", everyone(NOT_FOUND), id="{lkod_source}"),
    action("passport_conformance_history", "a public source", EVERYONE, id="{public_source}"),
    action("passport_conformance_history", "a private source", only(*MEMBERS), id="{private_source}"),
    action("passport_dataset_conformance", "a harvested record", only(*CURATORS_AND_REVIEWERS), id="{harvested}"),
    action("passport_harvest_health", "every source", SYSADMIN),
    action("passport_scoreboard", "every publisher", EVERYONE),
    action("passport_scoreboard_history", "a publisher", EVERYONE, publisher="{public_publisher}"),
    action("passport_site_check", "starting a check", SIGNED_IN, url=NOT_HTTP),
    action("passport_site_check_show", "a check", EVERYONE, id="{check}"),
    action("passport_site_check_show", "a check of private addresses", SYSADMIN, id="{private_check}"),
    action("passport_site_check_list", "one's own checks", EVERYONE),
    route("GET /harvest/<source>/conformance", "a public source", EVERYONE, "/harvest/{public_source}/conformance"),
    route("GET /harvest/<source>/conformance", "a private source", only(*MEMBERS),
          "/harvest/{private_source}/conformance"),
    route("GET /harvest/<source>/conformance", "an lkod source", everyone(NOT_FOUND),
          "/harvest/{lkod_source}/conformance"),
    route("GET /harvest/<source>/conformance.csv", "a private source", only(*MEMBERS),
          "/harvest/{private_source}/conformance.csv"),
    route("GET /harvest/<source>/conformance.json", "a private source", only(*MEMBERS),
          "/harvest/{private_source}/conformance.json"),
    # Whoever may read the source's report, or the record's conformance (its reviewers too).
    route("GET /harvest/<source>/conformance/fixed/<object_id>/<name>", "a private source's passport",
          only(*MEMBERS, "reviewer"), "/harvest/{private_source}/conformance/fixed/{object}/meta.json"),
    route("GET /passport/check", "the form", EVERYONE, "/passport/check"),
    route("POST /passport/check", "starting a check", SIGNED_IN, "/passport/check", url=NOT_HTTP),
    route("GET /passport/check/<id>", "a check", EVERYONE, "/passport/check/{check}"),
    route("GET /passport/check/<id>", "a check of private addresses", SYSADMIN, "/passport/check/{private_check}"),
    route("GET /passport/check/<id>.csv", "a check", EVERYONE, "/passport/check/{check}.csv"),
    route("GET /passport/check/<id>.csv", "a check of private addresses", SYSADMIN,
          "/passport/check/{private_check}.csv"),
    route("GET /passport/check/<id>.json", "a check", EVERYONE, "/passport/check/{check}.json"),
    route("GET /passport/check/<id>.json", "a check of private addresses", SYSADMIN,
          "/passport/check/{private_check}.json"),
    route("GET /passport/check/<id>/fixed/<int:number>/<name>", "a check", EVERYONE,
          "/passport/check/{check}/fixed/1/meta.json"),
    route("GET /passport/check/<id>/fixed/<int:number>/<name>", "a check of private addresses", SYSADMIN,
          "/passport/check/{private_check}/fixed/1/meta.json"),
    route("GET /passport/notices/unsubscribe/<token>", "an address's link", EVERYONE,
          "/passport/notices/unsubscribe/{token}"),
    route("GET /passport/notices/unsubscribe/<token>", "a forged link", everyone(NOT_FOUND),
          "/passport/notices/unsubscribe/forged"),
    route("POST /passport/notices/unsubscribe/<token>", "a forged link", everyone(NOT_FOUND),
          "/passport/notices/unsubscribe/forged"),
    route("GET /passport/scoreboard", "every publisher", EVERYONE, "/passport/scoreboard"),
    route("GET /passport/scoreboard.csv", "every publisher", EVERYONE, "/passport/scoreboard.csv"),
    route("GET /passport/scoreboard.json", "every publisher", EVERYONE, "/passport/scoreboard.json"),
    route("GET /passport/scoreboard/publisher/<key>", "a public source's publisher", EVERYONE,
          "/passport/scoreboard/publisher/{public_publisher}"),
    # The scoreboard counts private sources for sysadmins only: a publisher of none other is nobody else's page.
    route("GET /passport/scoreboard/publisher/<key>", "a private source's publisher", only("sysadmin",
          otherwise=NOT_FOUND), "/passport/scoreboard/publisher/{private_publisher}"),
    route("GET /passport/scoreboard/publisher/<key>/feed.atom", "a public source's publisher", EVERYONE,
          "/passport/scoreboard/publisher/{public_publisher}/feed.atom"),
    route("GET /passport/scoreboard/publisher/<key>/feed.atom", "a private source's publisher",
          only("sysadmin", otherwise=NOT_FOUND), "/passport/scoreboard/publisher/{private_publisher}/feed.atom"),
    route("GET /passport/scoreboard/publisher/<key>/feed.xml", "a public source's publisher", EVERYONE,
          "/passport/scoreboard/publisher/{public_publisher}/feed.xml"),
    # --- the LKOD (plugin passport_lkod) --------------------------------------------------------------------------
    action("passport_link_check_show", "a record of the organization", only(*CURATORS), id="{published}"),
    route("GET /lkod/", "the page for people", EVERYONE, "/lkod/"),
    route("GET /lkod/catalog", "the catalog", EVERYONE, "/lkod/catalog"),
    route("GET /lkod/organization/<name>/catalog", "the organization's catalog", EVERYONE,
          "/lkod/organization/{owner_org}/catalog"),
    route("GET /lkod/dataset/<dataset_id>", "a listed record", EVERYONE, "/lkod/dataset/{listed}"),
    # A record not listed yet: its curators preview it, nobody else learns it exists.
    route("GET /lkod/dataset/<dataset_id>", "a draft", only(*CURATORS, otherwise=NOT_FOUND), "/lkod/dataset/{draft}"),
    route("GET /lkod/dataset/<dataset_id>/<any(distribution, service):part>/<resource_id>",
          "a listed record's distribution", EVERYONE, "/lkod/dataset/{listed}/distribution/{listed_resource}"),
    # --- the MR publication (plugin passport_publish): what an anonymous visitor sees, for everyone -----------------
    route("GET /opendata/", "the registry page", EVERYONE, "/opendata/"),
    route('GET /opendata/<any("list.csv", "list.xml", "list.json", "opendatalist.csv"):form>', "the registry file",
          EVERYONE, "/opendata/list.csv"),
    route("GET /opendata/<identifier>", "a published record", EVERYONE, "/opendata/{identifier}"),
    route("GET /opendata/<identifier>/", "a published record", EVERYONE, "/opendata/{identifier}/"),
    route("GET /opendata/<identifier>/", "a draft", everyone(NOT_FOUND), "/opendata/{draft}/"),
    route('GET /opendata/<identifier>/<any("meta.json", "meta.xml", "meta.csv"):form>', "a published record",
          EVERYONE, "/opendata/{identifier}/meta.json"),
    route('GET /opendata/<identifier>/<any("meta.json", "meta.xml", "meta.csv"):form>', "a draft",
          everyone(NOT_FOUND), "/opendata/{draft}/meta.json"),
    route("GET /opendata/<identifier>/<file_name>", "a published record's version", EVERYONE,
          "/opendata/{identifier}/{version_file}"),
]
