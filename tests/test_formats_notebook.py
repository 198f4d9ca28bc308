"""Jupyter notebooks: cells in order under Markdown headings, short outputs only.

Real file: markitdown's `test_notebook.ipynb` (see tests/data/corpus/README.md);
the rest are nbformat 4 (and one nbformat 3) notebooks written with `json`.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from glean_personal.config import Limits
from glean_personal.errors import SkipFile
from glean_personal.formats import extract, read_document

CORPUS = Path(__file__).parent / "data" / "corpus" / "markitdown"


def notebook(*cells, metadata=None) -> bytes:
    return json.dumps({"cells": list(cells), "metadata": metadata or {},
                       "nbformat": 4, "nbformat_minor": 5}, indent=1).encode()


def md(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text.splitlines(True)}


def code(text: str, *outputs) -> dict:
    return {"cell_type": "code", "execution_count": 1, "metadata": {},
            "source": text, "outputs": list(outputs)}


def pairs(doc):
    return [(s.heading, s.text) for s in doc.sections]


def test_markitdown_notebook():
    doc = extract(CORPUS / "test_notebook.ipynb")
    assert (doc.title, doc.format, doc.warnings) == ("Test Notebook", "ipynb", [])
    assert pairs(doc) == [
        (("Test Notebook", "Cell 2"), 'print("markitdown")\n\nOutput:\n\nmarkitdown'),
        (("Test Notebook", "Code Cell Below", "Cell 4"), "# comment in code\nprint(42)\n\nOutput:\n\n42"),
        (("Test Notebook", "Code Cell Below", "Cell 5"), "End\n\n---"),
    ]


def test_cells_outputs_and_headings():
    big = "x" * 600
    data = notebook(
        md("Some intro before any heading."),
        md("# Soil survey\n\nWe sampled **six** plots.\n\n## Method"),
        code("import csv\nrows = list(csv.reader(open('plots.csv')))",
             {"output_type": "stream", "name": "stdout", "text": ["read 6 rows\n"]},
             {"output_type": "display_data", "data": {"image/png": "iVBORw0KGgo=",
                                                       "text/plain": ["<Figure size 640x480>"]}},
             {"output_type": "stream", "name": "stdout", "text": big}),
        md("```python\n# not a heading\n```\nThe pH *varies*."),
        code("ph['A']", {"output_type": "execute_result", "execution_count": 3,
                         "data": {"text/plain": "6.5", "text/html": "<b>6.5</b>"}}),
        code("1/0", {"output_type": "error", "ename": "ZeroDivisionError",
                     "evalue": "division by zero", "traceback": ["\x1b[0;31m..."]}),
        {"cell_type": "raw", "metadata": {}, "source": "raw text cell"},
        code(""),
    )
    doc = read_document(data, "survey.ipynb")
    assert doc.title == "Soil survey"
    assert pairs(doc) == [
        (("Cell 1",), "Some intro before any heading."),
        (("Soil survey",), "We sampled **six** plots."),
        (("Soil survey", "Method", "Cell 3"),
         "import csv\nrows = list(csv.reader(open('plots.csv')))\n\nOutput:\n\nread 6 rows"
         "\n\n<Figure size 640x480>"),
        (("Soil survey", "Method", "Cell 4"), "```python\n# not a heading\n```\nThe pH *varies*."),
        (("Soil survey", "Method", "Cell 5"), "ph['A']\n\nOutput:\n\n6.5"),
        (("Soil survey", "Method", "Cell 6"), "1/0\n\nOutput:\n\nZeroDivisionError: division by zero"),
        (("Soil survey", "Method", "Cell 7"), "raw text cell"),
    ]
    assert big not in doc.text and "iVBOR" not in doc.text and "<b>" not in doc.text


def test_title_from_metadata_when_no_heading():
    doc = read_document(notebook(code("x = 1"), metadata={"title": "Scratch"}), "n.ipynb")
    assert doc.title == "Scratch"
    doc = read_document(notebook(code("x = 1")), "scratch-pad.ipynb")
    assert doc.title == "scratch-pad"


def test_nbformat3():
    data = json.dumps({"nbformat": 3, "metadata": {"name": "old"}, "worksheets": [{"cells": [
        {"cell_type": "heading", "level": 1, "source": ["Old style"]},
        {"cell_type": "code", "input": ["print('hi')"], "language": "python",
         "outputs": [{"output_type": "stream", "stream": "stdout", "text": ["hi\n"]}]},
    ]}]}).encode()
    doc = read_document(data, "old.ipynb")
    assert doc.title == "Old style"
    assert pairs(doc) == [(("Old style", "Cell 2"), "print('hi')\n\nOutput:\n\nhi")]


@pytest.mark.parametrize("data, reason", [
    (b'{"cells": [', r"invalid notebook: not JSON \(Expecting value at line 1\)"),
    (b"\x89PNG\r\n\x1a\n\0\0", r"binary content \(looks like a PNG image\)"),
    (b'{"metadata": {}}', r"not a Jupyter notebook \(no list of cells\)"),
    (b'[1, 2, 3]', r"not a Jupyter notebook"),
    (b'{"cells": [' + b'[' * 5000 + b']' * 5000 + b']}', "nested too deeply"),
    (b'{"cells": []}', "no extractable text"),
])
def test_malformed_notebooks(data, reason):
    with pytest.raises(SkipFile, match=reason):
        read_document(data, "bad.ipynb")


def test_odd_cells_are_left_out_with_a_warning():
    data = notebook("not a cell", {"cell_type": "code", "source": 42}, md("# Still read"),
                    code("y", {"output_type": "stream", "text": None}, "junk"))
    doc = read_document(data, "odd.ipynb")
    assert pairs(doc) == [(("Still read", "Cell 4"), "y")]
    assert doc.warnings == ["cell 1 is not a JSON object; left out"]


def test_text_cap():
    data = notebook(*[code("word " * 100) for _ in range(100)])
    doc = read_document(data, "long.ipynb", Limits(max_text_chars=2_000))
    assert len(doc.text) <= 2_000


def test_nbformat2_lines_have_no_line_breaks_of_their_own():
    data = json.dumps({"nbformat": 2, "metadata": {"name": "intro"}, "worksheets": [{"cells": [
        {"cell_type": "markdown", "source": ["# Intro", "", "first line", "second line"]},
        {"cell_type": "code", "input": ["def f(x):", "    return x + 1"], "language": "python",
         "outputs": [{"output_type": "pyout", "prompt_number": 1, "text": ["2"]}]},
    ]}]}).encode()
    doc = read_document(data, "intro.ipynb")
    assert pairs(doc) == [(("Intro",), "first line\nsecond line"),
                          (("Intro", "Cell 2"), "def f(x):\n    return x + 1\n\nOutput:\n\n2")]


def test_a_heading_too_long_to_be_one_is_text():
    doc = read_document(notebook(md("# " + "word " * 100), code("x")), "long.ipynb")
    assert doc.sections[0].heading == ("Cell 1",)
    assert doc.title == "long"


def test_markdown_cells_read_like_a_markdown_file():
    # As the Python Data Science Handbook's notebooks are written: links to the
    # neighbouring notebooks, a figure, an HTML comment and a link in a heading.
    data = notebook(
        md("<!--NAVIGATION-->\n"
           "We saw in [Universal Functions](02.03-Computation-on-arrays-ufuncs.ipynb) how to "
           "*vectorize* loops.\n\n"
           "![Broadcasting Visual](figures/02.05-broadcasting.png)\n"
           "[figure source in Appendix](06.00-Figure-Code.ipynb#Broadcasting)"),
        md("## Rules of [Broadcasting](https://numpy.org/doc/stable/user/basics.broadcasting.html)\n\n"
           "```markdown\n[kept](as-typed.md)\n```\nThe value `[5, 5, 5]` stays."),
    )
    doc = read_document(data, "broadcasting.ipynb")
    text = doc.text
    for words in ("We saw in Universal Functions how to *vectorize* loops.", "Broadcasting Visual",
                  "figure source in Appendix", "[kept](as-typed.md)", "The value `[5, 5, 5]` stays."):
        assert words in text, words
    for junk in ("](02.03", ".ipynb#", "figures/", "NAVIGATION", "<!--", "https://"):
        assert junk not in text.replace("[kept](as-typed.md)", ""), junk
    assert doc.sections[-1].heading == ("Rules of Broadcasting",)


def test_an_html_comment_over_lines_in_a_markdown_cell_is_hidden():
    data = notebook(md("Intro words <!-- draft:\nnot shown\nstill hidden --> closing words\n\nLast line."),
                    md("```html\n<!-- code keeps\nits comment -->\n```"))
    text = read_document(data, "comments.ipynb").text
    assert "Intro words" in text and "closing words" in text and "Last line." in text
    assert "draft" not in text and "not shown" not in text and "still hidden" not in text
    assert "<!-- code keeps\nits comment -->" in text


def test_indented_code_and_display_math_in_a_markdown_cell_stay_as_typed():
    doc = read_document(notebook(md(
        "# Sums\nSee [the docs](http://x) and <b>this</b>.\n\n"
        "    total = a <b>bold</b> [l](u)\n    print(total)\n\n"
        "$$\na < b > c [l](u)\n$$\nThen [more](y).")), "n.ipynb")
    assert "See the docs and this." in doc.text
    assert "total = a <b>bold</b> [l](u)\n    print(total)" in doc.text
    assert "$$\na < b > c [l](u)\n$$" in doc.text
    assert "Then more." in doc.text


def test_a_whole_number_longer_than_python_converts_does_not_skip_the_notebook():
    data = json.dumps({"nbformat": 4, "cells": [md("# Primes\nA large prime below.")],
                       "metadata": {}})[:-1] + ', "big": ' + "3" * 5000 + "}"
    doc = read_document(data.encode(), "primes.ipynb")
    assert doc.title == "Primes" and "A large prime below." in doc.text
