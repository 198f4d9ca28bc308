"""SQLite's unicode61 tokenizer as tables: what separates tokens, how case and accents fold.

unicode61 classifies characters with its own Unicode tables, which are older
than Python's ``unicodedata`` and differ from it: characters it does not know
(U+2066, emoji newer than Unicode 6...) are *token* characters there, and its
case folding and diacritic removal are narrower than ``str.casefold``.  So
the tables below were read off SQLite, code point by code point, and
tests/test_analysis.py checks them against the linked SQLite.  They do not
depend on the Python version.  analysis.py tokenizes with them.
"""
from __future__ import annotations

import bisect
import functools
import re
from typing import Dict, FrozenSet, Iterable, List, Optional, Tuple

from .patterns import lazy

# --- Machinery ---------------------------------------------------------------


def ascii_lower(text: str) -> str:
    """Lower-case ASCII letters only; the length and all else are unchanged."""
    raw = text.encode("utf-8", "surrogatepass")
    return raw.lower().decode("utf-8", "surrogatepass")


def code_ranges(spec: str) -> List[Tuple[int, int]]:
    """Parse "a-b c ..." (hex) into inclusive code point ranges."""
    out = []
    for item in spec.split():
        lo, _, hi = item.partition("-")
        out.append((int(lo, 16), int(hi or lo, 16)))
    return out


def code_points(spec: str) -> List[int]:
    return [cp for lo, hi in code_ranges(spec) for cp in range(lo, hi + 1)]


def char_class(cps: Iterable[int]) -> str:
    """The body of a regex character class matching the code points."""
    ranges: List[List[int]] = []
    for cp in sorted(cps):
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    return "".join(
        "\\U%08x" % lo if lo == hi else "\\U%08x-\\U%08x" % (lo, hi) for lo, hi in ranges
    )


def lower_map(spec: str) -> Dict[int, int]:
    """Expand the case-folding runs: "start*count/step+delta" or "start+delta"."""
    out = {}
    for item in spec.split():
        m = re.fullmatch(r"([0-9a-f]+)(?:\*(\d+)/(\d+))?([+-]\d+)", item)
        if m is None:
            raise ValueError(item)
        start, count, step, delta = int(m[1], 16), int(m[2] or 1), int(m[3] or 1), int(m[4])
        for cp in range(start, start + count * step, step):
            out[cp] = cp + delta
    return out


def fold_table() -> Dict[int, Optional[str]]:
    """str.translate table: SQLite's lower case, then its diacritic removal."""
    unaccent = {ord(ch): base for base, chars in UNACCENT.items() for ch in chars}
    table: Dict[int, Optional[str]] = {}
    for cp, low in lower_map(LOWER).items():
        table[cp] = unaccent.get(low, chr(low))
    for cp, base in unaccent.items():
        table.setdefault(cp, base)
    for cp in code_points(DIACRITICS):
        table[cp] = None
    return {cp: out for cp, out in table.items() if out != chr(cp)}


# --- Tables read off SQLite 3.40's unicode61 (fts5_unicode2.c) --------------
# Regenerate with `PYTHONPATH=. python tests/test_analysis.py` if the tables
# of SQLite ever change; the tests compare every BMP code point and a stride
# through the other planes with the linked SQLite.

