"""E-mail: single messages (.eml) and mailboxes (.mbox), through `email`.

A message reads as its header block (From, To, Cc, Date, Subject and the
attachment names), then its body: of the alternatives a mail client chooses
between, the plain-text one, else the HTML one through the HTML reader.
Attachments of a supported type are read by their own reader, under the
same limits, as sections headed `Attachment: <name>`. A forwarded message
(message/rfc822) is read in place, its headers and body after the outer ones.

The MIME tree is walked with an explicit stack bounded in depth and in part
count. Those bounds are checked on the raw bytes before the standard parser
runs, because the parser recurses once per nesting level and slows down
steeply with depth: a hostile message nested 2,000 deep would otherwise cost
seconds and then a RecursionError.

An .mbox is one document whose sections are its messages, headed by subject
and date, at most `Limits.max_mail_messages` of them.
"""
from __future__ import annotations

import email
import email.policy
import os
import re
from email.errors import HeaderParseError
from email.header import decode_header, make_header
from email.message import Message
from email.utils import parsedate_to_datetime
from typing import Callable, Iterator, List, Optional, Tuple

from ..config import SUPPORTED, Limits
from ..document import Document, Section
from ..errors import SkipFile
from .encoding import decode_text
from .htmltext import read_html

# The compat32 policy parses a 3,000-message mailbox in 0.8 s where the modern
# one takes 16 s (bench/mail_policy.py), because it leaves headers as strings;
# the five that are shown are decoded here.
_POLICY = email.policy.compat32
ReadDocument = Callable[[bytes, str, Limits], Document]
_SHOWN_HEADERS = ("From", "To", "Cc", "Date", "Subject")
_MAX_HEADER_CHARS = 2_000
_MAX_SUBJECT_CHARS = 300
_NOT_READ_INSIDE_MAIL = ("eml", "mbox")   # a mail attached to a mail is listed, not read
# Declared MIME boundaries and the closing delimiters that end them.
_BOUNDARY = re.compile(rb'boundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))', re.IGNORECASE)
_DELIMITER_LINE = re.compile(rb"^--([^\r\n]{1,202})", re.MULTILINE)
_RFC822 = re.compile(rb"^content-type:[ \t]*message/rfc822", re.IGNORECASE | re.MULTILINE)
_HEADER_LINE = re.compile(rb"^[!-9;-~]{1,76}[ \t]*:", re.MULTILINE)
_FROM_LINE = re.compile(rb"^From [^\n]*\n", re.MULTILINE)
_TIME = re.compile(rb"\d\d:\d\d")
_RAW_BYTES = re.compile("[\udc80-\udcff]")
_FOLD = re.compile(r"\r?\n[ \t]+")
_QUOTED_FROM = re.compile(rb"^>(>*From )", re.MULTILINE)


def read_eml(data: bytes, limits: Limits, read: Optional[ReadDocument] = None) -> Document:
    """One message: title from its subject, sections for body and attachments.

    `read` reads an attachment's bytes by its name (the registry passes its
    `read_document`); without it, attachments are only listed.
    """
    data = data.lstrip()
    if data.startswith(b"From "):   # one message saved with its mbox separator line
        data = data[data.find(b"\n") + 1:]
    if not _HEADER_LINE.match(data[:1000]):
        raise SkipFile("not an e-mail message (no header at the start)")
    message = _parse(data, limits)
    warnings: List[str] = []
    sections = _message_sections(message, limits, warnings, (), read)
    return Document(title=_header(message, "Subject")[:_MAX_SUBJECT_CHARS], format="eml",
                    sections=sections, warnings=warnings)


