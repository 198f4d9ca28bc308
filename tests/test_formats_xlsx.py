"""XLSX: values row by row, sheet names through relationships, odd workbooks."""
from __future__ import annotations

from pathlib import Path

import pytest

from glean_personal.config import Limits
from glean_personal.errors import SkipFile
from glean_personal.formats import read_document
from glean_personal.formats.xlsx import number_text
from office_factory import xlsx

CORPUS = Path(__file__).parent / "data" / "corpus"


def read(data: bytes, name: str = "book.xlsx", limits: Limits = Limits()):
    return read_document(data, name, limits)


def corpus(path: str):
    return read_document((CORPUS / path).read_bytes(), path.split("/")[-1])


def by_heading(doc):
    return {s.heading: s.text for s in doc.sections}


def test_value_kinds():
    rows = [["Item", "Qty", "Price", "Ok"],
            ["Inner tube", 12, 4.5, True],
            [("inline", "Patch kit"), 3.0, ("formula", "B2*C2", "54"), False],
            [("rich", "Brake ", "cable"), ("error", "#DIV/0!"), None, 1e20],
            [0.1 + 0.2, -7, None, ""]]
    doc = read(xlsx([("Stock", rows)], title="Inventory"))
    assert doc.title == "Inventory"
    assert doc.format == "xlsx"
    assert doc.sections[0].heading == ("Stock",)
    assert doc.sections[0].text.split("\n\n") == [
        "Item | Qty | Price | Ok",
        "Inner tube | 12 | 4.5 | TRUE",
        "Patch kit | 3 | 54 | FALSE",
        "Brake cable | #DIV/0! | 1e+20",
        "0.3 | -7",
    ]
    assert "PHONETIC" not in doc.text


@pytest.mark.parametrize("raw, shown", [("3", "3"), ("3.0", "3"), ("-0.5", "-0.5"),
                                        ("1E3", "1000"), ("0.30000000000000004", "0.3"),
                                        ("123456789012345678", "1.23456789012346e+17"),
                                        ("abc", "abc")])
def test_number_text(raw, shown):
    assert number_text(raw) == shown


def test_sheet_names_follow_workbook_order_not_file_numbers():
    sheets = [("Budget", [["budget row"]]), ("Rota", [["rota row"]]), ("Notes", [["notes row"]])]
    doc = read(xlsx(sheets, file_numbers=[3, 1, 2]))
    assert by_heading(doc) == {("Budget",): "budget row", ("Rota",): "rota row",
                               ("Notes",): "notes row"}


def test_missing_workbook_relationships_give_generic_names_and_a_warning():
    sheets = [("Budget", [["in sheet3"]]), ("Rota", [["in sheet1"]])]
    doc = read(xlsx(sheets, file_numbers=[3, 1], workbook_rels=False))
    assert [s.heading for s in doc.sections] == [("Sheet 1",), ("Sheet 2",)]
    assert doc.sections[0].text == "in sheet1"      # file order; no real name is guessed
    assert any("workbook relationships missing" in w for w in doc.warnings)


def test_unreadable_workbook_relationships_are_treated_as_missing():
    data = xlsx([("Real", [["x"]])], parts={"xl/_rels/workbook.xml.rels": "<Relationships"})
    doc = read(data)
    assert [s.heading for s in doc.sections] == [("Sheet 1",)]
    assert doc.warnings


def test_namespace_prefixed_workbook_and_sheet():
    doc = read(xlsx([("Prefixed", [["alpha", 2]])], prefix="x"))
    assert by_heading(doc) == {("Prefixed",): "alpha | 2"}


def test_chartsheet_is_skipped_quietly():
    doc = read(xlsx([("Data", [["d"]])], chartsheet="Chart1"))
    assert [s.heading for s in doc.sections] == [("Data",)]
    assert doc.warnings == []


def test_sheet_relationship_escaping_the_package_is_not_followed():
    data = xlsx([("Good", [["fine"]]), ("Evil", [["never"]])],
                rel_targets={1: "../../../etc/passwd"})
    doc = read(data)
    assert by_heading(doc) == {("Good",): "fine"}
    assert any("Evil" in w for w in doc.warnings)


def test_empty_workbook_is_skipped():
    with pytest.raises(SkipFile, match="no extractable text"):
        read(xlsx([("Empty", [])]))


def test_large_sheet_streams_and_respects_text_cap():
    rows = [[f"row {i}", i] for i in range(20_000)]
    doc = read(xlsx([("Big", rows)]), limits=Limits(max_text_chars=5_000))
    assert len(doc.text) <= 5_000
    assert doc.sections[0].text.startswith("row 0 | 0\n\nrow 1 | 1")
    assert "text cut at 5,000 characters" in doc.warnings


def test_oversized_sheet_part_is_cut_with_warning():
    rows = [[i, i * 2] for i in range(5_000)]     # numbers: no shared-strings part
    doc = read(xlsx([("Big", rows)]), limits=Limits(max_xml_part_bytes=20_000))
    assert doc.sections[0].text.startswith("0 | 0\n\n1 | 2")
    assert "4999" not in doc.text
    assert any("cut at 20,000 bytes of XML" in w for w in doc.warnings)


