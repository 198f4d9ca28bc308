"""JSON: key.path lines, title keys, encodings, invalid and deep input."""
from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from glean_personal.config import Limits
from glean_personal.errors import SkipFile
from glean_personal.formats import read_document
from helpers.cost import cpu_budget

CORPUS = Path(__file__).parent / "data" / "corpus" / "markitdown"


def test_paths_and_values():
    data = {"title": "Volunteer roster", "items": [{"name": "Ada", "hours": 4},
                                                   {"name": "Bo", "active": True, "note": None},
                                                   {"name": "Cy", "skills": ["wheels", "brakes"]}],
            "ratio": 0.5, "empty": {}, "blank": ""}
    doc = read_document(json.dumps(data).encode(), "roster.json")
    assert doc.title == "Volunteer roster"
    assert doc.format == "json"
    lines = doc.text.split("\n")
    for expected in ("title: Volunteer roster", "items[0].name: Ada", "items[0].hours: 4",
                     "items[1].active: true", "items[1].note: null", "items[2].name: Cy",
                     "items[2].skills[1]: brakes", "ratio: 0.5"):
        assert expected in lines
    assert not any(line.startswith(("empty", "blank")) for line in lines)


def test_a_string_of_html_reads_as_the_words_a_page_shows():
    # Node's API docs (`cluster.json`) and CMS exports keep text as HTML in strings:
    # `modules[0].desc: <p><strong>Source Code:</strong> <a href=…>` was shown as typed.
    data = {"modules": [{"name": "cluster", "desc": '<p><strong>Source Code:</strong> <a '
                         'href="https://example.org/lib/cluster.js">lib/cluster.js</a></p>\n'
                         "<p>Clusters of Node.js processes &amp; their workers.</p>"}],
            "formula": "a < b and c > d", "tip": "close it with </ then the name"}
    lines = read_document(json.dumps(data).encode(), "cluster.json").text.split("\n")
    assert "modules[0].desc: Source Code: lib/cluster.js Clusters of Node.js processes & " \
           "their workers." in lines
    assert "formula: a < b and c > d" in lines and "tip: close it with </ then the name" in lines


def test_html_in_a_string_costs_linear_time():
    data = json.dumps({"k": "<a " * 200_000 + "</b> end words" + "<i>" * 100_000}).encode()
    with cpu_budget(2.0):
        text = read_document(data, "p.json").text
    assert "end words" in text and "<" in text   # the unclosed `<a ` are no tags


@pytest.mark.parametrize("key", ["name", "subject"])
def test_title_keys(key):
    doc = read_document(json.dumps({"x": 1, key: "  The  Name "}).encode(), "a.json")
    assert doc.title == "The Name"


def test_non_string_title_falls_back_to_stem():
    doc = read_document(b'{"title": 42, "x": "y"}', "data/config.json")
    assert doc.title == "config"


def test_top_level_array_and_scalar():
    assert read_document(b'[{"a": 1}, "b"]', "x.json").text == "[0].a: 1\n\n[1]: b"
    assert read_document(b'"just a string"', "x.json").text == "just a string"


@pytest.mark.parametrize("encoding, bom", [
    ("utf-8", b""), ("utf-8", codecs.BOM_UTF8),
    ("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
    ("utf-16-le", b""),
])
def test_encodings(encoding, bom):
    doc = read_document(bom + '{"city": "Zürich"}'.encode(encoding), "c.json")
    assert doc.text == "city: Zürich"


def test_invalid_json_reason_names_the_line():
    with pytest.raises(SkipFile, match=r"invalid JSON: .* at line 3"):
        read_document(b'{\n"a": 1,\n"b": }\n', "bad.json")


@pytest.mark.parametrize("data, reason", [(b"", "empty file"), (b"  \n", "empty file"),
                                          (b"{}", "no extractable text"),
                                          (b"[[], {}]", "no extractable text")])
def test_empty(data, reason):
    with pytest.raises(SkipFile, match=reason):
        read_document(data, "e.json")


def test_absurd_depth_is_refused_before_loading():
    with pytest.raises(SkipFile, match="JSON nested too deeply"):
        read_document(b"[" * 10_000 + b"]" * 10_000, "deep.json")
    with pytest.raises(SkipFile, match="JSON nested too deeply"):
        read_document(b"[" * 100_000, "unclosed.json")


def test_brackets_inside_strings_do_not_count_as_depth():
    data = json.dumps({"text": "[" * 5000 + '"\\"' + "{" * 5000}).encode()
    doc = read_document(data, "s.json")
    assert doc.text.startswith("text: [[[")


def test_depth_beyond_limit_is_folded_into_the_ancestor():
    value = "leaf"
    for i in range(100):
        value = {f"k{i}": value}
    doc = read_document(json.dumps(value).encode(), "d.json", Limits(max_json_depth=5))
    line = doc.text
    assert line.startswith("k99.k98.k97.k96.k95: ")
    assert line.endswith("k0 leaf")
    assert any("nested deeper than 5 levels" in w for w in doc.warnings)


def test_text_cap_applies():
    data = json.dumps({"rows": ["x" * 100 for _ in range(1000)]}).encode()
    doc = read_document(data, "big.json", Limits(max_text_chars=1000))
    assert len(doc.text) <= 1000
    assert "text cut at 1,000 characters" in doc.warnings


def test_markitdown_json():
    doc = read_document((CORPUS / "test.json").read_bytes(), "test.json")
    assert doc.title == "test"
    lines = doc.text.split("\n")
    assert "key1: string_value" in lines
    assert "key2: 1234" in lines
    assert "key3[1]: list_value2" in lines
    assert "5b64c88c-b3c3-4510-bcb8-da0b200602d8: uuid_key" in lines
    assert "uuid_value: 9700dc99-6685-40b4-9a3a-5e406dcb37f3" in lines


def test_unterminated_string_reason_reads_well():
    with pytest.raises(SkipFile) as info:
        read_document(b'{"a": "never closed', "u.json")
    assert info.value.reason == "invalid JSON: Unterminated string starting at line 1"


@pytest.mark.parametrize("data", [b'"' + b'\\"' * 300_000, b'"' + b'\\"' * 300_000 + b"\\",
                                  b'"' * 600_001, b"[" * 600_000],
                         ids=["escaped-quotes", "trailing-backslash", "quotes", "brackets"])
def test_pathological_json_is_linear(data):
    with cpu_budget(2.0), pytest.raises(SkipFile):
        read_document(data, "p.json")


def test_a_whole_number_longer_than_python_converts_is_read_as_written():
    """Valid JSON: `int()` refuses more than 4,300 digits, which once skipped the file as
    "could not read .json file (ValueError: Exceeds the limit…)"."""
    digits = "7" * 5000
    data = ('{"title": "Big numbers", "key": ' + digits + ', "negative": -' + digits
            + ', "small": 12, "note": "modulus of the test key"}').encode()
    doc = read_document(data, "keys.json")
    lines = doc.text.split("\n")
    assert doc.title == "Big numbers"
    assert "key: " + digits in lines and "negative: -" + digits in lines
    assert "small: 12" in lines and "note: modulus of the test key" in lines


def test_a_big_whole_number_in_a_folder_is_indexed_and_found(tmp_path, store_kind):
    import glean_personal
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "keys.json").write_text('{"name": "rsa modulus", "n": ' + "9" * 6000 + "}")
    with glean_personal.open_index(tmp_path / "i.db") as ix:
        report = ix.index(folder)
        assert report.added == 1 and not report.skipped, report.skipped
        assert [h.document["path"] for h in ix.search("modulus").results] == ["keys.json"]
