"""Dataset series: a ``record_kind: series`` record and a member naming it in ``in_series``, through the real
stack: validated, listed in the catalog, written as the norm says in both norms.

The series and its member are made once for the module; the validation tests make nothing that stays.
"""
from __future__ import annotations

import json

import pytest
from ckan.logic import ValidationError
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.schema_registry import errors as errors_2024
from tests.support.schema_registry_2026 import errors
from tests.support.lkod_view_records import LKOD_CONFIG_READ_ONLY, create, lkod_record

from ckanext.passport.lkod import norms
from ckanext.passport.lkod.norms import NORM_2026, Kind

# The norm's schemas want https IRIs: the site is served so.
SITE = "https://data.example.cz"
pytestmark = [*LKOD_CONFIG_READ_ONLY, pytest.mark.ckan_config("ckan.site_url", SITE)]


def _build() -> dict:
    org, sysadmin = factories.Organization(), factories.Sysadmin()
    series = create(org, sysadmin, "rozpocty", record_kind="series", resources=[])
    member = create(org, sysadmin, "rozpocet-2019", in_series="rozpocty")
    plain = create(org, sysadmin, "eligible")
    return {"org": org, "sysadmin": sysadmin, "series": series, "member": member, "plain": plain}


@pytest.fixture
def made(built_once) -> dict:
    return built_once("series", _build)


def iri(record: dict) -> str:
    return f"{SITE}/lkod/dataset/{record['id']}"


def test_the_member_keeps_its_series_by_id_though_named_by_name(made):
    assert made["member"]["in_series"] == made["series"]["id"]
    assert made["series"]["record_kind"] == "series"
    assert made["plain"]["record_kind"] == "dataset"


def test_the_catalog_lists_the_series_beside_its_member(web, made):
    document = json.loads(web.get("/lkod/catalog").data)

    assert {iri(made["series"]), iri(made["member"])} <= set(document["datová_sada"])


def test_the_series_document_is_a_datova_serie_valid_in_2024(web, made):
    document = json.loads(web.get(f"/lkod/dataset/{made['series']['id']}").data)

    assert document["typ"] == "Datová série"
    assert errors_2024("datová-série.json", document) == []


def test_the_series_document_in_2026_is_a_serie_datovych_sad_valid_against_its_schema(web, made):
    document = json.loads(web.get(f"/lkod/dataset/{made['series']['id']}?norm={NORM_2026}").data)

    assert document["@context"] == norms.context_url(NORM_2026, Kind.SERIES)
    assert errors(Kind.SERIES, document) == []


@pytest.mark.parametrize("norm", norms.NORMS)
def test_the_member_points_to_the_series_iri(web, made, norm):
    document = json.loads(web.get(f"/lkod/dataset/{made['member']['id']}?norm={norm}").data)

    assert document["je_součástí"] == iri(made["series"])


def test_the_members_page_links_its_series_by_title(web, made):
    page = web.get(f"/dataset/{made['member']['name']}").get_data(as_text=True)

    assert f'<a href="/dataset/{made["series"]["name"]}">{made["series"]["title"]}</a>' in page


def test_a_series_page_says_it_is_a_series_and_a_datasets_page_says_nothing_of_its_kind(web, made):
    series_page = web.get(f"/en/dataset/{made['series']['name']}").get_data(as_text=True)
    plain_page = web.get(f"/en/dataset/{made['plain']['name']}").get_data(as_text=True)

    assert 'data-field="record_kind"' in series_page and "Dataset series" in series_page
    assert 'data-field="record_kind"' not in plain_page


def test_a_series_graph_through_the_dcat_profile_is_a_dataset_series(made):
    from rdflib import RDF, Graph, URIRef

    from ckanext.passport.lkod import series
    from ckanext.passport.lkod.profile import DcatApCzProfile

    graph, ref = Graph(), URIRef(iri(made["series"]))
    DcatApCzProfile(graph).graph_from_dataset(made["series"], ref)
    assert set(graph.objects(ref, RDF.type)) == {series.DATASET_SERIES}


def _refused(made: dict, name: str, **fields) -> dict:
    record = lkod_record(name, owner_org=made["org"]["id"], **fields)
    with pytest.raises(ValidationError) as refused:
        call_action("package_create", {"user": made["sysadmin"]["name"]}, **record)
    return refused.value.error_dict


def test_a_member_of_a_record_that_is_no_series_is_refused(made):
    assert "in_series" in _refused(made, "clen-1", in_series=made["plain"]["name"])


def test_a_member_of_no_record_is_refused(made):
    assert "in_series" in _refused(made, "clen-2", in_series="no-such-record")


def test_a_series_in_a_series_is_refused(made):
    assert "in_series" in _refused(made, "serie-2", record_kind="series", in_series=made["series"]["name"])


def test_an_unknown_record_kind_is_refused(made):
    assert "record_kind" in _refused(made, "druh-1", record_kind="collection")



def _outsiders(made: dict) -> dict:
    """An editor of the module's organization (no sysadmin: the API checks what they may read), and another
    organization with two series, one public and one private."""
    editor = factories.User()
    call_action("organization_member_create", id=made["org"]["id"], username=editor["name"], role="editor")
    other = factories.Organization()
    sysadmin = made["sysadmin"]
    return {"editor": editor,
            "public": create(other, sysadmin, "cizi-serie", record_kind="series", resources=[]),
            "private": create(other, sysadmin, "cizi-soukroma-serie", record_kind="series", resources=[],
                              private=True)}


@pytest.fixture
def outsiders(made, built_once) -> dict:
    return built_once("outsiders", lambda: _outsiders(made))


def _refusals(made: dict, editor: dict, name: str, **fields) -> dict:
    """What refuses ``editor`` creating ``name`` in the module's organization through the API's checks ({} when it is
    saved)."""
    try:
        call_action("package_create", {"user": editor["name"], "ignore_auth": False},
                    **lkod_record(name, owner_org=made["org"]["id"], **fields))
    except ValidationError as refused:
        return refused.error_dict
    return {}


def test_an_editor_names_a_series_of_their_own_organization(made, outsiders):
    assert _refusals(made, outsiders["editor"], "vlastni-clen", in_series=made["series"]["name"]) == {}


@pytest.mark.parametrize("series", ["public", "private"])
def test_a_series_of_another_organization_is_refused(made, outsiders, series):
    refusals = _refusals(made, outsiders["editor"], f"clen-ciziho-{series}", in_series=outsiders[series]["id"])
    assert "in_series" in refusals


def test_another_organizations_series_is_refused_as_one_that_does_not_exist(made, outsiders):
    def refusal(reference: str) -> list[str]:
        refused = _refusals(made, outsiders["editor"], "clen-x", in_series=reference)["in_series"]
        return [message.replace(reference, "…") for message in refused]

    assert refusal(outsiders["private"]["id"]) == refusal("no-such-series-at-all")
