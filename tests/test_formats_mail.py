"""Mail: .eml through the email package, .mbox as one document of messages.

Every message here is real mail written by the standard library's `email`
package (EmailMessage, add_alternative, add_attachment) and mailboxes by
`mailbox.mbox`, the same code mail tools built on Python use.
"""
from __future__ import annotations

import mailbox
from pathlib import Path
from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

import pytest

from glean_personal.config import Limits
from glean_personal.errors import SkipFile
from glean_personal.formats import extract, read_document
from office_factory import docx, para


def message(subject: str = "Compost rota for April", body: str = "Can you turn bin A?",
            html: str = "", date: str = "Tue, 01 Dec 2026 10:30:00 +0000") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Priya Shah <priya@example.org>"
    msg["To"] = "Tom Baker <tom@example.org>"
    msg["Cc"] = "Lin Wei <lin@example.org>"
    msg["Subject"] = subject
    msg["Date"] = date
    if body:
        msg.set_content(body)
    if html:
        if body:
            msg.add_alternative(html, subtype="html")
        else:
            msg.set_content(html, subtype="html")
    return msg


def test_plain_text_is_preferred_and_headers_are_in_the_text():
    msg = message(body="Hi Tom,\n\nCan you turn bin A this week?\n\nPriya",
                  html="<p>HTML copy of <b>the same</b></p>")
    doc = read_document(bytes(msg), "rota.eml")
    assert (doc.title, doc.format, doc.warnings) == ("Compost rota for April", "eml", [])
    assert [(s.heading, s.text) for s in doc.sections] == [((), (
        "From: Priya Shah <priya@example.org>\nTo: Tom Baker <tom@example.org>\n"
        "Cc: Lin Wei <lin@example.org>\nDate: Tue, 01 Dec 2026 10:30:00 +0000\n"
        "Subject: Compost rota for April\n\n"
        "Hi Tom,\n\nCan you turn bin A this week?\n\nPriya"))]


def test_html_only_body_goes_through_the_html_reader():
    msg = message(body="", html="<html><head><style>p{}</style></head><body><h1>Plan</h1>"
                                "<p>Sow <i>peas</i> on Friday.</p><script>x()</script></body></html>")
    doc = read_document(bytes(msg), "plan.eml")
    assert [(s.heading, s.text) for s in doc.sections][1:] == [(("Plan",), "Sow peas on Friday.")]


def test_encoded_headers_and_charsets():
    msg = message(subject="Grüße aus Köln — 東京", body="Café crème, naïve résumé.")
    doc = read_document(msg.as_bytes(), "intl.eml")
    assert doc.title == "Grüße aus Köln — 東京"
    assert b"=?utf-8?" in msg.as_bytes()   # the header really was RFC 2047-encoded
    assert "Café crème, naïve résumé." in doc.text
    latin = MIMEText("Ça coûte 5 €".encode("cp1252").decode("latin-1"), "plain", "latin-1")
    latin["Subject"] = "=?iso-8859-1?q?R=E9union?="
    assert read_document(latin.as_bytes(), "l.eml").title == "Réunion"


def test_attachments_are_listed_and_read_when_supported():
    msg = message(body="Minutes and photo attached.")
    msg.add_attachment(docx(para("Minutes of the AGM") + para("Elected: a new treasurer.")),
                       maintype="application", filename="minutes.docx",
                       subtype="vnd.openxmlformats-officedocument.wordprocessingml.document")
    msg.add_attachment(b"\x89PNG\r\n\x1a\n", maintype="image", subtype="png", filename="plot.png")
    msg.add_attachment(b"%PDF-1.4 nope", maintype="application", subtype="json",
                       filename="broken.json")
    doc = read_document(bytes(msg), "agm.eml")
    first = doc.sections[0].text
    assert "Attachments: minutes.docx, plot.png, broken.json" in first
    assert doc.sections[1].heading == ("Attachment: minutes.docx",)
    assert "Elected: a new treasurer." in doc.sections[1].text
    assert any(w.startswith("attachment broken.json not read: binary content") for w in doc.warnings)


def test_attached_mail_is_listed_not_read_and_forwarded_mail_is_read():
    inner = message(subject="Original question", body="Where are the spare keys?")
    outer = message(subject="Fwd: Original question", body="See below.")
    outer.add_attachment(inner)                    # message/rfc822, shown inline by clients
    outer.add_attachment(bytes(inner), maintype="application", subtype="octet-stream",
                         filename="copy.eml")
    doc = read_document(bytes(outer), "fwd.eml")
    headings = [s.heading for s in doc.sections]
    assert ("Forwarded: Original question",) in headings
    assert "Where are the spare keys?" in doc.text
    assert "Attachments: copy.eml" in doc.sections[0].text
    assert doc.text.count("Where are the spare keys?") == 1


