"""The PDF reader's parts on their own: lexer, filters, ciphers, glyph names, CMaps, labels."""
from __future__ import annotations

import zlib

import pytest

from glean_personal.formats.pdf import filters
from glean_personal.formats.pdf.cmap import parse_cmap
from glean_personal.formats.pdf.crypt import AES, aes_cbc_decrypt, rc4
from glean_personal.formats.pdf.document import _label
from glean_personal.formats.pdf.glyphs import decode_text_string, glyph_to_unicode
from glean_personal.formats.pdf.lexer import Name, Ref, content_operations, parse_object


def test_parse_object_kinds():
    obj, _ = parse_object(b"<< /A 1 0 R /B [1 2.5 -3 (a\\(b\\)c\\101) <41 42>] /C#20D true /E null >>", 0)
    assert obj == {"A": Ref(1, 0), "B": [1, 2.5, -3, b"a(b)cA", b"AB"], "C D": True, "E": None}
    assert isinstance(list(obj)[0], Name)


def test_literal_string_nesting_and_line_continuation():
    obj, _ = parse_object(b"(outer (inner) \\\nsame line\\n)", 0)
    assert obj == b"outer (inner) same line\n"


def test_content_operations_skip_inline_images_and_drawing():
    data = b"0 0 m 10 10 l S BI /W 1 /H 1 ID \x00\xff\x10 EI BT /F1 9 Tf [(a) -20 (b)] TJ ET"
    assert list(content_operations(data, 100)) == [
        ("BT", []), ("Tf", ["F1", 9]), ("TJ", [[b"a", -20, b"b"]]), ("ET", [])]


def test_lzw_example_from_the_pdf_reference():
    assert filters.lzw(bytes.fromhex("800B6050220C0C8501"), 1000) == b"-----A---B"


def test_run_length_hex_and_a85():
    assert filters.run_length(b"\x02abc\xfdz\x80", 100) == b"abczzzz"
    assert filters.ascii_hex(b"48 65 6c6C 6>") == b"Hell`"
    import base64
    assert filters.ascii85(base64.a85encode(b"any bytes at all\0\0\0\0", adobe=True)) == b"any bytes at all\0\0\0\0"


def test_png_predictor_up():
    rows = bytes([2, 1, 2, 3, 2, 1, 1, 1])   # filter Up on two 3-byte rows
    out = filters.predict(rows, {"Predictor": 12, "Columns": 3})
    assert out == bytes([1, 2, 3, 2, 3, 4])


def test_flate_cap_and_damage():
    with pytest.raises(filters.FilterLimit):
        filters.inflate(zlib.compress(b"x" * 100_000), 1000)
    good = zlib.compress(b"hello world" * 100)
    assert filters.inflate(good[:-10], 10_000).startswith(b"hello world")


def test_image_filters_are_never_decoded():
    assert filters.decode(b"\xff\xd8", "DCTDecode", None, 100) is None


def test_aes_fips197_vectors():
    aes = AES(bytes(range(16)))
    block = bytes.fromhex("00112233445566778899aabbccddeeff")
    assert aes.encrypt_block(block).hex() == "69c4e0d86a7b0430d8cdb78070b4c55a"
    assert aes.decrypt_block(bytes.fromhex("69c4e0d86a7b0430d8cdb78070b4c55a")) == block
    aes256 = AES(bytes(range(32)))
    assert aes256.encrypt_block(block).hex() == "8ea2b7ca516745bfeafc49904b496089"


def test_aes_cbc_with_padding_round_trip():
    key, iv = b"k" * 16, b"i" * 16
    plain = b"sixteen bytes!!!" + b"\x10" * 16
    data = iv + AES(key).encrypt_cbc(plain, iv)
    assert aes_cbc_decrypt(key, data) == b"sixteen bytes!!!"


def test_rc4_known_vector():
    assert rc4(b"Key", b"Plaintext").hex() == "bbf316e8d940af0ad3"


@pytest.mark.parametrize("name,text", [
    ("A", "A"), ("eacute", "\u00e9"), ("fi", "fi"), ("f_f_i", "ffi"), ("uni0041", "A"),
    ("uni00410042", "AB"), ("u1F600", "\U0001F600"), ("alpha", "\u03b1"), ("Lslash", "\u0141"),
    ("afii10017", "\u0410"), ("afii10071", "\u0451"), ("quoteright", "\u2019"), ("a.sc", "a"),
    ("g123", None), ("uniD800", None),
])
def test_glyph_names(name, text):
    assert glyph_to_unicode(name) == text


