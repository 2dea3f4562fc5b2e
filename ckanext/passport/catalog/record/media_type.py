"""The media-type grammar (RFC 6838, section 4.2): the one rule for a record's MIME types and the LKOD's IANA IRIs.

Pure: which text is a media type, nothing about which types are registered (catalog.record.validators asks that).
"""
from __future__ import annotations

import re
from typing import Optional

# type "/" subtype, each a restricted-name: an alphanumeric first character, then at most 126 of these.
_GRAMMAR = re.compile(r"([A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126})/([A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126})")


def split_media_type(value: object) -> Optional[tuple[str, str]]:
    """The type and subtype of ``value``'s essence (parameters after ``;`` dropped), as written; ``None`` for text
    that is not a media type. Case is left to the caller: the record refuses an upper-case type, the LKOD
    lowercases an IRI's."""
    if not isinstance(value, str):
        return None
    match = _GRAMMAR.fullmatch(value.split(";", 1)[0].strip())
    return (match.group(1), match.group(2)) if match else None
