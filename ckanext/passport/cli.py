"""``ckan passport …`` commands: thin wrappers over :mod:`ckanext.passport.mr.report` (and, for ``lkod
 registration``, :mod:`ckanext.passport.lkod.registration`; for ``check-index``, :mod:`ckanext.passport.harvest.index_check`).

The fetch limits come from the site's options (:mod:`ckanext.passport.settings`), as for a harvest; the
command's own options override them. ``check --format json`` prints the document the portal's site check shows
(:func:`ckanext.passport.conformance.site_check.report.site_document`): one check, one report shape.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Optional

import click

from . import settings
from .conformance.site_check.report import site_document
from .mr import report
from .mr.datacheck import DEFAULT_HEAD_BYTES
from .mr.model import Severity, Translate
from .mr.problems import N_
from .mr.translation import LANGUAGES, translator

# The language of a report: its findings and its frame; codes, URLs and field names stay as they are.
LANG_OPTION = click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True,
                           help="Language of the report.")


@click.group()
def passport() -> None:
    """MR passports: check sites, parse files."""


@passport.command()
@click.argument("url")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--allow-private", is_flag=True,
              help="Also fetch from private and loopback addresses (default: ckanext.passport.allow_private_addresses).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True),
              help="Connect and read timeout of each request, in seconds (default: ckanext.passport.timeout).")
@click.option("--limit", type=click.IntRange(min=0), help="Check at most this many passports.")
@click.option("--no-data", is_flag=True,
              help="Do not compare each passport's newest data file with its structure file.")
@click.option("--head-bytes", type=click.IntRange(min=1), default=DEFAULT_HEAD_BYTES, show_default=True,
              help="Read at most this many bytes of each data file for its header.")
@LANG_OPTION
def check(url: str, output: str, allow_private: bool, timeout: Optional[float], limit: Optional[int],
          no_data: bool, head_bytes: int, lang: str) -> None:
    """Check the MR registry and passports of a site, a registry URL or one passport URL.

    Each passport's newest data file is compared with its structure file (unless --no-data), and the
    corrections that the fixed meta.json, meta.csv and meta.xml would carry are listed.
    Exits with status 1 when any error was found.
    """
    overrides: dict[str, Any] = {}
    if timeout is not None:
        overrides["timeout"] = timeout
    if allow_private:
        overrides["allow_private_addresses"] = True
    policy = settings.site_fetch_policy(**overrides)
    result = report.check_site(url, policy, limit, check_data=not no_data, head_bytes=head_bytes,
                               limits=settings.site_read_limits())
    translate = translator(lang)
    if output == "text":
        rendered = report.render_text(result, translate)
    else:
        rendered = json.dumps(site_document(result, translate), ensure_ascii=False, indent=2)
    click.echo(rendered, nl=output == "json")
    raise SystemExit(1 if result.count(Severity.ERROR) else 0)


@passport.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--form", type=click.Choice(report.PARSE_FORMS), help="Read as this form instead of detecting it.")
@LANG_OPTION
def parse(file: Path, form: Optional[str], lang: str) -> None:
    """Parse a local registry or passport file and print what was read as JSON.

    Exits with status 1 when nothing could be read.
    """
    kind, result = report.parse_file(file, form)
    click.echo(report.parse_json(file, kind, result, translator(lang)))
    raise SystemExit(0 if result.value is not None else 1)


@passport.group("lkod")
def lkod_group() -> None:
    """The portal as a Czech local open-data catalog (LKOD)."""


@lkod_group.command("registration")
@click.option("--organization", "organization_name", metavar="NAME",
              help="The catalog of this organization (by name), which needs its IČO, instead of the portal's.")
def registration(organization_name: Optional[str]) -> None:
    """Print the JSON-LD document that registers this portal's catalog (or one organization's) in NKOD.

    Exits with status 1, printing what to set, when the catalog's options are incomplete.
    """
    from .lkod import catalog_stream, iris, organizations
    from .lkod.registration import missing, registration_document

    catalog = settings.lkod_catalog()
    if organization_name is not None:
        found = organizations.shown(organization_name)
        if found is None or found["name"] != organization_name:
            raise click.ClickException(f"No organization is called {organization_name!r}.")
        reason = organizations.ico_problem(found)
        if reason is not None:
            raise click.ClickException(f"The organization {organization_name!r} has no catalog: {reason.message()}.")
        catalog = organizations.catalog_dict(found)
    options = settings.lkod_options()
    unset = catalog_stream.missing_settings(catalog) + [options[key] for key in missing(catalog)]
    if unset:
        raise click.ClickException("Set " + ", ".join(dict.fromkeys(unset)) + " in the CKAN config first.")
    document = registration_document(catalog, catalog.get("iri") or iris.catalog_iri())
    click.echo(json.dumps(document, ensure_ascii=False, indent=2))


@passport.command("check-index")
@click.option("--source", "source_name", metavar="NAME", help="Only the records of this harvest source (name or id).")
@click.option("--recent", type=click.IntRange(min=1), metavar="MINUTES",
              help="Only the records changed in the last MINUTES, in the database or in the index.")
@click.option("--repair", is_flag=True, help="Index each differing record again from the database, and import "
              "again each harvested entry whose record is gone (or deleted, where its source restores them).")
@LANG_OPTION
def check_index(source_name: Optional[str], recent: Optional[int], repair: bool, lang: str) -> None:
    """Compare every record's database state with its search index document (its metadata_modified), and each
    harvest source's current objects with their records.

    Prints one line per record that differs and a count. Exits with status 1 while records differ unrepaired.
    """
    import datetime

    from .harvest import index_check
    from .harvest.index_commits import INDEX_ERRORS

    translate = translator(lang)
    source_id = _harvest_source_id(source_name, translate) if source_name else None
    since = datetime.datetime.utcnow() - datetime.timedelta(minutes=recent) if recent else None
    try:
        found = index_check.differences(source_id=source_id, since=since)
        failed = index_check.repair(found) if repair else found
    except INDEX_ERRORS as error:
        raise click.ClickException(translate(N_("The search index could not be read: {error}")).format(
            error=type(error).__name__)) from None
    for difference in found:
        click.echo(translate(N_("{name} ({id}): {kind}; database {database}, index {index}")).format(
            name=difference.name or "-", id=difference.package_id, kind=translate(index_check.KINDS[difference.kind]),
            database=_moment(difference.database), index=_moment(difference.index)))
    click.echo(translate.ngettext("{count} record differs.", "{count} records differ.", len(found)).format(
        count=len(found)))
    if repair:
        repaired = len(found) - len(failed)
        click.echo(translate.ngettext("{count} record repaired, {failed} could not be.",
                                      "{count} records repaired, {failed} could not be.", repaired).format(
            count=repaired, failed=len(failed)))
    unrepaired = _check_drift(source_id, repair, translate)
    raise SystemExit(1 if failed or unrepaired else 0)


def _check_drift(source_id: Optional[str], repair: bool, translate: Translate) -> int:
    """check-index's second half: one line per harvested entry whose record is gone or deleted and a count (nothing
    when there is none), and with ``repair`` each repairable one imported again; how many repairable ones are left."""
    from ckan import model

    from .harvest import index_check, records

    drifted = records.drift(source_id)
    if not drifted:
        return 0
    for found in drifted:
        source = model.Package.get(found.source_id)
        click.echo(translate(N_("{source}: {guid} ({name}): {kind}")).format(
            source=source.name if source is not None else found.source_id, guid=found.guid,
            name=found.name or found.package_id or "-", kind=translate(index_check.DRIFT_KINDS[found.kind])))
    click.echo(translate.ngettext("{count} harvested entry has no record.", "{count} harvested entries have no record.",
                                  len(drifted)).format(count=len(drifted)))
    repairable = [found for found in drifted if index_check.repairable(found)]
    if not repair:
        return len(repairable)
    failed = index_check.repair_drift(repairable)
    repaired = len(repairable) - len(failed)
    click.echo(translate.ngettext("{count} harvested entry imported again, {failed} could not be.",
                                  "{count} harvested entries imported again, {failed} could not be.", repaired).format(
        count=repaired, failed=len(failed)))
    return len(failed)


@passport.group("publishers")
def publishers_group() -> None:
    """Publishers bound to organizations by their INNs (catalog.people.publishers)."""


@publishers_group.command("check")
@LANG_OPTION
def publishers_check(lang: str) -> None:
    """List the passport sources whose entries are now refused (harvest.inn_protected): identifiers they hold or
    listed in their newest job under an INN another organization holds. One line per source and INN, with the
    count and the holder; exits with status 1 while any is listed.

    Bind each to its publisher: a sysadmin moves the source to the holder organization, lists the holder in the
    source's publisher_organizations, or gives the INN to the right organization.
    """
    from .harvest.publishers import would_refuse

    translate = translator(lang)
    found = would_refuse()
    for refused in found:
        click.echo(translate.ngettext(
            "{source}: {count} identifier under the INN {inn} of {holder}",
            "{source}: {count} identifiers under the INN {inn} of {holder}", refused.count).format(
            source=refused.source, count=refused.count, inn=refused.inn, holder=refused.holder))
    click.echo(translate.ngettext("{count} source would have entries refused.",
                                  "{count} sources would have entries refused.", len({r.source for r in found})
                                  ).format(count=len({r.source for r in found})))
    raise SystemExit(1 if found else 0)


@passport.group("scoreboard")
def scoreboard_group() -> None:
    """The publishers' scoreboard (passport_scoreboard)."""


