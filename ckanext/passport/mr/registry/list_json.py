"""MR 3.0 ``list.json``: ``{"standardversion": …, "meta": [{"identifier", "title", "link", "format"}]}``."""
from __future__ import annotations


from ..decode import decode_bytes
from ..forms import Form
from ..jsontext import TooDeep, load_json
from ..fields import field_key, plain_text, salvage_json, standard_version
from ..model import ParseResult, Problem, Registry, RegistryEntry
from ..problems import problem

FORM = Form.LIST_JSON


_SECTIONS = {"meta": ("array", frozenset({"identifier", "title", "link", "format"}))}


def parse(data: bytes, url: str = "") -> ParseResult[Registry]:
    decoded = decode_bytes(data, url)
    problems: list[Problem] = list(decoded.problems)
    try:
        document, loaded = load_json(decoded.text, url)
        problems.extend(loaded)
    except TooDeep as error:
        problems.append(error.problem)
        document = None
    except ValueError as error:
        problems.append(problem("registry.json_damaged", url=url or None, line=getattr(error, "lineno", None), detail=str(error)))
        document = salvage_json(decoded.text, _SECTIONS) or None
    document = {field_key(str(key)): value for key, value in document.items()} if isinstance(document, dict) else None
    if document is None or not isinstance(document.get("meta", []), list):
        problems.append(problem("registry.json_unexpected_shape", url=url or None))
        return ParseResult(None, problems, form=FORM, encoding=decoded.encoding)
    standard, standard_problems = standard_version(plain_text(document.get("standardversion")), area="registry", url=url)
    problems.extend(standard_problems)
    entries = [_entry(item) for item in document.get("meta", []) if isinstance(item, dict)]
    return ParseResult(Registry(standard, entries), problems, form=FORM, encoding=decoded.encoding)


def _entry(item: dict) -> RegistryEntry:
    fields = {field_key(str(key)): plain_text(value) for key, value in item.items()}
    return RegistryEntry(
        identifier=fields.get("identifier", ""),
        title=fields.get("title", ""),
        link=fields.get("link", ""),
        format=fields.get("format", "").lower(),
    )