def test_mbox_messages_are_sections(tmp_path):
    box = mailbox.mbox(str(tmp_path / "garden.mbox"))
    box.add(message(subject="Seed swap", body="From now on the swap is in October.",
                    date="Wed, 02 Dec 2026 09:00:00 +0000"))
    box.add(message(subject="Seed swap", body="Bring labelled envelopes.",
                    date="Thu, 03 Dec 2026 18:15:00 +0100"))
    box.add(b"From: Priya <priya@example.org>\nDate: not a date\n\nNo subject here.\n")
    box.flush()
    box.close()
    doc = extract(tmp_path / "garden.mbox")
    assert (doc.title, doc.format) == ("garden", "mbox")
    assert [s.heading for s in doc.sections] == [
        ("Seed swap", "2026-12-02 09:00"), ("Seed swap", "2026-12-03 18:15"),
        ("(no subject)", "message 3")]
    assert doc.sections[2].text == "From: Priya <priya@example.org>\nDate: not a date\n\nNo subject here."
    assert doc.sections[0].text.endswith("From now on the swap is in October.")   # un-escaped
    assert "Subject: Seed swap" in doc.sections[1].text


def test_mbox_count_is_bounded(tmp_path):
    box = mailbox.mbox(str(tmp_path / "many.mbox"))
    for i in range(12):
        box.add(message(subject=f"Note {i}", body=f"body {i}"))
    box.flush()
    box.close()
    doc = extract(tmp_path / "many.mbox", Limits(max_mail_messages=5))
    assert [s.heading[0] for s in doc.sections] == [f"Note {i}" for i in range(5)]
    assert doc.warnings == ["only the first 5 of 12 messages read"]


def test_deeply_nested_multipart_is_refused_before_parsing():
    root = outer = MIMEMultipart()
    for _ in range(200):
        inner = MIMEMultipart()
        outer.attach(inner)
        outer = inner
    outer.attach(MIMEText("deep"))
    root["Subject"] = "deep"
    with pytest.raises(SkipFile, match="MIME parts nested more than 32 levels deep"):
        read_document(root.as_bytes(), "deep.eml")


def test_moderate_nesting_reads():
    root = outer = MIMEMultipart()
    for _ in range(10):
        inner = MIMEMultipart()
        outer.attach(inner)
        outer = inner
    outer.attach(MIMEText("ten levels down"))
    root["Subject"] = "nested"
    assert "ten levels down" in read_document(root.as_bytes(), "n.eml").text


def test_too_many_parts_is_refused():
    root = MIMEMultipart()
    root["Subject"] = "wide"
    for i in range(30):
        root.attach(MIMEText(f"part {i}"))
    with pytest.raises(SkipFile, match="more than 20 MIME parts"):
        read_document(root.as_bytes(), "wide.eml", Limits(max_mail_parts=20))
    assert "part 29" in read_document(root.as_bytes(), "wide.eml").text


@pytest.mark.parametrize("data, name, reason", [
    (b"just some words\nno headers", "x.eml", "not an e-mail message"),
    (b"Subject: hi\n\nbody", "x.mbox", "not an mbox file"),
])
def test_not_mail(data, name, reason):
    with pytest.raises(SkipFile, match=reason):
        read_document(data, name)


def test_broken_mime_still_reads():
    data = (b"Subject: broken\nContent-Type: multipart/mixed; boundary=\"zz\"\n\n--zz\n"
            b"Content-Type: text/plain; charset=no-such-charset\n"
            b"Content-Transfer-Encoding: base64\n\nSGVsbG8gd29ybGQ=\n--zz\n"
            b"Content-Type: text/plain\n\nsecond part, never closed")
    doc = read_document(data, "broken.eml")
    assert "Hello world" in doc.text and "second part" in doc.text


def test_empty_html_part_costs_only_itself():
    data = (b'Subject: s\nContent-Type: multipart/mixed; boundary="b"\n\n--b\n'
            b"Content-Type: text/plain\n\nThe plain part.\n--b\nContent-Type: text/html\n\n"
            b"--b--\n")
    doc = read_document(data, "x.eml")
    assert doc.text.endswith("The plain part.")
    assert doc.warnings == ["HTML body not read: empty file"]


