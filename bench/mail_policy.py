"""How long the mbox reader takes, and why it parses in compat32 mode.

Writes a mailbox of N messages with the standard library (`mailbox.mbox`;
every tenth message has an HTML alternative), then times, best of 3:

- parsing every message with `email.policy.compat32` and with
  `email.policy.default`, touching what the reader touches (each part's
  content type and file name, and the Subject, From and Date headers);
- the reader itself, `read_document` on the whole file.

Usage: python bench/mail_policy.py [N]   (default 3000, about 5 MB)
"""
from __future__ import annotations

import email
import email.policy
import mailbox
import re
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from glean_personal.config import Limits  # noqa: E402
from glean_personal.formats import read_document  # noqa: E402


def write_mbox(path: Path, count: int) -> bytes:
    box = mailbox.mbox(str(path))
    for i in range(count):
        msg = EmailMessage()
        msg["From"] = f"user{i}@example.org"
        msg["To"] = "list@example.org"
        msg["Subject"] = f"Topic {i % 50} discussion"
        msg["Date"] = "Tue, 01 Dec 2026 10:30:00 +0000"
        msg.set_content(f"Some words about the garden and plot number {i}. " * 25)
        if i % 10 == 0:
            msg.add_alternative("<p>" + f"html words {i} " * 50 + "</p>", subtype="html")
        box.add(msg)
    box.flush()
    box.close()
    return path.read_bytes()


def parse_all(data: bytes, policy) -> None:
    for block in re.split(rb"\n(?=From )", data):
        message = email.message_from_bytes(block, policy=policy)
        for part in message.walk():
            part.get_content_type()
            part.get_filename()
        for name in ("Subject", "From", "Date"):
            message.get(name)


def best_of(runs: int, func) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        func()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    with tempfile.TemporaryDirectory() as folder:
        data = write_mbox(Path(folder) / "bench.mbox", count)
    print(f"{count:,} messages, {len(data):,} bytes")
    for label, policy in (("compat32", email.policy.compat32), ("default", email.policy.default)):
        print(f"parse, policy {label:8}: {best_of(3, lambda: parse_all(data, policy)):6.2f} s")
    limits = Limits(max_bytes=len(data) + 1)
    reader = best_of(3, lambda: read_document(data, "bench.mbox", limits))
    print(f"read_document (whole reader): {reader:6.2f} s")


if __name__ == "__main__":
    main()
