"""The dataset page's button that starts the check."""
from __future__ import annotations

from typing import Any

import ckan.plugins.toolkit as tk
from flask import Blueprint, current_app


blueprint = Blueprint("passport_openness", __name__)


@blueprint.route("/dataset/<id>/passport/openness-check", methods=["POST"])
def start(id: str) -> Any:
    """The dataset page's button: queue the check of every resource, then show the page (the resources pending).
    A sysadmin may tick private addresses, as on the site check's form."""
    # CKAN 2.11 checks CSRF only for sessions it knows (see catalog.workflow.views._require_csrf).
    current_app.extensions["csrf"].protect()
    try:
        tk.get_action("passport_openness_check")(
            {"user": tk.g.user}, {"id": id, "allow_private_addresses": tk.request.form.get("allow_private_addresses")})
    except tk.ObjectNotFound:
        return tk.abort(404, tk._("Dataset not found"))
    except tk.NotAuthorized as error:
        return tk.abort(403, str(error) or tk._("Not authorized"))
    except tk.ValidationError as error:
        return tk.abort(429, " ".join(error.error_dict.get("rate_limit", [])))
    return tk.redirect_to(tk.url_for("dataset.read", id=id) + "#passport-openness-results")


def blueprints() -> list[Blueprint]:
    return [blueprint]
