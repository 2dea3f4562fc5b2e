"""The generated MR site: ``size`` passports in six forms (one sixth each of ``meta.json``, ``meta.xml``, ``meta.csv``
in UTF-8 and in Windows-1251, MR 2.3 three-column CSV and RDFa pages), written by the project's own MR writers (the
MR 2.3 CSV and the RDFa page from small templates), with a ``list.csv`` registry. tests/support/http_site.py serves
it (Last-Modified, 304 on If-Modified-Since)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from ckanext.passport.mr.inn import is_valid_inn
from ckanext.passport.mr.model import (
    STANDARD_3_0,
    DataVersion,
    MRDate,
    Passport,
    Publisher,
    Registry,
    RegistryEntry,
    StructureVersion,
)
from ckanext.passport.mr.passport import parse_passport
from ckanext.passport.mr.writers.passport import write_passport
from ckanext.passport.mr.writers.registry import write_registry

DATASETS = int(os.environ.get("BENCH_HARVEST_DATASETS", "1000"))  # a site's size; smaller for a quick try
# Where the data and structure files "live": never fetched (fetch_structures is off), identical on both sides.
FILES_HOST = "https://opendata.example.ru"
# Valid INNs (check digits verified below), so the harvested records carry publisher_id.
INNS = ("7708234640", "7703092752", "2618017120", "7707083893", "7736050003")
FORMS = ("meta.json", "meta.xml", "meta.csv", "meta.csv-1251", "mr23.csv", "rdfa")


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
