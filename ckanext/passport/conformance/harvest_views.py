"""Placeholder until its helper fills it in (issue 13)."""
from __future__ import annotations

from typing import Any


def actions() -> dict[str, Any]:
    return {}


def auth_functions() -> dict[str, Any]:
    return {}


def blueprints() -> list[Any]:
    return []
