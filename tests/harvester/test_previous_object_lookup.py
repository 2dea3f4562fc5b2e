"""Every fetch finds its record's last object (harvest.objects.previous_object) by one index lookup.

ckanext-harvest indexes harvest objects by guid and by source apart; ANDed, the source's part read every object of
the source, so each fetch cost more as the source grew (bench/bench_portal_scale.py, issue 42). Migration a8c3e5f7d9b2
indexes a source's current objects by guid.
"""
from __future__ import annotations

import pytest
import sqlalchemy as sa
from ckan import model

from ckanext.passport.harvest.objects import previous_object
from tests.support.factories import HarvestObjectObj, JobObj
from tests.support.query_plans import plan_nodes, statements_sent

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db")]


def test_the_previous_object_is_found_by_its_source_and_guid_in_one_index():
    job = JobObj()
    earlier, other = (HarvestObjectObj(job=job, guid=guid) for guid in ("7708234640-air", "7708234640-water"))
    for current in (earlier, other):
        # harvest_object_create keeps keys it does not know as extras: the current flag is set on the row.
        current.current = True
        current.save()
    # A source of a real size, its statistics read: on a table of three rows any index is as good as another.
    model.Session.execute(sa.text(
        "INSERT INTO harvest_object (id, guid, current, state, harvest_job_id, harvest_source_id, gathered) "
        "SELECT 'bulk-' || n, '7708234640-bulk' || n, true, 'COMPLETE', :job, :source, now() "
        "FROM generate_series(1, 2000) AS n"), {"job": job.id, "source": job.source.id})
    model.Session.commit()
    model.Session.execute(sa.text("ANALYZE harvest_object"))
    fetched = HarvestObjectObj(job=job, guid="7708234640-air")
    found = []

    sent = statements_sent(lambda: found.append(previous_object(fetched)))
    assert [found_object.id for found_object in found] == [earlier.id]
    [(statement, parameters)] = sent
    looked_up = [node for node in plan_nodes(statement, parameters) if node.get("Relation Name") == "harvest_object"]
    assert [node["Node Type"] for node in looked_up] == ["Index Scan"]
    assert "guid" in looked_up[0]["Index Cond"] and "harvest_source_id" in looked_up[0]["Index Cond"]
