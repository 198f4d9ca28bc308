"""Credentials pasted into documents are replaced by markers before anything is stored."""
from __future__ import annotations

import subprocess
import sys

import pytest

import glean_personal
from glean_personal.redact import PATTERNS, redact
from helpers.files import write_tree

# Made-up values in the documented shapes (none is a live credential).
PEM = ("-----BEGIN RSA PRIVATE KEY-----\n"
       "MIIEowIBAAKCAQEAzq3Xk1cE7lqKx0b8Vf4VnUu2bqYwQ1N1pZqkR0d5xXb5Q2pY\n"
       "k0H5r9m2c8Zl0yT4Jv3kq8d7W2s9QnC1xR5e6t7y8u9i0o1p2a3s4d5f6g7h8j9k\n"
       "-----END RSA PRIVATE KEY-----")
CASES = [
    (PEM, "[redacted private key]", "MIIEowIBAAKCAQEA"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB\n"
     "-----END OPENSSH PRIVATE KEY-----", "[redacted private key]", "b3BlbnNzaC1rZXkt"),
    ("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n"
     "(the end of the key was not pasted)", "[redacted private key]", "MC4CAQAwBQYDK2Vw"),
    ("key id AKIAIOSFODNN7EXAMPLE in the config", "[redacted AWS access key]", "AKIAIOSFODNN7EXAMPLE"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
     "aws_secret_access_key = [redacted AWS secret key]", "wJalrXUtnFEMI"),
    ("token ghp_16C7e42F292c6912E7710c838347Ae178B4a ok", "[redacted GitHub token]", "ghp_16C7e42F"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV",
     "[redacted GitHub token]", "github_pat_11ABC"),
    ("glpat-xxxxxxxxxxxxxxxxxxxx1234", "[redacted GitLab token]", "glpat-xxxx"),
    ("slack xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "[redacted Slack token]",
     "xoxb-1234"),
    ("curl -H 'Authorization: Bearer abcDEF123456ghiJKL789mno' https://api",
     "Authorization: Bearer [redacted token]", "abcDEF123456"),
    ("postgres://admin:s3cr3t-Pa55@db.internal:5432/app",
     "postgres://admin:[redacted password]@db.internal", "s3cr3t-Pa55"),
    ("AIzaSyA1234567890abcdefghijklmnopqrstuv", "[redacted Google API key]", "AIzaSyA12345"),
    ("sk_live_4eC39HqLyjWDarjtT1zdp7dc", "[redacted Stripe key]", "sk_live_4eC39"),
    ("npm_abcdefghijklmnopqrstuvwxyz0123456789", "[redacted npm token]", "npm_abcdefgh"),
    ("OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD", "[redacted API key]",
     "abcdefghijklmnop"),
    ("key: sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789-ABCDEFG", "[redacted API key]",
     "abcdefghijklmnop"),
    ('"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\nBKcwggSjAgEAAoIBAQC7\\n"',
     "[redacted private key]", "MIIEvQIBADANBgkq"),
    ("https://:ghtoken123@github.com/org/repo.git", "https://:[redacted password]@github.com",
     "ghtoken123"),
    ("DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=" + "A" * 86 + "==;",
     "AccountKey=[redacted Azure key]", "A" * 40),
]


@pytest.mark.parametrize("text, marker, secret", CASES)
def test_each_shape_is_redacted(text, marker, secret):
    out, n = redact(text)
    assert n >= 1 and marker in out and secret not in out


@pytest.mark.parametrize("text", [
    "The -----BEGIN----- of a story about keys and tokens.",
    "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "https://example.com/path@version and user@example.com",
    "A bearer of good news.",
    "git commit 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b",
])
def test_ordinary_text_is_left_alone(text):
    assert redact(text) == (text, 0)


def test_every_pattern_is_documented():
    page = (__import__("pathlib").Path(__file__).resolve().parents[1] / "docs" / "security.md")
    text = page.read_text(encoding="utf-8")
    for name, _, _ in PATTERNS:
        assert name in text, f"{name} is not listed in docs/security.md"


