"""The tests' mail server: the demo's loopback SMTP sink, dev/mail_sink.py (one copy; dev/ is no package, the demo
runs it as a script), a real server that keeps every message and delivers none."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "dev"))

from mail_sink import SmtpSink, body  # noqa: E402

__all__ = ["SmtpSink", "body"]
