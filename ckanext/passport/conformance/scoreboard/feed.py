"""A publisher's Atom feed of new findings: one entry per finished job whose summary has a finding code that the
same source's job before it did not have, newest first.

For the people who follow a publisher without an account: a feed reader has no locale, so the texts are in the
request's language (its locale prefix, else the site's default). The XML is written by ElementTree, which escapes
every text and attribute (publisher and source names come from the registries), but writes the control characters
XML 1.0 cannot hold as they are: a title carrying one is written without it (``mr.storable``'s rule).
"""
from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence

from ckanext.passport.mr.storable import UNSTORABLE

ATOM = "http://www.w3.org/2005/Atom"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
# Jobs of a publisher the feed looks at; each source's oldest among them is only what the next one is compared with
# (unless these are all its jobs: then its first job's codes are all new).
FEED_JOBS = 100


def new_findings(jobs: Sequence[Mapping[str, Any]], complete: bool) -> list[dict[str, Any]]:
    """The jobs (any order) that brought new codes, newest first, each with ``new_codes`` ``{code: count}``.

    ``complete``: ``jobs`` are every job of the publisher, so a source's first job counts as new in full."""
    before: dict[str, set[str]] = {}
    found = []
    for job in sorted(jobs, key=lambda job: job["finished"]):
        codes = job.get("codes") or {}
        earlier = before.get(job["source_id"])
        before[job["source_id"]] = set(codes)
        if earlier is None and not complete:
            continue
        new = {code: count for code, count in sorted(codes.items()) if code not in (earlier or set())}
        if new:
            found.append({**job, "new_codes": new})
    return sorted(found, key=lambda job: job["finished"], reverse=True)


def atom_time(value: Any) -> str:
    """RFC 3339 in UTC, as Atom wants it (the summaries keep naive UTC times)."""
    when = dt.datetime.fromisoformat(value) if isinstance(value, str) else value
    if when.tzinfo is not None:
        when = when.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def atom(*, feed_url: str, page_url: str, title: str, author: str, language: str,
         entries: Iterable[Mapping[str, Any]], updated: Optional[str] = None) -> bytes:
    """The feed document. ``entries``: ``{"id", "title", "link", "updated", "summary"}`` (times as ``atom_time``),
    newest first; the feed's ``updated`` is the newest entry's, else ``updated`` (now)."""
    entries = list(entries)
    ET.register_namespace("", ATOM)
    feed = ET.Element(_tag("feed"), {XML_LANG: language})
    _text(feed, "id", feed_url)
    _text(feed, "title", title)
    _text(feed, "updated", entries[0]["updated"] if entries else (updated or atom_time(dt.datetime.utcnow())))
    _text(ET.SubElement(feed, _tag("author")), "name", author)
    ET.SubElement(feed, _tag("link"), {"rel": "self", "type": "application/atom+xml", "href": feed_url})
    ET.SubElement(feed, _tag("link"), {"rel": "alternate", "type": "text/html", "href": page_url})
    for item in entries:
        entry = ET.SubElement(feed, _tag("entry"))
        _text(entry, "id", item["id"])
        _text(entry, "title", item["title"])
        _text(entry, "updated", item["updated"])
        ET.SubElement(entry, _tag("link"), {"rel": "alternate", "type": "text/html", "href": item["link"]})
        _text(entry, "summary", item["summary"]).set("type", "text")
    return ET.tostring(feed, encoding="utf-8", xml_declaration=True)


def entry_text(new_codes: Mapping[str, int], meaning: Callable[[str], str]) -> str:
    """An entry's summary: one line per new code, its count and what it means."""
    lines = []
    for code, count in new_codes.items():
        said = meaning(code)
        lines.append(f"{code} ({count}): {said}" if said else f"{code} ({count})")
    return "\n".join(lines)


def _tag(name: str) -> str:
    return f"{{{ATOM}}}{name}"


def _text(parent: ET.Element, name: str, text: str) -> ET.Element:
    element = ET.SubElement(parent, _tag(name))
    element.text = UNSTORABLE.sub("", text)
    return element
