"""How large a publication of each form the readers take: refused before parsing, and never downloaded whole.

The fetch cap (``FetchPolicy.max_bytes``, 50 MB by default) is sized for data files; the readers' work grows
with the text they read, and a real publication is far smaller (the largest real registry in
``tests/fixtures/real``, fedstat's ``list.xml``, is 2.9 MB; its passports are a few KB). Each form has its
cap, a site setting (``ckanext.passport.max_*_bytes``), applied twice: to the fetch of a file expected in that
form (:meth:`ReadLimits.policy`), so that a larger body is cut off by the fetch, and by the reader to the bytes
it is given, whoever fetched them (:func:`too_large`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from .fetch import FetchPolicy
from .forms import forms
from .model import Problem
from .problems import problem

MIB = 1024 * 1024
# Forms a passport page is read in; every other passport form is a file.
PAGE_FORMS = frozenset(forms(page=True))


@dataclass(frozen=True)
class ReadLimits:
    """The largest number of bytes read as each form."""

    passport_bytes: int = 2 * MIB
    # Read for RDFa (pyRdfa works per element) and for tables: about 0.6 s per MiB, so 2 MiB stays within 2 s.
    page_bytes: int = 2 * MIB
    registry_bytes: int = 10 * MIB
    structure_bytes: int = 2 * MIB

    def passport_limit(self, form: str) -> int:
        """The cap of a passport read as ``form`` (a page's, or a passport file's)."""
        return self.page_bytes if form in PAGE_FORMS else self.passport_bytes

    def registry_limit(self, form: str) -> int:
        """The cap of a registry read as ``form``: an RDFa ``/opendata/`` page is a page as well."""
        return min(self.registry_bytes, self.page_bytes) if form in PAGE_FORMS else self.registry_bytes

    @staticmethod
    def policy(base: FetchPolicy, limit: Optional[int]) -> FetchPolicy:
        """``base`` for a read of at most ``limit`` bytes (never above the fetch's own cap; ``None``: no cap of
        its own)."""
        return base if limit is None or base.max_bytes <= limit else replace(base, max_bytes=limit)


DEFAULT_LIMITS = ReadLimits()


def too_large(size: int, limit: int, url: str = "") -> Optional[Problem]:
    """``fetch.too_large`` when ``size`` bytes exceed ``limit``: the reader refuses them before parsing."""
    return problem("fetch.too_large", url=url or None, limit=limit) if size > limit else None
