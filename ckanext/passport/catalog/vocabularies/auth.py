"""Who may search the vocabularies: anyone, they are public data files."""
from __future__ import annotations

from typing import Any, Callable

import ckan.plugins.toolkit as tk


@tk.auth_allow_anonymous_access
def vocab_search_auth(context: dict, data_dict: dict[str, Any]) -> dict[str, bool]:
    # The vocabularies are public data files: anyone may search them.
    return {"success": True}


def auth_functions() -> dict[str, Callable]:
    return {"passport_vocab_search": vocab_search_auth}
