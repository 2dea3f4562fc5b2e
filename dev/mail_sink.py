"""A real SMTP server on loopback that keeps every message and delivers none: the demo's and the tests' mail server.

Just enough SMTP for smtplib (CKAN's mailer). The socket is bound when the sink is made, so its address can be
named before it serves (a test module's ``ckan_config`` mark); ``serving()`` answers on it until the block ends.

Run as a script (``dev/demo.sh`` does), it serves one port and writes each mail it receives to DIRECTORY/<n>.eml,
numbered on from the mails already there, and does nothing else:

    python dev/mail_sink.py PORT DIRECTORY
"""
from __future__ import annotations

import contextlib
import email
import email.policy
import socketserver
import sys
import threading
from email.message import EmailMessage
from pathlib import Path
from typing import Callable, Iterator, Optional

# Called with each received message's recipients and its bytes as sent.
Keeper = Callable[[list[str], bytes], None]


class _SmtpSession(socketserver.StreamRequestHandler):
    def _reply(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self) -> None:
        self._reply("220 sink ESMTP")
        recipients: list[str] = []
        while line := self.rfile.readline():
            command = line.strip().upper()
            if command.startswith((b"EHLO", b"HELO")):
                self._reply("250 sink")
            elif command.startswith(b"RCPT TO:"):
                recipients.append(line.strip()[8:].decode().strip("<> "))
                self._reply("250 OK")
            elif command == b"DATA":
                self._reply("354 end with <CRLF>.<CRLF>")
                lines = []
                while (data_line := self.rfile.readline()) not in (b".\r\n", b""):
                    lines.append(data_line[1:] if data_line.startswith(b"..") else data_line)
                self.server.receive(recipients, b"".join(lines))  # type: ignore[attr-defined]
                recipients = []
                self._reply("250 OK")
            elif command == b"QUIT":
                self._reply("221 bye")
                return
            else:
                self._reply("250 OK")


class SmtpSink(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, port: int = 0, keep: Optional[Keeper] = None) -> None:
        super().__init__(("127.0.0.1", port), _SmtpSession)
        self.messages: list[tuple[list[str], EmailMessage]] = []
        self._keep = keep
        self._lock = threading.Lock()

    def receive(self, recipients: list[str], raw: bytes) -> None:
        message = email.message_from_bytes(raw, policy=email.policy.default)
        with self._lock:  # sessions are threads: one mail kept at a time, so no two get one number
            self.messages.append((recipients, message))  # type: ignore[arg-type]
            if self._keep:
                self._keep(recipients, raw)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.server_address[1]}"

    def to(self, address: str) -> list[EmailMessage]:
        return [message for recipients, message in self.messages if address in recipients]

    @contextlib.contextmanager
    def serving(self) -> Iterator["SmtpSink"]:
        thread = threading.Thread(target=self.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self.shutdown()
            self.server_close()


def body(message: EmailMessage) -> str:
    """A received message's plain text."""
    return message.get_body(preferencelist=("plain",)).get_content()


def writing_to(directory: Path) -> Keeper:
    """A keeper writing each mail to ``directory``/<n>.eml, n one past the highest number there (a restarted sink
    keeps the mails it caught before)."""
    directory.mkdir(parents=True, exist_ok=True)

    def keep(recipients: list[str], raw: bytes) -> None:
        numbers = [int(path.stem) for path in directory.glob("*.eml") if path.stem.isdigit()]
        # The envelope's recipients are not in the message (a Bcc'd admin); a header line keeps them.
        envelope = f"X-Sink-Recipients: {', '.join(recipients)}\r\n".encode()
        (directory / f"{max(numbers, default=0) + 1}.eml").write_bytes(envelope + raw)

    return keep


def main(argv: list[str]) -> None:
    if len(argv) != 2 or not argv[0].isdigit():
        raise SystemExit("usage: python dev/mail_sink.py PORT DIRECTORY")
    sink = SmtpSink(int(argv[0]), keep=writing_to(Path(argv[1])))
    print(f"Mail sink: {sink.address}, mails in {argv[1]}", flush=True)
    sink.serve_forever()


if __name__ == "__main__":
    main(sys.argv[1:])
