"""The one Python API every surface is a skin over (docs/api.md).

    with glean_personal.open_index() as ix:
        ix.index("~/Documents", label="docs")
        for hit in ix.search("salary bands").results:
            print(hit.title, hit.url)
"""
from __future__ import annotations

import contextlib
import math
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Dict, Iterator, List, Optional, Sequence, Union

from .docref import as_row_id, doc_summary, is_file_url, path_from_url, source_of_file
from .errors import (Ambiguous, GleanError, LockedError, MoveRefused, NotFound, ReadOnlyError,
                     SettingError, UsageError)
from .store.connection import default_db_path
from .store.core import Store

if TYPE_CHECKING:
    from .reports import (CompactReport, EvaluationReport, ExportReport, FetchedDocument,
                          PurgeReport, Status, VerifyReport)
    from .config import Limits, PassageSizes, Progress
    from .graph import LinkReport, Related
    from .indexer import IndexReport
    from .reading import Outline, Part
    from .relocate import MoveCheck
    from .search import SearchResult
    from .suggest import Completion

# The search, indexing and graph machinery is imported by the methods that use
# it, so a command loads only what its verb needs.

PathLike = Union[str, os.PathLike]
WRITER_WAIT_SECONDS = 30.0
WATCH_INTERVAL = 2.0        # seconds between `watch` passes, at least
WATCH_COST_FACTOR = 20.0    # ...or this many times what the last pass cost (idle CPU <= 5%)
WATCH_MAX_INTERVAL = 60.0
PAGE_MAX = 1_000_000_000    # a limit or offset past any index (SQL integers stay in range)


REPORTS = ("FetchedDocument", "Status", "PurgeReport", "VerifyReport", "CompactReport",
           "ExportReport", "EvaluationReport")


