"""The user docs stay in step with the code: every schema field documented, no stale ones, owners as harvested."""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
import yaml

from ckanext.passport.catalog import ownership
from ckanext.passport.catalog.ownership import MR, Ownership
from ckanext.passport.lkod.ownership import LKOD

ROOT = Path(__file__).resolve().parent.parent
RECORD_DOC = ROOT / "docs" / "catalog-record.md"
SCHEMA = ROOT / "ckanext" / "passport" / "catalog" / "schemas" / "dataset.yaml"
OWNER_WORDS = {
    "harvest": ownership.HARVESTER, "MR identity": ownership.MR_IDENTITY, "first harvest": ownership.FIRST_HARVEST
}


def _documented(section: str) -> dict[str, str]:
    """API name → owner column of one table of the record page."""
    text = RECORD_DOC.read_text("utf-8")
    body = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \|[^|]*\|[^|]*\| ([^|]+?) \|", body, re.MULTILINE)
    return dict(rows)


def _schema_fields(kind: str) -> list[str]:
    return [field["field_name"] for field in yaml.safe_load(SCHEMA.read_text("utf-8"))[kind]]


@pytest.mark.parametrize("section, kind", [("Dataset fields", "dataset_fields"), ("Resource fields", "resource_fields")])
def test_every_schema_field_is_documented_and_no_other(section, kind):
    assert sorted(_documented(section)) == sorted(_schema_fields(kind))


@pytest.mark.parametrize(
    "section, table", [("Dataset fields", MR.dataset_owners), ("Resource fields", MR.resource_owners)]
)
def test_documented_owners_are_the_ownership_table(section, table):
    documented = {name: OWNER_WORDS.get(owner.split(" (")[0]) for name, owner in _documented(section).items()}
    if "tag_string" in documented:  # the form's tag_string is stored as tags
        documented["tags"] = documented.pop("tag_string")
    expected = {name: table.get(name) for name in documented}
    assert documented == expected


def test_the_ownership_engines_parameters_are_documented_with_each_instances_value():
    body = RECORD_DOC.read_text("utf-8").split("## The ownership engine\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| ([^|]+) \| ([^|]+) \|$", body, re.MULTILINE)
    assert [name for name, _, _ in rows] == [field.name for field in dataclasses.fields(Ownership)]
    for name, *cells in rows:
        for instance, cell in zip((MR, LKOD), cells):
            value = getattr(instance, name)
            if isinstance(value, (str, bool)) or callable(value):
                code = value if isinstance(value, str) else getattr(value, "__name__", repr(value))
                assert cell.split("`")[1] == str(code), (name, instance.kind)


@pytest.mark.stack
@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")
def test_the_documented_example_is_accepted_by_package_create():
    from ckan.tests import factories
    from ckan.tests.helpers import call_action

    example = json.loads(RECORD_DOC.read_text("utf-8").split("```json\n", 1)[1].split("```", 1)[0])
    factories.Organization(name=example["owner_org"])
    sysadmin = factories.Sysadmin()
    created = call_action("package_create", context={"user": sysadmin["name"]}, **example)
    assert created["publisher_id"] == example["publisher_id"]
    assert created["eurovoc"][0]["uri"] == example["eurovoc"][0]["uri"]


def test_every_declared_option_is_documented_and_no_other():
    declared = {
        option["key"]
        for path in (ROOT / "ckanext" / "passport" / "config").glob("*.yaml")
        for group in yaml.safe_load(path.read_text("utf-8"))["groups"]
        for option in group["options"]
    }
    text = (ROOT / "docs" / "configuration.md").read_text("utf-8")
    documented = set(re.findall(r"^\| `(ckanext\.passport\.[a-z_.]+)` \|", text, re.MULTILINE))
    assert sorted(documented) == sorted(declared)


def test_the_ckanext_harvest_options_documented_are_the_ones_it_reads_and_we_read():
    """configuration.md documents ckanext-harvest's ``ckan.harvest.timeout`` (it declares none of its own): the key
    must stay the one ckanext-harvest reads and settings.py reads after it, and the demo sets it."""
    import ckanext.harvest

    from ckanext.passport import settings

    text = (ROOT / "docs" / "configuration.md").read_text("utf-8")
    documented = re.findall(r"^\| `(ckan\.harvest\.[a-z_.]+)` \|", text, re.MULTILINE)
    assert documented == [settings.HARVEST_TIMEOUT]
    harvest_code = "".join(path.read_text("utf-8") for path in Path(ckanext.harvest.__file__).parent.rglob("*.py")
                           if "tests" not in path.parts)
    assert f"'{settings.HARVEST_TIMEOUT}'" in harvest_code
    demo = re.search(r"^ckan\.harvest\.timeout = (\d+)$", (ROOT / "dev" / "ckan.ini").read_text("utf-8"), re.MULTILINE)
    assert demo and int(demo.group(1)) > 0


LKOD_SECTION = "\n## Czech local catalogs (`lkod`)\n"


def _harvest_source_doc(source_type: str) -> str:
    """The part of the harvest source page about one source type: ``passport`` first, then its ``lkod`` section."""
    passport, lkod = (ROOT / "docs" / "harvest-source.md").read_text("utf-8").split(LKOD_SECTION, 1)
    return lkod if source_type == "lkod" else passport


def _source_config(source_type: str):
    """The config schema and error check of a source type."""
    if source_type == "lkod":
        from ckanext.passport.lkod import harvest_config
    else:
        from ckanext.passport.harvest import config as harvest_config
    return harvest_config.SCHEMA, harvest_config.config_errors


@pytest.mark.parametrize("source_type", ["passport", "lkod"])
def test_every_harvest_source_option_is_documented_and_no_other(source_type):
    documented = set()
    for keys in re.findall(r"^\| ((?:`[a-z_]+`(?:, )?)+) \|", _harvest_source_doc(source_type), re.MULTILINE):
        documented.update(re.findall(r"`([a-z_]+)`", keys))
    assert sorted(documented) == sorted(_source_config(source_type)[0]["properties"])


@pytest.mark.parametrize("source_type", ["passport", "lkod"])
def test_the_documented_source_config_example_is_valid(source_type):
    example = _harvest_source_doc(source_type).split("```json\n", 1)[1].split("```", 1)[0]
    assert json.loads(example) and _source_config(source_type)[1](example) == []


def test_the_readme_links_every_docs_page():
    readme = (ROOT / "README.md").read_text("utf-8")
    for page in (ROOT / "docs").glob("*.md"):
        assert f"(docs/{page.name})" in readme, page.name


@pytest.mark.parametrize("setting", ["ckan.auth.create_unowned_dataset", "ckan.gravatar_default"])
def test_the_demo_and_the_tests_run_as_security_md_asks_of_a_portal(setting):
    """The demo and the test suite run as docs/security.md says a multi-organization portal must: every new record
    in an organization (issue 37), no user picture fetched from gravatar.com (issue 41). A test about records of no
    organization turns the option on for itself."""
    required = re.search(rf"^\| `{re.escape(setting)}` \| `(\w+)` \|",
                         (ROOT / "docs" / "security.md").read_text("utf-8"), re.MULTILINE)
    assert required
    for ini in (ROOT / "test.ini", ROOT / "dev" / "ckan.ini"):
        configured = re.search(rf"^{re.escape(setting)} = (\w+)$", ini.read_text("utf-8"), re.MULTILINE)
        assert configured and configured.group(1) == required.group(1), ini.name
