"""The stored harvest object, one contract: what the stages write into an object's content and extras, and what
every reader reads back (the next stage, the next job's conditional fetch, the deletion guard, the Conformance tab).

A key is named here only. The content is JSON with the keys below; an MR object's content is its gather part
(``entry``, ``registry_url``) until fetch adds the passport it read, an LKOD object's its ``iri`` and then its
``dataset``. Extras are ckanext-harvest's key/value rows on the object.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

from ckanext.harvest.model import HarvestObjectExtra

# Extras.
STATUS = "status"  # the gather's verdict: NEW, CHANGE or DELETE
ETAG = "etag"
LAST_MODIFIED = "last_modified"
CONTENT_HASH = "content_hash"  # sha256 of the bytes last imported: the same bytes are not imported again
PASSPORT_URL = "passport_url"  # where an MR passport was read (the conditional request is only sent there again)
DOCUMENT_URL = "document_url"  # the same for an LKOD dataset document
# The norm an LKOD dataset document was read in (lkod.norms.READ_NORMS): the job, the source page and the
# Conformance tab count the source's documents by it.
READ_NORM = "read_norm"
# The norm of the catalog document that listed an LKOD dataset, on each object its gather made: the catalog has no
# object of its own, and a job none of its own extras. The job and the source page name it, /lkod/ per source.
CATALOG_NORM = "catalog_norm"
FINDINGS = "findings"  # JSON list of the finding lines of a passport read (harvest.findings.line)
# The conformance score of a passport read by this object, beside its content: readers select and sum objects
# by it without parsing any content.
SCORE = "conformance_score"
# When an MR passport's places were last all tried in the source's order (harvest.form_memory), ISO 8601 UTC.
FORMS_PROBED = "forms_probed"

# The gather's comparison of the source's current object with its record (records.drift): ABSENT or DELETED
# when the record is not there as the last import left it, so fetch reads the entry again even if unchanged.
RECORD_GONE = "record_gone"
# What the import did about such a record: BROUGHT_BACK (made again, or restored) or KEPT_DELETED.
RECORD_OUTCOME = "record_outcome"
ABSENT, DELETED = "absent", "deleted"
BROUGHT_BACK, KEPT_DELETED = "brought_back", "kept_deleted"

NEW, CHANGE, DELETE = "new", "change", "delete"

# The keys of an MR object's content (MrContent's JSON), and of its conformance part. The readers that take the
# content apart in SQL (conformance/harvest/queries.py) name them through these and mr_columns, so a key renamed
# here is renamed there too.
ENTRY, REGISTRY_URL, PASSPORT, FORM, ENCODING, PROBLEMS, CONFORMANCE = (
    "entry", "registry_url", "passport", "form", "encoding", "problems", "conformance")
CONFORMANCE_SCORE, CONFORMANCE_PROBLEMS = "score", "problems"
# PostgreSQL's type of each key's value, as json_to_record takes them.
MR_CONTENT_TYPES = {ENTRY: "json", REGISTRY_URL: "text", PASSPORT: "json", FORM: "text", ENCODING: "text",
                    PROBLEMS: "json", CONFORMANCE: "json"}


def mr_columns(*keys: str) -> str:
    """The column definitions of ``json_to_record`` taking an MR object's content apart into ``keys``, each a
    column of its key's name: ``mr_columns(ENTRY, FORM)`` is ``"entry json, form text"``."""
    return ", ".join(f"{key} {MR_CONTENT_TYPES[key]}" for key in keys)


def extras_of(harvest_object: Any) -> dict[str, str]:
    return {extra.key: extra.value for extra in harvest_object.extras}


def status(harvest_object: Any) -> str:
    return next((extra.value for extra in harvest_object.extras if extra.key == STATUS), "")


def set_extras(harvest_object: Any, **values: str) -> None:
    kept = [extra for extra in harvest_object.extras if extra.key not in values]
    harvest_object.extras = kept + [HarvestObjectExtra(key=key, value=value) for key, value in values.items()]


@dataclass
class MrContent:
    """An MR object's content: the registry entry gathered, and once fetched the passport read from it."""

    entry: dict[str, Any]
    registry_url: str
    passport: Optional[dict[str, Any]] = None
    form: str = ""
    encoding: str = ""
    problems: list[dict[str, Any]] = field(default_factory=list)
    score: Optional[int] = None
    conformance_problems: list[dict[str, Any]] = field(default_factory=list)

    @property
    def read(self) -> bool:
        """Whether the object holds a passport it read (an unchanged or unreadable one holds its gather part)."""
        return self.passport is not None

    def to_json(self) -> str:
        content: dict[str, Any] = {ENTRY: self.entry, REGISTRY_URL: self.registry_url}
        if self.read:
            content.update({
                PASSPORT: self.passport, FORM: self.form, ENCODING: self.encoding, PROBLEMS: self.problems,
                CONFORMANCE: {CONFORMANCE_SCORE: self.score, CONFORMANCE_PROBLEMS: self.conformance_problems},
            })
        return json.dumps(content, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> "MrContent":
        content = json.loads(text)
        conformance = content.get(CONFORMANCE) or {}
        return cls(
            entry=content.get(ENTRY) or {},
            registry_url=content.get(REGISTRY_URL) or "",
            passport=content.get(PASSPORT),
            form=content.get(FORM) or "",
            encoding=content.get(ENCODING) or "",
            problems=content.get(PROBLEMS) or [],
            score=conformance.get(CONFORMANCE_SCORE),
            conformance_problems=conformance.get(CONFORMANCE_PROBLEMS) or [],
        )


@dataclass
class LkodContent:
    """An LKOD object's content: the dataset IRI gathered, and once fetched the harvested part of its record."""

    iri: str
    dataset: Optional[dict[str, Any]] = None

    def to_json(self) -> str:
        content: dict[str, Any] = {"iri": self.iri}
        if self.dataset is not None:
            content["dataset"] = self.dataset
        return json.dumps(content, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> "LkodContent":
        content = json.loads(text)
        return cls(iri=content["iri"], dataset=content.get("dataset"))
