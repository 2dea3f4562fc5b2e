"""``/lkod/`` names the catalog's title as the catalog's, not as a dataset's name (issue 24: the Russian page said
"Наименование набора данных", the passport's label for row 2)."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from tests.support.lkod_view_records import LKOD_CONFIG_READ_ONLY

pytestmark = list(LKOD_CONFIG_READ_ONLY)


@pytest.mark.parametrize("lang, label", [("ru", "Название каталога"), ("cs", "Název katalogu"),
                                         ("en", "Catalog title")])
def test_the_catalog_box_calls_its_title_the_catalogs(web, lang, label):
    soup = BeautifulSoup(web.get(f"/{lang}/lkod/").body, "html.parser")
    labels = [dt.get_text(strip=True) for dt in soup.select("dl dt")]
    assert label in labels, labels
    assert "Наименование набора данных" not in labels
