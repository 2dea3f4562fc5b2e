"""Whether a record goes into the LKOD, and if not, why: each reason a ``Problem`` of ``lkod/problems.toml``.

A record is listed when it is published, public, has an IČO publisher, is in Czech and every field the national catalog
(NKOD) needs maps to a value its harvester keeps and the norm's schema accepts: the same ``iris`` rules
``graph_out`` writes by, so a listed record's document carries every required property.
"""
from __future__ import annotations

from typing import Any, Mapping

from ckanext.passport.catalog.vocabularies import vocab
from ckanext.passport.catalog.workflow import states
from ckanext.passport.catalog.record.conditions import effective_conditions
from ckanext.passport.lkod import graph_out, iris, series
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem


def reasons(dataset_dict: Mapping[str, Any]) -> list[Problem]:
    """Why ``dataset_dict`` (a package_show dict) is left out of the LKOD; empty when it is listed."""
    found: list[Problem] = []
    state = states.state_of(dict(dataset_dict))
    if state != states.PUBLISHED:
        found.append(problem("lkod.unpublished", state=state))
    if dataset_dict.get("private"):
        found.append(problem("lkod.private"))
    if graph_out.publisher(dataset_dict) is None:
        found.append(problem("lkod.no_ico_publisher"))
    # Its texts carry its language (graph_out.record_language); NKOD and its validator want Czech ones.
    if graph_out.record_language(dataset_dict) != graph_out.LANGUAGE:
        found.append(problem("lkod.not_czech", language=graph_out.record_language(dataset_dict)))
    found += [problem("lkod.missing_field", field=field) for field in _missing_fields(dataset_dict)]
    for resource in _distributions(dataset_dict):
        found += [
            problem("lkod.missing_resource_field", field=field, resource=resource.get("name") or resource.get("id", ""))
            for field in _missing_resource_fields(dataset_dict, resource)
        ]
    return found


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _distributions(dataset: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    # A resource without a URL is no distribution (graph_out leaves it out), so it needs nothing; nor has a series any.
    if series.is_series(dataset):
        return []
    return [resource for resource in dataset.get("resources") or [] if iris.web_iri(resource.get("url"))]


def _missing_fields(dataset: Mapping[str, Any]) -> list[str]:
    checks = {
        "title": _text(dataset.get("title")),
        "notes": _text(dataset.get("notes")),
        "tags": bool(graph_out.tag_names(dataset)),
        "data_themes": any(iris.theme_iri(code) for code in vocab.as_list(dataset.get("data_themes"))),
        "accrual_periodicity": iris.frequency_iri(dataset.get("accrual_periodicity")) is not None,
        "spatial_area": any(iris.territory_iri(code) for code in vocab.as_list(dataset.get("spatial_area"))),
        # A series has none (its members carry them: lkod.series writes none).
        "resources": series.is_series(dataset) or bool(_distributions(dataset)),
        "documentation_url": not graph_out.is_hvd(dataset) or _hvd_distribution(dataset),
    }
    return [field for field, present in checks.items() if not present]


def _hvd_distribution(dataset: Mapping[str, Any]) -> bool:
    # The HVD schema wants a file distribution, or a service with documentation (its format_docs, else the
    # dataset's documentation_url: graph_out's rule); with no distribution at all "resources" is the reason.
    distributions = _distributions(dataset)
    return not distributions or any(
        not graph_out.is_service(resource) or graph_out.service_pages(dataset, resource) for resource in distributions
    )


def _missing_resource_fields(dataset: Mapping[str, Any], resource: Mapping[str, Any]) -> list[str]:
    conditions = effective_conditions(dict(dataset), dict(resource))
    missing = [
        field for field, publishable in iris.PUBLISHABLE_CONDITIONS.items() if conditions.get(field) not in publishable
    ]
    if not graph_out.is_service(resource) and iris.format_iri(resource.get("format")) is None:
        missing.append("format")
    return missing
