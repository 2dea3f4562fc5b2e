"""Factories for what the tests make on the real stack: catalog records (complete, or as a harvest stores them),
harvest sources of the two source types, their jobs and objects.

CKAN's factories (``ckan.tests.factories``) are the base and ckanext-harvest's (``ckanext.harvest.tests.factories``)
the model: each call creates through the actions and returns the action's dict, an ``...Obj`` factory the model
object; keyword arguments replace the defaults.
"""
from __future__ import annotations

import json
from typing import Any

import factory
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckanext.harvest import model as harvest_model
from ckanext.harvest.tests import factories as harvest_factories

from tests.support.catalog_records import complete_record
from tests.support.harvested_records import harvested_dataset

# Every record and source is an organization's (``ckan.auth.create_unowned_dataset`` is off, as on a portal).
organization_id = factory.LazyFunction(lambda: factories.Organization()["id"])


class Record(factories.Dataset):
    """A complete Czech catalog record (``catalog_records.complete_record``: every field the schema requires), in an
    organization made for it."""

    name = factory.Sequence(lambda n: f"zaznam-{n}")
    title = complete_record()["title"]
    notes = complete_record()["notes"]
    owner_org = organization_id

    @classmethod
    def _create(cls, model_class, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return super()._create(model_class, *args, **complete_record(**kwargs))


class HarvestedRecord(factories.Dataset):
    """A record as the MR harvest stores it (``harvested_records.harvested_dataset``: a real passport mapped in, the
    curator's part missing), written with the harvest's context flag; ``package_show``'s dict of it."""

    name = title = notes = None  # the passport's
    owner_org = organization_id

    @classmethod
    def _create(cls, model_class, *args: Any, **kwargs: Any) -> dict[str, Any]:
        given = {key: value for key, value in kwargs.items() if value is not None}
        context = {"user": factories.Sysadmin()["name"], "ignore_auth": True, "passport_harvest": True}
        created = super()._create(model_class, *args, context=context, **{**harvested_dataset(), **given})
        return call_action("package_show", id=created["id"])


class PassportSource(factory.Factory):
    """A ``passport`` harvest source, made by a sysadmin (so a source's sysadmin-only options, such as
    ``allow_private_addresses``, may be set) in an organization made for it; ``config`` a dict, sent as JSON.

    Unlike ckanext-harvest's ``HarvestSource``, always a new source: theirs returns an existing one of the same URL.
    """

    class Meta:
        model = harvest_model.HarvestSource

    _return_type = "dict"

    source_type = "passport"
    name = factory.Sequence(lambda n: f"source-{n}")
    title = "MR site"
    url = factory.Sequence(lambda n: f"http://127.0.0.1:9/site-{n}/opendata/list.csv")
    owner_org = organization_id
    config = None

    @classmethod
    def _create(cls, model_class, *args: Any, **kwargs: Any) -> Any:
        config = kwargs.pop("config")
        user = kwargs.pop("user", None) or factories.Sysadmin()["name"]
        source = call_action("harvest_source_create", context={"user": user},
                             config=json.dumps(config) if config is not None else "", **kwargs)
        return source if cls._return_type == "dict" else harvest_model.HarvestSource.get(source["id"])


class PassportSourceObj(PassportSource):
    _return_type = "obj"


class LkodSource(PassportSource):
    """An ``lkod`` harvest source (another Czech local catalog), made as ``PassportSource``."""

    source_type = "lkod"
    name = factory.Sequence(lambda n: f"lkod-{n}")
    title = "Another LKOD"
    url = factory.Sequence(lambda n: f"http://127.0.0.1:9/lkod-{n}/catalog.jsonld")


class LkodSourceObj(LkodSource):
    _return_type = "obj"


class Job(harvest_factories.HarvestJob):
    """A job of a harvest source (a ``PassportSourceObj`` made for it unless ``source`` is given), not run."""

    source = factory.SubFactory(PassportSourceObj)


class JobObj(Job):
    _return_type = "obj"


class HarvestObject(harvest_factories.HarvestObject):
    """A harvest object of a job (a ``JobObj`` made for it unless ``job`` is given)."""

    job = factory.SubFactory(JobObj)


class HarvestObjectObj(HarvestObject):
    _return_type = "obj"
