"""Harvesting MR sites with the ``passport`` harvester, against ckanext-dcat's RDF harvester, at two sizes and
through both queue backends.

Run from the repository root: ``.venv/bin/python bench/bench_harvest.py`` (``make bench`` starts the services).

1. First harvest of a 1,000-passport site, datasets per second, as a ratio to the floor: CKAN's own write path,
   the very dataset dicts that harvest gave ``package_create`` written again by bare ``package_create`` calls in
   one process (same schema, plugins, context and site config; the index committed as our default
   ``index_commit: "soft"`` commits it, one soft commit per dataset; target >= 0.85). Beside it, as a ratio to
   ckanext-dcat's ``dcat_rdf`` harvester landing the same 1,000 datasets (same titles, descriptions, publishers,
   keywords and resources) from one Turtle catalog (no target: both pay the floor). Both harvests run with the
   site's ``ckan.search.solr_commit`` on (CKAN's default),
   printed beside the figure with what each harvester does with it: dcat_rdf gets CKAN's indexing (two index
   passes and two hard commits per new dataset, before the database commit); ours its default ``index_commit:
   "soft"`` (one index pass after the database commit, one soft commit). Ours with ``index_commit: "hard"`` (the
   same with one hard commit) is printed too, without a target.
2. Re-harvest of the unchanged site: wall time as a ratio to the first harvest (target <= 0.2).
3. Peak memory (``VmHWM``) of the process running the fetch and import stages over the objects, in MiB.
4. The same first harvest through real queue consumers (one ``gather-consumer`` and two ``fetch-consumer``
   processes, as a portal runs them) on Redis and on RabbitMQ: datasets per second from the job's creation to
   its end, RabbitMQ's as a ratio to Redis's (no target: both must land every dataset).
5. A site the size of fedstat's registry (``BENCH_HARVEST_LARGE``, 6,692 passports, the same six forms mixed):
   first harvest end to end (gather, fetch, import) in time per dataset as a ratio to the 1,000-passport run's
   (target <= 1.1), peak memory as a ratio to that run's (target <= 1.2), and the unchanged re-harvest as a ratio
   to its own first harvest (target <= 0.04); then its Conformance tab after that re-harvest (bench_conformance.py's
   ``tab_figures``): p50 of one view (target <= 1 s) as a ratio to the 1,000-passport source's tab, and the heap
   peak of one view as a ratio to that tab's (target <= 1.2: one page of passports each).

The sites are generated in a temporary folder: one sixth each of ``meta.json``, ``meta.xml``, ``meta.csv``
(UTF-8), ``meta.csv`` in Windows-1251, MR 2.3 three-column CSV and RDFa pages, written by the project's own
MR writers (the MR 2.3 CSV and the RDFa page from small templates), with a ``list.csv`` registry. They are served
by the suite's real HTTP server (``tests/support/http_site.py``: Last-Modified, 304 on If-Modified-Since).

Each in-process harvest runs in a fresh child process (``--run``) that calls the harvest stages the way
``ckanext.harvest.tests.lib.run_harvest_job`` does (gather, then fetch + import per object, then
``harvest_jobs_run``), so each process's memory is its own: it does what ``ckan harvester gather-consumer`` and
``fetch-consumer`` would do for one job. All harvesters run with the same plugins, site config, database
``ckan_bench`` (emptied before each first harvest) and Solr core (this site id's documents cleared); times
exclude process start and setup.

It is a benchmark, not a test: it prints a table and exits 0 whatever the figures.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, Iterator, Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ckanext.passport.mr.inn import is_valid_inn  # noqa: E402
from ckanext.passport.mr.model import (  # noqa: E402
    STANDARD_3_0,
    DataVersion,
    MRDate,
    Passport,
    Publisher,
    Registry,
    RegistryEntry,
    StructureVersion,
)
from ckanext.passport.mr.passport import parse_passport  # noqa: E402
from ckanext.passport.mr.writers.passport import write_passport  # noqa: E402
from ckanext.passport.mr.writers.registry import write_registry  # noqa: E402

INI = ROOT / "test.ini"
DATABASE = os.environ.get("BENCH_DATABASE", "ckan_bench")  # another for a bench run beside others
DB_URL = f"postgresql://ckan:ckan@127.0.0.1:5433/{DATABASE}"
SITE_ID = os.environ.get("BENCH_SITE_ID", "bench")  # its queues and index entries: another beside others
PG_PORT = "5433"
DATASETS = int(os.environ.get("BENCH_HARVEST_DATASETS", "1000"))  # smaller for a quick try
LARGE = int(os.environ.get("BENCH_HARVEST_LARGE", "6692"))  # fedstat's registry; 0 skips the large site
TARGET_FLOOR = 0.85  # ours / package_create floor, datasets per second: at least
TARGET_REHARVEST = 0.2  # re-harvest / first harvest, wall time: at most
TARGET_LARGE_TIME = 1.1  # large site / 1,000 site, seconds per dataset: at most
TARGET_LARGE_MEMORY = 1.2  # large site / 1,000 site, peak RSS: at most
TARGET_LARGE_REHARVEST = 0.04  # large site re-harvest / its first harvest: at most (one conditional request each)
TARGET_LARGE_TAB = 1.0  # the large source's Conformance tab, p50 of one view in seconds: at most
TARGET_LARGE_TAB_MEMORY = 1.2  # the heap peak of one view of that tab / the 1,000 site's: at most (one page each)
TAB_SAMPLES = 5
FETCH_CONSUMERS = 2
COMMITS = {  # what each run does with the site's ckan.search.solr_commit = true
    "dcat": "CKAN's: 2 index passes, 2 hard commits per new dataset",
    "passport": "index_commit=soft: 1 index pass after the database commit, 1 soft commit",
    "passport-hard": "index_commit=hard: 1 index pass after the database commit, 1 hard commit",
}
# Where the data and structure files "live": never fetched (fetch_structures is off), identical on both sides.
FILES_HOST = "https://opendata.example.ru"
# Valid INNs (check digits verified below), so the harvested records carry publisher_id.
INNS = ("7708234640", "7703092752", "2618017120", "7707083893", "7736050003")
FORMS = ("meta.json", "meta.xml", "meta.csv", "meta.csv-1251", "mr23.csv", "rdfa")
# Where the 1,000-passport first harvest writes the dicts it gave package_create, for the floor's run.
FLOOR_DICTS = "BENCH_FLOOR_DICTS"


# -- the site ---------------------------------------------------------------------------------------------

def mr_date(day: date) -> MRDate:
    return MRDate(day.strftime("%Y%m%d"), day)


def make_passport(number: int, series: str = "bench") -> Passport:
    """One passport: two data versions and one structure version (three resources on either side); its identifier
    is ``<INN>-<series><number>``."""
    inn = INNS[number % len(INNS)]
    identifier = f"{inn}-{series}{number:04d}"
    folder = f"{FILES_HOST}/opendata/{identifier}"
    created, first, second = date(2020, 1, 1), date(2023, 1, 1), date(2024, 1, 1) + timedelta(days=number % 300)
    structure = "20200101T0000"
    versions = [
        DataVersion(source=f"{folder}/data-{day:%Y%m%d}T0000-structure-{structure}.csv", version=f"{day:%Y%m%d}T0000",
                    structure_version=structure, created=mr_date(day), provenance="Плановое обновление", format="csv")
        for day in (second, first)
    ]
    return Passport(
        standard_version=STANDARD_3_0,
        identifier=identifier,
        title=f"Реестр объектов образования, набор {number}",
        description=f"Перечень образовательных организаций района № {number % 40} с адресами и контактами.",
        creator=f"Администрация муниципального района № {number % 40}",
        publisher=Publisher(name="Иванов Иван Иванович", phone="+7 495 123-45-67", mbox=f"opendata{number % 10}@example.ru"),
        created=mr_date(created),
        modified=mr_date(second),
        subject=["образование", "школы", f"район {number % 40}"],
        format="csv",
        provenance="Плановое обновление",
        periodicity="ежеквартально",
        data_versions=versions,
        structure_versions=[StructureVersion(source=f"{folder}/structure-{structure}.csv", version=structure,
                                             created=mr_date(created), format="csv")],
    )


MR23_ROWS = (
    ("Идентификационный номер (код) набора данных", lambda p: p.identifier),
    ("Наименование набора данных", lambda p: p.title),
    ("Описание набора данных", lambda p: p.description),
    ("Владелец набора данных", lambda p: p.creator),
    ("Ответственное лицо", lambda p: p.publisher.name),
    ("Телефон ответственного лица", lambda p: p.publisher.phone),
    ("Адрес электронной почты ответственного лица", lambda p: p.publisher.mbox),
    ("Гиперссылка (URL) на набор", lambda p: p.data_versions[0].source),
    ("Формат данных", lambda p: p.format.upper()),
    ("Описание структуры набора данных", lambda p: p.structure_versions[0].source),
    ("Дата первой публикации набора данных", lambda p: f"{p.created.value:%d.%m.%Y}"),
    ("Дата последнего внесения изменений", lambda p: f"{p.modified.value:%d.%m.%Y}"),
    ("Содержание последнего изменения", lambda p: p.provenance),
    ("Периодичность актуализации набора данных", lambda p: p.periodicity),
    ("Ключевые слова, соответствующие содержанию набора данных", lambda p: ", ".join(p.subject)),
    ("Гиперссылки (URL) на версии набора данных", lambda p: " ".join(v.source for v in p.data_versions[1:]) or "null"),
    ("Гиперссылки (URL) на версии структуры набора данных", lambda p: "null"),
)


def mr23_csv(passport: Passport) -> bytes:
    """MR 2.3 Appendix 1: ``№;Характеристика;Значение``, 17 rows, Windows-1251 as such sites publish it."""
    lines = ["№;Характеристика;Значение"]
    lines += [f"{number};{name};{value(passport)}" for number, (name, value) in enumerate(MR23_ROWS, start=1)]
    return ("\r\n".join(lines) + "\r\n").encode("cp1251")


RDFA_PAGE = """<!DOCTYPE html>
<html lang="ru"><head><meta charset="utf-8"><title>{title}</title></head>
<body><main>
<h1>Паспорт набора открытых данных</h1>
<div about="/opendata/{identifier}/" typeof="foaf:Document">
 <div rel="dc:conformsTo" resource="{standard}"></div>
 <table>
  <tr><td>1</td><td>Идентификационный номер</td><td property="dc:identifier">{identifier}</td></tr>
  <tr><td>2</td><td>Наименование набора данных</td><td property="dc:title">{title}</td></tr>
  <tr><td>3</td><td>Описание набора данных</td><td property="dc:description">{description}</td></tr>
  <tr><td>4</td><td>Владелец набора данных</td><td property="dc:creator">{creator}</td></tr>
  <tr><td>5</td><td>Ответственное лицо</td><td rel="dc:publisher" resource="#publisher">
   <span typeof="foaf:Person" about="#publisher" property="foaf:name">{publisher}</span></td></tr>
  <tr><td>6</td><td>Телефон</td><td rel="dc:publisher" resource="#publisher">
   <span about="#publisher" property="foaf:phone">{phone}</span></td></tr>
  <tr><td>7</td><td>E-mail</td><td rel="dc:publisher" resource="#publisher">
   <span about="#publisher" property="foaf:mbox">{mbox}</span></td></tr>
  <tr><td>9</td><td>Формат данных</td><td property="dc:format" content="{format}">{format}</td></tr>
  <tr><td>11</td><td>Дата первой публикации</td><td property="dc:created" content="{created}">{created}</td></tr>
  <tr><td>12</td><td>Дата последнего изменения</td><td property="dc:modified" content="{modified}">{modified}</td></tr>
  <tr><td>13</td><td>Содержание последнего изменения</td><td property="dc:provenance">{provenance}</td></tr>
  <tr><td>14</td><td>Периодичность</td><td property="dc:valid">{periodicity}</td></tr>
  <tr><td>15</td><td>Ключевые слова</td><td property="dc:subject">{subject}</td></tr>
 </table>
 <div rel="dc:source" resource="#data"></div>
