"""Deletions need a fully read registry: a registry cut off or damaged part-way deletes nothing and the gather
says why, and ``max_delete_ratio`` is measured against the largest registry of recent jobs, so a registry
that shrinks a little at every harvest cannot erode the catalog.

The damaged registries are the demo site's real files, cut or broken the way servers and editors break them.
"""
from __future__ import annotations

import json

import pytest
from ckan.tests.helpers import call_action

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}
SIX = 6


def names() -> set[str]:
    return {d["name"] for d in call_action("package_search", rows=50)["results"]}


def gather_errors(job: dict) -> list[str]:
    return [e["message"] for e in call_action("harvest_job_report", id=job["id"])["gather_errors"]]


def deleted(results: dict) -> set[str]:
    return {guid for guid, result in results.items() if result["report_status"] == "deleted"}


def cut_list_xml(data: bytes) -> bytes:
    """The file broken off inside the fifth item's title, as a dropped connection leaves it."""
    fifth = data.index(b"<item>", data.index(b"7701234560-schools"))
    return data[: data.index(b"<title>", fifth) + len("<title>") + 6]


def unclosed_quote(data: bytes) -> bytes:
    """The fourth entry's title opens a quote it never closes: the rows after it fold into one field."""
    return data.replace(b"7701234560-schools,", b'7701234560-schools,"', 1)


def cut_mid_character(data: bytes) -> bytes:
    """The file broken off inside a Cyrillic letter of the fifth entry's title: its tail is no UTF-8."""
    return data[: data.index("Аптеки".encode("utf-8")) + 3]


def unreadable_link(data: bytes) -> bytes:
    """The third entry's link is one no URL parser reads: the entry is skipped, its record not withdrawn."""
    return data.replace(b",/opendata/2618017120-politicaldivisions/meta.json,", b",http://[x/opendata/meta.json,", 1)


@pytest.mark.parametrize(
    ("registry", "damage", "cause"),
    [
        ("list.xml", cut_list_xml, "xml.not_well_formed"),
        ("list.csv", unclosed_quote, "registry.incomplete"),
        ("list.csv", cut_mid_character, "registry.incomplete"),
        ("list.csv", unreadable_link, "registry.entry_unreadable_link"),
    ],
    ids=["list.xml-cut-mid-element", "list.csv-broken-row-structure", "list.csv-undecodable-tail",
         "list.csv-unreadable-link"],
)
def test_a_registry_damaged_part_way_deletes_nothing_and_says_why(
    demo_site, harvest_source, run_harvest, registry, damage, cause
):
    url = f"{demo_site.url}/opendata/{registry}"
    source = harvest_source(url, ALLOW | {"registry_url": url})
    run_harvest(source)
    path = demo_site.root / "opendata" / registry
    path.write_bytes(damage(path.read_bytes()))

    results, job = run_harvest(source)

    # What could be read is still harvested; what could not is not taken as withdrawn.
    assert 3 <= len(results) < SIX
    assert deleted(results) == set()
    assert len(names()) == SIX
    errors = gather_errors(job)
    assert any(f"[{cause}]" in message for message in errors), errors
    assert any("[harvest.registry_incomplete]" in message for message in errors), errors


def test_a_damaged_registry_found_by_discovery_deletes_nothing_either(demo_site, harvest_source, run_harvest):
    source = harvest_source(f"{demo_site.url}/", ALLOW)
    run_harvest(source)
    path = demo_site.root / "opendata" / "list.csv"
    path.write_bytes(cut_mid_character(path.read_bytes()))

    results, job = run_harvest(source)

    assert deleted(results) == set()
    assert len(names()) == SIX
    assert any("[harvest.registry_incomplete]" in message for message in gather_errors(job))


def test_an_intact_registry_that_lost_entries_still_deletes_them(demo_site, harvest_source, run_harvest):
    url = f"{demo_site.url}/opendata/list.csv"
    source = harvest_source(url, ALLOW | {"registry_url": url})
    run_harvest(source)
    path = demo_site.root / "opendata" / "list.csv"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-2]))  # the last two entries withdrawn, the file itself whole

    results, _ = run_harvest(source)

    assert deleted(results) == {"7709876545-pharmacies", "5027123457-bustops"}
    assert len(names()) == SIX - 2


# --- repeated truncation ------------------------------------------------------------------------------------

TEN = 10
INN = "7701234560"


@pytest.fixture
def ten_site(tmp_path, serve_site):
    """A site whose list.csv lists ten small MR 3.0 passports; ``write(n)`` keeps only the first ``n`` entries."""
    root = tmp_path / "ten"
    entries = []
    for n in range(TEN):
        identifier = f"{INN}-set{n}"
        folder = root / "opendata" / identifier
        folder.mkdir(parents=True)
        passport = {"standardversion": "http://opendata.gosmonitor.ru/standard/3.0", "identifier": identifier,
                    "title": f"Набор {n}", "creator": "Тестовое ведомство", "created": "20240101",
                    "modified": "20240201", "format": "csv", "subject": "тест"}
        (folder / "meta.json").write_text(json.dumps(passport, ensure_ascii=False), "utf-8")
        entries.append(f"{identifier},Набор {n},/opendata/{identifier}/meta.json,json\n")
    head = "property,title,value,format\nstandardversion,Версия,http://opendata.gosmonitor.ru/standard/3.0,\n"

    def write(count: int) -> None:
        (root / "opendata" / "list.csv").write_text(head + "".join(entries[:count]), "utf-8")

    write(TEN)
    site = serve_site(root)
    site.write = write
    return site


def test_repeated_truncations_cannot_erode_the_catalog(ten_site, harvest_source, run_harvest):
    url = f"{ten_site.url}/opendata/list.csv"
    source = harvest_source(url, ALLOW | {"registry_url": url, "max_delete_ratio": 0.5})
    run_harvest(source)
    assert len(names()) == TEN

    # 40% gone at once is within max_delete_ratio: a publisher may withdraw that much.
    ten_site.write(6)
    results, _ = run_harvest(source)
    assert len(deleted(results)) == 4
    assert len(names()) == 6

    # Each later cut is within the ratio against the last harvest (two of six, then two of four), but the
    # registry is measured against the largest of recent jobs: four or two left of ten is too few.
    for count in (4, 2):
        ten_site.write(count)
        results, job = run_harvest(source)
        assert deleted(results) == set(), count
        assert len(names()) == 6, count
        assert any("[harvest.mass_deletion]" in message for message in gather_errors(job)), count
