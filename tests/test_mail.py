"""Mail as it travels: the subject's raw header decodes to the words it was given, spaces included."""
from __future__ import annotations

import email
import email.header
import email.policy

import pytest

from ckanext.passport import mail
from tests.support.smtp_sink import SmtpSink

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins")]

# A long subject of non-ASCII words that the email package's default policy folds between encoded words.
SUBJECT = "[CKAN] Obyvatelstvo obcí: Отправлено на проверку"


def test_a_long_non_ascii_subject_keeps_every_space_in_its_raw_header(ckan_config, monkeypatch):
    raw: list[bytes] = []
    with SmtpSink(keep=lambda recipients, message: raw.append(message)).serving() as sink:
        monkeypatch.setitem(ckan_config, "smtp.server", sink.address)
        assert mail.send("Kurátor", "kurator@example.org", SUBJECT, "Text")
    header = raw[0].split(b"\r\n\r\n", 1)[0]
    assert header.isascii()
    assert b"=?utf-8?" in header
    parsed = email.message_from_bytes(raw[0], policy=email.policy.default)
    assert parsed["Subject"] == SUBJECT
    compat = email.message_from_bytes(raw[0])
    assert str(email.header.make_header(email.header.decode_header(compat["Subject"]))) == SUBJECT


def test_an_ascii_subject_stays_plain_text(ckan_config, monkeypatch):
    raw: list[bytes] = []
    with SmtpSink(keep=lambda recipients, message: raw.append(message)).serving() as sink:
        monkeypatch.setitem(ckan_config, "smtp.server", sink.address)
        assert mail.send("Editor", "editor@example.org", "[CKAN] Water quality: Submitted for review", "Text")
    assert b"\nSubject: [CKAN] Water quality: Submitted for review\r\n" in raw[0]
