"""What ckanext-harvest shows of each source type of this extension (its ``IHarvester.info``) and of a source."""
from __future__ import annotations

from typing import Any

import ckan.model as model
from ckan.lib.dictization import table_dictize


def source_type_info(name: str, title: str, description: str) -> dict[str, str]:
    """``info()`` of a source type: its config is a JSON text, the form's plain text field."""
    return {"name": name, "title": title, "description": description, "form_config_interface": "Text"}


def keep_organization(source: dict[str, Any]) -> dict[str, Any]:
    """A shown source with its organization as CKAN gives it (a dict), whatever its config says.

    ckanext-harvest copies every key of a source's config to the top of the shown source, so the MR config's
    ``organization`` (the organization its records go to) replaced the source's own organization, and its pages,
    which read ``organization.title``, answered 500.
    """
    if source.get("type") != "harvest" or isinstance(source.get("organization"), dict) or not source.get("owner_org"):
        return source
    owner = model.Group.get(source["owner_org"])
    if owner is not None:
        # As package_dictize gives it: the organization's row.
        source["organization"] = table_dictize(owner, {"model": model, "session": model.Session})
    return source
