"""Walk a source folder: what is a candidate file, and why everything else is not.

The walk never opens a file and never follows a symbolic link. A link that
leads outside the root is skipped (nothing outside is ever read); a link to
something inside the root is skipped too, because its target is read at its
own path (or is excluded on purpose) and reading it twice would only make
duplicates; a link that loops or dangles says so. Only real folders are
entered, so every path handed to a reader is free of links. FIFOs, sockets,
devices, secret-looking names and unreadable entries are reported as skips
with their reasons. The walk keeps an explicit stack: a tree 200 levels deep
costs no recursion.
"""
from __future__ import annotations

import errno
import fnmatch
import functools
import os
import re
import stat
from typing import Iterator, List, NamedTuple, Optional, Sequence, Set, Tuple, Union

from .config import DEFAULT_EXCLUDES, SECRET_DIRS, SECRET_NAMES
from .formats import SUPPORTED


class Candidate(NamedTuple):
    """A regular file the indexer may read (a tuple: one is made per file, often)."""

    path: str        # relative to the root, '/'-separated, as stored and shown
    size: int
    mtime_ns: int
    fs_path: str = ""  # the real path to open (may hold undecodable bytes)


class Skipped(NamedTuple):
    path: str
    reason: str


Entry = Union[Candidate, Skipped]

SECRET_REASON = "secret-looking file: never read"
SECRET_FOLDER_REASON = "secret-looking folder: never read"


@functools.lru_cache(maxsize=32)
def _globs(patterns: Tuple[str, ...]) -> Tuple[Optional["re.Pattern[str]"], Tuple[str, ...]]:
    """All the globs as one regex (one match per name, not one per glob), plus `dir/**` prefixes."""
    regex = re.compile("|".join(fnmatch.translate(p) for p in patterns)) if patterns else None
    return regex, tuple(p[:-2] for p in patterns if p.endswith("/**"))


def _matches(relpath: str, patterns: Sequence[str]) -> bool:
    """Does a glob match the file name, or the whole relative path?"""
    regex, prefixes = _globs(tuple(patterns))
    if regex is not None:
        name = relpath.rsplit("/", 1)[-1]
        if regex.match(name) or (name != relpath and regex.match(relpath)):
            return True
    return bool(prefixes) and (relpath + "/").startswith(prefixes)


def is_secret(relpath: str) -> bool:
    """Secret-looking names (SPEC §4): never opened, whatever the includes say."""
    parts = relpath.split("/")
    if any(p in SECRET_DIRS for p in parts[:-1]):
        return True
    return _matches(parts[-1], SECRET_NAMES)


def walk(root: str, includes: Sequence[str] = (), excludes: Sequence[str] = (),
         max_bytes: Optional[int] = None) -> Iterator[Entry]:
    """Every file under `root` as a Candidate or a Skipped, in a stable order."""
    real_root = os.path.realpath(root)
    if any(part in SECRET_DIRS for part in real_root.split(os.sep)):
        yield Skipped(".", SECRET_FOLDER_REASON)   # `index ~/.ssh` reads nothing either
        return
    excluded = tuple(DEFAULT_EXCLUDES) + tuple(excludes)
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
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            yield Skipped(rel or ".", f"folder cannot be read ({_why(exc)})")
            continue
        subfolders = []
        for entry in entries:
            relpath = _printable(f"{rel}/{entry.name}" if rel else entry.name)
            if _matches(relpath, excluded):
                continue
            result = _classify(entry, relpath, real_root, includes, seen)
            if result is None:
                continue
            if isinstance(result, str):
                subfolders.append((result, relpath))
                continue
            if isinstance(result, Skipped):
                yield result
                continue
            result = _filter_file(result, includes, max_bytes)
            if result is not None:
                yield result
        stack.extend(reversed(subfolders))


