"""One harvest job, run in this process the way ckanext-harvest's tests run one, or by real consumer processes
the way a portal runs them, on the bench database (:mod:`support.database`), and what it left."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

from support import INI, ROOT
from support.database import DB_URL, SITE_ID
from support.measure import memory_kib

FETCH_CONSUMERS = 2


def configured(extra_plugins: str = "dcat_rdf_harvester") -> Any:
    """test.ini on the bench database; both harvesters' plugins loaded in both children, so neither pays for
    the other's absence."""
    from ckan.cli import load_config

    config = load_config(str(INI))
    config["sqlalchemy.url"] = DB_URL
    config["ckan.site_id"] = SITE_ID
    config["ckan.plugins"] = f"{config['ckan.plugins']} {extra_plugins}"
    return config


def passport_harvester() -> Any:
    from ckanext.passport.plugins.harvester import PassportHarvesterPlugin

    return PassportHarvesterPlugin()


def dcat_harvester() -> Any:
    """ckanext-dcat's RDF harvester, with the two things a portal running our catalog schema would add.

    - The DCAT profile leaves the identifier, dates and contact as extras and adds publisher and contact lists
      for its own scheming schema; our catalog schema refuses those, so they move to the catalog fields
      ``mapping.passport_to_dataset`` fills for ours (``mr_identifier``, ``mr_created``, ``maintainer``…).
    - A harvested record lands without the curator's part of the record (EUROVOC, conditions of use…). Our
      harvester says so with the ``passport_harvest`` context flag; ckanext-dcat builds its own context, so
      the validators' test for the flag answers yes while this harvester imports (see ``lenient_validation``).
    """
    from ckanext.dcat.harvesters.rdf import DCATRDFHarvester

    # DCAT extras that are catalog-schema fields, to the fields ``mapping.passport_to_dataset`` fills for ours.
    moved = {"identifier": "mr_identifier", "issued": "mr_created", "modified": "mr_modified",
             "contact_name": "maintainer", "contact_email": "maintainer_email"}

    def to_catalog_fields(package_dict: dict, temp_dict: dict, harvest_object: Any) -> dict:
        # The profile also gives publisher and contact as the lists of its own scheming schema, which ours has
        # no fields for (publisher_name, set by the profile, and maintainer carry them).
        package_dict.pop("publisher", None), package_dict.pop("contact", None)
        extras = []
        for extra in package_dict.get("extras", []):
            if extra["key"] in moved:
                package_dict[moved[extra["key"]]] = extra["value"]
            else:
                extras.append(extra)
        package_dict["extras"] = extras
        package_dict["record_language"] = "ru"
        return package_dict

    # The harvester is a SingletonPlugin (a subclass would construct the same instance), so its hook for this
    # is replaced on the instance, in this child process only.
    harvester = DCATRDFHarvester()
    harvester.modify_package_dict = to_catalog_fields
    return harvester


