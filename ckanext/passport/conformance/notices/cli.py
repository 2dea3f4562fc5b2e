"""``ckan passport notices digest``: the weekly digest of each organization's notified sources (cron, weekly)."""
from __future__ import annotations

import click

from ckanext.passport import settings
from ckanext.passport.mr.problems import N_
from ckanext.passport.mr.translation import translator


@click.group("notices")
def notices_group() -> None:
    """Conformance mails to organization admins and publishers (docs/scoreboard.md, "Mail")."""


@notices_group.command("digest")
def digest() -> None:
    """Mail each organization's admins the week of its notified passport sources (run once a week).

    Sends nothing while smtp.server is unset; an organization mailed in the last six days is not mailed again.
    """
    from .digest import send_digests

    translate = translator(settings.locale_default())
    if not settings.smtp_server():
        click.echo(translate(N_("smtp.server is not set: no mail sent.")))
        return
    sent = send_digests()
    click.echo(translate.ngettext("{count} digest sent.", "{count} digests sent.", sent).format(count=sent))
