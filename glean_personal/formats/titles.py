"""Which stored titles are real titles.

Office programs and PDF producers fill the title field on their own when
the author never does: PowerPoint's new deck is *PowerPoint Presentation*,
python-pptx's default template says *Presentation*, ReportLab writes
*untitled*, and a PDF printed from Word is titled *Microsoft Word -
budget.docx*. Such a title names no document, so a reader goes on to its
next source (the first slide's title, the first heading, the file name).
The same goes for a PDF's first large line that is only a section name
every document has (*Contents*, *Abstract*).
"""
from __future__ import annotations

import re
from typing import Optional

# Titles a program writes when the author gave none (compared lower-cased,
# spaces collapsed, a trailing number dropped: "Presentation1", "Document 2").
_PLACEHOLDERS = frozenset({
    "untitled", "untitled document", "untitled presentation", "untitled spreadsheet",
    "presentation", "powerpoint presentation", "microsoft powerpoint presentation",
    "document", "word document", "microsoft word document", "new document",
    "book", "workbook", "sheet", "slide", "title", "no title",
})
# "Microsoft Word - budget.docx", "Microsoft PowerPoint - talk.pptx": the print
# driver's title, which holds the file name.
_PRINTED = re.compile(r"^microsoft (?:office )?(?:word|powerpoint|excel) - (.+)$", re.IGNORECASE)
_OFFICE_EXTENSION = re.compile(r"\.(?:docx?|pptx?|xlsx?|rtf|odt|odp|ods|txt|dvi|tex)$",
                               re.IGNORECASE)
_TRAILING_NUMBER = re.compile(r"[\s_-]*\d+$")
# Headings nearly every long document has: never the name of one document.
_SECTION_NAMES = frozenset({
    "contents", "table of contents", "abstract", "preface", "foreword", "introduction",
    "index", "acknowledgements", "acknowledgments", "summary", "inhalt",
    "inhaltsverzeichnis", "table des matières", "sommaire",
})


def usable_title(text: Optional[str]) -> Optional[str]:
    """`text` with spaces collapsed, unless it is a placeholder (then None).

    A print driver's "Microsoft Word - name.docx" gives "name", and so does a
    bare file name or path ("C:\\Users\\ann\\name.docx") in the title field.
    """
    if not text:
        return None
    title = " ".join(text.split())
    printed = _PRINTED.match(title)
    if printed:
        title = printed.group(1)
    if _OFFICE_EXTENSION.search(title) and (
            printed or " " not in title or "/" in title or "\\" in title):
        # a file name, or a path, where the title goes: "C:\\Users\\ann\\budget.docx"
        title = _OFFICE_EXTENSION.sub("", re.split(r"[/\\]", title)[-1]).strip()
    key = _TRAILING_NUMBER.sub("", title.lower()).strip()
    if not key or key in _PLACEHOLDERS:
        return None
    return title


def is_section_name(text: str) -> bool:
    """True for a heading such as "Contents" or "Abstract" that many documents share."""
    key = " ".join(text.lower().split()).strip(" .:")
    key = re.sub(r"^(?:\d+(?:\.\d+)*\.?|[ivx]+\.)\s+", "", key)
    return key in _SECTION_NAMES


# Names that many folders give their main files: such a title tells one
# README from another only with its folder ("README (zstd)").
GENERIC_NAMES = frozenset("""readme index changelog changes news install contributing license
    copying authors todo history faq notes copyright credits thanks bugs maintainers security
    code_of_conduct readme.debian readme.source changelog.debian news.debian""".split())


def titled_by_folder(title: str, path: str) -> str:
    """The title, with its folder's name when it is only a generic file name."""
    folder, _, name = path.rpartition("/")
    stem = name.rsplit(".", 1)[0] if "." in name[1:] else name
    if folder and title.lower() in GENERIC_NAMES and title.lower() == stem.lower():
        return f"{title} ({folder.rsplit('/', 1)[-1]})"
    return title


_FOLDER_SUFFIX = re.compile(r"(.+) \([^()/]+\)")


def own_title(title: str) -> str:
    """The title without the folder `titled_by_folder` added: the folder's name is where
    the file is kept, not what it says, so the graph does not link by it."""
    m = _FOLDER_SUFFIX.fullmatch(title)
    return m.group(1) if m and m.group(1).lower() in GENERIC_NAMES else title