def read_mbox(data: bytes, limits: Limits, read: Optional[ReadDocument] = None) -> Document:
    """Every message of the mailbox as sections headed (subject, date)."""
    if not data.lstrip().startswith(b"From "):
        raise SkipFile("not an mbox file (it does not start with a 'From ' line)")
    data = data.replace(b"\r\n", b"\n")
    starts = [m.start() for m in _FROM_LINE.finditer(data) if _separates(data, m)]
    warnings: List[str] = []
    if len(starts) > limits.max_mail_messages:
        warnings.append(f"only the first {limits.max_mail_messages:,} of {len(starts):,} "
                        "messages read")
        starts = starts[:limits.max_mail_messages + 1]
    sections: List[Section] = []
    used = 0
    for number, (start, end) in enumerate(zip(starts, starts[1:] + [len(data)]), start=1):
        if number > limits.max_mail_messages or used > limits.max_text_chars:
            break
        block = data[start:end]
        block = _QUOTED_FROM.sub(rb"\1", block[block.find(b"\n") + 1:])
        try:
            message = _parse(block, limits)
        except SkipFile as exc:
            warnings.append(f"message {number} not read: {exc}")
            continue
        subject = _header(message, "Subject")[:_MAX_SUBJECT_CHARS] or "(no subject)"
        label = (subject, _short_date(_header(message, "Date")) or f"message {number}")
        for sec in _message_sections(message, limits, warnings, label, read):
            sections.append(sec)
            used += len(sec.text)
    return Document(title="", format="mbox", sections=sections, warnings=warnings)


def _separates(data: bytes, match: "re.Match[bytes]") -> bool:
    """A `From ` line starts a message at the top, or with a time in it, or after
    a blank line when a header field follows it.

    Writers escape body lines that start with "From " (as ">From "), but not
    all of them, so a bare one inside a paragraph, or a paragraph that starts
    with "From time to time", is not taken for a separator.
    """
    start = match.start()
    if start == 0 or _TIME.search(match.group(0)):
        return True
    return data[max(0, start - 2):start] == b"\n\n" and bool(
        _HEADER_LINE.match(data, match.end()))


def _parse(data: bytes, limits: Limits) -> Message:
    """The parsed message, after the raw bytes pass the depth and part-count bounds."""
    declared = {m.group(1) or m.group(2) for m in _BOUNDARY.finditer(data)}
    parts = sum(1 for line in _DELIMITER_LINE.findall(data)
                if line.rstrip().rstrip(b"-") in declared or line.rstrip() in declared)
    if parts > limits.max_mail_parts:
        raise SkipFile(f"more than {limits.max_mail_parts:,} MIME parts")
    depth = _nesting_estimate(data)
    if depth > limits.max_mail_depth:
        raise SkipFile(f"MIME parts nested more than {limits.max_mail_depth} levels deep")
    try:
        return email.message_from_bytes(data, policy=_POLICY)
    except RecursionError:
        raise SkipFile("MIME parts nested too deeply") from None


def _nesting_estimate(data: bytes) -> int:
    """An upper bound on multipart nesting: boundaries still open at once.

    A boundary is open from its declaration to its closing `--boundary--`
    (or the end); forwarded messages count as one level each.
    """
    events: List[Tuple[int, int]] = []
    for match in _BOUNDARY.finditer(data):
        boundary = match.group(1) or match.group(2)
        close = data.find(b"--" + boundary + b"--", match.end())
        events.append((match.start(), 1))
        events.append((close if close >= 0 else len(data), -1))
    events.sort()
    depth = deepest = 0
    for _, step in events:
        depth += step
        deepest = max(deepest, depth)
    return deepest + len(_RFC822.findall(data))


