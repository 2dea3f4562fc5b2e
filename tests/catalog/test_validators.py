"""Each validator of the record: good values pass, bad ones are refused with a message on their own field."""
from __future__ import annotations

import pytest
from ckan.logic import ValidationError
from ckan.tests import factories
from ckan.tests.helpers import call_action

from ckanext.passport.catalog.record import validators as v
from tests.support.catalog_records import CZSO_ICO, ROSSTAT_INN, complete_record, complete_resource

# The pure checks need CKAN's translator (toolkit._), hence the app context of `with_web_request_context`.
pure = pytest.mark.usefixtures("with_web_request_context")


@pure
@pytest.mark.parametrize("ico", [CZSO_ICO, "00006947", "25596641", "45274649"])
def test_valid_ico_passes(ico):
    assert v.ico_error(ico) is None


@pure
@pytest.mark.parametrize("ico", ["00025594", "25596640", "1234567", "123456789", "0002559a", ""])
def test_bad_ico_is_refused(ico):
    assert v.ico_error(ico)


@pure
@pytest.mark.parametrize("inn", [ROSSTAT_INN, "7707083893", "500100732259"])
def test_valid_inn_passes(inn):
    assert v.inn_error(inn) is None


@pure
@pytest.mark.parametrize("inn", ["7708234641", "500100732258", "770823464", "0000000000", "77082346400"])
def test_bad_inn_is_refused(inn):
    assert v.inn_error(inn)


@pure
def test_publisher_id_is_checked_by_its_scheme():
    assert v.publisher_id_error(ROSSTAT_INN, "inn") is None
    assert v.publisher_id_error(ROSSTAT_INN, "ico")
    assert v.publisher_id_error(CZSO_ICO, "inn")


@pure
@pytest.mark.parametrize("url", ["https://www.czso.cz", "http://example.cz/a?b=c#d"])
def test_http_and_https_urls_pass(url):
    assert v.url_error(url) is None


@pure
@pytest.mark.parametrize("url", ["ftp://example.cz/f.csv", "javascript:alert(1)", "www.czso.cz", "https://", "http://a b.cz/"])
def test_other_urls_are_refused(url):
    assert v.url_error(url)


@pure
@pytest.mark.parametrize("address", ["infoservis@czso.cz", "jana.novakova+data@mesto.example.cz"])
def test_valid_email_passes(address):
    assert v.email_error(address) is None


@pure
@pytest.mark.parametrize("address", ["name@yandex,ru", "no-at-sign.cz", "a@b", "a b@c.cz", "<a@b.cz>"])
def test_bad_email_is_refused(address):
    assert v.email_error(address)


@pure
@pytest.mark.parametrize(
    "mimetype",
    ["text/csv", "application/json", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
     "text/csv; charset=utf-8", "application/vnd.example.unlisted+xml", "application/x.custom", "image/png"],
)
def test_registered_or_tree_media_types_pass(mimetype):
    assert v.mimetype_error(mimetype) is None


@pure
@pytest.mark.parametrize("mimetype", ["csv", "text/comma-separated", "data/csv", "application/", "text/csv/x", "application/excel"])
def test_unregistered_media_types_are_refused(mimetype):
    assert v.mimetype_error(mimetype)


@pure
def test_known_vocabulary_values_pass_and_unknown_are_refused():
    assert v.eurovoc_error("http://eurovoc.europa.eu/100142") is None
    assert v.eurovoc_error("http://eurovoc.europa.eu/999999999")
    assert v.cz_nace_error("62") is None
    assert v.cz_nace_error("04")  # there is no division 04
    assert v.spatial_area_error("CZ0100") is None
    assert v.spatial_area_error("CZ9999")


# --- through package_create: the error is reported on the field ---------------------------------------------


def _errors(**overrides) -> dict:
    with pytest.raises(ValidationError) as raised:
        call_action("package_create", {"user": factories.Sysadmin()["name"]},
                    **complete_record(owner_org=factories.Organization()["id"], **overrides))
    return raised.value.error_dict


