"""Rich Text Format: the text, without control words, fonts or pictures.

RTF is seven-bit text with `{}` groups and `\\word` controls. The reader
keeps a stack of group states (never recursion), drops the groups that hold
no body text (font, colour and style tables, pictures, embedded objects,
field instructions, any `{\\*\\…}` destination), turns `\\par` into a
paragraph break, `\\line` into a line break and table cells into ` | `, and
decodes `\\'hh` bytes in the document's code page and `\\uN` characters
(skipping the `\\ucN` fallback characters that follow them). The title is
`{\\info{\\title …}}`.
"""
from __future__ import annotations

import codecs
import re
from typing import List

from ..config import Limits
from ..document import Document, Section
from ..errors import SkipFile

_TOKEN = re.compile(r"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?|\\'([0-9a-fA-F]{2})|\\([^a-zA-Z])|([{}])|"
                    r"[\r\n]+|([^\\{}\r\n]+)")
_SKIP = frozenset("""fonttbl colortbl stylesheet listtable listoverridetable rsidtbl generator
    themedata colorschememapping latentstyles datastore xmlnstbl mmathPr fldinst pict object
    bkmkstart bkmkend revtbl filetbl pgdsctbl author operator company keywords doccomm comment
    subject category manager creatim revtim printim buptim nonshppict shpinst objdata
    template xe tc private""".split())
_BREAKS = {"par": "\n\n", "sect": "\n\n", "page": "\n\n", "line": "\n", "row": "\n",
           "tab": "\t", "cell": " | ", "emdash": "\u2014", "endash": "\u2013",
           "lquote": "\u2018", "rquote": "\u2019", "ldblquote": "\u201c", "rdblquote": "\u201d",
           "bullet": "\u2022", "emspace": " ", "enspace": " ", "qmspace": " "}
_SYMBOLS = {"~": "\u00a0", "-": "", "_": "-", "\\": "\\", "{": "{", "}": "}", "\n": "\n\n",
            "\r": "\n\n", "|": "", ":": ""}


def read_rtf(data: bytes, limits: Limits) -> Document:
    if not data.lstrip().startswith(b"{\\rtf"):
        raise SkipFile("not an RTF file (no {\\rtf header)")
    text = data.decode("latin-1")
    codepage = "cp1252"
    cp = re.search(r"\\ansicpg(\d+)", text[:4096])
    if cp:
        try:
            codecs.lookup(f"cp{cp.group(1)}")
            codepage = f"cp{cp.group(1)}"
        except LookupError:
            pass
    body: List[str] = []
    title: List[str] = []
    pending = bytearray()            # \'hh bytes, decoded together (double-byte code pages)
    stack: List[tuple] = []          # saved (skip, uc, in_title) per open group
    skip, uc, in_title, fallback = False, 1, False, 0
    star = False                     # the last token opened a `{\*` destination
    budget = limits.max_text_chars

    def emit(chunk: str) -> None:
        (title if in_title else body).append(chunk)

    def flush() -> None:
        if pending:
            if not skip:
                emit(bytes(pending).decode(codepage, errors="replace"))
            pending.clear()

    size = 0
    for m in _TOKEN.finditer(text):
        word, arg, hexbyte, symbol, brace, run = m.groups()
        if hexbyte is not None:
            if fallback:
                fallback -= 1
            else:
                pending.append(int(hexbyte, 16))
            continue
        flush()
        if brace == "{":
            stack.append((skip, uc, in_title))
            star = False
            continue
        if brace == "}":
            if stack:
                skip, uc, in_title = stack.pop()
            fallback = 0
            continue
        if word is not None:
            if fallback:
                fallback -= 1
                continue
            if word in _SKIP or star:
                skip = True
            elif word == "title":
                in_title = True
            elif word == "uc" and arg is not None:
                uc = max(0, int(arg))
            elif word == "u" and arg is not None:
                if not skip:
                    code = int(arg)
                    emit(chr(code + 65536 if code < 0 else code) if -65536 < code < 1114112 else "")
                fallback = uc
            elif word in _BREAKS and not skip:
                emit(_BREAKS[word])
            elif word == "bin" and arg is not None:
                skip = True   # raw binary follows; its group is dropped
            star = False
            continue
        if symbol is not None:
            star = symbol == "*"
            if fallback:
                fallback -= 1
            elif not skip and symbol in _SYMBOLS:
                emit(_SYMBOLS[symbol])
            continue
        if run is not None and not skip:
            if fallback:
                cut = min(fallback, len(run))
                run, fallback = run[cut:], fallback - cut
            emit(run)
            size += len(run)
            if size > budget:
                break
    flush()
    out = re.sub(r"[ \t]*\n[ \t]*(?:\n[ \t]*)+", "\n\n", "".join(body)).strip()
    out = re.sub(r"[ \t]+\n", "\n", out)
    sections = [Section((), out)] if out else []
    return Document(title=" ".join("".join(title).split()), format="rtf", sections=sections)
