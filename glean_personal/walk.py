"""Walk a source folder: what is a candidate file, and why everything else is not.

The walk never opens a file and never follows a symbolic link. A file whose
name no reader claims is still a candidate unless its name says it is binary
(`.png`, `.zip`); the worker reads it as text if its first 8 KB are text. A link that
leads outside the root is skipped (nothing outside is ever read); a link to
something inside the root is skipped too, because its target is read at its
own path (or is excluded on purpose) and reading it twice would only make
duplicates; a link that loops or dangles says so. Only real folders are
entered, so every path handed to a reader is free of links. FIFOs, sockets,
devices, secret-looking names, unreadable entries and a Sphinx build's copies
of its pages' sources, theme files and module sources are reported as skips with their
reasons. The walk keeps an explicit stack: a tree 200 levels deep
costs no recursion.
"""
from __future__ import annotations

import errno
import fnmatch
import operator
import os
import re
import stat
from typing import Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Set, Tuple, Union

from .config import DEFAULT_EXCLUDES, SECRET_DIRS, SECRET_NAMES, SUPPORTED
from .docref import storable
from .kinds import PAGE_EXTS
from .formats import skip_by_name


class Candidate(NamedTuple):
    """A regular file the indexer may read (a tuple: one is made per file, often)."""

    path: str        # relative to the root, '/'-separated, as stored and shown
    size: int
    mtime_ns: int
    fs_path: str = ""  # the real path to open (may hold undecodable bytes)


class Skipped(NamedTuple):
    path: str
    reason: str
    unreadable: bool = False   # there, but cannot be read now: what was indexed of it is kept


Entry = Union[Candidate, Skipped]

SECRET_REASON = "secret-looking file: never read"
SECRET_FOLDER_REASON = "secret-looking folder: never read"
# Sphinx's HTML build keeps, beside its pages and its `searchindex.js`, a copy of
# every page's source in `_sources/` (`library/os.rst.txt`), for the pages' "Show
# Source" links. The pages hold the same text, so each copy would be a second
# result for every question (the Python manual indexed with them scored 0.650
# nDCG@10 on its golden set, 0.878 without).
# Beside them, `_static/` holds the theme: style sheets, scripts, images, and data the
# scripts read (the Python manual's `glossary.json`, its glossary again, came first for
# *"method resolution order"*, and its style sheets and scripts took seven top-ten
# places of its golden searches).
SPHINX_MARK = "searchindex.js"
# A build can ship without it (Debian's `bind9-doc` keeps the BIND manual's `search.html`,
# `genindex.html` and `_static/`, not its `searchindex.js`: jQuery and Underscore were then
# among the first ten results of half its questions). Sphinx's HTML builder writes both of
# these pages into every build, so the two together mark one as well.
SPHINX_PAGES = ("genindex.html", "search.html")
SPHINX_SOURCES_REASON = ("Sphinx's copies of its pages' sources, for their Show Source links "
                         "(the built pages beside them are indexed)")
SPHINX_STATIC_REASON = ("Sphinx's theme files (style sheets, scripts, images), not its pages "
                        "(the built pages beside them are indexed)")
# And `_modules/` (the viewcode extension) holds each documented module's source code
# as a highlighted page, for the `[source]` links: Django's took 11 of the 100
# top-five places of 20 questions about its manual.
SPHINX_MODULES_REASON = ("Sphinx's highlighted copies of the documented modules' source code, "
                         "for their [source] links (the built pages beside them are indexed)")
SPHINX_FOLDERS = {"_sources": SPHINX_SOURCES_REASON, "_static": SPHINX_STATIC_REASON,
                  "_modules": SPHINX_MODULES_REASON}
