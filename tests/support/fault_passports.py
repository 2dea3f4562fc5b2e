"""A valid MR 3.0 passport (meta.json) of the fault sites the harvest and conformance tests serve beside broken ones,
and a site of one such passport."""
from __future__ import annotations

import json
from pathlib import Path


def valid_passport(identifier: str, title: str) -> dict:
    """Every field MR 3.0 requires, one data version and its structure, in the dataset's own folder."""
    return {
        "standardversion": "http://opendata.gosmonitor.ru/standard/3.0",
        "identifier": identifier,
        "title": title,
        "description": f"Описание набора {title}",
        "creator": "Тестовое ведомство",
        "created": "20240101",
        "modified": "20240201",
        "subject": "тест, набор",
        "format": "csv",
        "data": [{"source": f"/opendata/{identifier}/data-20240201T0000-structure-20240101T0000.csv",
                  "created": "20240201T0000", "provenance": "Обновление", "structure": "20240101T0000"}],
        "structure": [{"source": f"/opendata/{identifier}/structure-20240101T0000.csv", "created": "20240101T0000"}],
        "publisher": {"name": "Иванов Иван", "phone": "+7 (495) 000-00-00", "mbox": "opendata@example.ru"},
    }


def one_passport_site(root: Path, passport: dict) -> None:
    """``root`` as an MR site of one dataset: ``passport`` as its meta.json, listed by /opendata/list.csv."""
    identifier = passport["identifier"]
    folder = root / "opendata" / identifier
    folder.mkdir(parents=True)
    (folder / "meta.json").write_text(json.dumps(passport, ensure_ascii=False), "utf-8")
    (root / "opendata" / "list.csv").write_text(
        "property,title,value,format\nstandardversion,Версия,http://opendata.gosmonitor.ru/standard/3.0,\n"
        f"{identifier},{passport['title']},/opendata/{identifier}/meta.json,json\n", "utf-8")