SEPARATORS = (
    "0-2f 3a-40 5b-60 7b-a9 ab-b1 b4 b6-b8 bb bf d7 f7 2c2-2c5 2d2-2df 2e5-2eb "
    "2ed 2ef-36f 375 37e 384-385 387 3f6 482-489 55a-55f 589-58a 58f 591-5c7 "
    "5f3-5f4 600-604 606-61b 61e-61f 64b-65f 66a-66d 670 6d4 6d6-6e4 6e7-6ed "
    "6fd-6fe 700-70d 70f 711 730-74a 7a6-7b0 7eb-7f3 7f6-7f9 816-819 81b-823 "
    "825-827 829-82d 830-83e 859-85b 85e 8e4-8fe 900-903 93a-93c 93e-94f "
    "951-957 962-965 970 981-983 9bc 9be-9c4 9c7-9c8 9cb-9cd 9d7 9e2-9e3 "
    "9f2-9f3 9fa-9fb a01-a03 a3c a3e-a42 a47-a48 a4b-a4d a51 a70-a71 a75 "
    "a81-a83 abc abe-ac5 ac7-ac9 acb-acd ae2-ae3 af0-af1 b01-b03 b3c b3e-b44 "
    "b47-b48 b4b-b4d b56-b57 b62-b63 b70 b82 bbe-bc2 bc6-bc8 bca-bcd bd7 "
    "bf3-bfa c01-c03 c3e-c44 c46-c48 c4a-c4d c55-c56 c62-c63 c7f c82-c83 cbc "
    "cbe-cc4 cc6-cc8 cca-ccd cd5-cd6 ce2-ce3 d02-d03 d3e-d44 d46-d48 d4a-d4d "
    "d57 d62-d63 d79 d82-d83 dca dcf-dd4 dd6 dd8-ddf df2-df4 e31 e34-e3a e3f "
    "e47-e4f e5a-e5b eb1 eb4-eb9 ebb-ebc ec8-ecd f01-f1f f34-f3f f71-f87 "
    "f8d-f97 f99-fbc fbe-fcc fce-fda 102b-103e 104a-104f 1056-1059 105e-1060 "
    "1062-1064 1067-106d 1071-1074 1082-108d 108f 109a-109f 10fb 135d-1368 "
    "1390-1399 1400 166d-166e 1680 169b-169c 16eb-16ed 1712-1714 1732-1736 "
    "1752-1753 1772-1773 17b4-17d6 17d8-17db 17dd 1800-180e 18a9 1920-192b "
    "1930-193b 1940 1944-1945 19b0-19c0 19c8-19c9 19de-19ff 1a17-1a1b 1a1e-1a1f "
    "1a55-1a5e 1a60-1a7c 1a7f 1aa0-1aa6 1aa8-1aad 1b00-1b04 1b34-1b44 1b5a-1b7c "
    "1b80-1b82 1ba1-1bad 1be6-1bf3 1bfc-1bff 1c24-1c37 1c3b-1c3f 1c7e-1c7f "
    "1cc0-1cc7 1cd0-1ce8 1ced 1cf2-1cf4 1dc0-1de6 1dfc-1dff 1fbd 1fbf-1fc1 "
    "1fcd-1fcf 1fdd-1fdf 1fed-1fef 1ffd-1ffe 2000-2064 206a-206f 207a-207e "
    "208a-208e 20a0-20b9 20d0-20f0 2100-2101 2103-2106 2108-2109 2114 2116-2118 "
    "211e-2123 2125 2127 2129 212e 213a-213b 2140-2144 214a-214d 214f 2190-23f3 "
    "2400-2426 2440-244a 249c-24e9 2500-26ff 2701-2775 2794-2b4c 2b50-2b59 "
    "2ce5-2cea 2cef-2cf1 2cf9-2cfc 2cfe-2cff 2d70 2d7f 2de0-2e2e 2e30-2e3b "
    "2e80-2e99 2e9b-2ef3 2f00-2fd5 2ff0-2ffb 3000-3004 3008-3020 302a-3030 "
    "3036-3037 303d-303f 3099-309c 30a0 30fb 3190-3191 3196-319f 31c0-31e3 "
    "3200-321e 322a-3247 3250 3260-327f 328a-32b0 32c0-32fe 3300-33ff 4dc0-4dff "
    "a490-a4c6 a4fe-a4ff a60d-a60f a66f-a67e a69f a6f0-a6f7 a700-a716 a720-a721 "
    "a789-a78a a802 a806 a80b a823-a82b a836-a839 a874-a877 a880-a881 a8b4-a8c4 "
    "a8ce-a8cf a8e0-a8f1 a8f8-a8fa a926-a92f a947-a953 a95f a980-a983 a9b3-a9cd "
    "a9de-a9df aa29-aa36 aa43 aa4c-aa4d aa5c-aa5f aa77-aa79 aa7b aab0 aab2-aab4 "
    "aab7-aab8 aabe-aabf aac1 aade-aadf aaeb-aaf1 aaf5-aaf6 abe3-abed d800-dfff "
    "fb1e fb29 fbb2-fbc1 fd3e-fd3f fdfc-fdfd fe00-fe19 fe20-fe26 fe30-fe52 "
    "fe54-fe66 fe68-fe6b feff ff01-ff0f ff1a-ff20 ff3b-ff40 ff5b-ff65 ffe0-ffe6 "
    "ffe8-ffee fff9-ffff 10100-10102 10137-1013f 10179-10189 10190-1019b "
    "101d0-101fd 1039f 103d0 10857 1091f 1093f 10a01-10a03 10a05-10a06 "
    "10a0c-10a0f 10a38-10a3a 10a3f 10a50-10a58 10a7f 10b39-10b3f 11000-11002 "
    "11038-1104d 11080-11082 110b0-110c1 11100-11102 11127-11134 11140-11143 "
    "11180-11182 111b3-111c0 111c5-111c8 116ab-116b7 12470-12473 16f51-16f7e "
    "16f8f-16f92 1d000-1d0f5 1d100-1d126 1d129-1d1dd 1d200-1d245 1d300-1d356 "
    "1d6c1 1d6db 1d6fb 1d715 1d735 1d74f 1d76f 1d789 1d7a9 1d7c3 1eef0-1eef1 "
    "1f000-1f02b 1f030-1f093 1f0a0-1f0ae 1f0b1-1f0be 1f0c1-1f0cf 1f0d1-1f0df "
    "1f110-1f12e 1f130-1f16b 1f170-1f19a 1f1e6-1f202 1f210-1f23a 1f240-1f248 "
    "1f250-1f251 1f300-1f320 1f330-1f335 1f337-1f37c 1f380-1f393 1f3a0-1f3c4 "
    "1f3c6-1f3ca 1f3e0-1f3f0 1f400-1f43e 1f440 1f442-1f4f7 1f4f9-1f4fc "
    "1f500-1f53d 1f540-1f543 1f550-1f567 1f5fb-1f640 1f645-1f64f 1f680-1f6c5 "
    "1f700-1f773 e0001 e0020-e007f e0100-e01ef "
)
DIACRITICS = "300-304 306-30c 30f 311 31b 323-328 32d-32e 330-331"
LOWER = (
    "41*26/1+32 b5+775 c0*23/1+32 d8*7/1+32 100*24/2+1 132*3/2+1 139*8/2+1 "
    "14a*23/2+1 178-121 179*3/2+1 17f-268 181+210 182*2/2+1 186+206 187+1 "
    "189*2/1+205 18b+1 18e+79 18f+202 190+203 191+1 193+205 194+207 196+211 "
    "197+209 198+1 19c+211 19d+213 19f+214 1a0*3/2+1 1a6+218 1a7+1 1a9+218 "
    "1ac+1 1ae+218 1af+1 1b1*2/1+217 1b3*2/2+1 1b7+219 1b8+1 1bc+1 1c4+2 1c5+1 "
    "1c7+2 1c8+1 1ca+2 1cb*9/2+1 1de*9/2+1 1f1+2 1f2*2/2+1 1f6-97 1f7-56 "
    "1f8*20/2+1 220-130 222*9/2+1 23a+10795 23b+1 23d-163 23e+10792 241+1 "
    "243-195 244+69 245+71 246*5/2+1 370*2/2+1 376+1 386+38 388*3/1+37 38c+64 "
    "38e*2/1+63 391*17/1+32 3a3*9/1+32 3c2+1 3cf+8 3d0-30 3d1-25 3d5-15 3d6-22 "
    "3d8*12/2+1 3f0-54 3f1-48 3f4-60 3f5-64 3f7+1 3f9-7 3fa+1 3fd*3/1-130 "
    "400*16/1+80 410*32/1+32 460*17/2+1 48a*27/2+1 4c0+15 4c1*7/2+1 4d0*44/2+1 "
    "531*38/1+48 10a0*38/1+7264 10c7+7264 10cd+7264 1e00*75/2+1 1e9b-58 "
    "1e9e-7615 1ea0*48/2+1 1f08*8/1-8 1f18*6/1-8 1f28*8/1-8 1f38*8/1-8 "
    "1f48*6/1-8 1f59*4/2-8 1f68*8/1-8 1f88*8/1-8 1f98*8/1-8 1fa8*8/1-8 "
    "1fb8*2/1-8 1fba*2/1-74 1fbc-9 1fbe-7173 1fc8*4/1-86 1fcc-9 1fd8*2/1-8 "
    "1fda*2/1-100 1fe8*2/1-8 1fea*2/1-112 1fec-7 1ff8*2/1-128 1ffa*2/1-126 "
    "1ffc-9 2126-7517 212a-8383 212b-8262 2132+28 2160*16/1+16 2183+1 "
    "2c00*47/1+48 2c60+1 2c62-10743 2c63-3814 2c64-10727 2c67*3/2+1 2c6d-10780 "
    "2c6e-10749 2c6f-10783 2c70-10782 2c72+1 2c75+1 2c7e*2/1-10815 2c80*50/2+1 "
    "2ceb*2/2+1 2cf2+1 a640*23/2+1 a680*12/2+1 a722*7/2+1 a732*31/2+1 "
    "a779*2/2+1 a77d-35332 a77e*5/2+1 a78b+1 a78d-42280 a790*2/2+1 a7a0*5/2+1 "
    "a7aa-42308 ff21*26/1+32 10400*40/1+40 "
)
UNACCENT = {
    "a": "àáâãäåāăąǎǟǻȁȃȧḁạảấầẩẫậắằẳẵặ",
    "b": "ḃḅḇ",
    "c": "çćĉċčḉ",
    "d": "ďḋḍḏḑḓ",
    "e": "èéêëēĕėęěȅȇȩḕḗḙḛḝẹẻẽếềểễệ",
    "f": "ḟ",
    "g": "ĝğġģǧǵḡ",
    "h": "ĥȟḣḥḧḩḫẖ",
    "i": "ìíîïĩīĭįİǐȉȋḭḯỉị",
    "j": "ĵǰ",
    "k": "ķǩḱḳḵ",
    "l": "ĺļľḷḹḻḽ",
    "m": "ḿṁṃ",
    "n": "ñńņňǹṅṇṉṋ",
    "o": "òóôõöōŏőơǒǫǭȍȏȫȭȯȱṍṏṑṓọỏốồổỗộớờởỡợ",
    "p": "ṕṗ",
    "r": "ŕŗřȑȓṙṛṝṟ",
    "s": "śŝşšșṡṣṥṧṩ",
    "t": "ţťțṫṭṯṱẗ",
    "u": "ùúûüũūŭůűųưǔǖǘǚǜȕȗṳṵṷṹṻụủứừửữự",
    "v": "ṽṿ",
    "w": "ŵẁẃẅẇẉẘ",
    "x": "ẋẍ",
    "y": "ýÿŷȳẏẙỳỵỷỹ",
    "z": "źżžẑẓẕ",
}