# Other builders leave each page's source, or a copy of it as data, beside the page:
# Git's HTML manual keeps `git-reset.txt` (AsciiDoc) beside `git-reset.html`,
# Node.js's `fs.md` and `fs.json.gz` beside `fs.html`. The page holds the text, so
# those are skipped when the page is read too; one with no page of its name beside
# it is read as ever. A manual's PDF is skipped the same way beside its HTML: beside
# a page of its name, or beside the folder of its pages, which holds `index.html`: the
# one texinfo's `makeinfo --html` writes (Octave's `octave.pdf` beside `octave.html/`)
# or any folder of the PDF's name (GnuCash's `gnucash-help-en.pdf.gz` beside
# `gnucash-help-en/`, DocBook's chunked HTML; the `.gz` is looked through).
# A page much smaller than the PDF of its name is not that PDF again but a way to it
# (a redirect stub, which its reader skips, or a landing page that links to it): a
# page stands for its PDF only if it is at least PDF_PAGE_SHARE of the PDF's size
# (the copies in /usr/share/doc: 0.34 to 1.4 of it, a PDF gzipped or not).
PDF_PAGE_SHARE = 0.1
# A page rendered from a text source holds its text and markup, so it is larger than
# the source (the 546 pairs in /usr/share/doc: 1.57 times it or more); a page under
# half its size is some other page (a redirect stub, a landing page), and the source
# beside it is read: skipped as its copy, the source's text would be in no result.
TEXT_PAGE_SHARE = 0.5
BESIDE_PAGE_EXTS = frozenset({".txt", ".md", ".markdown", ".rst", ".adoc", ".asciidoc",
                              ".json", ".xml", ".pdf"})


# Copies of a page that are data for programs (Node.js's `fs.json.gz` beside `fs.html`).
DATA_COPY_EXTS = frozenset({".json", ".xml"})


def _stem_and_ext(name: str) -> Tuple[str, str]:
    """A file name's stem and lower-case extension, a `.gz` looked through."""
    base = name[:-3] if name.lower().endswith(".gz") else name
    dot = base.rfind(".")
    return (base[:dot], base[dot:].lower()) if dot > 0 else (base, "")


class _Globs:
    """A set of globs compiled once per walk.

    A glob matches an entry when it matches its name or its whole relative path
    (`*` spans `/`, as in fnmatch); `dir/**` is a path prefix. For excludes,
    which the walk tests on every folder on the way down (`pruned`), two kinds
    of glob need only the name: a literal name, and a name prefix with one
    trailing `*` (`~$*`), since any path they match has a first folder they
    match, which was never entered.
    """

    def __init__(self, patterns: Sequence[str], pruned: bool = False) -> None:
        by_name = [p for p in patterns if "/" not in p and not _WILD.search(p.rstrip("*"))
                   and not p.endswith("**")] if pruned else []
        on_path = [p for p in patterns if p not in by_name]
        self._name = _regex(patterns)
        self._path = _regex(on_path)
        self._prefixes = tuple(p[:-2] for p in patterns if p.endswith("/**"))

    def match(self, relpath: str, name: str) -> bool:
        if self._name is not None and self._name(name):
            return True
        if self._path is not None and name != relpath and self._path(relpath):
            return True
        return bool(self._prefixes) and (relpath + "/").startswith(self._prefixes)


_WILD = re.compile(r"[*?\[]")


def _regex(patterns: Sequence[str]) -> Optional[Callable[[str], object]]:
    """One regex for a set of globs: one match per name, not one per glob."""
    return re.compile("|".join(fnmatch.translate(p) for p in patterns)).match \
        if patterns else None


_SECRET_NAMES = _Globs(SECRET_NAMES)


def is_secret(relpath: str) -> bool:
    """Secret-looking names (docs/security.md): never opened, whatever the includes say."""
    parts = relpath.split("/")
    if any(p in SECRET_DIRS for p in parts[:-1]):
        return True
    return _SECRET_NAMES.match(parts[-1], parts[-1])


