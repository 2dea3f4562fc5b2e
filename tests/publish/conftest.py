"""Fixtures of the publish tests: an organization and a factory of published datasets by shape.

Both start with the plugins loaded, from a clean database and index, whatever order pytest sets up the other fixtures in.
"""
from __future__ import annotations

from typing import Any, Callable

import pytest
from tests.support.publish_shapes import publish_shape, publisher


@pytest.fixture
def publisher_organization(shared_plugins, empty_db, clean_index) -> dict[str, Any]:
    return publisher()


@pytest.fixture
def publish(publisher_organization) -> Callable[..., dict[str, Any]]:
    """``publish("harvested", **changes)`` creates a dataset of that shape and returns it as stored."""

    def create(shape: str, **changes: Any) -> dict[str, Any]:
        return publish_shape(publisher_organization, shape, **changes)

    return create
