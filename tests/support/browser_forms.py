"""Posting CKAN's forms the way a browser does, for tests that drive the dataset and resource forms.
"""
from __future__ import annotations

from typing import Iterable

from bs4 import BeautifulSoup
from werkzeug.datastructures import MultiDict

DATASET_FORM = "form#dataset-edit"
RESOURCE_FORM = "form#resource-edit"


def browser_post(
    page: str, form: str, changes: Iterable[tuple[str, str]] = (), *, drop: Iterable[str] = ()
) -> MultiDict:
    """The fields a browser submits from ``form`` (a CSS selector) as rendered, with ``changes`` applied.

    Scheming's add-another templates are left out, as its script removes them before a submit. A field named
    in ``changes`` replaces what the page holds under that name; ``drop`` removes fields.
    """
    soup = BeautifulSoup(page, "html.parser")
    found = soup.select_one(form)
    assert found is not None, f"no {form} on the page"
    for template in found.select('[name="repeating-template"]'):
        template.decompose()
    fields: MultiDict = MultiDict()
    for element in found.select("input[name], select[name], textarea[name]"):
        name = element["name"]
        if element.name == "select":
            chosen = element.select("option[selected]")
            if not element.has_attr("multiple"):
                chosen = (chosen or element.select("option"))[:1]
            for option in chosen:
                fields.add(name, option.get("value", option.get_text()))
        elif element.name == "textarea":
            fields.add(name, element.get_text())
        elif element.get("type") in ("checkbox", "radio"):
            if element.has_attr("checked"):
                fields.add(name, element.get("value", "on"))
        elif element.get("type") not in ("submit", "button", "file", "image", "reset"):
            fields.add(name, element.get("value", ""))
    changed = MultiDict(list(changes))
    for name in set(changed.keys()) | set(drop):
        fields.poplist(name)
    for name, value in changed.items(multi=True):
        fields.add(name, value)
    fields.add("save", "")
    return fields
