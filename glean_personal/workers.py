"""Read files in worker processes, so one bad file costs only itself.

Readers are plain Python on untrusted bytes: `html.parser` can be quadratic,
a crafted archive can eat memory, a bug can raise anything. Each worker gets a
memory ceiling and, file by file, a ceiling of CPU time; the parent replaces a
worker that dies or keeps one file far longer than that. Only the parent
writes the database.

Time is counted in CPU seconds, not on the clock, so that a large file read
on a busy machine (a 700 KB page shares two cores with ten other processes)
is not skipped for the machine's load: which files an index holds must not
depend on what else was running. The parent's clock only ends a reader that
waits without computing, after `Limits.file_wall_seconds`, and is the one
bound where the kernel keeps no CPU-time ceiling.

A worker never outlives its parent for long. A forked worker shares the
parent's open files, among them the writer lock, so an orphan would block
every later `index`; and it used to hold both ends of its own pipe, so it
waited for its next file forever. Now it closes the parent's end (the pipe
ends when the parent does), on Linux asks the kernel to kill it when the
parent dies, and everywhere runs under a CPU-time ceiling, raised file by
file, that ends one stuck on a hostile file with nobody left to kill it.
"""
from __future__ import annotations

import errno
import hashlib
import multiprocessing
import os
import signal
import stat
import sys
import time
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Callable, Deque, Iterable, Iterator, List, Optional, Tuple

from .analysis import normalize
from .config import CODE_EXTENSIONS, Limits, PassageSizes
from .document import Document, Section
from .errors import SkipFile
from .formats import SNIFF_BYTES, check_head, needs_sniff, read_document
from .formats.titles import titled_by_folder
from .language import declared_in_markup, document_language
from .passages import StoredPassage, split_document
from .redact import patterns_in, redact
from .phrases import document_phrases


@dataclass(frozen=True)
class Task:
    path: str                 # relative path, as stored
    fs_path: str              # what to open
    old_sha: Optional[str]    # the stored hash, if any: equal bytes are not re-read
    mtime_ns: int = 0         # as the walk saw it (racily clean: lowest bit flipped)
    redact: bool = True       # replace credential-shaped text by markers before storing


@dataclass
class Extracted:
    sha256: str
    size: int
    title: str = ""
    format: str = ""
    warnings: Tuple[str, ...] = ()
    passages: Tuple[StoredPassage, ...] = ()
    phrases: bytes = b""
    chars: int = 0
    same_bytes: bool = False
    redactions: int = 0
    language: Optional[str] = None   # language.py's code, None when unknown


Outcome = object  # Extracted or SkipFile


_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))


# The folders on a file's path are opened only to be walked through (`_open_below`):
# O_PATH (Linux) needs no right to list one, as a path that goes through it needs none
# (a folder of mode 711 held a file the whole path reads, and opening it to read failed).
_THROUGH = getattr(os, "O_PATH", os.O_RDONLY) | getattr(os, "O_CLOEXEC", 0)
_FOLDER_FLAGS = _THROUGH | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)


def read_file(fs_path: str, max_bytes: int, head: Optional[Callable[[bytes], None]] = None,
              below: int = 1) -> bytes:
    """The bytes of a regular file; never opens a FIFO, socket or device.

    Non-blocking, so a file swapped for a FIFO after the walk cannot hang the
    read; no-follow, so one swapped for a symbolic link is not followed. The
    folders among the last `below` parts of `fs_path` (those between the file and
    its source's root) are checked too (`_open_below`): a folder swapped for a link
    out of the root after the walk is not followed either (the file's own no-follow
    alone would read what the link leads to).
    `head`, if given, sees the first 8 KB before the rest is read, and may
    raise SkipFile (a file with no known format that is not text).
    """
    fd = _open_below(fs_path, below)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SkipFile("not a regular file: never read")
        if st.st_size > max_bytes:
            raise SkipFile(f"larger than --max-bytes ({st.st_size:,} > {max_bytes:,} bytes)")
        chunks = []
        remaining = max_bytes + 1
        if head is not None:
            chunk = os.read(fd, min(remaining, SNIFF_BYTES))
            head(chunk)
            chunks.append(chunk)
            remaining -= len(chunk)
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        if len(data) > max_bytes:
            raise SkipFile(f"larger than --max-bytes (grew past {max_bytes:,} bytes while read)")
        return data
    finally:
        os.close(fd)


