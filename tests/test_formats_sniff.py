"""Files whose name does not say what they are, and gzip-compressed files."""
from __future__ import annotations

import gzip
import io
import tarfile

import pytest

from glean_personal.config import Limits
from glean_personal.errors import SkipFile
from glean_personal.formats import check_head, extract, needs_sniff, read_document, skip_by_name


@pytest.mark.parametrize("name, data", [
    ("README", b"Project\n=======\n\nHow to build it.\n"),
    ("LICENSE", b"MIT License\n\nCopyright (c) 2024 A. Person\n"),
    ("NEWS.Debian", "Version 2: caf\u00e9 menu\n".encode("utf-8")),
    ("notes.log", "Caf\u00e9 opened at 8\n".encode("cp1252")),
    ("CHANGES", "\ufeffUTF-16 with a BOM\n".encode("utf-16")),
    ("TODO", "UTF-16 without a BOM, little endian\n".encode("utf-16-le")),
    (".bashrc", b"export PATH=$HOME/bin:$PATH\n"),
])
def test_text_without_a_known_extension_is_read_as_text(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    assert needs_sniff(name) or name == ".bashrc"
    doc = extract(path)
    assert doc.format in ("txt", "sh")
    # a first line standing alone, or underlined, is the title; otherwise the file name is
    assert doc.title == {"LICENSE": "MIT License", "README": "Project"}.get(name, name)
    assert doc.text.strip()


@pytest.mark.parametrize("name, data, reason", [
    ("program", b"\x7fELF\x02\x01\x01\x00" + bytes(100), r"looks like a program \(ELF\)"),
    ("blob.dat", b"abc\x00def" * 100, "NUL bytes"),
    ("noise", bytes(range(1, 32)) * 50, "control characters"),
    ("high.bin2", bytes(range(128, 256)) * 40, "mostly bytes above 127"),
])
def test_binary_without_a_known_extension_is_skipped_with_its_reason(tmp_path, name, data, reason):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(SkipFile, match=reason) as err:
        extract(path)
    assert err.value.reason.startswith("unsupported file type")


def test_sphinx_build_record_is_skipped(tmp_path):
    # Every Sphinx HTML build has one; the Python docs' was a result of its own.
    path = tmp_path / ".buildinfo"
    path.write_bytes(b"# Sphinx build info version 1\n# This file hashes the configuration "
                     b"used when building these files.\nconfig: e83dbbfb9c74\ntags: 645f666f9bcd\n")
    with pytest.raises(SkipFile, match="Sphinx's build record"):
        extract(path)


def test_only_the_first_8_kb_is_sniffed():
    check_head(b"text " * 2000 + b"\x00", "README")   # the NUL is past the first 8 KB
    with pytest.raises(SkipFile, match="NUL bytes"):
        check_head(b"text " * 1000 + b"\x00", "README")


@pytest.mark.parametrize("name, reason", [
    ("photo.png", "unsupported file type .png"), ("backup.tar.gz", "tar archive"),
    ("x.gz.gz", "gzip inside gzip"), ("lib.so", "unsupported file type .so"),
    ("README", None), ("changelog.Debian.gz", None), ("notes.md.gz", None), ("a.pdf.gz", None),
    ("a.doc.gz", "unsupported file type .doc"),
])
def test_names_skipped_without_opening(name, reason):
    assert skip_by_name(name) == reason if reason is None else reason in skip_by_name(name)


def test_gzip_is_read_as_what_it_holds(tmp_path):
    (tmp_path / "changelog.Debian.gz").write_bytes(
        gzip.compress(b"pkg (1.2-1) unstable; urgency=low\n\n  * New upstream release.\n"))
    (tmp_path / "README.md.gz").write_bytes(gzip.compress(b"# Usage\n\nRun it.\n"))
    log = extract(tmp_path / "changelog.Debian.gz")
    assert (log.format, log.title) == ("txt", "changelog.Debian")
    assert "New upstream release" in log.text
    md = extract(tmp_path / "README.md.gz")
    assert md.format == "md" and md.sections[0].heading == ("Usage",)


def test_gzip_with_several_members():
    data = gzip.compress(b"first part\n") + gzip.compress(b"second part\n")
    assert read_document(data, "log.gz").text == "first part\nsecond part"


def test_gzip_inflation_is_bounded():
    bomb = gzip.compress(b"{" * 3_000_000)
    with pytest.raises(SkipFile, match="gzip content inflates beyond 1,000,000 bytes"):
        read_document(bomb, "huge.json.gz", Limits(max_inflated_bytes=1_000_000))


def test_gzip_of_long_text_is_read_up_to_max_bytes():
    lines = b"".join(b"entry %d: fixed a bug\n" % i for i in range(200_000))
    doc = read_document(gzip.compress(lines), "changelog.gz", Limits(max_bytes=100_000))
    assert doc.text.startswith("entry 0: fixed a bug") and doc.text.endswith("fixed a bug")
    assert 90_000 < len(doc.text) <= 100_000
    assert doc.warnings == ["only the first 99,978 bytes of the inflated file read "
                            "(--max-bytes is 100,000)"]


@pytest.mark.parametrize("name, head, line", [
    ("big.info.gz", "This is big.info, produced by makeinfo.\n\n\x1f\nFile: big.info,  Node: Top\n\n",
     "entry %d: the manual's words\n"),
    ("big.texi.gz", "\\input texinfo\n@settitle Big\n@chapter One\n", "entry %d: @code{the} manual's words\n")])
def test_gzip_of_a_long_manual_is_read_up_to_max_bytes(name, head, line):
    # Info manuals are installed gzipped (`/usr/share/info/*.info.gz`): one past --max-bytes
    # keeps its first part, as a long text does, not skipped whole.
    data = head.encode() + b"".join((line % i).encode() for i in range(20_000))
    doc = read_document(gzip.compress(data), name, Limits(max_bytes=100_000))
    assert "entry 0: the manual's words" in doc.text and doc.warnings
    assert doc.warnings[0].startswith("only the first ")


def test_gzip_of_binary_and_damaged_gzip():
    with pytest.raises(SkipFile, match="not text: binary content"):
        read_document(gzip.compress(b"\x7fELF" + bytes(64)), "data.gz")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo("a.txt")
        tar.addfile(info, io.BytesIO(b""))
    with pytest.raises(SkipFile, match="not text"):
        read_document(gzip.compress(buf.getvalue()), "archive.gz")   # a tar without .tar
    with pytest.raises(SkipFile, match="gzip"):
        read_document(gzip.compress(b"hello")[:-6], "cut.txt.gz")


def test_index_reads_extensionless_text_and_reports_binary(tmp_path, open_ix):
    root = tmp_path / "doc"
    root.mkdir()
    (root / "README").write_text("The frobnicator manual.\n")
    (root / "copyright").write_text("Copyright 2020 Frob Authors\n")
    (root / "Makefile").write_text("all:\n\tcc frob.c\n")
    (root / "frob").write_bytes(b"\x7fELF" + bytes(64))
    (root / "changelog.gz").write_bytes(gzip.compress(b"frob 1.0: first release\n"))
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (root / ".git-credentials").write_text("https://user:token@example.org\n")
    ix = open_ix()
    report = ix.index(root, label="doc")
    skipped = {s["path"]: s["reason"] for s in report.skipped}
    assert report.added == 4
    assert skipped == {"frob": "unsupported file type (no extension): binary content "
                               "(looks like a program (ELF))",
                       "logo.png": "unsupported file type .png",
                       ".git-credentials": "secret-looking file: never read"}
    assert [h.document["path"] for h in ix.search("frobnicator manual").results] == ["README"]
    assert ix.search("first release").results[0].document["path"] == "changelog.gz"
