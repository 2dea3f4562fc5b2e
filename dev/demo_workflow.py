"""The demo's editorial workflow, with people to show it: the editors organization the config names
(``ckanext.passport.editors_organization``), an editor in it, a curator of the demo's organizations, and a harvested
record left waiting in the review queue.

``dev/demo.sh`` runs it after its first harvest (``python dev/demo_workflow.py``, ``CKAN_INI`` naming the demo's
config) and prints the logins. Every step is idempotent and goes through the actions (CKAN's, and the extension's
workflow transition for the reviews): the demo source harvests its records as ``submitted`` (its
``default_editorial_state``), the curator fills in what a passport cannot carry (EUROVOC, the provider's e-mail,
the openness conditions), and the editor publishes all of them but one, which stays in the queue.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import ckan.plugins.toolkit as tk

from ckanext.passport import settings
from ckanext.passport.catalog.workflow import states


@dataclass(frozen=True)
class Person:
    name: str
    password: str
    fullname: str


# The Czech publishers' organizations (each with its IČO, so each has its own LKOD catalog), as dev/demo.sh creates
# them with the Czech records of dev/demo-records.jsonl in them.
DEMO_ORGANIZATIONS = Path(__file__).resolve().parent / "demo-organizations.jsonl"
CZECH_PUBLISHERS = tuple(
    json.loads(line)["name"] for line in DEMO_ORGANIZATIONS.read_text(encoding="utf-8").splitlines() if line.strip()
)
# The demo's organizations, created by dev/demo.sh: the harvested MR site's and the Czech publishers'.
CURATED = ("demo-mr-site", *CZECH_PUBLISHERS)
CURATOR = Person("kurator", os.environ.get("DEMO_CURATOR_PASSWORD", "demo-curator-password"), "Demo curator")
EDITOR = Person("redaktor", os.environ.get("DEMO_EDITOR_PASSWORD", "demo-editor-password"), "Demo editor")


# The curator's part of each harvested demo record (what a passport cannot carry), by its MR identifier: a EUROVOC
# domain, the provider's e-mail, and the openness conditions as the demo site's CSV files meet them.
EUROVOC_DOMAINS = {
    "7708234640-okvedva": "http://eurovoc.europa.eu/100146",  # 16 ECONOMICS
    "7703092752-terorg": "http://eurovoc.europa.eu/100161",  # 72 GEOGRAPHY
    "2618017120-politicaldivisions": "http://eurovoc.europa.eu/100142",  # 04 POLITICS
    "7701234560-schools": "http://eurovoc.europa.eu/100150",  # 32 EDUCATION AND COMMUNICATIONS
    "7709876545-pharmacies": "http://eurovoc.europa.eu/100149",  # 28 SOCIAL QUESTIONS
    "5027123457-bustops": "http://eurovoc.europa.eu/100154",  # 48 TRANSPORT
}
OTHER_DOMAIN = "http://eurovoc.europa.eu/100142"
PROVIDER_EMAIL = "opendata@example.org"
OPENNESS = {"complete": "yes", "accessible": "yes", "machine_readable": "yes", "open_format": "yes",
            "open_terms": "yes", "free": "yes"}


def _site() -> dict[str, Any]:
    user = tk.get_action("get_site_user")({"ignore_auth": True}, {})
    return {"user": user["name"], "ignore_auth": True}


def ensure_user(person: Person) -> None:
    """The person's account, created once; a later run leaves it (and its password) as it is."""
    try:
        tk.get_action("user_show")(_site(), {"id": person.name})
    except tk.ObjectNotFound:
        tk.get_action("user_create")(_site(), {
            "name": person.name, "password": person.password, "fullname": person.fullname,
            "email": f"{person.name}@example.org",
        })


def ensure_organization(name: str, title: str) -> None:
    try:
        tk.get_action("organization_show")(_site(), {"id": name})
    except tk.ObjectNotFound:
        tk.get_action("organization_create")(_site(), {"name": name, "title": title})


def ensure_member(organization: str, person: Person, role: str) -> None:
    # organization_member_create keeps one membership per user: a second run changes nothing.
    tk.get_action("organization_member_create")(_site(), {"id": organization, "username": person.name, "role": role})


def awaiting_review(organization: str, person: Person) -> list[dict[str, Any]]:
    """The records of ``organization`` awaiting review, by name, as ``person`` finds them."""
    return tk.get_action("package_search")({"user": person.name}, {
        "fq": f"+{states.FIELD}:{states.SUBMITTED} +organization:{organization}",
        "include_private": True, "sort": "name asc", "rows": 1000,
    })["results"]


def complete(record: dict[str, Any], curator: Person) -> None:
    """As the curator, fill in the curator's part the record still lacks (never what someone filled in)."""
    missing: dict[str, Any] = {}
    if not record.get("eurovoc"):
        missing["eurovoc"] = [{"uri": EUROVOC_DOMAINS.get(record["name"], OTHER_DOMAIN)}]
    if not record.get("publisher_email"):
        missing["publisher_email"] = PROVIDER_EMAIL
    if not record.get("openness_conditions"):
        missing["openness_conditions"] = OPENNESS
    if missing:
        tk.get_action("package_patch")({"user": curator.name}, {"id": record["id"], **missing})


def leave_one_waiting(organization: str, curator: Person, editor: Person) -> Optional[str]:
    """The curator completes every record of ``organization`` awaiting review, and the editor publishes them but the
    first by name; that one's name (``None`` when none awaits: a later run, after someone reviewed it, does nothing)."""
    waiting = awaiting_review(organization, curator)
    for record in waiting:
        complete(record, curator)
    for record in waiting[1:]:
        tk.get_action("passport_workflow_transition")(
            {"user": editor.name}, {"id": record["id"], "to": states.PUBLISHED}
        )
    return waiting[0]["name"] if waiting else None


def set_up(editors: Optional[str] = None) -> Optional[str]:
    """The editors organization, the editor and the curator; one harvested record left waiting, by name."""
    editors = editors or settings.editors_organization()
    if not editors:
        raise SystemExit("Set ckanext.passport.editors_organization in the demo's config first.")
    ensure_organization(editors, "Demo editors")
    for person in (CURATOR, EDITOR):
        ensure_user(person)
    ensure_member(editors, EDITOR, "member")
    for organization in CURATED:
        ensure_member(organization, CURATOR, "editor")
    return leave_one_waiting(CURATED[0], CURATOR, EDITOR)


def main() -> None:
    from ckan.cli import load_config
    from ckan.config.middleware import make_app

    app = make_app(load_config(os.environ.get("CKAN_INI")))
    # Actions that dictize users and build links want a request, as CKAN's own commands give them.
    with app._wsgi_app.test_request_context():
        waiting = set_up()
        editors = settings.editors_organization()
        queue = tk.url_for("passport_workflow.queue", qualified=True)
    print(f"curator login: {CURATOR.name} / {CURATOR.password} (edits the records of {', '.join(CURATED)})")
    print(f"editor login: {EDITOR.name} / {EDITOR.password} (member of {editors})")
    print(f"awaiting review in {queue}: {waiting or 'none'}")


if __name__ == "__main__":
    main()
