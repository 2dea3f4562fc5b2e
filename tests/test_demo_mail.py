"""The demo's mail: dev/mail_sink.py catches every mail the demo portal sends and writes each to a file, dev/ckan.ini
sends there and opts every source in, and the district's site (dev/demo-region) gets worse in its second edition so
that its second harvest is mailed (dev/demo.sh)."""
from __future__ import annotations

import configparser
import email
import email.policy
import re
import smtplib
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

from tests.support.smtp_sink import SmtpSink, body

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "dev"))
from mail_sink import writing_to  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
REGION = ROOT / "dev" / "demo-region"


def _mail(to: str, subject: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = "portal@example.org"
    message["To"] = to
    message["Subject"] = subject
    message.set_content("Находки: 1 ошибка.\n.a line starting with a dot\n")
    return message


def _send(address: str, message: EmailMessage) -> None:
    host, port = address.split(":")
    with smtplib.SMTP(host, int(port), timeout=5) as smtp:
        smtp.send_message(message)


def _read(path: Path) -> EmailMessage:
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)  # type: ignore[return-value]


def test_the_sink_writes_each_mail_it_receives_to_the_next_numbered_file(tmp_path):
    with SmtpSink(keep=writing_to(tmp_path)).serving() as sink:
        _send(sink.address, _mail("spravce@example.org", "První"))
        _send(sink.address, _mail("kurator@example.org", "Второе"))

    assert sorted(path.name for path in tmp_path.iterdir()) == ["1.eml", "2.eml"]
    first, second = _read(tmp_path / "1.eml"), _read(tmp_path / "2.eml")
    assert (first["Subject"], first["X-Sink-Recipients"]) == ("První", "spravce@example.org")
    assert (second["Subject"], second["X-Sink-Recipients"]) == ("Второе", "kurator@example.org")
    assert body(second).splitlines() == ["Находки: 1 ошибка.", ".a line starting with a dot"]


def test_a_restarted_sink_numbers_on_from_the_mails_already_there(tmp_path):
    (tmp_path / "1.eml").write_bytes(b"Subject: kept\r\n\r\nkept\r\n")
    (tmp_path / "7.eml").write_bytes(b"Subject: kept\r\n\r\nkept\r\n")

    with SmtpSink(keep=writing_to(tmp_path)).serving() as sink:
        _send(sink.address, _mail("spravce@example.org", "Next"))

    assert _read(tmp_path / "8.eml")["Subject"] == "Next"
    assert _read(tmp_path / "7.eml")["Subject"] == "kept"


def test_the_sink_run_as_a_script_says_where_it_listens_and_writes_what_it_receives(tmp_path):
    process = subprocess.Popen([sys.executable, str(ROOT / "dev" / "mail_sink.py"), "0", str(tmp_path / "mail")],
                               stdout=subprocess.PIPE, text=True)
    try:
        announced = process.stdout.readline()  # type: ignore[union-attr]
        address = re.match(r"Mail sink: (127\.0\.0\.1:\d+), mails in ", announced).group(1)  # type: ignore[union-attr]
        _send(address, _mail("spravce@example.org", "Over the wire"))
        deadline = time.monotonic() + 5
        while not (tmp_path / "mail" / "1.eml").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        process.terminate()
        process.wait(5)

    assert _read(tmp_path / "mail" / "1.eml")["Subject"] == "Over the wire"


def test_the_demo_config_mails_to_the_sink_demo_sh_starts_and_opts_every_source_in():
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(ROOT / "dev" / "ckan.ini", encoding="utf-8")
    config = parser["app:main"]
    script = (ROOT / "dev" / "demo.sh").read_text(encoding="utf-8")
    port = re.search(r"^MAIL_PORT=(\d+)", script, re.MULTILINE).group(1)  # type: ignore[union-attr]

    assert config["smtp.server"] == f"127.0.0.1:{port}"
    assert config["ckanext.passport.notify_sources"] == "true"
    assert 'start mail-sink "$BIN/python" "$ROOT/dev/mail_sink.py" "$MAIL_PORT" "$RUN/mail"' in script
    assert re.search(r"^PROCESSES=\(.* mail-sink\)$", script, re.MULTILINE), "dev/demo.sh stop stops it, last"
    assert "Mail sink: 127.0.0.1:$MAIL_PORT, mails in dev/run/mail/" in script


def test_the_district_s_second_edition_lists_a_new_data_file_it_does_not_publish():
    first = (REGION / "opendata" / "5031012340-libraries" / "meta.xml").read_text("utf-8")
    second = (REGION / "second-edition" / "opendata" / "5031012340-libraries" / "meta.xml").read_text("utf-8")
    linked = set(re.findall(r"<source>/opendata/([^<]+)</source>", first))
    linked_now = set(re.findall(r"<source>/opendata/([^<]+)</source>", second))

    assert all((REGION / "opendata" / path).is_file() for path in linked)
    [missing] = linked_now - linked
    assert not (REGION / "opendata" / missing).exists()
    assert not (REGION / "second-edition" / "opendata" / missing).exists()
    assert [path.name for path in (REGION / "second-edition").rglob("*") if path.is_file()] == ["meta.xml"]