def test_thunderbird_style_mbox_with_an_unescaped_from_line():
    data = (b"From - Tue Dec 01 10:30:00 2026\r\nX-Mozilla-Status: 0001\r\n"
            b"From: Priya <priya@example.org>\r\nSubject: Keys\r\n"
            b"Date: Tue, 01 Dec 2026 10:30:00 +0000\r\n\r\nThe keys are with Tom.\r\n"
            b"From what he said, the shed is locked.\r\n\r\n"
            b"From - Wed Dec 02 08:00:00 2026\r\nFrom: Tom <tom@example.org>\r\n"
            b"Subject: Re: Keys\r\nDate: Wed, 02 Dec 2026 08:00:00 +0000\r\n\r\nGot them.\r\n")
    doc = read_document(data, "Inbox.mbox")
    assert [s.heading for s in doc.sections] == [("Keys", "2026-12-01 10:30"),
                                                 ("Re: Keys", "2026-12-02 08:00")]
    assert doc.sections[0].text.endswith(
        "The keys are with Tom.\nFrom what he said, the shed is locked.")


def test_unquoted_boundary_with_an_equals_sign_is_recovered():
    # Outlook wrote boundaries like this; the header parser stops at the "=".
    data = (b"Subject: Testing outlook\nMIME-Version: 1.0\nContent-Type: multipart/alternative; "
            b"boundary=----=_NextPart_000_0093_01C81419.EB75E850\n\n"
            b"------=_NextPart_000_0093_01C81419.EB75E850\nContent-Type: text/plain; "
            b"charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nCaf=E9 at noon.\n"
            b"------=_NextPart_000_0093_01C81419.EB75E850\nContent-Type: text/html\n\n"
            b"<p>HTML copy</p>\n------=_NextPart_000_0093_01C81419.EB75E850--\n")
    doc = read_document(data, "outlook.eml")
    assert doc.text.endswith("Café at noon.")
    assert "HTML copy" not in doc.text


def test_without_a_reader_attachments_are_only_listed():
    from glean_personal.formats.mail import read_eml
    msg = message(body="See attached.")
    msg.add_attachment(b"week,volunteer\n", maintype="text", subtype="plain", filename="rota.txt")
    doc = read_eml(bytes(msg), Limits())
    assert len(doc.sections) == 1 and "Attachments: rota.txt" in doc.sections[0].text


def test_dashes_and_mime_words_in_the_text_are_not_parts():
    body = "\n".join(["-- ", "--- a/file.py"] * 800 + ["the type message/rfc822 again"] * 40)
    doc = read_document(bytes(message(subject="A patch", body=body)), "patch.eml")
    assert doc.title == "A patch" and "--- a/file.py" in doc.text


def test_a_paragraph_starting_with_from_is_body_text_not_a_new_message():
    # CPython's own test mailbox: "From time to time" after a blank line, unescaped
    data = (Path(__file__).parent / "data" / "mail" / "mailbox_01.mbox").read_bytes()
    doc = read_document(data, "mailbox_01.mbox")
    assert len(doc.sections) == 1
    assert doc.sections[0].text.endswith("Hello\n\nFrom time to time")


def test_from_paragraph_between_messages_stays_with_the_first():
    data = (b"From priya@example.org Tue Dec 01 10:30:00 2026\n"
            b"From: Priya <priya@example.org>\nSubject: Keys\n\nThe keys are with Tom.\n\n"
            b"From now on the shed is locked at night.\n\n"
            b"From tom@example.org Wed Dec 02 08:00:00 2026\n"
            b"From: Tom <tom@example.org>\nSubject: Re: Keys\n\nGot them.\n")
    doc = read_document(data, "Inbox.mbox")
    assert [s.heading[0] for s in doc.sections] == ["Keys", "Re: Keys"]
    assert doc.sections[0].text.endswith("From now on the shed is locked at night.")


def test_a_digest_s_messages_are_headed_as_its_entries_not_forwards():
    # CPython's test mail: a Mailman digest (multipart/digest of message/rfc822 parts)
    data = (Path(__file__).parent / "data" / "mail" / "msg_02.eml").read_bytes()
    doc = read_document(data, "msg_02.eml")
    assert doc.title == "Ppp digest, Vol 1 #2 - 5 msgs"
    assert [s.heading for s in doc.sections[1:]] == [
        ("Digest: [Ppp] testing #1",), ("Digest: (no subject)",), ("Digest: [Ppp] testing #3",),
        ("Digest: [Ppp] testing #4",), ("Digest: [Ppp] testing #5",)]
    assert "Today's Topics:" in doc.sections[0].text
