"""The rule of every check a user starts (the site check, the openness check): it reads private addresses only when
a sysadmin asks for it. The site option ``allow_private_addresses`` is for the harvests a sysadmin or an
organization admin configured, not for these. Here, below both rooms, so neither imports the other."""
from __future__ import annotations

import re
from typing import Any

import ckan.authz as authz
import ckan.plugins.toolkit as tk

from ckanext.passport.language import reader_translate
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem


def refusal(found: Problem) -> str:
    """A refusal as a check's form and API say it: its code, then its message in the reader's language."""
    return f"[{found.code}] {found.message(reader_translate())}"


def refusal_parts(text: str) -> tuple[str, str]:
    """A refusal's code and sentence, taken apart again for a page that shows the sentence and keeps the code out of
    the text (``""`` as the code of a message :func:`refusal` did not write)."""
    match = re.fullmatch(r"\[([\w.]+)\] (.*)", text, re.DOTALL)
    return (match.group(1), match.group(2)) if match else ("", text)


def private_addresses_allowed(context: dict, data_dict: dict[str, Any]) -> bool:
    """Whether a check someone starts may read private addresses: only when a sysadmin asks for it."""
    allow_private = tk.asbool(data_dict.get("allow_private_addresses") or False)
    if allow_private and not authz.is_sysadmin(context.get("user") or ""):
        raise tk.NotAuthorized(refusal(problem("site_check.private_sysadmin_only")))
    return allow_private