def _index(tmp_path, redact_flag=None):
    folder = write_tree(tmp_path / "notes", {
        "server.md": f"# Server notes\n\nThe deploy key:\n\n{PEM}\n\nRotate it yearly.\n",
        "ci.md": "# CI\n\nexport GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a\n",
        "head.md": "# Key AKIAIOSFODNN7EXAMPLE\n\nThe heading held an access key.\n",
    })
    db = tmp_path / "p.db"
    with glean_personal.open_index(db) as ix:
        report = ix.index(folder, redact=redact_flag)
    return db, report


def test_secrets_never_reach_the_index(tmp_path, store_kind):
    db, report = _index(tmp_path)
    assert report.redacted == 3 and report.to_dict()["redacted"] == 3
    with glean_personal.open_index(db, readonly=True) as ix:
        assert ix.search("MIIEowIBAAKCAQEAzq3Xk1cE7lqKx0b8Vf4VnUu2bqYwQ1N1pZqkR0d5xXb5Q2pY").results == []
        assert ix.search("ghp_16C7e42F292c6912E7710c838347Ae178B4a").results == []
        text = ix.fetch("server.md").text
        assert "[redacted private key]" in text and "Rotate it yearly" in text
        assert any("redacted" in w for w in ix.fetch("server.md").warnings)
        st = ix.status()
        assert st.redactions == 3 and st.sources[0]["redactions"] == 3
        assert ix.search("AKIAIOSFODNN7EXAMPLE").results == []
    raw = db.read_bytes()
    assert b"MIIEowIBAAKCAQEA" not in raw and b"ghp_16C7e42F" not in raw
    assert b"AKIAIOSFODNN7EXAMPLE" not in raw


def test_redaction_can_be_turned_off_per_source(tmp_path, store_kind):
    db, report = _index(tmp_path, redact_flag=False)
    assert report.redacted == 0
    with glean_personal.open_index(db) as ix:
        assert "MIIEowIBAAKCAQEA" in ix.fetch("server.md").text
        assert ix.sources()[0]["redact"] is False
        ix.index(tmp_path / "notes")             # a bare re-index keeps the choice
        assert ix.sources()[0]["redact"] is False
        report = ix.index(tmp_path / "notes", redact=True)   # switched: everything read again
        assert report.updated == 3 and report.redacted == 3
        assert "MIIEowIBAAKCAQEA" not in ix.fetch("server.md").text


def test_extract_shows_the_redacted_text(tmp_path):
    path = tmp_path / "note.md"
    path.write_text(f"# Note\n\n{PEM}\n")
    run = subprocess.run([sys.executable, "-m", "glean_personal", "extract", str(path)],
                         capture_output=True, text=True)
    assert run.returncode == 0 and "[redacted private key]" in run.stdout
    assert "MIIEowIBAAKCAQEA" not in run.stdout


def _many_sections(last_text: str) -> "Document":
    from glean_personal.document import Document, Section
    sections = [Section((f"Heading {i}",), f"plain words of section {i}", None, None)
                for i in range(100_000)]
    sections.append(Section(("Keys",), last_text, None, None))
    return Document(title="Notes", format="md", sections=sections, warnings=[])


def test_a_document_of_many_sections_is_searched_for_credentials_once():
    """Each section was tested against every pattern's triggers: a Markdown file of
    400,000 one-line headings spent 20 of its 39 CPU seconds here and was skipped as
    too slow to read. The triggers are now found in the whole text once."""
    from glean_personal.workers import redact_document
    from helpers.cost import cpu_budget
    clean = _many_sections("nothing secret at all")
    with cpu_budget(0.5):
        same, count = redact_document(clean)
    assert same is clean and count == 0
    out, count = redact_document(_many_sections("key AKIAIOSFODNN7EXAMPLE here"))
    assert count == 1
    assert out.sections[-1].text == "key [redacted AWS access key] here"
    assert out.sections[0].text == "plain words of section 0"