def _classify(entry: os.DirEntry, relpath: str, real_root: str, includes: Sequence[str],
              seen: Set[Tuple[int, int]]) -> Union[None, str, Entry]:
    """A folder to enter (its path), a candidate, a skip, or None (pass over)."""
    try:
        if entry.is_symlink():
            return _symlink(entry, relpath, real_root, includes)
        st = entry.stat(follow_symlinks=False)
    except OSError as exc:
        if is_secret(relpath):
            return Skipped(relpath, SECRET_REASON)
        return Skipped(relpath, f"cannot be read ({_why(exc)})")
    if stat.S_ISDIR(st.st_mode):
        if relpath.rsplit("/", 1)[-1] in SECRET_DIRS:
            return Skipped(relpath, SECRET_FOLDER_REASON)
        key = (st.st_dev, st.st_ino)
        if key in seen:  # only a bind mount can show a folder twice
            return Skipped(relpath, "folder already read at another path (mounted twice?)")
        seen.add(key)
        return entry.path
    if is_secret(relpath):
        return Skipped(relpath, SECRET_REASON)
    if not stat.S_ISREG(st.st_mode):
        return Skipped(relpath, f"not a regular file ({_kind(st.st_mode)}): never opened")
    return Candidate(relpath, st.st_size, st.st_mtime_ns, entry.path)


def _symlink(entry: os.DirEntry, relpath: str, real_root: str,
             includes: Sequence[str]) -> Optional[Skipped]:
    """Why a symbolic link is not followed (None: not worth reporting)."""
    if is_secret(relpath) or relpath.rsplit("/", 1)[-1] in SECRET_DIRS:
        return Skipped(relpath, SECRET_REASON)
    try:
        st = os.stat(entry.path)  # follows the link: stat only, never open
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return Skipped(relpath, "symbolic link loop: never followed")
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return Skipped(relpath, "broken symbolic link: its target does not exist")
        return Skipped(relpath, f"symbolic link cannot be followed ({_why(exc)})")
    target = os.path.realpath(entry.path)
    if target != real_root and not target.startswith(real_root + os.sep):
        return Skipped(relpath, "symbolic link leads outside the folder: never followed")
    shown = _printable(os.path.relpath(target, real_root).replace(os.sep, "/"))
    if stat.S_ISDIR(st.st_mode):
        here = os.path.dirname(entry.path)
        if here == target or here.startswith(target + os.sep):
            return Skipped(relpath, f"symbolic link loop: leads back to {shown}")
        return Skipped(relpath, f"symbolic link to the folder {shown}: not followed "
                                "(its files are read at their own paths)")
    if includes and not (_matches(relpath, includes) or _matches(shown, includes)):
        return None
    return Skipped(relpath, f"symbolic link to {shown}: not followed "
                            "(files are read at their own paths)")


def _filter_file(c: Candidate, includes: Sequence[str],
                 max_bytes: Optional[int]) -> Optional[Entry]:
    if includes and not _matches(c.path, includes):
        return None
    ext = os.path.splitext(c.path)[1].lower()
    if ext not in SUPPORTED:
        return Skipped(c.path, f"unsupported file type {ext or '(no extension)'}")
    if c.size == 0:
        return Skipped(c.path, "empty file")
    if max_bytes is not None and c.size > max_bytes:
        return Skipped(c.path, f"larger than --max-bytes ({c.size:,} > {max_bytes:,} bytes)")
    return c


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "special file"


def _why(exc: OSError) -> str:
    return (exc.strerror or type(exc).__name__).lower()


def printable(text: str) -> str:
    """Text as it may be stored: lone surrogates (undecodable bytes) escaped as \\xNN."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace") \
            if _only_escapes(text) else text.encode("utf-8", "backslashreplace").decode("utf-8")


def _only_escapes(text: str) -> bool:
    """True if every lone surrogate is one `surrogateescape` made (U+DC80..U+DCFF)."""
    return all(not ("\ud800" <= ch <= "\udfff") or "\udc80" <= ch <= "\udcff" for ch in text)


_printable = printable  # the name used before; kept for callers
