"""``ckan passport`` is built in one place (cli.command_tree): the base plugin's commands, and those of the optional
plugins only while they are loaded (issue 43)."""
from __future__ import annotations

from ckanext.passport.cli import command_tree


def names(group) -> set[str]:
    return set(group.commands)


def test_every_plugin_loaded_gives_the_whole_tree():
    tree = command_tree(lambda plugin: True)
    assert {"check", "parse", "check-index", "lkod", "vocab", "notices"} <= names(tree)
    assert {"registration", "check-links"} <= names(tree.commands["lkod"])


def test_a_plugin_left_out_leaves_its_commands_out():
    tree = command_tree(lambda plugin: plugin not in ("passport_conformance", "passport_lkod"))
    assert "notices" not in names(tree) and "vocab" in names(tree)
    assert names(tree.commands["lkod"]) == {"registration"}