def create_source(kind: str, url: str) -> str:
    import ckan.plugins.toolkit as tk

    context = {"user": tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"], "ignore_auth": True}
    org = tk.get_action("organization_create")(dict(context), {"name": f"bench-{kind}"})
    # The site is on 127.0.0.1; the registry is pinned so that discovery's probes are not timed.
    config = {"allow_private_addresses": True, "registry_url": url} if kind != "dcat" else {"rdf_format": "turtle"}
    if kind == "passport-hard":
        config["index_commit"] = "hard"
    source = tk.get_action("harvest_source_create")(dict(context), {
        "name": f"bench-{kind}-source", "title": f"Bench {kind}", "url": url, "owner_org": org["id"],
        "source_type": "dcat_rdf" if kind == "dcat" else "passport", "config": json.dumps(config),
    })
    return source["id"]


def run_job(source_id: str, harvester: Any) -> dict[str, Any]:
    """One job through the stages, as ``run_harvest_job`` does but without its package_show per object (a
    test's convenience, not harvest work). Returns timings, and the objects' report statuses and first errors,
    read once the job is timed (a consumer reads neither)."""
    import ckan.plugins.toolkit as tk
    from ckanext.harvest import queue
    from ckanext.harvest.model import HarvestObject, HarvestSource
    from ckanext.harvest.tests.factories import HarvestJobObj

    job = HarvestJobObj(source=HarvestSource.get(source_id), run=False)
    job.status = "Running"
    job.save()
    started = time.perf_counter()
    ids = queue.gather_stage(harvester, job)
    gathered = time.perf_counter()
    for object_id in ids if isinstance(ids, list) else []:
        queue.fetch_and_import_stages(harvester, HarvestObject.get(object_id))
    tk.get_action("harvest_jobs_run")({"ignore_auth": True}, {})
    finished = time.perf_counter()
    return {"seconds": finished - started, "gather_seconds": gathered - started, **outcome(job.id)}


def outcome(job_id: str) -> dict[str, Any]:
    """The job's objects' report statuses and first errors, read once the job is timed (a consumer reads neither)."""
    import ckan.model as model
    import sqlalchemy as sa
    from ckanext.harvest.model import HarvestObject, HarvestObjectError

    of_job = HarvestObject.harvest_job_id == job_id
    statuses = {f"{state}/{report}": count for state, report, count in
                model.Session.query(HarvestObject.state, HarvestObject.report_status, sa.func.count())
                .filter(of_job).group_by(HarvestObject.state, HarvestObject.report_status)}
    errors = [message[:300] for (message,) in
              model.Session.query(HarvestObjectError.message).join(HarvestObject).filter(of_job)
              .distinct().order_by(HarvestObjectError.message).limit(5)]
    return {"statuses": statuses, "errors": errors}


def landed() -> dict[str, int]:
    """Datasets and resources now in the database (the fairness check: both sides land the same)."""
    import ckan.model as model

    datasets = model.Session.query(model.Package).filter(model.Package.type == "dataset").all()
    return {"datasets": len(datasets), "resources": sum(len(d.resources) for d in datasets)}


def through_consumers(source_id: str, broker: str, env: Optional[dict[str, str]] = None,
                      options: Optional[dict[str, str]] = None) -> dict[str, Any]:
    """One job of the source through real consumer processes on ``broker``: one gather consumer and FETCH_CONSUMERS
    fetch consumers, each a ``ckan harvester`` process (``env`` over this process's variables, ``options`` over
    test.ini's); this process creates
    the job and runs ``harvest_jobs_run`` until the job is finished, as the harvest UI and the portal's periodic
    ``ckan harvester run`` would. Inside an app's request context whose configuration names ``broker``."""
    import ckan.model as model
    import ckan.plugins.toolkit as tk
    from tests.support.brokers import consumer_ini, declare_empty_queues, wait_for_consumers

    ckan = str(Path(sys.executable).parent / "ckan")
    with tempfile.TemporaryDirectory() as folder:
        declare_empty_queues()
        ini = consumer_ini(broker, Path(folder), options)
        kinds = ["gather-consumer"] + ["fetch-consumer"] * FETCH_CONSUMERS
        processes = [subprocess.Popen([ckan, "-c", str(ini), "harvester", kind], env={**os.environ, **(env or {})},
                                      cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                     for kind in kinds]
        try:
            wait_for_consumers(broker, FETCH_CONSUMERS)
            context = {"ignore_auth": True, "user": tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"]}
            started = time.perf_counter()
            job = tk.get_action("harvest_job_create")(dict(context), {"source_id": source_id, "run": True})
            while True:
                time.sleep(0.5)
                tk.get_action("harvest_jobs_run")(dict(context), {})
                model.Session.remove()
                if tk.get_action("harvest_job_show")(dict(context), {"id": job["id"]})["status"] == "Finished":
                    break
            seconds = time.perf_counter() - started
            peak = max(memory_kib("VmHWM", process.pid) for process in processes[1:])
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                process.wait(timeout=60)
    return {"seconds": seconds, "peak_kib": peak, "job_id": job["id"]}