@scoreboard_group.command("summarize")
@click.option("--limit", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Summarize at most this many jobs, oldest first.")
@LANG_OPTION
def summarize(limit: int, lang: str) -> None:
    """Summarize the finished jobs of passport sources that have no summary yet (jobs finished before the
    scoreboard existed, or whose summary failed): the scoreboard reads only summaries.

    Run it again until it summarizes none; a job that cannot be summarized is reported and skipped.
    """
    from .conformance.scoreboard import summary

    translate = translator(lang)
    done = failed = 0
    for job_id in summary.unsummarized(limit):
        try:
            summary.summarize(job_id)
            done += 1
        except Exception as error:  # one job's failure (logged by its reader) leaves the others to do
            from ckan import model

            model.Session.rollback()
            failed += 1
            click.echo(translate(N_("Job {id} could not be summarized: {error}")).format(
                id=job_id, error=type(error).__name__), err=True)
    click.echo(translate.ngettext("{count} job summarized.", "{count} jobs summarized.", done).format(count=done))
    raise SystemExit(1 if failed else 0)


def _harvest_source_id(name: str, translate: Translate) -> str:
    from ckanext.harvest.model import HarvestSource
    from ckan import model

    found = model.Session.query(model.Package.id).filter(
        model.Package.type == "harvest", model.Package.state != "deleted",
        (model.Package.name == name) | (model.Package.id == name)).first()
    if found is None or HarvestSource.get(found.id) is None:
        raise click.ClickException(translate(N_("There is no harvest source {name}.")).format(name=name))
    return found.id


def _moment(value: Optional[Any]) -> str:
    return value.isoformat(timespec="milliseconds") if value is not None else "-"


def command_tree(loaded: Callable[[str], bool]) -> click.Group:
    """``ckan passport`` whole, built here only: the commands above, the catalog's ``vocab``, and the commands of
    the optional plugins ``loaded`` names (passport_conformance's ``notices``, passport_lkod's ``lkod check-links``).
    The base plugin hands it to CKAN."""
    from .catalog.vocabularies.cli import vocab_group
    from .conformance.notices.cli import notices_group
    from .lkod.links.cli import check_links

    passport.add_command(vocab_group)
    for group, command, plugin in ((passport, notices_group, "passport_conformance"),
                                   (lkod_group, check_links, "passport_lkod")):
        if loaded(plugin):
            group.add_command(command)
        else:
            group.commands.pop(command.name, None)
    return passport
