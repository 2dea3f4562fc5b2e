"""Validators of the catalog record's fields (registered for the scheming YAML under ``passport_*`` names).

The checks themselves are pure functions returning an error message or ``None`` (``ico_error``,
``mimetype_error``…), so they are unit-tested without CKAN; the navl validators below only wire them to
fields. Every refusal is an ``Invalid`` raised for its own field, so the form shows the message beside it.
"""
from __future__ import annotations

import datetime as dt
import json
import re
from functools import lru_cache
from typing import Any, Callable, Mapping, Optional
from urllib.parse import urlsplit

import ckan.plugins.toolkit as tk
from ckan.lib.navl.dictization_functions import missing
from ckanext.scheming.validation import scheming_validator

from ckanext.passport.mr.inn import is_valid_inn

from ..vocabularies import vocab
from .ico import is_ico
from .media_type import split_media_type

Invalid = tk.Invalid
StopOnError = tk.StopOnError

SCHEMES = ("ico", "inn")
SCHEME_FIELD = "publisher_id_scheme"

# The openness conditions of Czech public-sector open data (the 2012 Koncepce and the publication
# methodology): the record states, for each one, whether the data fulfil it.
OPENNESS_CONDITIONS = ("complete", "accessible", "machine_readable", "open_format", "open_terms", "free")
FULFILMENT = ("yes", "no")

