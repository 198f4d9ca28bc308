"""The sample folder the README indexes: every file extracts, every format is there."""
from __future__ import annotations

from pathlib import Path

import pytest

from glean_personal.formats import SUPPORTED, extract

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FILES = sorted(p for p in EXAMPLES.iterdir() if p.is_file())
# The document formats the README's tour shows; code, configuration, tables and
# markup have their own tests on real files (tests/test_formats_code.py and others).
TOUR_FORMATS = {"txt", "md", "html", "json", "docx", "xlsx", "pptx"}


def test_every_supported_format_has_an_example():
    present = {p.suffix.lower() for p in FILES}
    assert TOUR_FORMATS <= set(SUPPORTED.values())
    assert TOUR_FORMATS <= {SUPPORTED[s] for s in present if s in SUPPORTED}
    assert 8 <= len(FILES) <= 12


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_example_extracts_cleanly(path):
    doc = extract(path)
    assert doc.title
    assert doc.warnings == []
    assert len(doc.text) > 400
    if path.suffix != ".txt":        # every other format carries a real title
        assert doc.title != path.stem


def test_office_examples_match_their_generator():
    import make_examples
    assert (EXAMPLES / "budget-2024.xlsx").read_bytes() == make_examples.budget()
    assert (EXAMPLES / "volunteer-induction.pptx").read_bytes() == make_examples.induction_deck()