def _message_sections(message: Message, limits: Limits, warnings: List[str],
                      heading: Tuple[str, ...], read: Optional[ReadDocument]) -> List[Section]:
    """Headers and body of a message, then its attachments, then forwarded messages."""
    body: List[str] = []
    extra: List[Section] = []
    attachments: List[str] = []
    forwarded: List[Tuple[Message, bool]] = []   # (message, one of a digest's)
    html_sections: List[Section] = []
    stack: List[Tuple[Message, int, bool]] = [(message, 0, False)]
    walked = 0
    while stack:
        part, depth, in_digest = stack.pop()
        walked += 1
        if walked > limits.max_mail_parts:
            warnings.append(f"only the first {limits.max_mail_parts:,} MIME parts read")
            break
        ctype = part.get_content_type()
        if ctype == "message/rfc822":   # a forwarded message, inline or attached
            inner = part.get_payload()
            inner = inner[0] if isinstance(inner, list) and inner else inner
            if isinstance(inner, Message) and depth < limits.max_mail_depth:
                forwarded.append((inner, in_digest))
            continue
        if part.is_multipart() or part.get_content_maintype() == "multipart":
            children = [c for c in part.get_payload() if isinstance(c, Message)] \
                if part.is_multipart() else _recovered_parts(part, limits)
            if depth >= limits.max_mail_depth:
                warnings.append(f"MIME parts deeper than {limits.max_mail_depth} levels left out")
                continue
            if ctype == "multipart/alternative" and children:
                children = [_preferred(children)]
            digest = ctype == "multipart/digest"
            stack.extend((child, depth + 1, digest) for child in reversed(children))
            continue
        name = _filename(part)
        if name is not None or part.get_content_disposition() == "attachment":
            label = name or f"unnamed {ctype} attachment"
            attachments.append(label)
            if name is not None:
                extra.extend(_attachment(part, name, limits, warnings, heading, read))
            continue
        if ctype == "text/plain":
            body.append(_text(part))
        elif ctype == "text/html":
            try:
                doc = read_html(_payload(part), limits)
            except SkipFile as exc:   # an empty or binary "HTML" part costs only itself
                warnings.append(f"HTML body not read: {exc}")
                continue
            html_sections.extend(
                Section(heading + sec.heading, sec.text) for sec in doc.sections)
    lines = []
    for field in _SHOWN_HEADERS:
        value = _header(message, field)
        if value:
            lines.append(f"{field}: {value}"[:_MAX_HEADER_CHARS])
    if attachments:
        lines.append("Attachments: " + ", ".join(attachments))
    text = "\n".join(lines)
    plain = "\n\n".join(t.strip() for t in body if t.strip())
    out = [Section(heading, f"{text}\n\n{plain}" if plain else text)]
    out.extend(html_sections)
    out.extend(extra)
    for inner, in_digest in forwarded:
        # a digest's messages were collected, not forwarded
        label = "Digest: " if in_digest else "Forwarded: "
        inner_heading = heading + (label + (_header(inner, "Subject") or "(no subject)"),)
        out.extend(_message_sections(inner, limits, warnings, inner_heading, read))
    return [sec for sec in out if sec.text.strip()]


def _recovered_parts(part: Message, limits: Limits) -> List[Message]:
    """The parts of a multipart whose declared boundary the parser could not use.

    Some mailers write boundaries that break the header syntax (an unquoted
    `=`), so the parser keeps the whole body as one string. Its first line
    starting with `--` is then taken for the delimiter, as a mail client does.
    """
    payload = part.get_payload()
    if not isinstance(payload, str):
        return []
    lines = payload.splitlines()
    delimiter = next((line.rstrip() for line in lines if line.startswith("--")
                      and len(line.strip()) > 2), None)
    if delimiter is None:
        return []
    chunks: List[List[str]] = []
    for line in lines:
        bare = line.rstrip()
        if bare == delimiter + "--":
            break
        if bare == delimiter:
            chunks.append([])
        elif chunks:
            chunks[-1].append(line)
    return [email.message_from_string("\n".join(chunk), policy=_POLICY)
            for chunk in chunks[:limits.max_mail_parts]]


def _preferred(children: List[Message]) -> Message:
    """Of alternatives, plain text, else HTML, else the last (the richest)."""
    for wanted in ("text/plain", "text/html"):
        for child in children:
            if child.get_content_type() == wanted and _filename(child) is None:
                return child
    return children[-1]


def _attachment(part: Message, name: str, limits: Limits, warnings: List[str],
                heading: Tuple[str, ...], read: Optional[ReadDocument]) -> List[Section]:
    """An attachment read by the reader its name calls for, if any."""
    fmt = SUPPORTED.get(os.path.splitext(name)[1].lower())
    if read is None or fmt is None or fmt in _NOT_READ_INSIDE_MAIL:
        return []
    data = _payload(part)
    if len(data) > limits.max_bytes:
        warnings.append(f"attachment {name} not read: larger than {limits.max_bytes:,} bytes")
        return []
    try:
        doc = read(data, name, limits)
    except SkipFile as exc:
        warnings.append(f"attachment {name} not read: {exc}")
        return []
    label = heading + (f"Attachment: {name}",)
    return [Section(label + sec.heading, sec.text) for sec in doc.sections]