def _open_below(fs_path: str, below: int) -> int:
    """`fs_path` opened for reading, no part of its last `below` a symbolic link.

    The folders below the root are opened one by one, each relative to the last and
    without following a link; the file is then opened by its whole path (what a
    reader of audit events sees) and must be the very file that chain of folders
    holds (device and inode), so a folder swapped for a link in between is caught
    before a byte is read. A file replaced in between (an editor's save renames a new
    file over it) differs from the one opened too: the whole check is made once more,
    and only a second difference is a folder swapped (the file was reported so, and
    its document dropped from the index)."""
    parts = fs_path.split(os.sep)
    folders = parts[len(parts) - below:-1] if 1 < below < len(parts) else []
    if not folders or not {os.open, os.stat} <= os.supports_dir_fd:
        return _open_file(fs_path)
    for _ in range(2):
        try:
            return _open_through(fs_path, parts, folders, below)
        except _Replaced:
            pass
    raise SkipFile(_FOLDER_SWAPPED)


class _Replaced(Exception):
    """The file opened by its whole path is not the one its folders hold."""


def _open_through(fs_path: str, parts: List[str], folders: List[str], below: int) -> int:
    at = os.open(os.sep.join(parts[:len(parts) - below]) or os.sep, _THROUGH)
    try:
        for name in folders:
            try:
                inner = os.open(name, _FOLDER_FLAGS, dir_fd=at)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise SkipFile(_FOLDER_SWAPPED) from None
                raise
            os.close(at)
            at = inner
        fd = _open_file(fs_path)
        try:
            opened = os.fstat(fd)
            try:
                held = os.stat(parts[-1], dir_fd=at, follow_symlinks=False)
            except OSError:
                held = None
            if held is None or (held.st_dev, held.st_ino) != (opened.st_dev, opened.st_ino):
                raise _Replaced()
        except BaseException:
            os.close(fd)
            raise
        return fd
    finally:
        os.close(at)


_FOLDER_SWAPPED = ("a folder on its path became a symbolic link or a file after the walk: "
                   "never followed")


def _open_file(fs_path: str) -> int:
    try:
        return os.open(fs_path, _OPEN_FLAGS)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SkipFile("became a symbolic link after the walk: never followed") from None
        raise


def clean(doc: Document) -> Document:
    """Normalised text everywhere: no characters that glue words or upset SQLite."""
    return Document(
        title=" ".join(normalize(doc.title).split()),   # one line, whatever the file name
        format=doc.format,
        sections=[Section(tuple(normalize(h) for h in s.heading), normalize(s.text), s.first_line, s.page)
                  for s in doc.sections],
        warnings=list(doc.warnings))


def redact_document(doc: Document) -> Tuple[Document, int]:
    """Credentials replaced by markers in the title and every section (see redact.py)."""
    patterns = patterns_in("\n".join([doc.title, *(s.text for s in doc.sections),
                                       *{h for s in doc.sections for h in s.heading}]))
    if not patterns:
        return doc, 0
    title, total = redact(doc.title, patterns)
    if total and any(doc.title in s.heading for s in doc.sections):
        total = 0   # the title is a heading's text: its secrets are counted there
    sections = []
    for s in doc.sections:
        text, n = redact(s.text, patterns)
        heading = [redact(h, patterns) for h in s.heading]
        changed = n or any(k for _, k in heading)
        if heading:   # a parent heading repeats in its subsections: counted once, as its own
            n += heading[-1][1]
        total += n
        sections.append(s if not changed else
                        Section(tuple(h for h, _ in heading), text, s.first_line, s.page))
    if not total and title == doc.title:
        return doc, 0
    warnings = list(doc.warnings) + [
        f"{total} credential-like string{'s' if total != 1 else ''} redacted before indexing"]
    return Document(title=title, format=doc.format, sections=sections, warnings=warnings), total


