"""A valid MR 3.0 passport (meta.json) of the fault sites the harvest and conformance tests serve beside broken ones."""
from __future__ import annotations


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