def walk(root: str, includes: Sequence[str] = (), excludes: Sequence[str] = (),
         max_bytes: Optional[int] = None) -> Iterator[Entry]:
    """Every file under `root` as a Candidate or a Skipped, in a stable order.

    The loop is the hot path of a rescan (one pass per file and folder), so the
    common cases (a folder, a regular file) are handled inline.
    """
    real_root = os.path.realpath(root)
    if any(part in SECRET_DIRS for part in real_root.split(os.sep)):
        yield Skipped(".", SECRET_FOLDER_REASON)   # `index ~/.ssh` reads nothing either
        return
    excluded = _Globs(tuple(DEFAULT_EXCLUDES) + tuple(excludes), pruned=True).match
    included = _Globs(tuple(includes)) if includes else None
    secret = _SECRET_NAMES.match
    seen: Set[Tuple[int, int]] = set()
    try:
        st = os.stat(real_root)
        seen.add((st.st_dev, st.st_ino))
    except OSError:
        return
    stack: List[Tuple[str, str]] = [(real_root, "")]
    while stack:
        folder, rel = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=_name)
        except OSError as exc:
            yield Skipped(rel or ".", f"folder cannot be read ({_why(exc)})", _there(exc))
            continue
        prefix = rel + "/" if rel else ""
        subfolders = []
        sphinx = (any(e.name == SPHINX_MARK or e.name in SPHINX_PAGES for e in entries)
                  and _sphinx_folder(folder))
        pages = _pages(entries, prefix, excluded, included)
        for entry in entries:
            name = entry.name
            relpath = prefix + name
            if not relpath.isascii():
                relpath = storable(relpath)
                name = relpath.rsplit("/", 1)[-1]
            if excluded(relpath, name):
                continue
            try:
                if entry.is_symlink():
                    skip = _symlink(entry, relpath, name, real_root, included)
                    if skip is not None:
                        yield skip
                    continue
                st = entry.stat(follow_symlinks=False)
            except OSError as exc:
                if is_secret(relpath):
                    yield Skipped(relpath, SECRET_REASON)
                else:
                    yield Skipped(relpath, f"cannot be read ({_why(exc)})", _there(exc))
                continue
            if stat.S_ISDIR(st.st_mode):
                key = (st.st_dev, st.st_ino)
                if name in SECRET_DIRS:
                    yield Skipped(relpath, SECRET_FOLDER_REASON)
                elif sphinx and name in SPHINX_FOLDERS:
                    yield Skipped(relpath, SPHINX_FOLDERS[name])
                elif key in seen:  # only a bind mount can show a folder twice
                    yield Skipped(relpath, "folder already read at another path (mounted twice?)")
                else:
                    seen.add(key)
                    subfolders.append((entry.path, relpath))
            elif secret(name, name):  # the folders above were checked on the way down
                yield Skipped(relpath, SECRET_REASON)
            elif not stat.S_ISREG(st.st_mode):
                yield Skipped(relpath, f"not a regular file ({_kind(st.st_mode)}): never opened")
            elif included is None or included.match(relpath, name):
                size = st.st_size
                dot = name.rfind(".")   # os.path.splitext's extension, without its cost
                ext = name[dot:].lower() if dot > 0 and name[:dot].strip(".") else ""
                why = skip_by_name(name) if ext not in SUPPORTED else None
                copy = _copy_of_page(name, size, pages, max_bytes) if pages else None
                if why:
                    yield Skipped(relpath, why)
                elif copy:
                    yield Skipped(relpath, copy)
                elif size == 0:
                    yield Skipped(relpath, "empty file")
                elif max_bytes is not None and size > max_bytes:
                    yield Skipped(relpath, "larger than --max-bytes "
                                           f"({size:,} > {max_bytes:,} bytes)")
                else:
                    yield Candidate(relpath, size, st.st_mtime_ns, entry.path)
        stack.extend(reversed(subfolders))


_name = operator.attrgetter("name")


