"""docs/actions.md, written from what the plugins register: every ``passport_*`` action, its docstring's parameters
and return value, and who may call it as tests/support/authorization_table.py asks it of each role.

tests/test_actions_reference.py fails while the page differs from what this writes; to write it again, with the
services running: ``.venv/bin/python tests/support/actions_reference.py test.ini > docs/actions.md``.
"""
from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script: the project root, for ``tests``
from tests.support.authorization_table import ALLOWED, CASES, NAMING_NO_USER, NOT_FOUND, ROLES  # noqa: E402

PREFIX = "passport_"
ROLE_WORDS = {
    "anonymous": "visitors", "signed_in": "signed-in users of no organization", "member": "the organization's members",
    "editor": "its editors", "admin": "its admins", "other_editor": "another organization's editors",
    "other_admin": "another organization's admins", "reviewer": "reviewers", "sysadmin": "sysadmins",
}
HEAD = """# Actions

Every action the extension adds, called like CKAN's own: `POST /api/3/action/<name>` with a JSON body (or `GET`
with the parameters in the query string for those that change nothing), or `tk.get_action(name)(context,
data_dict)`. Messages in the answers are in the request's language (`/cs/api/3/action/…`). Who may call each is
what the authorization matrix (`tests/support/authorization_table.py`) asks of each role and gets: "the organization" is
the one owning the record, source or check asked about; reviewers are the members of
`ckanext.passport.editors_organization`. [Security](security.md) explains the roles.

This page is written from the code (`tests/support/actions_reference.py`); `tests/test_actions_reference.py` keeps it in
step with the actions registered, their docstrings and the matrix.
"""


def _parts(doc: str) -> tuple[str, list[tuple[str, str]], str]:
    """A docstring's summary, its ``:param name: text`` pairs and its ``:returns:`` text, each on one line."""
    one_line = lambda text: " ".join(text.split()).replace("|", "\\|")
    summary, _, fields = doc.partition("\n:")
    fields = ":" + fields if fields else ""
    params = [(name, one_line(text)) for name, text in
              re.findall(r"^:param (\w+):(.*?)(?=^:|\Z)", fields, re.MULTILINE | re.DOTALL)]
    returns = re.search(r"^:returns?:(.*?)(?=^:|\Z)", fields, re.MULTILINE | re.DOTALL)
    return one_line(summary), params, one_line(returns.group(1)) if returns else ""


def _who(answers: dict[str, str]) -> str:
    allowed = [role for role in ROLES if answers[role] in (ALLOWED, NAMING_NO_USER)]
    if not allowed:
        return "no one (404)" if set(answers.values()) == {NOT_FOUND} else "no one"
    if allowed == list(ROLES):
        who = "everyone"
    elif allowed == list(ROLES[1:]):
        who = "every signed-in user"
    else:
        who = ", ".join(ROLE_WORDS[role] for role in allowed)
    hidden = [role for role in allowed if answers[role] == NAMING_NO_USER]
    if hidden:
        who += " (" + ", ".join(ROLE_WORDS[role] for role in hidden) + ": no user named in the answer)"
    return who


def render(actions: dict[str, tuple[str, Callable[..., Any]]]) -> str:
    """The page, from ``{action name: (plugin name, function)}`` of the ``passport_*`` actions registered."""
    out = [HEAD]
    for name in sorted(actions):
        plugin, function = actions[name]
        summary, params, returns = _parts(inspect.getdoc(function) or "")
        out.append(f"## `{name}`\n\nPlugin `{plugin}`. {summary}\n")
        if params:
            out.append("| parameter | meaning |\n|---|---|")
            out.extend(f"| `{param}` | {text} |" for param, text in params)
            out.append("")
        if returns:
            out.append(f"Returns {returns}\n")
        cases = [case for case in CASES if case.target == name]
        out.append("| asked about | who may call it |\n|---|---|")
        out.extend(f"| {case.what} | {_who(case.answers)} |" for case in cases)
        out.append("")
    return "\n".join(out)


def registered(interface_implementations) -> dict[str, tuple[str, Callable[..., Any]]]:
    """The ``passport_*`` actions of the loaded plugins, each with its plugin's name."""
    return {name: (plugin.name, function) for plugin in interface_implementations
            for name, function in plugin.get_actions().items() if name.startswith(PREFIX)}


if __name__ == "__main__":
    from ckan import plugins
    from ckan.cli import load_config
    from ckan.config.middleware import make_app

    make_app(load_config(sys.argv[1]))
    sys.stdout.write(render(registered(plugins.PluginImplementations(plugins.IActions))))