# Code, configuration and tables: their words are a program's or a table's, in no
# language a question is asked in (English keywords), and are never weighed by language.
_NO_LANGUAGE = frozenset(CODE_EXTENSIONS.values()) | {
    "json", "yaml", "toml", "ini", "css", "csv", "tsv", "makefile", "dockerfile"}


def process(task: Task, limits: Limits, sizes: PassageSizes, max_bytes: int) -> Outcome:
    """Read, hash, extract and cut one file; every failure becomes a SkipFile."""
    try:
        name = task.path.rsplit("/", 1)[-1]
        sniff = (lambda first: check_head(first, name)) if needs_sniff(name) else None
        data = read_file(task.fs_path, max_bytes, sniff, below=task.path.count("/") + 1)
        sha = hashlib.sha256(data).hexdigest()
        if sha == task.old_sha:
            return Extracted(sha, len(data), same_bytes=True)
        doc = clean(read_document(data, name, limits))
        own_title, doc.title = doc.title, titled_by_folder(doc.title, task.path)
        redactions = 0
        if task.redact:
            doc, redactions = redact_document(doc)
        passages = split_document(doc, sizes)
        if not passages:
            raise SkipFile("no extractable text")
        text = doc.text
        # markup (HTML, XHTML, DocBook) may say its language in its first bytes: `<html lang>`
        declared = declared_in_markup(data) if data[:64].lstrip()[:1] == b"<" else None
        language = (None if doc.format in _NO_LANGUAGE
                    else document_language(text, declared, task.path))
        return Extracted(
            sha, len(data), doc.title, doc.format, tuple(doc.warnings),
            tuple((p.heading, p.text, p.start, p.end,
                   *(p.lines or (None, None)), p.page) for p in passages),
            document_phrases(own_title, text), len(text), redactions=redactions,
            language=language)
    except SkipFile as skip:
        return skip
    except MemoryError:
        return SkipFile("needed more memory than a reader may use")
    except RecursionError:
        return SkipFile("nested too deeply to read")
    except OSError as exc:
        return SkipFile(f"cannot be read ({(exc.strerror or type(exc).__name__).lower()})")
    except Exception as exc:  # a reader bug must cost only this file
        return SkipFile(f"reader failed ({type(exc).__name__}: {str(exc)[:120]})")


def _worker_main(conn: Connection, limits: Limits, sizes: PassageSizes, max_bytes: int,
                 parent_end: Optional[Connection] = None) -> None:
    # First of all, while both are still blocked (`_Worker` forks with them held):
    # Ctrl-C is the parent's to handle, and SIGTERM ends a worker quietly, even one
    # forked from `watch`, which turns both into KeyboardInterrupt.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _hold_signals(False)
    if parent_end is not None:
        # A forked worker holds a copy of the parent's end of its own pipe; closed, the
        # pipe reads as ended once the parent is gone, and the worker exits.
        parent_end.close()
    _die_with_parent()
    _set_limit("RLIMIT_AS", limits.worker_memory_bytes)
    _set_limit("RLIMIT_CORE", 0)   # a reader killed for CPU time leaves no core file
    try:
        while True:
            item = conn.recv()
            if item is None:
                return
            _allow_cpu(limits.file_seconds)
            conn.send(process(item, limits, sizes, max_bytes))
    except (EOFError, KeyboardInterrupt, BrokenPipeError, ConnectionResetError):
        return


_HELD = (signal.SIGINT, signal.SIGTERM)


def _hold_signals(hold: bool) -> None:
    """Block (or unblock) SIGINT and SIGTERM in this thread, where POSIX allows it.

    Held while a worker is forked, so that neither can strike the child before it
    has set its own dispositions (a KeyboardInterrupt traceback from a worker
    still importing); one that arrives meanwhile reaches the parent on release.
    """
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is not None:
        mask(signal.SIG_BLOCK if hold else signal.SIG_UNBLOCK, _HELD)