# -- real files ---------------------------------------------------------------
def test_openpyxl_namespace_prefixed_charts_workbook():
    doc = corpus("openpyxl/charts.xlsx")
    assert [s.heading[0] for s in doc.sections] == [
        "Numbers", "Negative", "Letters", "Dates", "Pie", "Line", "Scatter"]
    assert by_heading(doc)[("Letters",)].startswith("A | 0 | 0\n\nB | 1 | 1")
    # Each sheet's chart follows its cells; date categories read as dates.
    dates = by_heading(doc)[("Dates",)]
    assert dates.startswith("2013-01-01 | 1\n\n2013-02-01 | 2")
    assert "Chart\n\nSeries 1: 2013-01-01 = 1; 2013-02-01 = 2; " in dates


def test_openpyxl_chartsheets_read_for_their_charts():
    doc = corpus("openpyxl/contains_chartsheets.xlsx")
    assert [s.heading for s in doc.sections] == [("data",), ("chart",), ("moredata",)]
    body = by_heading(doc)
    assert body[("chart",)].startswith("Chart\n\ny: 0 = 0; 1 = 0.312961796207787; ")
    assert body[("moredata",)].startswith("month | count\n\njanuary | 18")
    # The sheet's own chart follows its cells.
    assert body[("moredata",)].endswith("count: january = 18; february = 10; march = 15; "
                                        "april = 11; may = 17; june = 20; july = 12; "
                                        "august = 5; september = 14")
    doc = corpus("openpyxl/bug137.xlsx")
    assert [(s.heading, s.text) for s in doc.sections] == [
        (("Chart1",), "Chart\n\nA: 1; 2; 3; 4"), (("Sheet1",), "A\n\n1\n\n2\n\n3\n\n4")]


def test_openpyxl_formulas_give_cached_values_and_errors():
    text = corpus("openpyxl/formulae.xlsx").text
    assert "24690 | Simple Equation" in text
    assert "#VALUE!" in text
    assert "SUM(" not in text


def test_openpyxl_mixed_values():
    body = by_heading(corpus("openpyxl/empty.xlsx"))
    assert body[("Sheet1 - Text",)] == "This is cell A1 in Sheet 1\n\nThis is cell G5"
    numbers = body[("Sheet2 - Numbers",)].split("\n\n")
    assert numbers[0] == "1 | 0.01 | 100"
    assert "9 | TRUE | 0.09 | 108" in numbers
    assert body[("Sheet3 - Formulas",)] == "5"


def test_openpyxl_other_writers():
    assert corpus("openpyxl/libreoffice_nrt.xlsx").text == (
        "Simple LibreOffice spreadsheet\n\nGenerated on a mac\n\nUsing OSX Mountain Lion")
    assert "This sheet has one comment" in corpus("openpyxl/comments.xlsx").text
    assert corpus("openpyxl/guess_types.xlsx").text.startswith("3.14 | 3.14 | 3/14/15")
    assert corpus("openpyxl/date_1900.xlsx").text == "2011-10-31"   # serial 40847, a date format


@pytest.mark.parametrize("name, reason", [
    ("null_file.xlsx", "empty file"),
    ("null_archive.xlsx", r"not a valid \.xlsx file \(no workbook\.xml part\)"),
    ("empty-no-string.xlsx", "no extractable text"),
])
def test_openpyxl_broken_and_empty(name, reason):
    with pytest.raises(SkipFile, match=reason):
        corpus(f"openpyxl/{name}")


def test_markitdown_workbook_two_sheets():
    doc = corpus("markitdown/test.xlsx")
    assert doc.sections[0].heading == ("Sheet1",)
    assert doc.sections[0].text.startswith("Alpha | Beta | Gamma | Delta\n\n89 | 82 | 100 | 12")
    assert "6ff4173b-42a5-4784-9b19-f49caff4d93d" in doc.sections[0].text
    assert doc.sections[1].heading[0].startswith("09060124-b5e7-4717-9d07-3c046eb")
    assert "affc7dad-52dc-4b98-9b5d-51e65d8a8ad0" in doc.sections[1].text


# -- dates from number formats ---------------------------------------------------
FORMATS = [(0, None), (14, None), (164, "yyyy-mm-dd hh:mm"), (165, "h:mm AM/PM"),
           (166, "[h]:mm:ss"), (167, '0.0 "days"'), (168, '[$-409]d mmmm yyyy;@'),
           (169, "0.00E+00"), (22, None), (170, '"Due "dd/mm/yy'), (171, "[Red]#,##0")]


def _styled(value, style):
    return ("styled", value, style)