# Unicode 15.1's format characters (Cf) but U+200B, and the controls.
FORMAT = (
    "ad 600-605 61c 6dd 70f 890-891 8e2 180e 200c-200f 202a-202e 2060-2064 "
    "2066-206f feff fff9-fffb 110bd 110cd 13430-1343f 1bca0-1bca3 1d173-1d17a "
    "e0001 e0020-e007f"
)
CONTROLS = "0-8 b-c e-1f 7f-9f"

# ASCII bytes -> lower-case letters and digits, spaces for everything else.
ASCII_SPLIT = bytes(
    b if b >= 0x80 or chr(b).isalnum() else 0x20 for b in range(256)
).lower()
ASCII_CONTROL_RE = lazy("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # as CONTROLS
ASCII_TOKEN_RE = lazy("[0-9a-z]+")  # on lower-cased ASCII text
NON_ASCII_RE = re.compile("[^\x00-\x7f]+")
ASTRAL_RE = lazy("[\\U00010000-\\U0010ffff]")


# --- Ranges that analysis.py treats apart from unicode61 ---------------------
# Combining marks (their text also gets a search form without them).
MARKS = (
    "300-36f 483-489 591-5bd 5bf 5c1-5c2 5c4-5c5 5c7 610-61a 64b-65f 670 "
    "6d6-6dc 6df-6e4 6e7-6e8 6ea-6ed 1ab0-1aff 1dc0-1dff 20d0-20ff fe20-fe2f"
)
# Han, kana, Hangul and Bopomofo (all token characters of unicode61).
CJK = (
    "1100-11ff 2e80-2fdf 3040-3098 309d-30ff 3100-312f 3130-318f 31a0-31bf "
    "31f0-31ff 3400-4dbf 4e00-9fff a960-a97f ac00-d7ff f900-faff ff66-ff9d "
    "20000-3134f"
)


class Tables:
    """The non-ASCII tables, each built from the specs above on first use.

    A command that only ever sees ASCII text (most queries, many files) never
    pays for them; English text whose only non-ASCII characters are
    punctuation (dashes, curly quotes, ¶) needs only the set of separators.
    Each costs milliseconds to build; the two regexes cost the most.
    """

    @functools.cached_property
    def separators(self) -> List[int]:
        return code_points(SEPARATORS)

    @functools.cached_property
    def bmp_separators(self) -> List[int]:
        return [cp for cp in self.separators if cp < 0x10000]

    @functools.cached_property
    def astral_separators(self) -> FrozenSet[str]:
        return frozenset(chr(cp) for cp in self.separators if cp >= 0x10000)

    @functools.cached_property
    def diacritics(self) -> FrozenSet[int]:
        return frozenset(code_points(DIACRITICS))

    @functools.cached_property
    def separator_ranges(self) -> Tuple[List[int], List[int]]:
        """The separators as sorted (first, last) code point lists, for bisect."""
        ranges = code_ranges(SEPARATORS)
        return [lo for lo, _ in ranges], [hi for _, hi in ranges]

    def is_space(self, ch: str) -> bool:
        """Does tokenize() turn this non-ASCII character into a plain space?"""
        cp = ord(ch)
        firsts, lasts = self.separator_ranges
        i = bisect.bisect_right(firsts, cp) - 1
        return i >= 0 and cp <= lasts[i] and cp not in self.diacritics

    @functools.cached_property
    def fold(self) -> Dict[int, Optional[str]]:
        return fold_table()

    @functools.cached_property
    def split(self) -> Dict[int, Optional[str]]:
        """Non-ASCII character -> what tokenize() turns it into: a space
        (separator), nothing (stripped accent) or its fold; others stay."""
        split: Dict[int, Optional[str]] = {cp: " " for cp in self.separators if cp >= 0x80}
        split.update({cp: out for cp, out in self.fold.items() if cp >= 0x80})
        return split

    @functools.cached_property
    def clean(self) -> Dict[int, Optional[str]]:
        clean: Dict[int, Optional[str]] = {cp: None for cp in code_points(FORMAT)}
        clean.update({cp: " " for cp in code_points(CONTROLS)})
        clean.update({cp: "\ufffd" for cp in range(0xD800, 0xE000)})
        clean[0x200B] = " "
        return clean

    @functools.cached_property
    def clean_re(self) -> "re.Pattern[str]":
        return re.compile("[%s]+" % char_class(cp for cp in self.clean if cp < 0x10000))

    @functools.cached_property
    def astral_format(self) -> FrozenSet[str]:
        return frozenset(chr(cp) for cp in self.clean if cp >= 0x10000)

    # Classes are kept to the BMP plus one astral range: Python's re looks each
    # BMP character up in a table but tries astral ranges one by one.
    @functools.cached_property
    def split_run_re(self) -> "re.Pattern[str]":
        return re.compile(
            "[%s\\U00010000-\\U0010ffff]+" % char_class(cp for cp in self.split if cp < 0x10000)
        )

    @functools.cached_property
    def span_re(self) -> "re.Pattern[str]":  # astral separators must be made spaces first
        return re.compile(
            "[^%s][^%s]*"
            % (
                char_class(self.bmp_separators),
                char_class(cp for cp in self.bmp_separators if cp not in self.diacritics),
            )
        )

    @functools.cached_property
    def cjk_class(self) -> str:
        return "".join("\\U%08x-\\U%08x" % (lo, hi) for lo, hi in code_ranges(CJK))

    @functools.cached_property
    def marks_re(self) -> "re.Pattern[str]":
        return re.compile("[%s]" % "".join("\\u%04x-\\u%04x" % r for r in code_ranges(MARKS)))

    @functools.cached_property
    def cjk_re(self) -> "re.Pattern[str]":
        return re.compile("[%s]" % self.cjk_class)

    @functools.cached_property
    def cjk_run_re(self) -> "re.Pattern[str]":
        return re.compile("[%s]+|[^%s]+" % (self.cjk_class, self.cjk_class))

    @functools.cached_property
    def unmark_changes(self) -> Dict[str, bool]:
        """Non-ASCII character -> has it another search form (filled as met)."""
        return {}

    def split_run(self, m: "re.Match[str]") -> str:
        return m.group().translate(self.split)

    def fold_run(self, m: "re.Match[str]") -> str:
        return m.group().translate(self.fold)

    def clean_run(self, m: "re.Match[str]") -> str:
        return m.group().translate(self.clean)

    def drop_astral_format(self, m: "re.Match[str]") -> str:
        ch = m.group()
        return "" if ch in self.astral_format else ch

    def astral_separator_to_space(self, m: "re.Match[str]") -> str:
        ch = m.group()
        return " " if ch in self.astral_separators else ch


@functools.lru_cache(maxsize=None)
def tables() -> Tables:
    return Tables()
