"""A real SMTP server on loopback that keeps every message and delivers none: the tests' mail server.

Just enough SMTP for smtplib (CKAN's mailer). The socket is bound when the sink is made, so its address can be
named before it serves (a module's ``ckan_config`` mark); ``serving()`` answers on it until the block ends.
"""
from __future__ import annotations

import contextlib
import email
import email.policy
import socketserver
import threading
from email.message import EmailMessage
from typing import Iterator


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
                message = email.message_from_bytes(b"".join(lines), policy=email.policy.default)
                self.server.messages.append((recipients, message))  # type: ignore[attr-defined]
                recipients = []
                self._reply("250 OK")
            elif command == b"QUIT":
                self._reply("221 bye")
                return
            else:
                self._reply("250 OK")


class SmtpSink(socketserver.ThreadingTCPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _SmtpSession)
        self.messages: list[tuple[list[str], EmailMessage]] = []

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
