"""The bundled demo MR site (dev/demo-site): where it is and the identifiers its registry lists."""
from __future__ import annotations

from pathlib import Path

DEMO_SITE = Path(__file__).resolve().parents[2] / "dev" / "demo-site"
IDENTIFIERS = frozenset(
    {
        "7708234640-okvedva",
        "7703092752-terorg",
        "2618017120-politicaldivisions",
        "7701234560-schools",
        "7709876545-pharmacies",
        "5027123457-bustops",
    }
)

PHARMACIES = "7709876545-pharmacies"


def retitle_pharmacies(root: Path, title: str) -> None:
    """Change the pharmacies passport's title in a served copy of the site (its meta.csv is Windows-1251)."""
    path = root / "opendata" / PHARMACIES / "meta.csv"
    path.write_bytes(path.read_bytes().replace("Аптеки района".encode("cp1251"), title.encode("cp1251")))