def __getattr__(name: str) -> object:
    """The report classes, from reports.py on first use (a search needs none of them)."""
    if name in REPORTS:
        from . import reports
        return getattr(reports, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def resolve_db(db: Optional[PathLike]) -> Path:
    """The index file `db` names; None: the default path rules. An empty string names
    no file: it is refused, never taken as the default index (a `--db "$UNSET"` would
    otherwise write to, or purge, the user's own index)."""
    if db is None:
        return default_db_path()
    return Path(named_path(db, "--db")).expanduser()


def named_path(path: PathLike, what: str, folder: bool = False) -> str:
    """`path` as text; an empty string is a `UsageError`, not the current folder
    (`os.path.abspath("")` is the working directory: `index ""` indexed it)."""
    text = os.fspath(path)
    if not isinstance(text, str):
        text = os.fsdecode(text)
    if text == "":
        raise UsageError(f"{what} is an empty path; name one"
                         + (" (`.` is the current folder)" if folder else ""))
    return text


def open_index(db: Optional[PathLike] = None, store: Optional[str] = None,
               limits: Optional[Limits] = None, passage_sizes: Optional[PassageSizes] = None,
               readonly: bool = False) -> "Index":
    """Open (creating if needed) the index file; `store` forces 'fts5' or 'plain' at creation.
    `limits` and `passage_sizes` default to config's DEFAULT_LIMITS and DEFAULT_PASSAGES."""
    if store is None:
        store = os.environ.get("GLEAN_PERSONAL_STORE") or None
    if store not in (None, "fts5", "plain"):
        raise SettingError(f"unknown store kind {store!r}: use 'fts5' or 'plain'")
    return Index(Store.open(resolve_db(db), force_kind=store, readonly=readonly),
                 limits, passage_sizes)


class Index:
    """An open personal index."""

    def __init__(self, store: Store, limits: Optional[Limits] = None,
                 passage_sizes: Optional[PassageSizes] = None) -> None:
        self.store = store
        self._limits = limits
        self._passage_sizes = passage_sizes
        # Called once when a write must wait for another process's writer lock (the
        # command line says so on a terminal); None: wait in silence.
        self.on_writer_wait: Optional[Callable[[str], None]] = None

    # The defaults are read when indexing needs them: a search never loads config.
    @property
    def limits(self) -> Limits:
        if self._limits is None:
            from .config import DEFAULT_LIMITS
            self._limits = DEFAULT_LIMITS
        return self._limits

    @limits.setter
    def limits(self, value: Limits) -> None:
        self._limits = value

    @property
    def passage_sizes(self) -> PassageSizes:
        if self._passage_sizes is None:
            from .config import DEFAULT_PASSAGES
            self._passage_sizes = DEFAULT_PASSAGES
        return self._passage_sizes

    @passage_sizes.setter
    def passage_sizes(self, value: PassageSizes) -> None:
        self._passage_sizes = value

    def __enter__(self) -> "Index":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        # A file this open created and that a failed command left empty is not kept:
        # `watch /no/such/folder` or `purge typo` on a new path leave nothing behind.
        if exc_type is not None and issubclass(exc_type, GleanError):
            with contextlib.suppress(GleanError):
                self._discard_if_unused()
        self.close()

    def close(self) -> None:
        self.store.close()
        if getattr(self, "_discard", False):   # e.g. `index /no/such/folder` on a new file
            for leftover in (self.store.path, Path(str(self.store.path) + "-journal")):
                with contextlib.suppress(OSError):
                    os.unlink(leftover)

    @property
    def path(self) -> Path:
        return self.store.path

    # -- writing -------------------------------------------------------------
    @property
    def readonly(self) -> bool:
        """Opened read-only, or the file cannot be written here: every write is refused."""
        return self.store.readonly

    @contextlib.contextmanager
    def _writer(self, writes: bool = True) -> Iterator[None]:
        """One writer at a time: a second waits, then gives up with a clear message.
        `writes=False` only waits its turn (verify: FTS5's own check needs the write lock)."""
        import fcntl   # only writers take the lock
        if writes and self.store.readonly:
            raise ReadOnlyError(self.store.read_only_message())
        fd = os.open(self.store.path, os.O_RDONLY)
        try:
            deadline = time.monotonic() + WRITER_WAIT_SECONDS
            told = False
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError:
                    if not told and self.on_writer_wait is not None:
                        told = True
                        self.on_writer_wait(
                            f"another glean-personal process is writing {self.store.path}; "
                            f"waiting for it (up to {WRITER_WAIT_SECONDS:g} s)")
                    if time.monotonic() > deadline:
                        raise LockedError(
                            f"another glean-personal process is writing {self.store.path}; "
                            "try again when it finishes") from None
                    time.sleep(0.1)
            yield
        finally:
            os.close(fd)  # also releases the flock; SQLite holds no lock here

    def index(self, folder: PathLike, label: Optional[str] = None,
              include: Optional[Sequence[str]] = None, exclude: Optional[Sequence[str]] = None,
              max_bytes: Optional[int] = None, progress: Optional["Progress"] = None, redact: Optional[bool] = None,
              move: Optional[bool] = None) -> "IndexReport":
        """Add or refresh a folder (or one file of an indexed folder).

        Filters and `redact` left as None repeat the stored ones. A folder that
        holds the files of a source whose root is gone is taken as that source,
        moved: with `move=True`, or `move=None` when exactly one source matches.
        `move=False` never moves (a new source is made). A known source whose
        root is missing is left as it is; the report says since when.
        """
        from .indexer import index_file, index_source, source_root
        path = os.path.abspath(os.path.expanduser(named_path(folder, "the folder to index",
                                                             folder=True)))
        include, exclude = _globs(include, "include"), _globs(exclude, "exclude")
        if max_bytes is not None and (isinstance(max_bytes, bool)
                                      or not isinstance(max_bytes, int) or max_bytes < 1):
            raise UsageError(f"max_bytes must be a whole number above 0, got {max_bytes!r}")
        if not self._is_root(path) and (os.path.isfile(path) or (
                not os.path.exists(path) and self._holds_file(path))):
            if any(x is not None for x in (label, include, exclude, max_bytes, redact)):
                raise UsageError("a single file is indexed with its source's settings: "
                                 "--label, --include, --exclude and --max-bytes go with a folder")
            with self._writer():
                report = index_file(self.store, path, self.limits, self.passage_sizes)
                self._refresh_graph(report)
            return report
        try:
            with self._writer():
                moved_from = None
                fs_root, root = source_root(path)
                if move is not False and os.path.isdir(fs_root) \
                        and self.store.source_settings(root) is None:
                    moved_from = self._adopt_moved(root, label, force=bool(move))
                report = index_source(self.store, str(folder), label,
                                      None if include is None else list(include),
                                      None if exclude is None else list(exclude),
                                      max_bytes, self.limits, self.passage_sizes, progress,
                                      redact)
                report.moved_from = moved_from
                if report.new_source:
                    report.overlaps = self._overlaps(report.root, report.label)
                self._merge_if_changed(report)
                self._refresh_graph(report)
                return report
        except NotFound:
            self._discard_if_unused()
            raise

    def _overlaps(self, root: str, label: str) -> List[Dict[str, str]]:
        """The other sources whose folder holds `root` or lies inside it."""
        return [{"label": s["label"], "root": s["root"],
                 "relation": "holds it" if _within(root, s["root"]) else "inside it"}
                for s in self.store.sources()
                if s["label"] != label and (_within(root, s["root"]) or _within(s["root"], root))]

    # A run that changed this share of the documents merges the full-text index.
    MERGE_SHARE = 0.1

    def _merge_if_changed(self, report: "IndexReport") -> None:
        """Merge the full-text index into one segment after a run that changed much of it.

        FTS5 writes each run's words as new segments and merges them only now
        and then; a search reads every segment (on the 10k corpus, four
        segments against one cost about 0.6 ms of a question's 9). A first
        index, or one that changed a tenth of the documents, is worth the
        merge (0.8 s of CPU on that corpus); a small refresh is not. It is a
        transaction of its own: stopped midway, the index is as the run left it.
        """
        changed = report.added + report.updated + report.removed
        if changed and changed >= self.MERGE_SHARE * self.store.counts()["documents"]:
            began = time.monotonic()
            self.store.optimize_fulltext()
            report.seconds += time.monotonic() - began

    def index_all(self, progress: Optional["Progress"] = None) -> List["IndexReport"]:
        """Refresh every source; one whose root is missing is reported, not emptied."""
        reports = []
        for s in self.sources():
            reports.append(self.index(s["root"], progress=progress, move=False))
        return reports

    def _is_root(self, path: str) -> bool:
        """Is `path` a source's root (whatever is at it now: a file in its place is
        the folder missing, not a file to index)?"""
        from .indexer import source_root
        return self.store.source_settings(source_root(path)[1]) is not None

    def _holds_file(self, path: str) -> bool:
        """Is `path` (gone from disk) a document of an indexed source?"""
        try:
            source, rel = source_of_file(self.store, path)
        except NotFound:
            return False
        return rel in self.store.document_states(source["id"])

    def _adopt_moved(self, root: str, label: Optional[str], force: bool) -> Optional[str]:
        """Re-point the one missing source whose files `root` holds; its old root, or None."""
        found = self._moved_here(root)
        if label:
            found = [c for c in found if c.label == label] or found
        if not found:
            if force:
                raise MoveRefused(f"no source whose folder is gone holds the files of {root} "
                                 "(by a sample of sizes and hashes); nothing changed. "
                                 "`sources move LABEL NEWPATH --force` moves one anyway, "
                                 "or index without --move to add a new source")
            return None
        if len(found) > 1:
            names = ", ".join(f"{c.label} ({c.matched}/{c.checked} sampled files match)"
                              for c in found)
            raise UsageError(f"{root} holds the files of more than one missing source: "
                             f"{names}; choose with `sources move LABEL NEWPATH` or --label")
        check = found[0]
        with self.store.transaction():
            source = self.store.source_settings(check.old_root)
            self.store.move_source(source["id"], root)
        return check.old_root

    def _moved_here(self, root: str) -> list:
        from .indexer import root_missing
        from .relocate import moved_here
        return moved_here(self.store, root,
                          lambda s: root_missing(s["root"], s["documents"],
                                                 self.store.document_paths(s["id"])))

    def moved_candidates(self, folder: PathLike) -> List[dict]:
        """Missing sources whose files `folder` holds (what `index FOLDER` would move)."""
        from .indexer import source_root
        fs_root, root = source_root(named_path(folder, "the folder to index", folder=True))
        if not os.path.isdir(fs_root):
            return []
        with self.store.reading():
            if self.store.source_settings(root) is not None:
                return []
            return [c.to_dict() for c in self._moved_here(root)]

    def move_source(self, source: str, new_path: PathLike, force: bool = False) -> "MoveCheck":
        """Re-point a source at the folder it moved to; document ids are kept.

        A sample of its documents is compared with the files under `new_path`
        by size and hash first; unless `force`, a majority must match.
        """
        from .indexer import resolve_root
        from .relocate import check_folder
        from .walk import storable
        new_root = storable(resolve_root(named_path(new_path, "the new folder", folder=True)))
        with self._writer():
            target = self._source(source)
            other = self.store.source_by_root(new_root)
            if other is not None and other["id"] != target["id"]:
                raise UsageError(f"{new_root} is already the folder of source {other['label']!r}")
            check = check_folder(self.store, target, new_root)
            if not check.ok and not force:
                raise MoveRefused(
                    f"{new_root} does not look like {target['label']!r} moved: "
                    f"{check.matched} of {check.checked} sampled files match by size and hash "
                    f"({check.missing} missing, {check.different} different); nothing changed "
                    "(--force moves it anyway)")
            with self.store.transaction():
                self.store.move_source(target["id"], new_root)
        return check

    def _source(self, name: str) -> dict:
        """A source by its label or its folder (`notes/`, `./notes`, `~/notes`, absolute)."""
        from .walk import storable
        named = _abs(name) if name else name
        sources = self.store.sources()
        found = [s for s in sources if s["label"] == name] or [
            s for s in sources if s["root"] in (name, named, storable(named))]
        if not found and named and os.path.isdir(named):
            # The folder written by its real path, of a source kept by a link to it.
            real = os.path.realpath(named)
            found = [s for s in sources if os.path.realpath(s["root"]) == real]
        if not found:
            raise NotFound(f"no indexed source named {name!r}; `sources` lists them")
        return found[0]

    def _refresh_graph(self, report) -> None:
        """Bring a built graph up to date with what one index run changed, and with the
        documents a stopped run wrote but never linked (even when this run changed none)."""
        from .graph import refresh, unlinked_left
        if not report.changes:
            if unlinked_left(self.store):
                report.graph = refresh(self.store, [], 0)
            return
        states = self.store.document_states(self.store.source_settings(report.root)["id"])
        changed = [states[p][0] for kind, p in report.changes if kind != "removed" and p in states]
        removed = sum(1 for kind, _ in report.changes if kind == "removed")
        report.graph = refresh(self.store, changed, removed)

    def _discard_if_unused(self) -> None:
        """A file this open created and nothing was written to is removed on close."""
        if self.store.created and not self.store.readonly:
            with self.store.reading():
                if not self.store.sources():
                    self._discard = True

    def purge(self, source: Optional[str] = None, all: bool = False) -> PurgeReport:
        """Delete the index rows of one source, or of every source with `all=True`.

        Files on disk are never touched. Returns what was removed, the bytes
        now reclaimable, and whether `compact` is worth running.
        """
        from .reports import PurgeReport
        if source is None and not all:
            raise UsageError("purge needs a source label (see `sources`), or --all for every source")
        with self._writer():
            with self.store.transaction():
                targets = self.store.sources()
                if source is not None:
                    targets = [self._source(source)]
                removed = sum(self.store.delete_source(s["id"]) for s in targets)
                if removed:
                    self.store.bump_generation()
            if removed:
                from .graph import is_linked
                if is_linked(self.store):   # the gone documents' links went with them
                    with self.store.transaction():
                        self.store.set_meta("graph_generation", self.store.meta("generation", "0"))
        free, size = self.store.free_bytes(), self.store.db_bytes()
        return PurgeReport([s["label"] for s in targets], removed, [s["root"] for s in targets],
                           free, size, size > 0 and free * 4 > size)

    def compact(self) -> CompactReport:
        """Optimise the full-text index and give free pages back (VACUUM).

        Takes the writer lock, as every write does; VACUUM then waits for
        readers to finish (SQLite's busy timeout), so a search running
        meanwhile is never disturbed.
        """
        from .reports import CompactReport
        before = self.store.db_bytes()
        with self._writer():
            self.store.optimize_fulltext()
            self.store.vacuum()
        after = self.store.db_bytes()
        return CompactReport(before, after)

    # -- watching ------------------------------------------------------------
    def watch_roots(self, targets: Sequence[PathLike] = ()) -> List[str]:
        """The folders `watch` re-checks: sources named by label or folder (a folder not
        yet indexed is added by the first pass); none named: every source."""
        if not targets:
            roots = [s["root"] for s in self.sources()]
            if not roots:
                raise NotFound("nothing to watch: no sources yet (`index FOLDER` adds one, "
                               "or name a folder to watch)")
            return roots
        roots = []
        for t in targets:
            named_path(str(t), "a folder to watch", folder=True)
            by_label = [s["root"] for s in self.sources() if s["label"] == str(t)]
            if by_label:
                roots.append(by_label[0])
            elif os.path.isdir(_abs(str(t))) or any(s["root"] == _abs(str(t))
                                                  for s in self.sources()):
                roots.append(_abs(str(t)))
            else:
                raise NotFound(f"{str(t)!r} is neither a source label nor a folder; "
                               "`sources` lists them")
        return list(dict.fromkeys(roots))

    def watch_pass(self, roots: Sequence[str]) -> List["IndexReport"]:
        """Bring each root up to date once (what one turn of `watch` does)."""
        return [self.index(root, move=False) for root in roots]

    def _watch_reports(self, roots: Sequence[str]) -> Iterator[Union["IndexReport", LockedError]]:
        """Each root brought up to date, one after another; another process holding the
        index past the writers' wait ends the pass with its LockedError, not the watch."""
        for root in roots:
            try:
                yield self.index(root, move=False)
            except LockedError as exc:
                yield exc
                return

    def watch(self, targets: Sequence[PathLike] = (), interval: float = WATCH_INTERVAL,
              max_interval: float = WATCH_MAX_INTERVAL, stop=None) -> Iterator[dict]:
        """Re-check the sources until stopped, yielding one event per change.

        Runs in the caller's process and thread; nothing is left running when
        the caller stops iterating, `stop` (a threading.Event) is set, or
        KeyboardInterrupt arrives (an interrupted write is rolled back; what
        was committed is whole). The pause between passes is `interval`, or
        `WATCH_COST_FACTOR` times what the last pass that found nothing to read
        cost, if that is longer (up to `max_interval`), so an idle watch spends
        at most about 1/`WATCH_COST_FACTOR` of a CPU.

        Events: {"time", "event", "source", "path"} with event one of
        added, updated, moved, removed, skipped, missing, back; "graph" events
        ({"time", "event", "mode", "documents", "links"}) after an update; and
        "waiting" (path: the index, with a "reason") when another process held the
        index past the writers' wait: the watch tries again at its next pass.
        """
        from .config import MAX_PAUSE
        for name, value in (("interval", interval), ("max_interval", max_interval)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not 0 < value <= MAX_PAUSE:   # NaN is neither
                raise UsageError(f"{name} must be seconds above 0 and at most "
                                 f"{MAX_PAUSE:,.0f}, got {value!r}")
        roots = self.watch_roots(targets)
        missing: dict = {}
        pause = interval
        while True:
            started = time.monotonic()
            changed = False
            for report in self._watch_reports(roots):
                if isinstance(report, LockedError):   # another writer: wait a pass
                    yield {"time": time.time(), "event": "waiting", "source": "",
                           "path": str(self.path), "reason": str(report)}
                    break
                changed = changed or bool(report.changes)
                now = time.time()
                was = missing.get(report.root)
                if report.missing:
                    if not was:
                        yield {"time": now, "event": "missing", "source": report.label,
                               "path": report.root, "since": report.missing_since,
                               "reason": report.missing_reason}
                    missing[report.root] = True
                    continue
                if was:
                    yield {"time": now, "event": "back", "source": report.label,
                           "path": report.root}
                missing[report.root] = False
                for kind, path in report.changes:
                    yield {"time": now, "event": kind, "source": report.label, "path": path}
                if report.graph:
                    yield dict(report.graph, time=now, event="graph", source=report.label)
            if not changed:   # what a re-check costs when there is nothing to read
                cost = time.monotonic() - started
                pause = min(max(interval, cost * WATCH_COST_FACTOR), max(interval, max_interval))
            if stop is not None:
                if stop.wait(pause):
                    return
            else:
                time.sleep(pause)

    # -- reading -------------------------------------------------------------
    def search(self, query: str, limit: int = 10, offset: int = 0, explain: bool = False,
               passages: bool = False, source: Union[None, str, Sequence[str]] = None,
               type: Union[None, str, Sequence[str]] = None, path: Optional[str] = None,
               after: Optional[float] = None, before: Optional[float] = None) -> "SearchResult":
        """Ranked results; `after`/`before` are POSIX timestamps on modification time."""
        from .query import Filters, canonical_type
        from .search import search
        query = _query_text(query, "search")
        path, source = self._rooted_glob(_glob_text(path), _tuple(source, "source"))
        filters = Filters(
            sources=_tuple(source), formats=tuple(canonical_type(f)
                                                  for f in _tuple(type, "type")),
            path_glob=path or None,
            after_ns=None if after is None else _ns(after),
            before_ns=None if before is None else _ns(before))
        return search(self.store, query, _page_bound(limit), _page_bound(offset, "offset"),
                      filters, explain=explain, passages=passages)

    def _rooted_glob(self, path: Optional[str], source: Union[None, str, Sequence[str]]):
        """A path filter written from the root (`/home/me/notes/*.md`, `~/notes/*`, a
        file:// URL), as results and `sources` show paths, is the glob below the source
        whose folder holds it (`*.md`, source `notes`), found as `fetch` finds a file
        (`docref.source_of_file`); a root named alone is all of it; any other glob is
        unchanged."""
        if not path or not (path.startswith(("/", "~")) or is_file_url(path)):
            return path, source
        text = path_from_url(path) if is_file_url(path) else os.path.expanduser(path)
        text = os.path.normpath(text)   # `//`, `.` and `..` as a shell path (`fetch`)
        with self.store.reading():
            try:
                held, below = source_of_file(self.store, text)
            except NotFound:   # the root itself, or no root at all
                try:
                    held, below = source_of_file(self.store, os.path.join(text, "*"))
                except NotFound:
                    return path, source
        wanted = _tuple(source)
        if wanted and held["label"] not in wanted:
            return path, source
        return below, (held["label"],)

    def resolve(self, doc: Union[int, str]) -> dict:
        """A document row from an id, a path, or a unique path fragment."""
        with self.store.reading():
            return self._resolve(doc)

    def _resolve(self, doc: Union[int, str]) -> dict:
        text = str(doc).strip()
        if is_file_url(text):
            text = path_from_url(text)
        number = as_row_id(text)
        if number is not None:
            row = self.store.document(number)
            if row:
                return row
        if not text:
            raise NotFound("name a document: an id, a path, or part of a path")
        if "\x00" in text:   # no path holds NUL, and SQLite's LIKE would stop at it
            raise NotFound(f"no indexed document matches {text!r}")
        candidates = self.store.find_documents(text) or self._as_path(text)
        exact = [c for c in candidates
                 if text in (c["path"], os.path.join(c["root"], c["path"]), c["title"])
                 or _abs(text) == os.path.join(c["root"], c["path"])]
        if len(exact) == 1:
            return exact[0]
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            raise NotFound(f"no indexed document matches {text!r}")
        listed = exact + [c for c in candidates if c not in exact]
        raise Ambiguous(f"{text!r} matches {len(candidates)} documents; give more of the path",
                        [doc_summary(c) for c in listed])

    def _as_path(self, text: str) -> List[dict]:
        """The documents a path that is not written as stored names: `./a.md`,
        `../notes/a.md` or `/root//a.md`, as the shell completes them. First the
        file it names from here (absolute, normalised; or, links resolved, the file
        of a source whose root is a link: `~/notes` stored, `/data/notes/a.md`
        written, or `./a.md` in a shell whose folder is the link's target), then
        the path without its `.`, `..` and doubled slashes as the end of a path
        (`./a.md` is no `data.md`)."""
        if "/" not in text and os.sep not in text:
            return []
        whole = _abs(text)
        found = [c for c in self.store.find_documents(whole)
                 if os.path.join(c["root"], c["path"]) == whole]
        if found:
            return found
        found = self._by_real_path(whole)
        if found:
            return found
        short = os.path.normpath(text)
        if short in (text, ".", "..") or short.startswith(".." + os.sep):
            return []
        tail = "/" + short.replace(os.sep, "/").lstrip("/")
        return [c for c in self.store.find_documents(short)
                if ("/" + os.path.join(c["root"], c["path"])).endswith(tail)]

    def _by_real_path(self, whole: str) -> List[dict]:
        """The document at `whole` in the source that holds it, links resolved where
        the path as written is in none (`docref.source_of_file`: a root stored as a
        link names it)."""
        try:
            source, rel = source_of_file(self.store, whole)
        except NotFound:
            return []
        return [c for c in self.store.find_documents(rel)
                if c["root"] == source["root"] and c["path"] == rel]

    def fetch(self, doc: Union[int, str]) -> FetchedDocument:
        from .reports import FetchedDocument
        from .passages import regroup
        with self.store.reading():
            row = self._resolve(doc)
            passages = self.store.passages_of(row["id"])
        sections = regroup(passages)
        return FetchedDocument(doc_summary(row), sections, _reassemble(sections),
                               list(row["warnings"]) + _changed_on_disk(row), row["indexed_at"],
                               row["size"], row["mtime_ns"])

    def suggest(self, text: str, limit: int = 10) -> List["Completion"]:
        """Completions of `text` as typed so far: titles, then headings, then indexed words."""
        from .suggest import suggest
        return suggest(self.store, _query_text(text, "suggest"), _page_bound(limit))

    def read(self, doc: Union[int, str, None] = None, *, section=None, page=None, lines=None,
             offset: int = 0, max_chars: Optional[int] = None, around: Optional[int] = None,
             context: int = 2) -> "Part":
        """Part of a document: a `section` (heading path), a `page`, `lines` ("120-158"),
        `offset`/`max_chars` characters, or the passages `around` a passage id (`context`
        either side; `doc` may then be left out). The part says where it is and what
        arguments read on (`Part.next`)."""
        from .reading import layout, read
        with self.store.reading():
            if doc is None:
                if around is None:
                    raise NotFound("name a document: an id, a path, or part of a path")
                number = as_row_id(around)
                found = None if number is None else self.store.passages([number]).get(number)
                if found is None:
                    raise NotFound(f"no indexed passage has id {around} (a document "
                                   "re-indexed since the search has new passage ids: "
                                   "search again)")
                doc = found["document_id"]
            row = self._resolve(doc)
            passages = self.store.passages_of(row["id"])
        part = read(doc_summary(row), layout(passages), section=section, page=page,
                    lines=lines, offset=offset, max_chars=max_chars, around=around,
                    context=context)
        part.warnings = list(row["warnings"]) + _changed_on_disk(row) + part.warnings
        return part

    def outline(self, doc: Union[int, str]) -> "Outline":
        """A document's headings with their character offsets, lines or pages and sizes."""
        from .reading import layout, outline
        with self.store.reading():
            row = self._resolve(doc)
            passages = self.store.passages_of(row["id"])
        return outline(doc_summary(row), layout(passages))

    def sources(self) -> List[dict]:
        with self.store.reading():
            formats = self.store.format_counts()
            return [dict(_public_source(s, self.store.document_paths(s["id"])),
                         formats=formats.get(s["id"], {}))
                    for s in self.store.sources()]

    def status(self) -> Status:
        from .reports import Status
        from .graph import graph_status
        with self.store.reading():
            counts = self.store.counts()
            return Status(str(self.store.path), self.store.kind, self.store.schema_version(),
                          counts["documents"], counts["passages"], self.sources(),
                          self.store.db_bytes(), self.store.last_indexed(),
                          graph_status(self.store), reclaimable_bytes=self.store.free_bytes(),
                          redactions=counts["redactions"], read_only=not self.store.writable)

    def verify(self, repair: bool = False) -> VerifyReport:
        """Integrity checks; with `repair`, rebuild what is derived from the passages."""
        from .reports import VerifyReport
        from .phrases import document_phrases
        from .store import maintenance
        with self._writer(writes=repair):   # an index mid-batch is waited for, not damage
            found = maintenance.problems(self.store)
            report = VerifyReport(not any(found.values()), found,
                                  read_only=not self.store.writable,
                                  skipped=maintenance.skipped_checks(self.store))
            if repair:
                report.repaired = maintenance.repair(self.store, document_phrases)
                report.problems_after = maintenance.problems(self.store)
                report.ok = not any(report.problems_after.values())
        return report

    def export(self, dest: PathLike) -> ExportReport:
        """A consistent single-file copy, safe while another process writes."""
        from .reports import ExportReport
        from .store import maintenance
        size = maintenance.export(self.store, Path(named_path(dest, "the export file")))
        return ExportReport(str(Path(dest).expanduser().absolute()), size)

    def evaluate(self, golden: PathLike, root: PathLike, limit: int = 10) -> EvaluationReport:
        """Run a golden set's questions; metrics overall and per category."""
        from .reports import EvaluationReport
        from .evaluation import load_golden, score_cases, summarize
        cases = load_golden(named_path(golden, "the golden file"))
        base = _abs(named_path(root, "--root", folder=True))
        roots = {s["label"]: s["root"] for s in self.store.sources()}
        ranked = {}
        for case in cases:
            ranked[case.id] = [
                os.path.relpath(os.path.join(roots[h.document["source"]], h.document["path"]),
                                base).replace(os.sep, "/")
                for h in self.search(case.query, limit=limit).results]
        per_case = score_cases(cases, ranked)
        return EvaluationReport(str(golden), base, self.store.kind, summarize(per_case), per_case)

    # -- graph ---------------------------------------------------------------
    def link(self, top_k: int = 10, min_score: float = 0.0,
             progress: Optional["Progress"] = None) -> "LinkReport":
        from .graph import link
        with self._writer():
            return link(self.store, top_k=top_k, min_score=min_score, progress=progress)

    def related(self, doc: Union[int, str], limit: int = 10,
                source: Union[None, str, Sequence[str]] = None,
                type: Union[None, str, Sequence[str]] = None,
                path: Optional[str] = None) -> "Related":
        """A document's neighbours; `source`, `type` and `path` keep those that pass, as
        they filter a search (a format's aliases and extensions, a glob on the path)."""
        from .config import SUPPORTED
        from .graph import related
        from .query import Filters, canonical_type
        from .search import filter_notices   # the words a search uses
        path, source = self._rooted_glob(_glob_text(path), _tuple(source, "source"))
        filters = Filters(sources=_tuple(source), path_glob=path or None,
                          formats=tuple(dict.fromkeys(canonical_type(f, SUPPORTED)
                                                      for f in _tuple(type, "type"))))
        row = self.resolve(doc)
        result = related(self.store, row["id"], limit=_page_bound(limit), filters=filters)
        if filters.any and not result.neighbours:
            with self.store.reading():
                result.notices = filter_notices(self.store, filters)
        return result


def _page_bound(value: object, name: str = "limit") -> int:
    """A limit or offset held between 0 and more results than any index holds, so the
    SQL built from it stays within SQLite's integers (--offset 10**20 finds nothing;
    an infinite one too). What is no whole number (None, NaN, "ten", a list) is a
    UsageError naming the argument."""
    if isinstance(value, float) and value in (math.inf, -math.inf):
        return PAGE_MAX if value > 0 else 0
    try:
        number = int(value)   # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise UsageError(f"{name} takes a whole number, got {value!r}") from None
    return max(0, min(PAGE_MAX, number))


def _ns(stamp: float) -> int:
    """Seconds as nanoseconds, held to SQLite's integer range (years past 2262 clamp,
    and so does an infinite time); NaN, or anything not a number, is a UsageError."""
    if isinstance(stamp, bool) or not isinstance(stamp, (int, float)) or stamp != stamp:
        raise UsageError(f"after and before take seconds since 1970 (a number), "
                         f"got {stamp!r}")
    if abs(stamp) > 1e11:   # past year 5000 either way: beyond the range already
        return (1 << 63) - 1 if stamp > 0 else -(1 << 63)
    return max(-(1 << 63), min((1 << 63) - 1, int(stamp * 1e9)))


def _query_text(value: object, what: str) -> str:
    """What was typed, as text: None searched for the word *none*, and bytes for the
    word *b* before their repr's words."""
    if not isinstance(value, str):
        raise UsageError(f"{what} takes the query as text (a str), got {type(value).__name__}")
    return value


def _globs(value: Union[None, str, Sequence[str]], name: str) -> Optional[List[str]]:
    """Include or exclude patterns: one glob as a string is that glob (a string is a
    sequence of one-letter globs, and `*` among them took, or left out, every file)."""
    if value is None:
        return None
    globs = [value] if isinstance(value, str) else list(value)
    if not all(isinstance(g, str) for g in globs):
        raise UsageError(f"{name} takes glob patterns (strings), got {value!r}")
    return globs


def _tuple(value: Union[None, str, Sequence[str]], name: str = "a filter") -> tuple:
    """A filter's values: one string, or several. Anything else is refused by name
    (`source=["notes", None]` raised AttributeError, `type=5` TypeError)."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    try:
        values = (value,) if isinstance(value, (bytes, bytearray)) else tuple(value)
    except TypeError:   # not a sequence at all (5)
        values = (value,)
    if not all(isinstance(v, str) for v in values):
        raise UsageError(f"{name} takes a name or a list of names (strings), got {value!r}")
    return values


def _glob_text(path: Optional[str]) -> Optional[str]:
    if path is not None and not isinstance(path, str):
        raise UsageError(f"path takes one glob pattern (a string), got {path!r}")
    return path


def _within(path: str, folder: str) -> bool:
    """Is `path` below `folder` (never the folder itself)?"""
    return path.startswith(folder.rstrip(os.sep) + os.sep)


def _abs(text: str) -> str:
    return os.path.abspath(os.path.expanduser(text))


def _public_source(s: dict, paths=None) -> dict:
    from .indexer import root_missing
    missing = root_missing(s["root"], s["documents"], paths)
    return {"label": s["label"], "root": s["root"], "includes": s["includes"],
            "excludes": s["excludes"], "max_bytes": s["max_bytes"],
            "documents": s["documents"], "passages": s["passages"], "bytes": s["bytes"],
            "last_indexed": s["last_indexed"],
            "last_skipped": (s["last_report"] or {}).get("skipped", []),
            "available": not missing,
            "missing_since": (s["missing_since"] or None) if missing else None,
            "redact": s["redact"], "redactions": s["redactions"]}


def _changed_on_disk(row) -> List[str]:
    """A warning when the file's size or modification time is no longer the indexed
    one: what is read is the text as it was indexed, and may no longer be the file's."""
    from .docref import file_path
    from .indexer import real_mtime
    try:
        st = os.stat(file_path(row["root"], row["path"]))
    except (OSError, ValueError):
        return []   # not on disk: `available` says so
    if st.st_size == row["size"] and real_mtime(st.st_mtime_ns) == real_mtime(row["mtime_ns"]):
        return []
    return ["the file has changed since it was indexed: this is the text as indexed; "
            "`glean-personal index` reads it again"]


def _reassemble(sections: List[dict]) -> str:
    """The sections as readable text, each under a Markdown-style heading line."""
    from .passages import section_markdown
    from .document import SECTION_SEPARATOR
    return SECTION_SEPARATOR.join(section_markdown(s) for s in sections)