</div>
<div typeof="dc:Collection" about="#data">{data}
</div>
<div typeof="dc:Collection" about="#structure">{structures}
</div>
</main></body></html>
"""
RDFA_DATA = """
 <div rel="dc:hasPart" resource="#data-{version}"><div typeof="foaf:Document" about="#data-{version}">
  <div property="dc:source" content="{source}"></div>
  <div property="dc:created" content="{created}"></div>
  <div property="dc:provenance" content="{provenance}"></div>
  <div rel="dc:conformsTo" resource="#structure-{structure}"></div>
 </div></div>"""
RDFA_STRUCTURE = """
 <div rel="dc:hasPart" resource="#structure-{version}"><div typeof="foaf:Document" about="#structure-{version}">
  <div property="dc:source" content="{source}"></div>
  <div property="dc:created" content="{created}"></div>
 </div></div>"""


def rdfa_page(passport: Passport) -> bytes:
    """The dataset page with the MR RDFa passport (the shape of the demo site's politicaldivisions page)."""
    iso = lambda day: f"{day.value:%Y-%m-%d}"  # noqa: E731
    data = "".join(RDFA_DATA.format(version=v.version, source=v.source, created=iso(v.created),
                                    provenance=v.provenance, structure=v.structure_version)
                   for v in passport.data_versions)
    structures = "".join(RDFA_STRUCTURE.format(version=s.version, source=s.source, created=iso(s.created))
                         for s in passport.structure_versions)
    return RDFA_PAGE.format(
        identifier=passport.identifier, title=passport.title, description=passport.description,
        creator=passport.creator, publisher=passport.publisher.name, phone=passport.publisher.phone,
        mbox=passport.publisher.mbox, format=passport.format, created=iso(passport.created),
        modified=iso(passport.modified), provenance=passport.provenance, periodicity=passport.periodicity,
        subject=", ".join(passport.subject), standard=passport.standard_version, data=data, structures=structures,
    ).encode("utf-8")


def publish(passport: Passport, form: str, opendata: Path) -> tuple[str, Path]:
    """Write one passport in ``form``; returns the registry link (site-relative) and the file written."""
    identifier = passport.identifier
    folder = opendata / identifier
    folder.mkdir(parents=True, exist_ok=True)
    if form == "mr23.csv":  # MR 2.3 file passport beside the page: /opendata/<id>.csv
        path = opendata / f"{identifier}.csv"
        path.write_bytes(mr23_csv(passport))
        return f"/opendata/{identifier}.csv", path
    if form == "rdfa":  # the registry links the dataset page
        path = folder / "index.html"
        path.write_bytes(rdfa_page(passport))
        return f"/opendata/{identifier}/", path
    if form == "meta.csv-1251":
        path = folder / "meta.csv"
        path.write_bytes(write_passport(passport, "meta.csv").decode("utf-8").encode("cp1251"))
        return f"/opendata/{identifier}/meta.csv", path
    path = folder / form
    path.write_bytes(write_passport(passport, form))
    return f"/opendata/{identifier}/{form}", path


@dataclass
class Site:
    root: Path
    passports: list[Passport]  # as our parsers read them back: what the DCAT catalog describes too
    forms: dict[str, int]


def build_site(root: Path, size: int = DATASETS, series: str = "bench") -> Site:
    """The MR site of ``size`` passports, and each passport as our own parser reads it back from the file written.
    Sites of another ``series`` share no identifier with this one's: their sources' records never claim each other's."""
    if not all(is_valid_inn(inn) for inn in INNS):
        raise RuntimeError("INNS must hold valid INNs")
    opendata = root / "opendata"
    entries, read_back, forms = [], [], {}
    for number in range(size):
        passport, form = make_passport(number, series), FORMS[number % len(FORMS)]
        link, path = publish(passport, form, opendata)
        entries.append(RegistryEntry(identifier=passport.identifier, title=passport.title, link=link, format="csv"))
        parsed = parse_passport(path.read_bytes(), f"http://site{link}")
        if parsed.value is None or parsed.value.identifier != passport.identifier:
            raise RuntimeError(f"generated {form} passport does not read back: {[p.code for p in parsed.problems]}")
        read_back.append(parsed.value)
        label = f"{form} ({parsed.form}, {parsed.encoding})"  # as written (as read back, encoding found)
        forms[label] = forms.get(label, 0) + 1
    (opendata / "list.csv").write_bytes(write_registry(Registry(STANDARD_3_0, entries), "list.csv"))
    return Site(root, read_back, forms)


# -- the same datasets as one DCAT catalog ------------------------------------------------------------------

def dcat_catalog(passports: list[Passport], path: Path) -> int:
    """One dcat:Dataset per passport; one dcat:Distribution per data version and per structure version, so
    both harvesters land the same number of resources. Returns the number of distributions."""
    from rdflib import BNode, Graph, Literal, Namespace, URIRef
    from rdflib.namespace import DCAT, DCTERMS, FOAF, RDF, XSD

    vcard = Namespace("http://www.w3.org/2006/vcard/ns#")
    graph = Graph()
    graph.bind("dcat", DCAT), graph.bind("dct", DCTERMS), graph.bind("foaf", FOAF), graph.bind("vcard", vcard)
    catalog = URIRef(f"{FILES_HOST}/catalog")
    graph.add((catalog, RDF.type, DCAT.Catalog))
    graph.add((catalog, DCTERMS.title, Literal("Bench MR site", lang="ru")))
    distributions = 0
    for passport in passports:
        dataset = URIRef(f"{FILES_HOST}/opendata/{passport.identifier}")
        graph.add((catalog, DCAT.dataset, dataset))
        graph.add((dataset, RDF.type, DCAT.Dataset))
        graph.add((dataset, DCTERMS.identifier, Literal(passport.identifier)))
        graph.add((dataset, DCTERMS.title, Literal(passport.title)))
        graph.add((dataset, DCTERMS.description, Literal(passport.description)))
        graph.add((dataset, DCTERMS.issued, Literal(passport.created.value.isoformat(), datatype=XSD.date)))
        graph.add((dataset, DCTERMS.modified, Literal(passport.modified.value.isoformat(), datatype=XSD.date)))
        publisher = BNode()
        graph.add((dataset, DCTERMS.publisher, publisher))
        graph.add((publisher, RDF.type, FOAF.Organization))
        graph.add((publisher, FOAF.name, Literal(passport.creator)))
        contact = BNode()
        graph.add((dataset, DCAT.contactPoint, contact))
        graph.add((contact, RDF.type, vcard.Kind))
        graph.add((contact, vcard.fn, Literal(passport.publisher.name)))
        graph.add((contact, vcard.hasEmail, URIRef(f"mailto:{passport.publisher.mbox}")))
        for keyword in passport.subject:
            graph.add((dataset, DCAT.keyword, Literal(keyword)))
        files = [(v.source, f"data-{v.version}-structure-{v.structure_version}", v.created) for v in passport.data_versions]
        files += [(s.source, f"structure-{s.version}", s.created) for s in passport.structure_versions]
        for source, name, created in files:
            distribution = URIRef(source)
            graph.add((dataset, DCAT.distribution, distribution))
            graph.add((distribution, RDF.type, DCAT.Distribution))
            graph.add((distribution, DCTERMS.title, Literal(name)))
            graph.add((distribution, DCAT.accessURL, URIRef(source)))
            graph.add((distribution, DCAT.downloadURL, URIRef(source)))
            graph.add((distribution, DCTERMS.format, Literal("CSV")))
            if created is not None and created.value is not None:
                day = created.value.date() if isinstance(created.value, datetime) else created.value
                graph.add((distribution, DCTERMS.issued, Literal(day.isoformat(), datatype=XSD.date)))
            distributions += 1
    graph.serialize(destination=str(path), format="turtle")
    return distributions


# -- the database -------------------------------------------------------------------------------------------

def bench_env() -> dict[str, str]:
    return dict(os.environ, CKAN_INI=str(INI), CKAN_SQLALCHEMY_URL=DB_URL, CKAN_SITE_ID=SITE_ID)


def ensure_database() -> None:
    """Create ``ckan_bench`` (the role ``ckan`` may not create databases) and bring its schema up to date."""
    import psycopg2

    try:
        psycopg2.connect(DB_URL).close()
    except psycopg2.OperationalError as error:
        if "does not exist" not in str(error):
            raise
        as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else ["sudo", "-u", "postgres"]
        subprocess.run(as_postgres + ["createdb", "-p", PG_PORT, "-O", "ckan", "-E", "utf-8", DATABASE], check=True)
    ckan = str(Path(sys.executable).parent / "ckan")
    for command in (["db", "init"], ["db", "pending-migrations", "--apply"]):
        subprocess.run([ckan, *command], env=bench_env(), cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def empty_database() -> None:
    """Every row out of every table but the migration bookkeeping: each first harvest starts from nothing."""
    import psycopg2

    with psycopg2.connect(DB_URL) as connection, connection.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                       "AND tablename NOT LIKE '%%alembic_version%%'")
        tables = ", ".join(f'"{name}"' for (name,) in cursor.fetchall())
        cursor.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
    connection.close()


# -- one harvest job, in a child process --------------------------------------------------------------------

def configured(extra_plugins: str = "dcat_rdf_harvester") -> Any:
    """test.ini on the bench database; both harvesters' plugins loaded in both children, so neither pays for
    the other's absence."""
    from ckan.cli import load_config

    config = load_config(str(INI))
    config["sqlalchemy.url"] = DB_URL
    config["ckan.site_id"] = SITE_ID
    config["ckan.plugins"] = f"{config['ckan.plugins']} {extra_plugins}"
    return config


def memory_kib(field: str, pid: object = "self") -> int:
    """``field`` (``VmRSS``, ``VmHWM``) of process ``pid``'s status, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def reset_peak() -> None:
    # Writing 5 to clear_refs resets the peak resident set (VmHWM) to the current one: the peak read after
    # the job is the job's, not the imports' and the app's.
    Path("/proc/self/clear_refs").write_text("5")


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


@contextmanager
def lenient_validation(active: bool) -> Iterator[None]:
    from ckanext.passport.catalog import validators

    original = validators.harvesting
    if active:
        validators.harvesting = lambda context: True
    try:
        yield
    finally:
        validators.harvesting = original


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


@contextmanager
def created_dicts(path: Optional[str]) -> Iterator[None]:
    """Inside the block every dict the harvest gives ``package_create`` is written to ``path``, a JSON line each,
    as it was given (less the id the harvest makes), with the harvest's context less its user; nothing without a
    path. Written as they come, not kept, so the run's peak memory stays its own."""
    if not path:
        yield
        return
    import copy

    from ckanext.passport.harvest import records

    create_record = records.create_record
    with open(path, "w", encoding="utf-8") as lines:

        def writing(harvested: dict, harvest_object: Any, previous: Any, config: Any, context: dict) -> None:
            given = copy.deepcopy(harvested)
            create_record(harvested, harvest_object, previous, config, context)  # sets the new record's state
            given["editorial_state"] = harvested.get("editorial_state")
            flags = {key: value for key, value in context.items() if key != "user"}
            lines.write(json.dumps({"context": flags, "dataset": given}, ensure_ascii=False, default=str) + "\n")

        records.create_record = writing
        try:
            yield
        finally:
            records.create_record = create_record


def child(kind: str, url: str) -> dict[str, Any]:
    """Harvest ``url`` in this process: first harvest, then (ours) the re-harvest of the unchanged site."""
    from ckan.config.middleware import make_app
    from ckan.lib.search import clear_all

    app = make_app(configured())
    with app._wsgi_app.test_request_context():
        clear_all()
        source_id = create_source(kind, url)
        harvester = dcat_harvester() if kind == "dcat" else passport_harvester()
        before = memory_kib("VmRSS")
        reset_peak()
        with lenient_validation(kind == "dcat"), created_dicts(os.environ.get(FLOOR_DICTS)):
            result: dict[str, Any] = {"first": run_job(source_id, harvester)}
            result["peak_kib"], result["before_kib"] = memory_kib("VmHWM"), before
            result["landed"] = landed()
            if kind == "passport":
                result["again"] = run_job(source_id, harvester)
                result["tab"] = conformance_tab(app, source_id)
    return result


def conformance_tab(app: Any, source_id: str) -> dict[str, float]:
    """The source's Conformance tab after its re-harvest, as bench_conformance.py measures a tab (its figures)."""
    import ckan.plugins.toolkit as tk

    import bench_conformance

    name = tk.get_action("harvest_source_show")({"ignore_auth": True}, {"id": source_id})["name"]
    return bench_conformance.tab_figures(app, name, TAB_SAMPLES)


def consumers_child(broker: str, url: str) -> dict[str, Any]:
    """Harvest ``url`` through real consumer processes on ``broker`` (:func:`through_consumers`)."""
    from tests.support.brokers import BROKERS
    from ckan.config.middleware import make_app
    from ckan.lib.search import clear_all

    config = configured()
    config.update(BROKERS[broker])
    app = make_app(config)
    with app._wsgi_app.test_request_context():
        clear_all()
        return {**through_consumers(create_source("passport", url), broker), "landed": landed()}


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


def floor_child(path: str) -> dict[str, Any]:
    """The floor: the dicts of ``path`` (what the first harvest gave ``package_create``) written again by bare
    ``package_create`` calls, each in the harvest's own context, into an organization of their own; the index committed
    as the harvest's default ``index_commit: "soft"`` does (CKAN's index pass without its commit, then one soft
    commit per dataset)."""
    import ckan.plugins.toolkit as tk
    from ckan.config.middleware import make_app
    from ckan.lib.search import clear_all
    from ckan.lib.search.common import make_connection

    app = make_app(configured())
    tk.config["ckan.search.solr_commit"] = False
    with app._wsgi_app.test_request_context():
        clear_all()
        user = tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"]
        owner = tk.get_action("organization_create")({"user": user, "ignore_auth": True}, {"name": "bench-floor"})
        with open(path, encoding="utf-8") as lines:
            created = [json.loads(line) for line in lines]
        solr = make_connection()
        started = time.perf_counter()
        for given in created:
            tk.get_action("package_create")({**given["context"], "user": user, "return_id_only": True},
                                            {**given["dataset"], "owner_org": owner["id"]})
            solr.commit(softCommit=True)
        seconds = time.perf_counter() - started
        return {"first": {"seconds": seconds}, "landed": landed()}


def run_child(kind: str, url: str, env: Optional[dict[str, str]] = None) -> dict[str, Any]:
    empty_database()
    mode = {"redis": "--consumers", "amqp": "--consumers", "floor": "--floor"}.get(kind, "--run")
    process = subprocess.run([sys.executable, __file__, mode, kind, url], cwd=ROOT,
                             env={**bench_env(), **(env or {})}, capture_output=True, text=True)
    if process.returncode != 0:
        raise RuntimeError(f"the {kind} harvest failed:\n{process.stderr[-5000:]}")
    return json.loads(process.stdout.strip().splitlines()[-1])


# -- the report ---------------------------------------------------------------------------------------------

def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def rate(side: dict[str, Any]) -> float:
    return side["landed"]["datasets"] / side["first"]["seconds"]


def row(name: str, ours: float, baseline: float, ratio: Optional[float] = None, target: str = "",
        ok: bool = True, digits: int = 1) -> None:
    ratio_text = f"{ratio:>8.2f}" if ratio is not None else " " * 8
    verdict_text = f"  {target}  {verdict(ok)}" if target else ("  (no target)" if ratio is not None else "")
    print(f"{name:<52}{ours:>12.{digits}f}{baseline:>12.{digits}f}{ratio_text}{verdict_text}")


def report(site: Site, distributions: int, runs: dict[str, dict[str, Any]], large: Optional[Site]) -> None:
    ours, dcat, hard = runs["passport"], runs["dcat"], runs["passport-hard"]
    first, again = ours["first"], ours["again"]
    print(f"site: {DATASETS} passports, " + ", ".join(f"{n} {form}" for form, n in site.forms.items()))
    print(f"DCAT catalog: {DATASETS} dcat:Dataset, {distributions} dcat:Distribution (Turtle)")
    print("site config for every run: ckan.search.solr_commit = true (CKAN's default)")
    for kind, name in (("passport", "passport"), ("dcat", "dcat_rdf"), ("passport-hard", "passport hard")):
        side = runs[kind]
        print(f"  {name:<14} landed {side['landed']['datasets']} datasets, {side['landed']['resources']} resources;"
              f" objects {side['first']['statuses']}; commits: {COMMITS[kind]}")
    print(f"  passport re-harvest objects {again['statuses']}")
    print(f"  floor          wrote {runs['floor']['landed']['datasets']} datasets, "
          f"{runs['floor']['landed']['resources']} resources by bare package_create (one soft commit each)")
    for broker in ("redis", "amqp"):
        side = runs[broker]
        print(f"  consumers on {broker:<6} landed {side['landed']['datasets']} datasets, "
              f"{side['landed']['resources']} resources (1 gather, {FETCH_CONSUMERS} fetch consumers)")
    for name, job in (("passport", first), ("dcat_rdf", dcat["first"]), ("passport re-harvest", again)):
        for message in job["errors"]:
            print(f"  {name} object error: {message}")
    print()
    print(f"{'figure':<52}{'ours':>12}{'baseline':>12}{'ratio':>8}  target")
    floor = runs["floor"]
    speed = rate(ours) / rate(floor)
    row("first harvest, datasets/s (vs package_create floor)", rate(ours), rate(floor), speed,
        f">= {TARGET_FLOOR}", speed >= TARGET_FLOOR)
    row("first harvest, datasets/s (vs dcat_rdf)", rate(ours), rate(dcat), rate(ours) / rate(dcat))
    row("  with index_commit=hard (one hard commit)", rate(hard), rate(dcat), rate(hard) / rate(dcat))
    print(f"{'  wall time, s (gather part)':<52}{first['seconds']:>6.1f} ({first['gather_seconds']:>3.1f})"
          f"{dcat['first']['seconds']:>6.1f} ({dcat['first']['gather_seconds']:>3.1f})")
    reharvest = again["seconds"] / first["seconds"]
    row("re-harvest unchanged, s (vs our first)", again["seconds"], first["seconds"], reharvest,
        f"<= {TARGET_REHARVEST}", reharvest <= TARGET_REHARVEST)
    print(f"{'  re-harvest gather part, s':<52}{again['gather_seconds']:>12.1f}")
    row("harvest process peak RSS (VmHWM), MiB", ours["peak_kib"] / 1024, dcat["peak_kib"] / 1024,
        ours["peak_kib"] / dcat["peak_kib"])
    print(f"{'  growth over RSS before the job, MiB':<52}{(ours['peak_kib'] - ours['before_kib']) / 1024:>12.1f}"
          f"{(dcat['peak_kib'] - dcat['before_kib']) / 1024:>12.1f}")
    redis, amqp = runs["redis"], runs["amqp"]
    redis_rate, amqp_rate = (side["landed"]["datasets"] / side["seconds"] for side in (redis, amqp))
    row(f"consumers (1+{FETCH_CONSUMERS}), datasets/s: RabbitMQ (vs Redis)", amqp_rate, redis_rate,
        amqp_rate / redis_rate)
    row("  vs in-process first harvest (Redis / ours)", redis_rate, rate(ours), redis_rate / rate(ours))
    row("  fetch consumer peak RSS, MiB: RabbitMQ (vs Redis)", amqp["peak_kib"] / 1024, redis["peak_kib"] / 1024,
        amqp["peak_kib"] / redis["peak_kib"])
    if large is None:
        return
    big = runs["large"]
    print()
    print(f"large site: {LARGE} passports, " + ", ".join(f"{n} {form}" for form, n in large.forms.items()))
    print(f"  passport landed {big['landed']['datasets']} datasets, {big['landed']['resources']} resources;"
          f" objects {big['first']['statuses']}; re-harvest objects {big['again']['statuses']}")
    for message in big["first"]["errors"] + big["again"]["errors"]:
        print(f"  large site object error: {message}")
    per_dataset = big["first"]["seconds"] / big["landed"]["datasets"] * 1000
    baseline = first["seconds"] / ours["landed"]["datasets"] * 1000
    row(f"{LARGE} first harvest, ms/dataset (vs {DATASETS})", per_dataset, baseline, per_dataset / baseline,
        f"<= {TARGET_LARGE_TIME}", per_dataset / baseline <= TARGET_LARGE_TIME)
    print(f"{'  wall time, s (gather part)':<52}{big['first']['seconds']:>6.1f} ({big['first']['gather_seconds']:>3.1f})")
    memory = big["peak_kib"] / ours["peak_kib"]
    row(f"  peak RSS, MiB (vs {DATASETS})", big["peak_kib"] / 1024, ours["peak_kib"] / 1024, memory,
        f"<= {TARGET_LARGE_MEMORY}", memory <= TARGET_LARGE_MEMORY)
    reharvest = big["again"]["seconds"] / big["first"]["seconds"]
    row(f"{LARGE} re-harvest unchanged, s (vs its first)", big["again"]["seconds"], big["first"]["seconds"],
        reharvest, f"<= {TARGET_LARGE_REHARVEST}", reharvest <= TARGET_LARGE_REHARVEST)
    tab, small_tab = big["tab"], ours["tab"]
    row(f"{LARGE} Conformance tab, p50 view, s (vs {DATASETS})", tab["p50"], small_tab["p50"],
        tab["p50"] / small_tab["p50"], f"p50 <= {TARGET_LARGE_TAB:g} s", tab["p50"] <= TARGET_LARGE_TAB, digits=3)
    heap = tab["peak"] / small_tab["peak"]
    row(f"  heap peak of one view, MiB (vs {DATASETS})", tab["peak"] / 2**20, small_tab["peak"] / 2**20, heap,
        f"<= {TARGET_LARGE_TAB_MEMORY}", heap <= TARGET_LARGE_TAB_MEMORY)


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--run":
        print(json.dumps(child(sys.argv[2], sys.argv[3])))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "--consumers":
        print(json.dumps(consumers_child(sys.argv[2], sys.argv[3])))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "--floor":
        print(json.dumps(floor_child(sys.argv[3])))
        return 0
    from tests.support.http_site import Site as HttpSite

    print(f"database {DATABASE}…", flush=True)
    ensure_database()
    runs: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-harvest-") as folder:
        started = time.perf_counter()
        site = build_site(Path(folder))
        distributions = dcat_catalog(site.passports, Path(folder) / "catalog.ttl")
        print(f"site generated in {time.perf_counter() - started:.0f} s", flush=True)
        server = HttpSite(Path(folder)).start()
        try:
            print("dcat_rdf first harvest…", flush=True)
            runs["dcat"] = run_child("dcat", f"{server.url}/catalog.ttl")
            dicts = str(Path(folder) / "created.jsonl")
            print("passport first harvest and re-harvest…", flush=True)
            runs["passport"] = run_child("passport", f"{server.url}/opendata/list.csv", {FLOOR_DICTS: dicts})
            print("the floor: the same dicts by bare package_create…", flush=True)
            runs["floor"] = run_child("floor", dicts)
            for kind, what in (("passport-hard", "first harvest with index_commit=hard"),
                               ("redis", "first harvest by consumers on Redis"),
                               ("amqp", "first harvest by consumers on RabbitMQ")):
                print(f"passport {what}…", flush=True)
                runs[kind] = run_child(kind, f"{server.url}/opendata/list.csv")
        finally:
            server.stop()
    large = None
    if LARGE:
        with tempfile.TemporaryDirectory(prefix="bench-harvest-large-") as folder:
            started = time.perf_counter()
            large = build_site(Path(folder), LARGE)
            print(f"large site ({LARGE} passports) generated in {time.perf_counter() - started:.0f} s", flush=True)
            server = HttpSite(Path(folder)).start()
            try:
                print("passport first harvest and re-harvest of the large site…", flush=True)
                runs["large"] = run_child("passport", f"{server.url}/opendata/list.csv")
            finally:
                server.stop()
    report(site, distributions, runs, large)
    return 0


if __name__ == "__main__":
    sys.exit(main())
