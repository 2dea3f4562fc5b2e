"""docs/actions.md stays in step with the actions the plugins register, their docstrings and the authorization matrix."""
from __future__ import annotations

from pathlib import Path

import pytest
from ckan import plugins

from tests.support.actions_reference import registered, render

PAGE = Path(__file__).resolve().parent.parent / "docs" / "actions.md"


@pytest.mark.stack
@pytest.mark.usefixtures("shared_plugins")
def test_the_actions_page_is_what_the_registered_actions_and_the_matrix_say():
    written = render(registered(plugins.PluginImplementations(plugins.IActions)))
    assert PAGE.read_text("utf-8") == written, (
        "docs/actions.md is stale: .venv/bin/python tests/support/actions_reference.py test.ini > docs/actions.md")

