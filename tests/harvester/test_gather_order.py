"""A job's objects keep the registry's order: the conformance report and the job's pages list passports in the
order the publisher listed them, on every run, even when the clock does not tick between two objects."""
from __future__ import annotations

import datetime as dt

import pytest
from ckanext.harvest.model import HarvestJob, HarvestObject, HarvestSource

from ckanext.passport.harvest.mr_harvester import PassportHarvester

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ENTRIES = [f"7701234560-set{n:03d}" for n in range(300)]


def test_a_gathered_job_stamps_its_objects_in_registry_order(tmp_path, serve_site, harvest_source, monkeypatch):
    # A clock that never ticks: ckanext-harvest's own stamp (its column default) gives every object one time.
    stopped = dt.datetime(2026, 1, 1)
    monkeypatch.setattr(HarvestObject.__table__.c.gathered.default, "arg", lambda context: stopped)
    # Identifiers listed against their alphabetical order, so no order by guid or id can pass for this one.
    listed = list(reversed(ENTRIES))
    (tmp_path / "opendata").mkdir()
    rows = ["property,title,value,format"] + [f"{guid},Набор {guid},/opendata/{guid}/meta.csv,csv" for guid in listed]
    (tmp_path / "opendata" / "list.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    site = serve_site(tmp_path)
    source = harvest_source(f"{site.url}/opendata/list.csv", {"allow_private_addresses": True})
    job = HarvestJob(source=HarvestSource.get(source["id"]))
    job.save()

    PassportHarvester().gather_stage(job)

    stamped = HarvestObject.filter(harvest_job_id=job.id).order_by(HarvestObject.gathered).all()
    assert [o.guid for o in stamped] == listed
    assert len({o.gathered for o in stamped}) == len(listed)
