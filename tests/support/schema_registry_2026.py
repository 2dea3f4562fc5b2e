"""The 2026 norm family's JSON Schemas (the drafts, tests/fixtures/dcat-ap-cz-2026, self-contained: no $ref).

The drafts' schemas require their own ``…/draft/…`` context URL; our documents name the dated URL the national
catalog's form writes (lkod.norms), whose text is the draft's. A document is checked with its ``@context`` read
back to the draft's URL, the one liberty taken.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from ckanext.passport.lkod import norms

SCHEMAS = Path(__file__).resolve().parents[1] / "fixtures" / "dcat-ap-cz-2026" / "schémata"
EXAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "dcat-ap-cz-2026" / "příklady"
DRAFT_OF = {norms.context_url(norms.NORM_2026, kind): norms._url_2026(kind, "draft") for kind in norms.Kind}


@lru_cache(maxsize=None)
def validator(kind: norms.Kind) -> Draft202012Validator:
    schema = json.loads((SCHEMAS / norms._PATHS_2026[kind] / "schéma.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def errors(kind: norms.Kind, document: dict[str, Any]) -> list[str]:
    """Every error of ``document`` against the 2026 schema of ``kind``, as ``path: message`` lines."""
    checked = {**document, "@context": DRAFT_OF.get(document.get("@context"), document.get("@context"))}
    return sorted(
        f"{'/'.join(str(part) for part in error.absolute_path)}: {error.message}"
        for error in validator(kind).iter_errors(checked)
    )
