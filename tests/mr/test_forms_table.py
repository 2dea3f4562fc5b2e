"""The forms table is the one place a form's capabilities are stated: everything that reads, writes, publishes,
budgets or offers a form is derived from it."""
from __future__ import annotations

import pytest

from ckanext.passport.mr import limits, passport, registry
from ckanext.passport.mr.corrections import FIXED_FILES
from ckanext.passport.mr.forms import TRAITS, Form, forms
from ckanext.passport.mr.writers.passport import WRITERS
from ckanext.passport.mr.writers.registry import STREAMS


def test_every_form_has_a_row():
    assert set(TRAITS) == set(Form)


@pytest.mark.parametrize("form", forms(passport_reader=True))
def test_each_passport_reader_named_by_the_table_reads_its_form(form):
    assert passport.FORMS[form].FORM == form


@pytest.mark.parametrize("form", forms(registry_reader=True))
def test_each_registry_reader_named_by_the_table_reads_its_form(form):
    assert registry.FORMS[form].FORM == form


def test_the_published_files_are_the_forms_with_a_writer():
    assert tuple(WRITERS) == forms(passport_reader=True, writer=True) == (Form.META_JSON, Form.META_XML,
                                                                            Form.META_CSV)
    assert tuple(STREAMS) == forms(registry_reader=True, writer=True)
    assert all(TRAITS[form].media_type for form in (*WRITERS, *STREAMS))


def test_the_fixed_files_are_mr30s_machine_readable_passports_in_preference_order():
    assert FIXED_FILES == passport.MR30_FILES == ("meta.json", "meta.xml", "meta.csv")


def test_pages_take_the_page_budget():
    assert limits.PAGE_FORMS == {Form.RDFA, Form.HTML_TABLE}


def test_a_passport_made_from_a_registry_entry_has_no_capability():
    assert Form.REGISTRY_ENTRY not in forms(passport_reader=True) + forms(registry_reader=True) + forms(writer=True)


def test_an_unknown_trait_is_refused():
    with pytest.raises(TypeError):
        forms(readable=True)