def test_dates_follow_the_cell_number_format():
    rows = [[_styled(45352, 1), _styled(45352.75, 2), _styled(0.5, 3), _styled(1.5, 4)],
            [_styled(3.25, 5), _styled(45352, 6), _styled(45352, 7), _styled(45352.5, 8)],
            [_styled(45352, 9), _styled(45352, 10), 45352, _styled(45352, 0)]]
    doc = read_document(xlsx([("Log", rows)], number_formats=FORMATS), "log.xlsx")
    assert doc.text.split("\n\n") == [
        "2024-03-01 | 2024-03-01 18:00 | 12:00 | 36:00:00",
        "3.25 | 2024-03-01 | 45352 | 2024-03-01 12:00",
        "2024-03-01 | 45352 | 45352 | 45352"]


def test_1900_leap_year_bug_and_the_1904_system():
    rows = [[_styled(v, 1) for v in (1, 59, 60, 61, 2958465)], [_styled(-1, 1), _styled(3e7, 1)]]
    doc = read_document(xlsx([("D", rows)], number_formats=FORMATS), "d.xlsx")
    assert doc.text == ("1900-01-01 | 1900-02-28 | 1900-02-29 | 1900-03-01 | 9999-12-31"
                        "\n\n-1 | 30000000")
    doc = read_document(xlsx([("D", [[_styled(0, 1), _styled(43890, 1)]])],
                             number_formats=FORMATS, date1904=True), "d.xlsx")
    assert doc.text == "1904-01-01 | 2024-03-01"   # 1,462 days fewer than in the 1900 system


def test_sheet_drawing_pictures_charts_and_text_boxes():
    from office_factory import (chart_xml, graphic_chart, graphic_frame, picture_shape,
                                sheet_drawing_xml, text_box_shape)
    drawing = sheet_drawing_xml(picture_shape("Company logo", ns="xdr"),
                                graphic_frame(graphic_chart("rIdC1"), ns="xdr"),
                                text_box_shape("Figures are provisional"))
    chart = chart_xml("Sales by week", [("Units", [45352, 45359], [10, 12])],
                      category_format="d-mmm-yy")
    parts = {"xl/drawings/drawing1.xml": drawing,
             "xl/drawings/_rels/drawing1.xml.rels": __import__("office_factory").rels_xml(
                 [("rIdC1", "chart", "../charts/chart1.xml")]),
             "xl/charts/chart1.xml": chart}
    doc = read_document(xlsx([("Sales", [["Week", "Units"], [_styled(45352, 1), 10]])],
                             number_formats=FORMATS, drawings={0: "xl/drawings/drawing1.xml"},
                             parts=parts), "sales.xlsx")
    assert doc.text.split("\n\n") == [
        "Week | Units", "2024-03-01 | 10", "Image: Company logo", "Chart: Sales by week",
        "Units: 2024-03-01 = 10; 2024-03-08 = 12", "Figures are provisional"]


def test_a_placeholder_core_title_gives_way_to_the_file_name():
    assert corpus("openpyxl/charts.xlsx").title == "charts"          # dc:title "Untitled"
    assert read(xlsx([("Stock", [["tea"]])], title="Book1")).title == "book"


def test_a_long_sheet_is_cut_into_blocks_of_rows_each_under_the_header():
    rows = [["name", "phone"]] + [[f"Person {i}", f"0161 496 {i:04d}"] for i in range(1, 200)]
    doc = read(xlsx([("Contacts", rows), ("Short", [["week", "task"], [1, "water"]])]))
    blocks = [s for s in doc.sections if s.heading[0] == "Contacts"]
    assert len(blocks) > 3 and all(len(s.heading) == 2 for s in blocks)
    assert blocks[0].heading[1].startswith("Rows 2\u2013")
    assert all(s.text.startswith("name | phone\n\n") for s in blocks)
    assert all(len(s.text) <= 1200 for s in blocks)            # about one passage each
    body = [line for s in blocks for line in s.text.split("\n\n")[1:]]
    assert body == [f"Person {i} | 0161 496 {i:04d}" for i in range(1, 200)]
    last = blocks[-1].heading[1]
    assert last.endswith("\u2013200")                          # the sheet's own row numbers
    # a sheet that fits in one passage stays one section, as before
    assert [(s.heading, s.text) for s in doc.sections if s.heading[0] == "Short"] == [
        (("Short",), "week | task\n\n1 | water")]


def test_title_lines_above_the_header_are_not_repeated_and_one_column_sheets_have_a_header():
    costs = [["Budget 2026"], ["printed 1 December"], ["item", "cost"]] + [
        [f"Item number {i}", i * 10] for i in range(1, 120)]
    names = [["Name"]] + [[f"Somebody called {i}"] for i in range(1, 120)]
    doc = read(xlsx([("Budget", costs), ("Names", names)]))
    budget = [s for s in doc.sections if s.heading[0] == "Budget"]
    assert (budget[0].heading, budget[0].text) == (("Budget",), "Budget 2026\n\nprinted 1 December")
    assert budget[1].heading[1].startswith("Rows 4\u2013")
    assert all(s.text.startswith("item | cost\n\n") for s in budget[1:])
    listed = [s for s in doc.sections if s.heading[0] == "Names"]
    assert len(listed) > 1 and all(s.text.startswith("Name\n\n") for s in listed)
    assert listed[0].heading[1].startswith("Rows 2\u2013")