def _set_limit(name: str, value: int) -> None:
    try:
        import resource
        which = getattr(resource, name)
        hard = resource.getrlimit(which)[1]
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(which, (value, hard))
    except (ImportError, AttributeError, ValueError, OSError):
        pass


def _allow_cpu(seconds: float) -> None:
    """Let the next file use `seconds` more CPU time, then SIGXCPU ends the worker."""
    try:
        import resource
        usage = resource.getrusage(resource.RUSAGE_SELF)
        _set_limit("RLIMIT_CPU", int(usage.ru_utime + usage.ru_stime + seconds) + 1)
    except ImportError:
        pass


def _held_now() -> bool:
    """Were SIGINT and SIGTERM already blocked here (then they stay so)?"""
    mask = getattr(signal, "pthread_sigmask", None)
    return mask is not None and set(_HELD) <= set(mask(signal.SIG_BLOCK, []))


def _has_cpu_ceiling() -> bool:
    try:
        import resource
    except ImportError:   # Windows: only the parent's clock bounds a reader
        return False
    return hasattr(resource, "RLIMIT_CPU")


_CPU_CEILING = _has_cpu_ceiling()


def _die_with_parent() -> None:
    """Linux: the kernel sends SIGKILL to this worker when its parent dies."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError, ImportError):
        return
    parent = multiprocessing.parent_process()
    if parent is not None and os.getppid() != parent.pid:   # it died before the request
        os._exit(0)


def _context() -> "multiprocessing.context.BaseContext":
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


class _Worker:
    def __init__(self, ctx, limits: Limits, sizes: PassageSizes, max_bytes: int) -> None:
        self.conn, child = ctx.Pipe()
        inherited = self.conn if ctx.get_start_method() == "fork" else None
        self.proc = ctx.Process(target=_worker_main,
                                args=(child, limits, sizes, max_bytes, inherited), daemon=True)
        held = _held_now()
        _hold_signals(True)
        try:
            self.proc.start()
        finally:
            if not held:
                _hold_signals(False)
        child.close()
        self.pending: Deque[Task] = deque()
        self.started = time.monotonic()

    def send(self, task: Task) -> None:
        if not self.pending:
            self.started = time.monotonic()
        self.pending.append(task)
        try:
            self.conn.send(task)
        except OSError:   # the worker died: `wait` reports it and the task is requeued
            pass

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.proc.kill()
        else:
            try:
                self.conn.send(None)
            except (OSError, BrokenPipeError):
                pass
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()


class Pool:
    """A few worker processes, each fed a short queue of files."""

    DEPTH = 16   # queued files per worker: work to do while the main process writes
    AHEAD = 64   # tasks drawn ahead while no result is ready
    STEP = 16    # ... and while results keep coming

    def __init__(self, limits: Limits, sizes: PassageSizes, max_bytes: int,
                 processes: Optional[int] = None) -> None:
        self.limits, self.sizes, self.max_bytes = limits, sizes, max_bytes
        self.processes = processes or max(1, min(4, os.cpu_count() or 1))
        self.ctx = _context()
        self.workers: List[_Worker] = []

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, *exc) -> None:
        for w in self.workers:
            w.stop(kill=exc[0] is not None)
        self.workers = []

    def _spawn(self) -> _Worker:
        return _Worker(self.ctx, self.limits, self.sizes, self.max_bytes)

    def run(self, tasks: Iterable[Task]) -> Iterator[Tuple[Task, Outcome]]:
        """(task, outcome) pairs in completion order.

        `tasks` is drawn lazily: workers start reading the first ones while the
        indexer's walk goes on, and start only as there are tasks for them.
        This process also walks ahead, a little at every turn and more
        whenever no result is ready, so the walk still ends early and the
        count of files is known.
        """
        pending = _Tasks(tasks, self.workers)
        budget = self.limits.file_wall_seconds if _CPU_CEILING else self.limits.file_seconds
        while True:
            self._feed(pending.next)
            busy = {w.conn: w for w in self.workers if w.pending}
            if not busy:
                return
            ready_conns = wait(list(busy), timeout=0)
            if ready_conns:
                pending.ahead(self.STEP)
            elif pending.ahead(self.AHEAD):
                continue
            else:
                now = time.monotonic()
                timeout = max(0.0, min(w.started + budget for w in busy.values()) - now)
                ready_conns = wait(list(busy), timeout=timeout + 0.01)
            ready: List[Tuple[Task, Outcome]] = []
            for conn in ready_conns:
                w = busy[conn]
                try:
                    outcome = conn.recv()
                except (EOFError, OSError):
                    ready.append(self._replace(w, pending.queue, None))
                    continue
                task = w.pending.popleft()
                w.started = time.monotonic()
                ready.append((task, outcome))
            now = time.monotonic()
            for w in list(self.workers):
                if w.pending and now - w.started > budget:
                    ready.append(self._replace(
                        w, pending.queue, f"took too long to read (over {budget:g} s)"))
            for item in ready:
                paused = time.monotonic()
                yield item
                # Time the caller spent (writing a batch) is not the workers' time:
                # a reader is only charged for the time it had.
                _forgive(self.workers, time.monotonic() - paused)

    def _feed(self, next_task: Callable[[], Optional[Task]]) -> None:
        """Top up every worker's queue, starting workers while all are busy."""
        while True:
            w = min(self.workers, key=lambda w: len(w.pending), default=None)
            if w is None or (w.pending and len(self.workers) < self.processes):
                w = None   # every worker has work: another one may start
            elif len(w.pending) >= self.DEPTH:
                return
            task = next_task()
            if task is None:
                return
            if w is None:
                w = self._spawn()
                self.workers.append(w)
            w.send(task)

    def _replace(self, w: _Worker, queue: Deque[Task],
                 reason: Optional[str]) -> Tuple[Task, Outcome]:
        """Kill a worker, fail its current file, and give its other files back."""
        task = w.pending.popleft()
        queue.extendleft(reversed(w.pending))
        w.pending.clear()
        w.stop(kill=True)
        if reason is None:
            reason = _death_reason(w.proc.exitcode, self.limits.file_seconds)
        self.workers[self.workers.index(w)] = self._spawn()
        return task, SkipFile(reason)