def _filename(part: Message) -> Optional[str]:
    """The attachment's file name (RFC 2231 or RFC 2047 encoded), made path-free."""
    try:
        name = part.get_filename()
    except (ValueError, LookupError, TypeError, IndexError, HeaderParseError):
        return None
    name = " ".join(_decoded(name).split()) if name else ""
    return name.replace("/", "_").replace("\\", "_")[:200] or None


def _payload(part: Message) -> bytes:
    try:
        data = part.get_payload(decode=True)
    except (ValueError, LookupError, TypeError):
        return b""
    return data if isinstance(data, bytes) else b""


def _text(part: Message) -> str:
    """A text part decoded by its declared charset, else like a plain-text file."""
    data = _payload(part)
    try:
        charset = part.get_content_charset()
    except (ValueError, LookupError, TypeError):
        charset = None
    if charset:
        try:
            return data.decode(charset, errors="replace")
        except (LookupError, ValueError):
            pass   # an unknown charset name: read like a text file
    try:
        return decode_text(data)
    except SkipFile:   # empty, or binary content labelled as text
        return ""


def _header(message: Message, field: str) -> str:
    """A header's value decoded (RFC 2047 words, raw UTF-8), in one line; "" if absent."""
    wanted = field.lower()
    raw = next((value for name, value in message.raw_items() if name.lower() == wanted), None)
    return " ".join(_decoded(raw).split()) if raw is not None else ""


def _decoded(value: object) -> str:
    """A header value as text: raw 8-bit bytes as UTF-8 (else cp1252), then
    RFC 2047 encoded words decoded."""
    text = value if isinstance(value, str) else str(value)
    if _RAW_BYTES.search(text):   # the parser keeps undecodable bytes as surrogates
        raw = text.encode("utf-8", "surrogateescape")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("cp1252", errors="replace")
    if "=?" not in text:
        return text
    text = _FOLD.sub(" ", text)
    if len(text) > 2 * _HEADER_PIECE:
        return " ".join(_encoded_words(piece) for piece in _pieces(text, _HEADER_PIECE))
    return _encoded_words(text)


# `email.header.decode_header` takes time quadratic in the encoded words of a value
# (1 MB of `=?utf-8?q?a?=` cost 15 CPU s), so a longer value is decoded in pieces cut
# at a space (an encoded word holds none; two on either side of a cut keep the space).
_HEADER_PIECE = 4000


def _pieces(text: str, size: int) -> Iterator[str]:
    start = 0
    while start < len(text):
        end = start + size
        if end < len(text):
            space = text.rfind(" ", start + size // 2, end)
            end = space if space > start else end
        yield text[start:end]
        start = end


def _encoded_words(text: str) -> str:
    """RFC 2047 encoded words decoded (a charset that fails is read as cp1252)."""
    try:
        pieces = decode_header(text)
        return str(make_header(pieces))
    except (HeaderParseError, LookupError, UnicodeError, ValueError, TypeError):
        pass
    out = []
    try:
        pieces = decode_header(text)
    except (HeaderParseError, ValueError, TypeError, LookupError):
        return text
    for chunk, charset in pieces:
        if isinstance(chunk, str):
            out.append(chunk)
            continue
        try:
            out.append(chunk.decode(charset or "utf-8"))
        except (LookupError, UnicodeError):
            out.append(chunk.decode("cp1252", errors="replace"))
    return " ".join(out)


def _short_date(value: str) -> str:
    """A Date header as `2026-12-01 10:30`, or "" if it does not parse."""
    try:
        return parsedate_to_datetime(value).strftime("%Y-%m-%d %H:%M") if value else ""
    except (TypeError, ValueError, IndexError, OverflowError):
        return ""