def _sphinx_mark(path: str) -> bool:
    """Whether a `searchindex.js` marks a Sphinx build: anything but a folder (a link is
    not followed; `walk` and `walk_one` must judge it alike)."""
    try:
        return not stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _sphinx_page(path: str) -> bool:
    """Whether one of `SPHINX_PAGES` is there as a regular file (a link is not followed)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _sphinx_folder(folder: str) -> bool:
    """Whether a folder is a Sphinx build: its `searchindex.js`, or both of
    `SPHINX_PAGES` (`walk` and `walk_one` judge it alike)."""
    return (_sphinx_mark(os.path.join(folder, SPHINX_MARK))
            or all(_sphinx_page(os.path.join(folder, page)) for page in SPHINX_PAGES))


def _pages(entries: Sequence[os.DirEntry], prefix: str, excluded: Callable[[str, str], object],
           included: Optional["_Globs"]) -> Dict[str, Tuple[str, int]]:
    """A folder's HTML pages, by stem (`_copy_of_page`). An empty page is skipped, so it
    stands for no source beside it; a page over `--max-bytes` is kept with its size,
    and stands for a data copy only (Node.js's `all.html`, 8.4 MB, and `all.json.gz`).
    A folder that holds an `index.html`, named like a page (texinfo's split HTML,
    `octave.html/`) or not (DocBook's chunked HTML, GnuCash's `gnucash-help-en/`), is
    listed as `octave.html/` or `gnucash-help-en/`, and stands for a PDF only. Each
    page comes with its size (a folder's is 0), which `_copy_of_page` weighs."""
    pages: Dict[str, Tuple[str, int]] = {}
    # a folder of any name is looked into only beside a PDF (one stat a folder saved)
    pdfs = {_stem_and_ext(e.name)[0] for e in entries if _stem_and_ext(e.name)[1] == ".pdf"}
    for entry in entries:
        name = entry.name
        dot = name.rfind(".")
        paged = dot > 0 and name[dot:].lower() in PAGE_EXTS
        stem = name[:dot] if paged else name
        if stem in pages or not (paged or (stem in pdfs and entry.is_dir(follow_symlinks=False))):
            continue
        relpath = prefix + name
        if not excluded(relpath, name) and (included is None or included.match(relpath, name)):
            if paged and entry.is_file(follow_symlinks=False):
                size = _size(entry)
                if size:
                    pages[stem] = (name, size)
            elif (entry.is_dir(follow_symlinks=False)
                  and os.path.isfile(os.path.join(entry.path, "index.html"))):
                pages[stem] = (name + "/", 0)
    return pages


def _size(entry: os.DirEntry) -> int:
    try:
        return entry.stat(follow_symlinks=False).st_size
    except OSError:
        return 0


def _copy_of_page(name: str, size: int, pages: Dict[str, Tuple[str, int]],
                  max_bytes: Optional[int]) -> Optional[str]:
    """Why a file (of `size` bytes) is skipped as the source or a data copy of the page
    beside it, if it is. A PDF's page is a folder of pages, or a page not much smaller
    than it, a text source's a page not much smaller than the source. A page over
    `max_bytes` is not read, so it stands for a data copy only: a note exported with its
    pictures inlined must not hide the note."""
    stem, ext = _stem_and_ext(name)
    found = pages.get(stem) if ext in BESIDE_PAGE_EXTS else None
    if found is None:
        return None
    page, page_size = found
    if max_bytes is not None and page_size > max_bytes:
        return (f"a data copy of the page beside it ({page}), which is over --max-bytes: "
                "neither is read") if ext in DATA_COPY_EXTS else None
    if ext == ".pdf":
        if page.endswith("/") or page_size >= PDF_PAGE_SHARE * size:
            return f"a PDF of the HTML beside it ({page}), which is read"
        return None
    if page.endswith("/") or (ext not in DATA_COPY_EXTS and page_size < TEXT_PAGE_SHARE * size):
        return None
    return f"the source or a data copy of the page beside it ({page}), which is read"


def walk_one(root: str, relpath: str, includes: Sequence[str] = (),
             excludes: Sequence[str] = (), max_bytes: Optional[int] = None) -> Entry:
    """One file of a source, judged as `walk` would judge it (for `index FILE`)."""
    parts = relpath.split("/")
    excluded = _Globs(tuple(DEFAULT_EXCLUDES) + tuple(excludes)).match
    for k in range(1, len(parts) + 1):
        if excluded("/".join(parts[:k]), parts[k - 1]):
            return Skipped(relpath, "excluded by the source's filters")
    if is_secret(relpath) or any(p in SECRET_DIRS for p in parts):
        return Skipped(relpath, SECRET_REASON)
    real_root = os.path.realpath(root)
    for k, part in enumerate(parts[:-1]):
        if part in SPHINX_FOLDERS and _sphinx_folder(os.path.join(real_root, *parts[:k])):
            return Skipped(relpath, SPHINX_FOLDERS[part])
    fs_path = os.path.join(real_root, *parts)
    try:
        if os.path.realpath(os.path.dirname(fs_path)) != os.path.dirname(fs_path):
            return Skipped(relpath, "inside a symbolic link to a folder: not followed")
        st = os.lstat(fs_path)
    except OSError as exc:
        return Skipped(relpath, f"cannot be read ({_why(exc)})", _there(exc))
    name = parts[-1]
    if stat.S_ISLNK(st.st_mode):
        return Skipped(relpath, "symbolic link: not followed (files are read at their own paths)")
    if not stat.S_ISREG(st.st_mode):
        return Skipped(relpath, f"not a regular file ({_kind(st.st_mode)}): never opened")
    included = _Globs(tuple(includes)) if includes else None
    if included is not None and not included.match(relpath, name):
        return Skipped(relpath, "not matched by the source's include filters")
    dot = name.rfind(".")
    ext = name[dot:].lower() if dot > 0 and name[:dot].strip(".") else ""
    why = skip_by_name(name) if ext not in SUPPORTED else None
    if why:
        return Skipped(relpath, why)
    stem, base_ext = _stem_and_ext(name)
    if base_ext in BESIDE_PAGE_EXTS:   # only then are the siblings worth a look
        try:
            with os.scandir(os.path.dirname(fs_path)) as it:
                siblings = [e for e in it if e.name.startswith(stem)]
        except OSError:
            siblings = []
        pages = _pages(siblings, relpath[:len(relpath) - len(name)], excluded, included)
        copy = _copy_of_page(name, st.st_size, pages, max_bytes)
        if copy:
            return Skipped(relpath, copy)
    if st.st_size == 0:
        return Skipped(relpath, "empty file")
    if max_bytes is not None and st.st_size > max_bytes:
        return Skipped(relpath, f"larger than --max-bytes ({st.st_size:,} > {max_bytes:,} bytes)")
    return Candidate(relpath, st.st_size, st.st_mtime_ns, fs_path)


def link_reason(path: str) -> str:
    """Why `index` does not read the symbolic link `path` named alone (`extract`
    says the same), and where its file is read instead."""
    try:
        st = os.stat(path)
    except OSError as exc:
        return _unfollowable(exc)
    kind = "the folder" if stat.S_ISDIR(st.st_mode) else "the file"
    return (f"symbolic link: not followed (files are read at their own paths; "
            f"{kind} is {storable(os.path.realpath(path))})")


def _unfollowable(exc: OSError) -> str:
    """Why a symbolic link whose target `os.stat` could not reach is not followed."""
    if exc.errno == errno.ELOOP:
        return "symbolic link loop: never followed"
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return "broken symbolic link: its target does not exist"
    return f"symbolic link cannot be followed ({_why(exc)})"


def _outside_reason(target: str, folder: bool) -> str:
    """Why a link out of the folder is skipped, naming where it leads (R installs its
    manuals as links into another tree) unless that looks secret."""
    if is_secret(target.replace(os.sep, "/").lstrip("/")) or (
            folder and os.path.basename(target) in SECRET_DIRS):   # `.ssh` itself
        return "symbolic link leads outside the folder: never followed"
    reason = f"symbolic link leads outside the folder, to {storable(target)}: never followed"
    return reason + " (index that folder to search its files)" if folder else reason


def _symlink(entry: os.DirEntry, relpath: str, name: str, real_root: str,
             included: Optional[_Globs]) -> Optional[Skipped]:
    """Why a symbolic link is not followed (None: not worth reporting)."""
    if is_secret(relpath) or name in SECRET_DIRS:
        return Skipped(relpath, SECRET_REASON)
    try:
        st = os.stat(entry.path)  # follows the link: stat only, never open
    except OSError as exc:
        return Skipped(relpath, _unfollowable(exc))
    target = os.path.realpath(entry.path)
    if target != real_root and not target.startswith(real_root + os.sep):
        return Skipped(relpath, _outside_reason(target, stat.S_ISDIR(st.st_mode)))
    shown = storable(os.path.relpath(target, real_root).replace(os.sep, "/"))
    if stat.S_ISDIR(st.st_mode):
        here = os.path.dirname(entry.path)
        if here == target or here.startswith(target + os.sep):
            return Skipped(relpath, f"symbolic link loop: leads back to {shown}")
        return Skipped(relpath, f"symbolic link to the folder {shown}: not followed "
                                "(its files are read at their own paths)")
    if included is not None and not (included.match(relpath, name)
                         or included.match(shown, shown.rsplit("/", 1)[-1])):
        return None
    return Skipped(relpath, f"symbolic link to {shown}: not followed "
                            "(files are read at their own paths)")


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "special file"


def _there(exc: OSError) -> bool:
    """Does an error say the entry is there but cannot be read (not that it is gone)?"""
    return exc.errno not in (errno.ENOENT, errno.ENOTDIR)


def _why(exc: OSError) -> str:
    return (exc.strerror or type(exc).__name__).lower()