class _Tasks:
    """The tasks still to send: those given back by a replaced worker first,
    then those drawn ahead, then the rest of the source, drawn as needed."""

    def __init__(self, source: Iterable[Task], workers: List[_Worker]) -> None:
        self.source: Optional[Iterator[Task]] = iter(source)
        self.queue: Deque[Task] = deque()
        self.workers = workers

    def next(self) -> Optional[Task]:
        if self.queue:
            return self.queue.popleft()
        return self._draw()

    def ahead(self, n: int) -> bool:
        """Draw up to `n` tasks into the queue; False if there were none left."""
        drawn = 0
        while drawn < n and (task := self._draw()) is not None:
            self.queue.append(task)
            drawn += 1
        return drawn > 0

    def _draw(self) -> Optional[Task]:
        if self.source is None:
            return None
        began = time.monotonic()
        task = next(self.source, None)
        if task is None:
            self.source = None
        _forgive(self.workers, time.monotonic() - began)   # finding tasks is not reading
        return task


def _forgive(workers: List[_Worker], seconds: float) -> None:
    """Time this process spent on other work is not charged to any reader."""
    for w in workers:
        w.started += seconds


def _death_reason(exitcode: Optional[int], cpu_seconds: float) -> str:
    if exitcode == -getattr(signal, "SIGXCPU", -1000):
        return f"took too long to read (over {cpu_seconds:g} s of CPU time)"
    if exitcode == -signal.SIGKILL:
        return "the reader was killed (out of memory?)"
    return f"the reader crashed (exit code {exitcode})"

