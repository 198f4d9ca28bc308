"""CSV and TSV: dialect sniffed, rows as lines, the header at the top of every section."""
from __future__ import annotations

import csv

from glean_personal.formats import extract, read_document
from glean_personal.passages import split_document


def write_csv(path, rows, **fmt):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle, **fmt).writerows(rows)


def test_csv_written_by_the_csv_module(tmp_path):
    rows = [["name", "city", "note"]] + [[f"Person {i}", "Lyon", f"likes tea, item {i}"]
                                         for i in range(200)]
    rows[5][2] = 'said "hello"\nthen left'
    path = tmp_path / "people.csv"
    write_csv(path, rows)
    doc = extract(path)
    assert doc.format == "csv" and doc.title == "people"
    assert len(doc.sections) > 3
    for sec in doc.sections:
        assert sec.text.split("\n")[0] == "name | city | note"   # the header, every time
        assert len(sec.text) <= 1200
    assert doc.sections[0].heading[0].startswith("Rows 2\u2013")
    assert 'Person 4 | Lyon | said "hello" then left' in doc.text   # quoted newline kept in its cell
    assert "Person 4 | Lyon | likes tea, item 4" not in doc.text
    for p in split_document(doc):                 # each section is one passage
        assert p.text.startswith("name | city | note")


def test_semicolon_dialect_is_sniffed(tmp_path):
    path = tmp_path / "prices.csv"
    write_csv(path, [["item", "price"], ["coffee", "2,50"], ["tea", "1,80"]], delimiter=";")
    doc = extract(path)
    assert doc.text == "item | price\ncoffee | 2,50\ntea | 1,80"
    assert doc.sections[0].heading == ("Rows 2\u20133",)


def test_tsv(tmp_path):
    path = tmp_path / "genes.tsv"
    write_csv(path, [["gene", "count"], ["BRCA1", "12"], ["TP53", "40"]], dialect="excel-tab")
    doc = extract(path)
    assert doc.format == "tsv" and doc.text == "gene | count\nBRCA1 | 12\nTP53 | 40"


def test_a_file_the_sniffer_cannot_read_falls_back_to_commas():
    doc = read_document(b"just one column\nsecond line\n", "odd.csv")
    assert doc.text == "just one column\nsecond line"


def test_header_only_and_malformed(tmp_path):
    assert read_document(b"a,b,c\n", "h.csv").text == "a | b | c"
    huge = b'a,b\n1,2\n3,"' + b"x" * 1_100_000 + b'"\n4,5\n'
    doc = read_document(huge, "bad.csv")
    assert doc.text == "a | b\n1 | 2"
    assert "rows after row 2 not read" in doc.warnings[0]