@pytest.mark.parametrize(
    "overrides, field",
    [
        ({"publisher_id": "00025594"}, "publisher_id"),
        ({"publisher_id_scheme": "inn", "publisher_id": "7708234641"}, "publisher_id"),
        ({"publisher_url": "ftp://czso.cz"}, "publisher_url"),
        ({"license_url": "licence.html"}, "license_url"),
        ({"publisher_email": "infoservis@czso,cz"}, "publisher_email"),
        ({"cz_nace": ["84", "04"]}, "cz_nace"),
        ({"spatial_area": "CZ9999"}, "spatial_area"),
        ({"openness_conditions": {"complete": "yes"}}, "openness_conditions"),
        ({"openness_conditions": {**complete_record()["openness_conditions"], "cheap": "yes"}}, "openness_conditions"),
        ({"isvs_ref": ""}, "isvs_ref"),
        ({"publisher_name": ""}, "publisher_name"),
        ({"record_language": "xx"}, "record_language"),
    ],
)
@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")
@pytest.mark.stack
def test_bad_dataset_value_is_reported_on_its_field(overrides, field):
    errors = _errors(**overrides)
    assert list(errors) == [field]
    assert errors[field] and all(isinstance(message, str) and message for message in errors[field])


CONDITIONS_RULE = (
    'The openness conditions are an object with the keys complete, accessible, machine_readable, open_format, '
    'open_terms, free, each "yes" or "no"'
)


@pytest.mark.parametrize(
    "conditions, problem",
    [
        ({"complete": "yes"}, "Missing openness conditions: accessible, machine_readable, open_format, open_terms, free"),
        ({**complete_record()["openness_conditions"], "complete": "maybe"},
         'Openness condition complete: "maybe" is not allowed'),
        ({**complete_record()["openness_conditions"], "cheap": "yes"}, "Unknown openness condition: cheap"),
        ({}, "State for each openness condition whether the data fulfil it"),
        (["yes"] * 6, "The openness conditions are a list of conditions with their fulfilment"),
    ],
)
@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")
@pytest.mark.stack
def test_api_is_told_which_openness_conditions_are_wrong_and_the_rule(conditions, problem):
    assert _errors(openness_conditions=conditions) == {"openness_conditions": [problem, CONDITIONS_RULE]}


@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")
@pytest.mark.stack
def test_unknown_eurovoc_uri_is_reported_on_that_concept():
    errors = _errors(eurovoc=[{"uri": "http://eurovoc.europa.eu/100142"}, {"uri": "http://eurovoc.europa.eu/1"}])
    assert errors == {"eurovoc": [{}, {"uri": ["Unknown EUROVOC concept: http://eurovoc.europa.eu/1"]}]}


@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")
@pytest.mark.stack
def test_record_without_eurovoc_concept_is_refused_on_its_first_concept():
    errors = _errors(eurovoc=[])
    assert errors == {"eurovoc": [{"uri": ["Choose at least one EUROVOC concept"]}]}


@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")
@pytest.mark.stack
def test_related_record_needs_a_relation_type_from_the_list():
    errors = _errors(related_records=[{"title": "Jiný", "relation": "likes", "url": "https://example.cz/z"}])
    assert list(errors["related_records"][0]) == ["relation"]


@pytest.mark.parametrize(
    "resource_overrides, field",
    [
        ({"mimetype": "text/comma-separated"}, "mimetype"),
        ({"mimetype_inner": "csv"}, "mimetype_inner"),
        ({"url": "file:///etc/passwd"}, "url"),
        ({"format_docs": ["https://ok.example.cz/doc", "not a url"]}, "format_docs"),
        ({"schema_urls": ["gopher://old.example.cz/schema"]}, "schema_urls"),
        ({"source_type": "carrier-pigeon"}, "source_type"),
    ],
)
@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")
@pytest.mark.stack
def test_bad_resource_value_is_reported_on_its_field(resource_overrides, field):
    errors = _errors(resources=[complete_resource(**resource_overrides)])
    assert list(errors) == ["resources"]
    assert list(errors["resources"][0]) == [field]


@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")
@pytest.mark.stack
def test_messages_follow_the_request_language(web):
    sysadmin = factories.Sysadmin()
    response = web.post(
        "/cs/api/3/action/package_create",
        json=complete_record(publisher_id="00025594"),
        headers={"Authorization": factories.APIToken(user=sysadmin["name"])["token"]},
        status=409,
    )
    assert response.json["error"]["publisher_id"] == ["Kontrolní číslice tohoto IČO je chybná"]
