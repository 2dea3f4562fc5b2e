"""Small MR 3.0 sites whose datasets publish data and structure files that agree or do not.

``publish(root, site_url, datasets)`` writes ``/opendata/list.csv`` and, per dataset, a conformant
``meta.json`` (written by the library's own writer) beside its newest data file and its structure file, so
that a site check finds nothing but what the data and structure files themselves say.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ckanext.passport.mr.dates import parse_date
from ckanext.passport.mr.model import (
    STANDARD_3_0, DataVersion, Passport, Publisher, Registry, RegistryEntry, StructureVersion,
)
from ckanext.passport.mr.writers.passport import write_passport
from ckanext.passport.mr.writers.registry import write_registry

VERSION = "20250301T1200"
STRUCTURE = "20250101T0000"


@dataclass
class Dataset:
    """One dataset: the bytes of its data and structure files (``None``: the file is not published)."""

    identifier: str
    data: bytes | None
    structure: bytes | None
    data_format: str = "csv"
    structure_format: str = "csv"


def passport(dataset: Dataset, site_url: str) -> Passport:
    folder = f"{site_url}/opendata/{dataset.identifier}"
    return Passport(
        standard_version=STANDARD_3_0,
        identifier=dataset.identifier,
        title=f"Набор {dataset.identifier}",
        description="Описание набора",
        creator="Администрация",
        publisher=Publisher("Иванов Иван Иванович", "+7 (495) 123-45-67", "opendata@example.ru"),
        created=parse_date("20250101"),
        modified=parse_date("20250301"),
        subject=["данные"],
        format=dataset.data_format,
        data_versions=[DataVersion(
            source=f"{folder}/data-{VERSION}-structure-{STRUCTURE}.{dataset.data_format}", version=VERSION,
            structure_version=STRUCTURE, created=parse_date(VERSION), provenance="Первичная публикация",
            valid=parse_date("20251231"), format=dataset.data_format,
        )],
        structure_versions=[StructureVersion(
            source=f"{folder}/structure-{STRUCTURE}.{dataset.structure_format}", version=STRUCTURE,
            created=parse_date(STRUCTURE), format=dataset.structure_format,
        )],
    )


def publish(root: Path, site_url: str, datasets: list[Dataset]) -> dict[str, Passport]:
    """Write the site under ``root`` (served at ``site_url``); the passports written, by identifier."""
    written = {}
    entries = []
    for dataset in datasets:
        folder = root / "opendata" / dataset.identifier
        folder.mkdir(parents=True, exist_ok=True)
        described = passport(dataset, site_url)
        (folder / "meta.json").write_bytes(write_passport(described, "meta.json"))
        if dataset.data is not None:
            (folder / Path(described.data_versions[0].source).name).write_bytes(dataset.data)
        if dataset.structure is not None:
            (folder / Path(described.structure_versions[0].source).name).write_bytes(dataset.structure)
        written[dataset.identifier] = described
        entries.append(RegistryEntry(dataset.identifier, described.title,
                                     f"{site_url}/opendata/{dataset.identifier}/meta.json", "json"))
    (root / "opendata" / "list.csv").write_bytes(write_registry(Registry(STANDARD_3_0, entries), "list.csv"))
    return written


STRUCTURE_CSV = (
    "field name,english description,russian description,format\r\n"
    "name,Name,Название,string\r\n"
    "address,Address,Адрес,string\r\n"
    "hours,Opening hours,Часы работы,string\r\n"
).encode("utf-8")
DATA_CSV = 'name,address,hours\r\n"Аптека № 5","ул. Полянка, 2",08:00-22:00\r\n'.encode("utf-8")
