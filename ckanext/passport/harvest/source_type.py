"""What ckanext-harvest shows of each source type of this extension (its ``IHarvester.info``)."""
from __future__ import annotations


def source_type_info(name: str, title: str, description: str) -> dict[str, str]:
    """``info()`` of a source type: its config is a JSON text, the form's plain text field."""
    return {"name": name, "title": title, "description": description, "form_config_interface": "Text"}