_EMAIL = re.compile(r"^[^@\s\"<>(),;:\\\[\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# A category of the EU high-value datasets vocabulary (data.europa.eu/bna): a concept IRI with an 8-hex id.
_HVD_CATEGORY = re.compile(r"^http://data\.europa\.eu/bna/c_[0-9a-f]{8}$")
# The six top categories of the HVD regulation (geospatial, earth observation and environment, meteorological,
# statistics, companies, mobility): a record names the most specific category, never one of these.
HVD_TOP_CATEGORIES = frozenset(
    f"http://data.europa.eu/bna/c_{code}"
    for code in ("ac64a52d", "dd313021", "164e0bf5", "e1da4e07", "a9135398", "b79e35eb")
)
_TREE_SUBTYPE = re.compile(r"^(vnd|prs|x)\.[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$")
TOP_LEVEL_TYPES = frozenset(
    {"application", "audio", "example", "font", "image", "message", "model", "multipart", "text", "video"}
)


# --- pure checks: a message or None -------------------------------------------------------------------------


def ico_error(value: str) -> Optional[str]:
    """Czech IČO (catalog.record.ico): the form first, then the check digit, each with its own message."""
    if not is_ico(value, check_digit=False):
        return tk._("An IČO has exactly 8 digits")
    if not is_ico(value):
        return tk._("This IČO's check digit is wrong")
    return None


def inn_error(value: str) -> Optional[str]:
    if not (value.isascii() and value.isdigit() and len(value) in (10, 12)):
        return tk._("An INN has 10 digits (organisation) or 12 digits (individual)")
    if not is_valid_inn(value):
        return tk._("This INN's check digits are wrong")
    return None


def publisher_id_error(value: str, scheme: Any) -> Optional[str]:
    if scheme == "ico":
        return ico_error(value)
    if scheme == "inn":
        return inn_error(value)
    return tk._("Choose the identifier scheme (IČO or INN) first")


def url_error(value: str) -> Optional[str]:
    try:
        parts = urlsplit(value)
    except ValueError:
        return tk._("This is not a valid web address")
    if parts.scheme.lower() not in ("http", "https"):
        return tk._("The address must start with http:// or https://")
    if not parts.hostname or any(ch.isspace() for ch in value):
        return tk._("This is not a valid web address")
    return None


def email_error(value: str) -> Optional[str]:
    if len(value) > 254 or not _EMAIL.match(value):
        return tk._("This is not a valid e-mail address")
    return None


@lru_cache(maxsize=1)
def registered_media_types() -> frozenset[str]:
    path = vocab.DATA_DIR / "iana-media-types.txt"
    with open(path, encoding="utf-8") as stream:
        return frozenset(
            line.strip().lower() for line in stream if line.strip() and not line.startswith("#")
        )


def mimetype_error(value: str) -> Optional[str]:
    """A registered IANA media type, or one in the vendor/personal/unregistered trees (``vnd.``, ``prs.``, ``x.``)."""
    parts = split_media_type(value)
    # The top-level names are lower case: a type written otherwise is refused, as the record always did.
    if parts is None or parts[0] not in TOP_LEVEL_TYPES:
        return tk._("This is not a media type (type/subtype, e.g. text/csv)")
    if "/".join(parts).lower() in registered_media_types() or _TREE_SUBTYPE.match(parts[1]):
        return None
    return tk._("This media type is not registered with IANA")


def cz_nace_error(code: Any) -> Optional[str]:
    if code not in vocab.vocabulary(vocab.CZ_NACE):
        return tk._("Unknown CZ-NACE code: {code}").format(code=code)
    return None


def eurovoc_error(uri: Any) -> Optional[str]:
    if uri not in vocab.vocabulary(vocab.EUROVOC):
        return tk._("Unknown EUROVOC concept: {uri}").format(uri=uri)
    return None


def data_theme_error(code: Any) -> Optional[str]:
    if code not in vocab.vocabulary(vocab.DATA_THEMES):
        return tk._("Unknown EU data theme: {code}").format(code=code)
    return None


def frequency_error(code: Any) -> Optional[str]:
    if code not in vocab.vocabulary(vocab.FREQUENCY):
        return tk._("Unknown EU frequency: {code}").format(code=code)
    return None


def iso_date_error(value: str) -> Optional[str]:
    if _ISO_DATE.match(value):
        try:
            dt.date.fromisoformat(value)
            return None
        except ValueError:
            pass
    return tk._("A date is expected as YYYY-MM-DD, e.g. 2024-01-31")


def hvd_category_error(value: str) -> Optional[str]:
    if not _HVD_CATEGORY.match(value):
        return tk._("An HVD category is an IRI like http://data.europa.eu/bna/c_1e787364")
    if value in HVD_TOP_CATEGORIES:
        return tk._("This is a top-level HVD category: name its most specific category")
    if value not in vocab.vocabulary(vocab.HVD_CATEGORY):
        return tk._("Unknown HVD category: {iri}").format(iri=value)
    return None


def temporal_order_error(start: Any, end: Any) -> Optional[str]:
    """Two valid ISO dates out of order; anything else is the date fields' own business."""
    if not (isinstance(start, str) and isinstance(end, str)) or iso_date_error(start) or iso_date_error(end):
        return None
    if end < start:
        return tk._("The time coverage ends before it starts")
    return None


# --- navl validators --------------------------------------------------------------------------------------


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise Invalid(tk._("A text value is expected"))
    return value.strip()


def _refuse_on(error: Optional[str]) -> None:
    if error:
        raise Invalid(error)


def _checked_text(value: Any, check: Callable[[str], Optional[str]]) -> str:
    """An optional field left empty in the form stays empty; anything else must pass ``check``."""
    text = _text(value)
    if text:
        _refuse_on(check(text))
    return text


@scheming_validator
def publisher_id(field: dict, schema: dict) -> Callable[..., None]:
    """The provider's identifier, checked by the scheme chosen in ``publisher_id_scheme``.

    CKAN validates fields in name order, so this runs before the scheme field takes its default: a scheme
    left out is read as that default here, as it will be stored.
    """
    scheme_field = next((f for f in schema.get("dataset_fields", []) if f["field_name"] == SCHEME_FIELD), {})

    def validator(key: tuple, data: dict, errors: dict, context: dict) -> None:
        value = data.get(key)
        if _blank(value):
            return
        text = re.sub(r"\s+", "", _text(value))
        scheme = data.get(key[:-1] + (SCHEME_FIELD,))
        if _blank(scheme) and not harvesting(context):
            scheme = scheme_field.get("default")
        error = publisher_id_error(text, scheme)
        if error:
            errors[key].append(error)
            raise StopOnError
        data[key] = text

    return validator


def url(value: Any) -> str:
    return _checked_text(value, url_error)


def email(value: Any) -> str:
    return _checked_text(value, email_error)


def mimetype(value: Any) -> str:
    return _checked_text(value, mimetype_error)


def resource_url(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """A resource URL must be a web address, except for uploads (CKAN stores their file name)."""
    value = data.get(key)
    if not value or value is missing or data.get(key[:-1] + ("url_type",)) == "upload":
        return
    error = url_error(_text(value))
    if error:
        errors[key].append(error)


def _checked_list(value: Any, check: Callable[[Any], Optional[str]]) -> str:
    items = vocab.listed(value)
    for item in items:
        if not isinstance(item, str):
            raise Invalid(tk._("A text value is expected"))
        _refuse_on(check(item))
    # Extras store text: the list is kept as JSON and given back as a list by the output validator.
    return json.dumps(items, ensure_ascii=False)


def url_list(value: Any) -> str:
    return _checked_list(value, url_error)


def cz_nace_codes(value: Any) -> str:
    return _checked_list(value, cz_nace_error)


def data_themes(value: Any) -> str:
    return _checked_list(value, data_theme_error)


def frequency(value: Any) -> str:
    return _checked_text(value, frequency_error)


def iso_date(value: Any) -> str:
    return _checked_text(value, iso_date_error)


def hvd_category(value: Any) -> str:
    return _checked_text(value, hvd_category_error)


def temporal_order(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """Dataset-level (after) validator: the time coverage does not end before it starts (an error on its end)."""
    error = temporal_order_error(data.get(("temporal_start",)), data.get(("temporal_end",)))
    if error and not errors.get(("temporal_end",)):
        errors.setdefault(("temporal_end",), []).append(error)


def spatial_area_error(code: str) -> Optional[str]:
    if code not in vocab.vocabulary(vocab.SPATIAL_AREA):
        return tk._("Unknown territorial unit: {code}").format(code=code)
    return None


def spatial_areas(value: Any) -> str:
    """Several territorial units, stored as a JSON list; a record saved when the field held one code (``"CZ010"``)
    reads as that one unit."""
    return _checked_list(value, spatial_area_error)


def keywords(value: Any) -> str:
    """Keywords in another language than the record's (``keywords_en``): a list, or comma-separated text as the
    Czech tags are typed, each held to CKAN's own tag rules; stored as a JSON list."""
    if isinstance(value, str) and not value.strip().startswith("["):
        value = value.split(",")
    items = vocab.listed(value)
    length, name = tk.get_validator("tag_length_validator"), tk.get_validator("tag_name_validator")
    for item in items:
        if not isinstance(item, str):
            raise Invalid(tk._("A text value is expected"))
        name(length(item, {}), {})
    # Each keyword once, in the order given.
    return json.dumps(list(dict.fromkeys(items)), ensure_ascii=False)


def spatial_from_area(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """The record's GeoJSON geometry, always derived from the chosen territorial units (never typed in)."""
    geometry = vocab.area_geometry(data.get(("spatial_area",)))
    if geometry is None:
        data.pop(key, None)
        raise StopOnError
    data[key] = json.dumps(geometry)


def eurovoc_uri(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """A EUROVOC concept URI known to the vocabularies; an empty label is filled in the record's language."""
    value = data.get(key)
    if _blank(value):
        errors[key].append(tk._("Missing value"))
        raise StopOnError
    uri = _text(value)
    error = eurovoc_error(uri)
    if error:
        errors[key].append(error)
        raise StopOnError
    data[key] = uri
    label_key = key[:-1] + ("label",)
    if _blank(data.get(label_key)):
        language = data.get(("record_language",))
        data[label_key] = vocab.label(vocab.EUROVOC, uri, language if isinstance(language, str) else None)


def harvesting(context: dict) -> bool:
    """True inside a harvest import: only the harvester sets this context flag (the API cannot)."""
    return context.get("passport_harvest") is True


@scheming_validator
def required(field: dict, schema: dict) -> Callable[..., Any]:
    """``not_empty`` for a required field, except in a harvested record; the field's ``default`` when left out.

    The curator's part of the record (classification, conditions of use, provider contact…) is what an MR
    passport cannot carry: a harvested record lands as a draft without it, and the curator completes it.
    A field the form pre-fills (its schema ``default``) takes that value when an API client leaves it out, so
    the API asks no more than the form. A harvest sends its own values: there a left-out field stays unknown.
    """
    ignore_missing = tk.get_validator("ignore_missing")
    check = tk.get_validator("not_empty") if field.get("required") else ignore_missing
    default = field.get("default")

    def validator(key: tuple, data: dict, errors: dict, context: dict) -> Any:
        if harvesting(context):
            return ignore_missing(key, data, errors, context)
        if default is not None and _blank(data.get(key)):
            data[key] = default
        return check(key, data, errors, context)

    return validator


def eurovoc_required(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """Dataset-level (after) validator: the record is classified by at least one EUROVOC concept.

    Only an absent or empty list is reported here: an item with an empty URI is reported on that item. The
    error is the first concept's: the dataset form and scheming's error summary read a repeating field's errors
    as one dict per item (a plain message there made the summary fail), and the form shows an empty first item.
    """
    if harvesting(context):
        return
    if not any(len(k) == 3 and k[0] == "eurovoc" for k in data):
        errors.setdefault(("eurovoc", 0, "uri"), []).append(tk._("Choose at least one EUROVOC concept"))


def conditions_problems(value: Mapping[str, Any]) -> list[str]:
    """What is wrong with a stated checklist, key by key, then the rule it breaks; empty when it is right."""
    unknown = sorted(set(value) - set(OPENNESS_CONDITIONS))
    missing = [name for name in OPENNESS_CONDITIONS if _blank(value.get(name))]
    wrong = [name for name in OPENNESS_CONDITIONS if name not in missing and value[name] not in FULFILMENT]
    problems = []
    if unknown:
        problems.append(tk._("Unknown openness condition: {name}").format(name=", ".join(unknown)))
    if missing:
        problems.append(tk._("Missing openness conditions: {names}").format(names=", ".join(missing)))
    problems.extend(
        tk._("Openness condition {name}: {value} is not allowed").format(name=name, value=json.dumps(value[name]))
        for name in wrong
    )
    if problems:
        problems.append(conditions_rule())
    return problems


def conditions_rule() -> str:
    return tk._('The openness conditions are an object with the keys {keys}, each "yes" or "no"').format(
        keys=", ".join(OPENNESS_CONDITIONS)
    )


def openness_conditions(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """The conditions checklist: ``{condition: "yes" | "no"}`` for every condition.

    The API sends a dict (or its JSON); the dataset form sends one ``openness_conditions-<condition>``
    input per condition, which CKAN leaves in ``__extras`` because the schema does not name them. An API
    client is told which keys are wrong and the rule; the form shows every condition beside its own choice.
    """
    value = data.get(key)
    extras = data.get(("__extras",)) or {}
    from_form = {
        name: extras.pop(f"{key[0]}-{name}") for name in OPENNESS_CONDITIONS if f"{key[0]}-{name}" in extras
    }
    if (value is missing or value in (None, "")) and from_form:
        value = from_form
    if isinstance(value, str) and value.strip():
        try:
            value = json.loads(value)
        except ValueError:
            value = None
    if value is missing or value in (None, "", {}):
        if harvesting(context):
            data.pop(key, None)
            raise StopOnError
        errors[key].append(tk._("State for each openness condition whether the data fulfil it"))
        errors[key].append(conditions_rule())
        raise StopOnError
    if not isinstance(value, Mapping):
        errors[key].append(tk._("The openness conditions are a list of conditions with their fulfilment"))
        errors[key].append(conditions_rule())
        raise StopOnError
    problems = conditions_problems(value)
    if problems and from_form:
        errors[key].append(tk._("State for each openness condition whether the data fulfil it"))
    elif problems:
        errors[key].extend(problems)
    if problems:
        raise StopOnError
    data[key] = json.dumps({name: value[name] for name in OPENNESS_CONDITIONS})


def required_with(other: str) -> Callable[..., None]:
    """Parts of one identification (ISVS name and reference) are given together or not at all."""

    def validator(key: tuple, data: dict, errors: dict, context: dict) -> None:
        if _blank(data.get(key)) and not _blank(data.get(key[:-1] + (other,))):
            errors[key].append(tk._("Fill this in as well: it belongs together with the other part"))
            raise StopOnError

    return validator


def _blank(value: Any) -> bool:
    return value is missing or value is None or (isinstance(value, str) and not value.strip())


# CKAN's core fields naming whoever saved the record. The catalog once filled them from the acting user's name and
# e-mail, and they were published; a portal user's login or e-mail is never published (issue 24), so they keep
# nothing: whoever saved a record is in its activity stream and workflow history, for those who may read them. The
# record's contacts are the fields the curator or the source types in: maintainer, maintainer_email, publisher_email.
NOT_KEPT = ("author", "author_email")


def not_kept(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """Whatever is given, nothing is stored: a save empties what earlier saves stored (the column, not the key)."""
    data[key] = None


def license_url_output(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """Show the record's own licence link as ``license_url``.

    CKAN's package_show fills ``license_url`` from the licence register, which would hide the link the
    curator gave (stored as an extra). Runs as an output validator of ``license_id``, which comes first.
    """
    for extras_key, name in list(data.items()):
        if extras_key[0] == "extras" and extras_key[-1] == "key" and name == "license_url":
            index = extras_key[1]
            data[("license_url",)] = data[("extras", index, "value")]
            for stale in [k for k in data if k[0] == "extras" and k[1] == index]:
                del data[stale]
            return


def json_output(value: Any) -> Any:
    """Stored JSON text back to its structure (lists and dicts of the record)."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def list_output(value: Any) -> Any:
    """A stored list field back to its list, a value stored before the field took several (one code) as a list of it."""
    return vocab.as_list(value)


def validators() -> dict[str, Callable]:
    return {
        "passport_publisher_id": publisher_id,
        "passport_url": url,
        "passport_email": email,
        "passport_mimetype": mimetype,
        "passport_resource_url": resource_url,
        "passport_url_list": url_list,
        "passport_cz_nace": cz_nace_codes,
        "passport_spatial_area": spatial_areas,
        "passport_keywords": keywords,
        "passport_spatial_from_area": spatial_from_area,
        "passport_eurovoc_uri": eurovoc_uri,
        "passport_eurovoc_required": eurovoc_required,
        "passport_data_themes": data_themes,
        "passport_frequency": frequency,
        "passport_iso_date": iso_date,
        "passport_hvd_category": hvd_category,
        "passport_temporal_order": temporal_order,
        "passport_openness_conditions": openness_conditions,
        "passport_required": required,
        "passport_required_with": required_with,
        "passport_not_kept": not_kept,
        "passport_license_url_output": license_url_output,
        "passport_json_output": json_output,
        "passport_list_output": list_output,
    }
