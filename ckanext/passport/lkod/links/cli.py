"""``ckan passport lkod check-links``: check the links of every published public record now (or one organization's),
keep the results as the job does, and print them as a table."""
from __future__ import annotations

from typing import Any, Iterator, Optional

import click
import ckan.model as model
import ckan.plugins.toolkit as tk

from ckanext.passport.catalog.workflow import states
from ckanext.passport.mr.model import Translate
from ckanext.passport.mr.problems import N_, stored_problem
from ckanext.passport.mr.translation import LANGUAGES, translator
from ckanext.passport.publish import search

from . import job
from .probe import BROKEN

COLUMNS = (N_("record"), N_("field"), N_("status"), N_("HTTP"), N_("URL"), N_("finding"))


def published_records(organization_id: Optional[str]) -> Iterator[dict[str, Any]]:
    """Every published record the anonymous visitor may see (those a publication queues a check for), by name."""
    owner = f" +owner_org:{search.solr_literal(organization_id)}" if organization_id else ""

    def find(fq: str = "", **params: Any) -> dict[str, Any]:
        params["fq"] = (f"+dataset_type:{search.PUBLISHED_TYPE} +{states.FIELD}:{states.PUBLISHED}{owner} "
                        f"{fq}").strip()
        return tk.get_action("package_search")(search.anonymous_context(), params)

    return search.paged(find, fl=["id", "name"])


def _organization_id(name: str, translate: Translate) -> str:
    group = model.Group.get(name)
    if group is None or not group.is_organization or group.state != "active":
        raise click.ClickException(translate(N_("There is no organization {name}.")).format(name=name))
    return group.id


def _row(name: str, link: Any, translate: Translate) -> list[str]:
    stored = link.stored_finding()
    return [name, link.field, link.status, str(link.http_status or ""), link.url,
            stored_problem(stored).message(translate) if stored else ""]


@click.command("check-links")
@click.option("--organization", metavar="NAME", help="Only the records of this organization (name or id).")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True, help="Language of the table.")
def check_links(organization: Optional[str], lang: str) -> None:
    """Check every link (distributions, schemas, documentation, terms of use) of the published public records now.

    Keeps each record's results as the background job does and prints one row per link. Exits with status 1
    when a link is broken.
    """
    translate = translator(lang)
    organization_id = _organization_id(organization, translate) if organization else None
    rows, records, broken = [], 0, 0
    for found in published_records(organization_id):
        checked = job.check(found["id"]) or []
        records += 1
        broken += sum(1 for link in checked if link.status == BROKEN)
        rows += [_row(found["name"], link, translate) for link in checked]
    header = [translate(column) for column in COLUMNS]
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    for line in [header, *rows]:
        click.echo("  ".join(str(cell).ljust(width) for cell, width in zip(line, widths)).rstrip())
    click.echo(translate.ngettext("{count} record checked.", "{count} records checked.", records).format(
        count=records))
    click.echo(translate.ngettext("{count} link checked, {broken} broken.", "{count} links checked, {broken} broken.",
                                  len(rows)).format(count=len(rows), broken=broken))
    raise SystemExit(1 if broken else 0)
