"""One mail through CKAN's mailer, the way every mail of the extension is sent (workflow notices, conformance
notices, the weekly digest).

Header text is made one line first: a title or a full name may hold a line break, U+2028 or another character
that ``str.splitlines`` splits at, and Python's email package refuses such a header with ``ValueError``. A mail
that still cannot be composed or sent is logged and reported as not sent, never raised: its caller goes on to the
next mail, and a request that already committed its change never answers 500 because of a mail.
"""
from __future__ import annotations

import logging
import re
import smtplib
from typing import Mapping, Optional

from ckan.lib.mailer import MailerException, mail_recipient

log = logging.getLogger(__name__)

# Every run of white space (Unicode's: line and paragraph separators, NEL, the file and record separators) and of
# control characters (C0, DEL, C1) in a header becomes one space.
_NOT_ONE_LINE = re.compile(r"[\s\x00-\x1f\x7f-\x9f]+")


def header_text(text: str) -> str:
    """``text`` as one line of header text: white space and control characters collapsed into single spaces."""
    return _NOT_ONE_LINE.sub(" ", text).strip()


def send(name: str, address: str, subject: str, body: str, headers: Optional[Mapping[str, str]] = None) -> bool:
    """Mail ``body`` to ``address`` (shown as ``name``); ``False`` when it could not be composed or sent (logged)."""
    try:
        mail_recipient(header_text(name), address, header_text(subject), body,
                       headers={key: header_text(value) for key, value in (headers or {}).items()})
    except (MailerException, smtplib.SMTPException, OSError, ValueError):
        # ValueError: a header the email package still refuses, or an address smtplib cannot encode.
        log.exception("Could not send the mail %r to %s", header_text(subject), address)
        return False
    return True
