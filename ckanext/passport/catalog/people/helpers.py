"""A visitor reads "a portal user" where CKAN's pages link the user behind a change."""
from __future__ import annotations

from typing import Any, Callable, Union

import ckan.plugins.toolkit as tk
from markupsafe import Markup, escape


@tk.chained_helper
def linked_user(next_helper: Callable[..., Any], user: Union[str, Any], maxlength: int = 0,
                avatar: int = 20) -> Union[Markup, str, None]:
    if tk.current_user.is_authenticated:
        return next_helper(user, maxlength, avatar)
    return escape(tk._("a portal user"))


def helpers() -> dict[str, Callable[..., Any]]:
    return {"linked_user": linked_user}