def test_cmap_codespaces_and_ranges():
    cmap = parse_cmap(b"2 begincodespacerange <00> <80> <8140> <FFFF> endcodespacerange\n"
                      b"1 beginbfrange <8140> <8142> <4E00> endbfrange\n"
                      b"1 beginbfchar <41> <0041> endbfchar")
    codes = cmap.split(b"A\x81\x41\x81\x42")
    assert codes == [(1, 0x41), (2, 0x8141), (2, 0x8142)]
    assert "".join(cmap.to_text[c] for c in codes) == "A\u4e01\u4e02"


def test_text_strings():
    assert decode_text_string(b"\xfe\xff\x00H\x00i") == "Hi"
    assert decode_text_string(b"caf\xe9 \x93x") == "caf\u00e9 \ufb01x"


@pytest.mark.parametrize("style,n,label", [("D", 7, "7"), ("r", 4, "iv"), ("R", 14, "XIV"),
                                           ("A", 28, "BB"), ("a", 1, "a")])
def test_page_label_styles(style, n, label):
    assert _label(style, n) == label


def test_dehyphenation_rules():
    from glean_personal.formats.pdf import _dehyphenate
    out = _dehyphenate(["an exam-\nple, a well-\nknown and well-known thing; soft\u00ad\nhyphen",
                        "Baden-\nWürttemberg"])
    assert out == ["an example, a well-known and well-known thing; softhyphen", "Baden-Württemberg"]


def test_content_operations_read_each_operation_as_written():
    # The fast path reads a whole operation at a time; what it yields is what the
    # token-by-token reader yields: drawing operators passed over uncounted, names and
    # numbers as operands, escapes undone, `true`, inline images and arrays of other
    # things read token by token, a NUL as whitespace between tokens.
    from glean_personal.formats.pdf.lexer import Name, content_operations
    data = (b"q 0.5 0 0 0.5 10 20 cm\n1 0 0 RG 0.5 w 10 10 m 20 20 l S\n"
            b"BT /F1 8 Tf 1 0 0 1 72.5 700 Tm (a\\(b\\)) Tj\n-3 -.5 Td [(Wo) -20 (rd) 300 <4142>] TJ\n"
            b"(next) ' 2 1 (spaced) \" T* % a comment\n/P <</MCID 3>> BDC (x) Tj EMC\n"
            b"true 7 d0 [/a 1] 2 d 5\x00Tz\nBI /W 1 /H 1 ID \xff\xfe EI ET Q")
    ops = list(content_operations(data, 1000))
    assert ops == [
        ("q", []), ("cm", [0.5, 0, 0, 0.5, 10, 20]), ("BT", []), ("Tf", [Name("F1"), 8]),
        ("Tm", [1, 0, 0, 1, 72.5, 700]), ("Tj", [b"a(b)"]), ("Td", [-3, -0.5]),
        ("TJ", [[b"Wo", -20, b"rd", 300, b"AB"]]), ("'", [b"next"]), ('"', [2, 1, b"spaced"]),
        ("T*", []), ("BDC", [Name("P"), {"MCID": 3}]), ("Tj", [b"x"]), ("EMC", []),
        ("d0", [True, 7]), ("d", [[Name("a"), 1], 2]), ("Tz", [5]), ("ET", []), ("Q", [])]
    assert [op for op, _ in content_operations(data, 3)] == ["q", "cm", "BT"]


def test_content_operations_odd_bytes_cost_no_page():
    # A vertical tab is no PDF whitespace (a name may hold one) though bytes.split()
    # splits at it; an integer of thousands of digits is more than int() reads. Either
    # raised ValueError in the fast path, and the page it was on was lost.
    import re as _re
    from glean_personal.formats.pdf import lexer
    data = b"BT /\x0bF1 12 Tf (a) Tj /X\x0bEMC 5\x00Tz " + b"9" * 5000 + b" Tz [(b) " + b"7" * 5000 + b" (c)] TJ ET"
    ops = list(content_operations(data, 100))
    assert [op for op, _ in ops] == ["BT", "Tf", "Tj", "Tz", "Tz", "TJ", "ET"]
    assert ops[1][1] == [Name("\x0bF1"), 12]
    assert ops[3][1] == [Name("X\x0bEMC"), 5]
    assert ops[4][1] == [float("inf")]
    assert ops[5][1] == [[b"b", float("inf"), b"c"]]
    # the token-by-token reader alone reads the same
    fast = lexer._FAST
    try:
        lexer._FAST = _re.compile(rb"(?!)")
        assert list(content_operations(data, 100)) == ops
    finally:
        lexer._FAST = fast
