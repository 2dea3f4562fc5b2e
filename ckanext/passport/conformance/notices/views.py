"""``/passport/notices/unsubscribe/<token>``: the page every conformance mail links to stop them.

Public (a publisher's contact has no account): GET shows the address and a button, POST (with CKAN's CSRF token)
records the opt-out and confirms it. GET changes nothing, so a mail scanner following the link unsubscribes
nobody. A token this site did not sign is a 404.
"""
from __future__ import annotations

from typing import Any

import ckan.plugins.toolkit as tk
from flask import Blueprint, current_app

from .model import opt_out, opted_out
from .tokens import address

blueprint = Blueprint("passport_notices", __name__)
TEMPLATE = "passport_notices/unsubscribe.html"


def _address_or_404(token: str) -> str:
    found = address(token)
    if found is None:
        return tk.abort(404, tk._("This unsubscribe link is not valid."))
    return found


@blueprint.route("/passport/notices/unsubscribe/<token>", methods=["GET"])
def unsubscribe_form(token: str) -> Any:
    found = _address_or_404(token)
    return tk.render(TEMPLATE, {"address": found, "token": token, "done": opted_out(found)})


@blueprint.route("/passport/notices/unsubscribe/<token>", methods=["POST"])
def unsubscribe(token: str) -> Any:
    # CKAN 2.11 checks CSRF only for sessions it knows (see catalog.workflow.views._require_csrf), and the contact who
    # unsubscribes has none: a page elsewhere must not post it for them. 400 without the form's token.
    current_app.extensions["csrf"].protect()
    found = _address_or_404(token)
    opt_out(found)
    return tk.render(TEMPLATE, {"address": found, "token": token, "done": True})


def blueprints() -> list[Blueprint]:
    return [blueprint]
