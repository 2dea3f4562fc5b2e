"""One mail through CKAN's mailer, the way every mail of the extension is sent (workflow notices, conformance
notices, the weekly digest).

Header text is made one line first: a title or a full name may hold a line break, U+2028 or another character
that ``str.splitlines`` splits at, and Python's email package refuses such a header with ``ValueError``. A mail
that still cannot be composed or sent is logged and reported as not sent, never raised: its caller goes on to the
next mail, and a request that already committed its change never answers 500 because of a mail.

The subject is encoded here, not by the email package's default policy, which CKAN's mailer uses: folding a long
subject of encoded words, that policy drops the space between two of them ("Отправлено на" arrives as
"Отправленона"; CPython 3.11's ``_refold_parse_tree``).
"""
from __future__ import annotations

import logging
import re
import smtplib
from email.header import Header
from email.policy import Policy
from typing import Mapping, Optional

from ckan.lib.mailer import MailerException, mail_recipient

log = logging.getLogger(__name__)

# Every run of white space (Unicode's: line and paragraph separators, NEL, the file and record separators) and of
# control characters (C0, DEL, C1) in a header becomes one space.
_NOT_ONE_LINE = re.compile(r"[\s\x00-\x1f\x7f-\x9f]+")


def header_text(text: str) -> str:
    """``text`` as one line of header text: white space and control characters collapsed into single spaces."""
    return _NOT_ONE_LINE.sub(" ", text).strip()


class EncodedSubject(str):
    """A subject that folds itself: RFC 2047 encoded words of UTF-8 (each word's spaces inside it, where no
    decoder drops them), or plain folded text when it is ASCII. The email policy stores a value that has the
    header's ``name`` as it is and asks its ``fold`` for the header line, instead of refolding it."""

    name = "Subject"

    def fold(self, *, policy: Policy) -> str:
        charset = "us-ascii" if self.isascii() else "utf-8"
        encoded = Header(str(self), charset, header_name=self.name).encode(linesep=policy.linesep)
        return f"{self.name}: {encoded}{policy.linesep}"


def send(name: str, address: str, subject: str, body: str, headers: Optional[Mapping[str, str]] = None) -> bool:
    """Mail ``body`` to ``address`` (shown as ``name``); ``False`` when it could not be composed or sent (logged)."""
    try:
        mail_recipient(header_text(name), address, EncodedSubject(header_text(subject)), body,
                       headers={key: header_text(value) for key, value in (headers or {}).items()})
    except (MailerException, smtplib.SMTPException, OSError, ValueError):
        # ValueError: a header the email package still refuses, or an address smtplib cannot encode.
        log.exception("Could not send the mail %r to %s", header_text(subject), address)
        return False
    return True
