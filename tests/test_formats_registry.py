"""The public door: SUPPORTED, format_for, read_document, extract."""
from __future__ import annotations

import os

import pytest

from glean_personal.config import Limits
from glean_personal.document import Document
from glean_personal.errors import SkipFile
from glean_personal.formats import READERS, SUPPORTED, extract, format_for, read_document


def test_supported_table():
    for ext, fmt in {".txt": "txt", ".md": "md", ".markdown": "md", ".html": "html",
                     ".htm": "html", ".json": "json", ".docx": "docx", ".xlsx": "xlsx",
                     ".pptx": "pptx", ".pdf": "pdf", ".odt": "odt", ".epub": "epub",
                     ".eml": "eml", ".mbox": "mbox", ".ipynb": "ipynb", ".py": "py", ".tsx": "ts", ".h": "c", ".hpp": "cpp",
                     ".yml": "yaml", ".csv": "csv", ".rst": "rst", ".rtf": "rtf"}.items():
        assert SUPPORTED[ext] == fmt
    assert all(ext == ext.lower() and ext.startswith(".") for ext in SUPPORTED)
    assert set(SUPPORTED.values()) | {"makefile", "dockerfile"} == set(READERS)


@pytest.mark.parametrize("name, fmt", [
    ("a.TXT", "txt"), ("dir.v2/notes.Md", "md"), ("x.markdown", "md"), ("Page.HTM", "html"),
    ("report.DOCX", "docx"), ("a.xlsx", "xlsx"), ("deck.pptx", "pptx"), ("c.json", "json"),
    ("a.PDF", "pdf"), ("a.doc", None), ("README", None), (".md", None), ("archive.docx.zip", None),
    ("src/Parser.PY", "py"), ("App.jsx", "js"), ("x.R", "r"), ("Makefile", "makefile"),
    ("Dockerfile", "dockerfile"), ("Dockerfile.dev", "dockerfile"), ("rules.mk", "makefile"),
    ("notes.org", "org"), ("paper.tex", "tex"), ("data.TSV", "tsv"), ("changelog.gz", None),
])
def test_format_for(name, fmt):
    assert format_for(name) == fmt


@pytest.mark.parametrize("name, reason", [("report.doc", "unsupported file type .doc"),
                                          ("photo.png", "unsupported file type .png"),
                                          ("backup.tar.gz", r"tar archive \(.tar.gz\)"),
                                          ("logo.png.gz", r"unsupported file type .png \(compressed"),
                                          # gtk-doc's keyword index of the HTML beside it
                                          ("libxslt.devhelp2", r"a help browser's index .*\(.devhelp2\)"),
                                          ("python3.11.devhelp.gz", r"index of the pages beside it \(.devhelp\)")])
def test_unsupported(name, reason):
    with pytest.raises(SkipFile, match=reason):
        read_document(b"%PDF-1.4", name)


def test_document_shape():
    doc = read_document(b"# Hi\n\nthere", "x.md")
    assert isinstance(doc, Document)
    assert doc.to_dict() == {"title": "Hi", "format": "md",
                             "sections": [{"heading": ["Hi"], "text": "there", "first_line": 3}], "warnings": []}


def test_text_cap_keeps_whole_sections_first():
    text = "\n\n".join(f"# H{i}\n\n" + "word " * 100 for i in range(50)).encode()
    doc = read_document(text, "long.md", Limits(max_text_chars=1234))
    assert len(doc.text) <= 1234
    assert doc.warnings == ["text cut at 1,234 characters"]
    assert doc.sections[0].heading == ("H0",)


def test_extract_reads_a_file(tmp_path):
    path = tmp_path / "Notes.txt"
    path.write_text("hello file", encoding="utf-8")
    doc = extract(path)
    assert (doc.title, doc.format, doc.text) == ("Notes", "txt", "hello file")
    assert extract(str(path)).text == "hello file"


def test_extract_refuses_large_files_from_their_size(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 2000)
    with pytest.raises(SkipFile, match=r"larger than --max-bytes \(1,000 bytes\)"):
        extract(path, Limits(max_bytes=1000))


def test_extract_refuses_non_regular_files(tmp_path):
    folder = tmp_path / "folder.md"
    folder.mkdir()
    with pytest.raises(SkipFile, match="not a regular file"):
        extract(folder)
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe.txt"
        os.mkfifo(fifo)
        with pytest.raises(SkipFile, match="not a regular file"):
            extract(fifo)      # must not block on open


def test_extract_missing_and_unsupported(tmp_path):
    with pytest.raises(SkipFile, match="cannot read file"):
        extract(tmp_path / "gone.txt")
    (tmp_path / "x.doc").write_bytes(b"%PDF")
    with pytest.raises(SkipFile, match="unsupported file type .doc"):
        extract(tmp_path / "x.doc")


def test_extract_empty_file(tmp_path):
    path = tmp_path / "empty.docx"
    path.write_bytes(b"")
    with pytest.raises(SkipFile, match="empty file"):
        extract(path)


def test_sphinx_source_copies_are_read_as_their_markup():
    from glean_personal.formats import format_for, read_document
    assert format_for("_sources/library/csv.rst.txt") == "rst"
    assert format_for("_sources/guide.md.txt") == "md"
    assert format_for("notes.txt") == "txt" and format_for("a.b.txt") == "txt"
    doc = read_document(b"CSV files\n=========\n\nUse :func:`csv.reader`.\n", "csv.rst.txt")
    assert doc.format == "rst" and doc.title == "CSV files" and doc.text == "Use csv.reader."
