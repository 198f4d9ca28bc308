"""Bring one source up to date: walk, compare, read what changed, write in batches.

Unchanged size and mtime: not read. Changed: hashed; the same bytes only move
the stored mtime ("touched"); new bytes are re-extracted and the document's
rows replaced inside one transaction. Transactions hold many documents (for
speed) but never part of one, so a kill leaves each document old or new.

"Racily clean" files (git's term): a file modified within the last couple of
seconds could be written again within the same mtime tick, keeping its size
and mtime while its bytes change. Such a file is stored with the lowest bit of
its mtime flipped, so the next run hashes it once more (and counts it as
unchanged if the bytes agree) instead of trusting size and mtime.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import time
from dataclasses import dataclass, field
from typing import AbstractSet, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from .config import Limits, PassageSizes, Progress
from .docref import disk_path, source_of_file
from .errors import NotFound, SkipFile, UsageError
from .formats import READERS_REVISION
from .store.core import Store
from .walk import Skipped, storable, walk, walk_one

BATCH_DOCUMENTS = 400
BATCH_SECONDS = 2.0
BATCH_CHARS = 8_000_000     # extracted text written before a commit
RACY_NS = 2_000_000_000     # mtime ticks are up to 2 s coarse (FAT, some network file systems)

"""(files read, files to read: None while the walk goes on)."""


@dataclass
class IndexReport:
    """What one `index` run did (docs/reference.md, `index --json`)."""

    root: str
    label: str
    added: int = 0
    updated: int = 0
    touched: int = 0
    unchanged: int = 0
    removed: int = 0
    moved: int = 0                          # renamed or moved inside the source, same bytes
    skipped: List[Dict[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    text_chars: int = 0
    redacted: int = 0                       # credential-like strings replaced by markers
    missing_since: Optional[float] = None   # set when the root was not there: nothing removed
    missing_reason: Optional[str] = None    # why it counts as not there
    moved_from: Optional[str] = None        # the old root, when this run re-pointed the source
    changes: List[Tuple[str, str]] = field(default_factory=list)  # (added|updated|removed, path)
    graph: Optional[dict] = None            # what the graph update did, if it ran
    new_source: bool = False                # this run added the source
    # Other sources whose folder holds this one's, or lies inside it: their shared
    # files are indexed under both (set by the run that adds the source).
    overlaps: List[Dict[str, str]] = field(default_factory=list)

    def to_dict(self) -> dict:
        out = {"source": {"root": self.root, "label": self.label}, "added": self.added,
               "updated": self.updated, "touched": self.touched, "unchanged": self.unchanged,
               "removed": self.removed, "skipped": list(self.skipped),
               "seconds": round(self.seconds, 3), "text_chars": self.text_chars,
               "redacted": self.redacted}
        if self.moved:
            out["moved"] = self.moved
        if self.missing_since is not None:
            out["missing"] = True
            out["missing_since"] = self.missing_since
            if self.missing_reason:
                out["missing_reason"] = self.missing_reason
        if self.moved_from is not None:
            out["moved_from"] = self.moved_from
        if self.graph is not None:
            out["graph"] = self.graph
        if self.overlaps:
            out["overlaps"] = list(self.overlaps)
        if not self.new_source:   # a refresh lists what it changed; a new source only counts
            out["changes"] = [{"change": kind, "path": path} for kind, path in self.changes]
        return out

    @property
    def missing(self) -> bool:
        return self.missing_since is not None

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed or self.moved)


def resolve_root(folder: str) -> str:
    root = os.path.abspath(os.path.expanduser(str(folder)))
    if not os.path.exists(root):
        raise NotFound(f"no such file or folder: {root}")
    if not os.path.isdir(root):
        raise UsageError(f"not a folder: {root} (index takes a folder; use `extract` for one file)")
    return root


def source_root(folder: str) -> Tuple[str, str]:
    """(path to open, root as stored) of a folder as the user named it, or as the
    index stored it (a name that is not UTF-8 is stored escaped: `disk_path`)."""
    fs_root = disk_path(os.path.abspath(os.path.expanduser(str(folder))))
    return fs_root, storable(fs_root)


# A source of at least this many documents none of whose files is found under its
# root any more is taken as missing, not emptied: an unmounted drive can leave
# something at its mount point (`.DS_Store`, `lost+found/`, a stray file). Fewer
# documents than that could all have been deleted or renamed on purpose.
MISSING_AT_LEAST = 3


def missing_reason(fs_root: str, documents: int,
                   paths: Optional[Iterable[str]] = None) -> Optional[str]:
    """Why a source's root counts as not here, or None when it is here: gone, not a
    folder, an empty folder where a source with documents was (an unplugged drive
    leaves its empty mount point), or, given the source's stored `paths`, a folder
    where none of its files (`MISSING_AT_LEAST` or more) is found any more.
    `fs_root` may be the root as stored."""
    fs_root = disk_path(fs_root)
    if not os.path.lexists(fs_root):
        return "its folder is not there"
    if not os.path.isdir(fs_root):
        return "its folder is not a folder now"
    if not documents:
        return None
    try:
        with os.scandir(fs_root) as it:
            if next(it, None) is None:
                return "its folder is empty, as an unplugged drive leaves its mount point"
    except OSError:
        return "its folder cannot be opened"
    if paths is not None and documents >= MISSING_AT_LEAST and not any(
            os.path.lexists(disk_path(os.path.join(fs_root, *p.split("/")))) for p in paths) \
            and not _holds_files(fs_root, (documents + 1) // 2):
        return (f"none of its {documents:,} indexed files is in its folder any more, and it "
                "holds few others, as when an unplugged drive leaves a few files at its "
                "mount point")
    return None


def _holds_files(fs_root: str, least: int) -> bool:
    """Does the folder hold at least `least` files the walk would offer? A source whose
    files were moved into subfolders, or replaced by as many new ones, does: it is
    there, reorganised, not an unplugged drive's mount point."""
    found = 0
    for entry in walk(fs_root):
        if not isinstance(entry, Skipped):
            found += 1
            if found >= least:
                return True
    return False


def root_missing(fs_root: str, documents: int, paths: Optional[Iterable[str]] = None) -> bool:
    """Is a source's root not here? (`missing_reason`)"""
    return missing_reason(fs_root, documents, paths) is not None


def index_source(store: Store, folder: str, label: Optional[str], includes: Optional[Sequence[str]],
                 excludes: Optional[Sequence[str]], max_bytes: Optional[int], limits: Limits,
                 sizes: PassageSizes, progress: Optional[Progress] = None,
                 redact: Optional[bool] = None) -> IndexReport:
    """Add or refresh one source; filters left as None repeat the stored ones.

    A known source whose root is missing is left as it is (see `missing_reason`):
    the report says since when and why, and nothing is removed. The same holds
    when the root goes away during the run: what was read is kept, nothing is
    removed. A file that is there but cannot be read keeps its indexed version.
    """
    started = time.monotonic()
    fs_root, root = source_root(folder)
    stored = store.source_settings(root)
    states = store.document_states(stored["id"]) if stored else {}
    if stored:
        why = missing_reason(fs_root, len(states), states)
        if why:
            return mark_missing(store, stored, root, why)
    fs_root = resolve_root(fs_root)
    if label:
        label = storable(label)
    if label and store.label_taken(label, root):
        raise UsageError(f"the label {label!r} already names another folder; choose another")
    label = label or (stored["label"] if stored else _free_label(store, root))
    if includes is None:
        includes = stored["includes"] if stored else []
    if excludes is None:
        excludes = stored["excludes"] if stored else []
    if max_bytes is None:
        max_bytes = stored["max_bytes"] if stored else limits.max_bytes
    if redact is None:
        redact = stored["redact"] if stored else True
    revision = str(READERS_REVISION)
    settings = (label, list(includes), list(excludes), max_bytes, bool(redact))
    if stored and settings == (stored["label"], stored["includes"], stored["excludes"],
                               stored["max_bytes"], stored["redact"]) \
            and not stored["missing_since"]:
        source_id = stored["id"]
    else:
        with store.transaction():
            source_id = store.save_source(root, *settings)
            store.set_missing(source_id, None)
            if stored is None:   # nothing stored yet: what this run writes, these readers read
                store.set_readers_revision(source_id, revision)
    fresh = _reread_pending(store, source_id, stored, revision, bool(redact))
    reread = fresh is not None
    report = IndexReport(root, label, new_source=stored is None)
    seen: set = set()
    with _Writer(store, source_id, states, report, seen) as writer:
        tasks = _changed_files(store, source_id, fs_root, includes, excludes, max_bytes, states,
                               seen, report, tick=writer.commit_if_due, redact=bool(redact),
                               reread=reread, fresh=fresh or set(), moved=writer.move)
        _read_and_write(tasks, writer, limits, sizes, max_bytes, progress)

    gone = sorted(p for p in states if p not in seen)
    if gone:
        # A root that went away during the run (an unplugged drive) leaves its files
        # unseen, or failing with "no such file": none of them is removed.
        why = missing_reason(fs_root, len(states), states)
        if why:
            report.skipped.sort(key=lambda s: s["path"])
            with store.transaction():
                store.set_missing(source_id, time.time())
            report.missing_since = store.source_settings(root)["missing_since"]
            report.missing_reason = why
            return report
        with store.transaction():
            store.remove_documents([states[p][0] for p in gone])
            store.bump_generation()
        report.removed += len(gone)
        report.changes.extend(("removed", p) for p in gone)
    report.skipped.sort(key=lambda s: s["path"])
    report.changes.sort(key=lambda c: c[1])
    report.seconds = time.monotonic() - started
    with store.transaction():
        store.record_run(source_id, report.to_dict())
        store.set_readers_revision(source_id, revision)
        store.set_reread(source_id, None)
    return report


def _reread_pending(store: Store, source_id: int, stored: Optional[dict], revision: str,
                    redact: bool) -> Optional[set]:
    """None when the source's files need no reading beyond their changes; else the
    paths already read again by the re-read under way (the readers changed, or
    redaction was switched, since the source was last read whole).

    The re-read is recorded before it begins, so a run stopped midway (killed, the
    disk full) is picked up where it stopped: the documents it stored are not read
    a third time, and a redaction switch is finished even though the source's
    setting already says it."""
    pending = store.reread(source_id)
    if pending and pending.get("readers") == revision and pending.get("redact") == redact:
        return store.paths_indexed_since(source_id, float(pending.get("since", 0)))
    # (a re-read for other readers or another redaction was under way: all again)
    if pending is None and (stored is None or (stored["redact"] == redact and
                                               store.readers_revision(source_id) == revision)):
        return None
    with store.transaction():
        store.set_reread(source_id, {"readers": revision, "redact": redact, "since": time.time()})
    return set()


def mark_missing(store: Store, stored: dict, root: str, why: Optional[str] = None) -> IndexReport:
    """Record that a source's root is not here, and change nothing else."""
    with store.transaction():
        store.set_missing(stored["id"], time.time())
    since = store.source_settings(root)["missing_since"]
    return IndexReport(root, stored["label"], missing_since=since, missing_reason=why)


def index_file(store: Store, path: str, limits: Limits, sizes: PassageSizes) -> IndexReport:
    """Index (or drop) one file in the source that holds it, by that source's filters."""
    started = time.monotonic()
    source, rel = source_of_file(store, path)
    report = IndexReport(source["root"], source["label"])
    states = store.document_states(source["id"])
    state = states.get(rel)
    fs_path = os.path.join(source["root"], *rel.split("/"))
    if not os.path.lexists(fs_path):
        if not state:
            raise NotFound(f"no such file: {fs_path}")
        _remove_one(store, report, state[0], rel)
    else:
        entry = walk_one(source["root"], rel, source["includes"], source["excludes"],
                         source["max_bytes"])
        if isinstance(entry, Skipped):
            reason = storable(entry.reason)
            if state and entry.unreadable:
                reason += KEPT
            elif state:
                _remove_one(store, report, state[0], rel)
            report.skipped.append({"path": entry.path, "reason": reason})
        elif state and state[1] == entry.size and state[2] == entry.mtime_ns:
            report.unchanged = 1
        else:
            old_sha = store.document_hashes(source["id"]).get(state[0]) if state else None
            task = (entry.path, entry.fs_path, old_sha,
                    _stored_mtime(entry.mtime_ns, time.time_ns() - RACY_NS), source["redact"])
            with _Writer(store, source["id"], states, report) as writer:
                _read_and_write(iter([task]), writer, limits, sizes, source["max_bytes"], None)
    report.seconds = time.monotonic() - started
    return report


def _changed_files(store: Store, source_id: int, fs_root: str, includes: Sequence[str],
                   excludes: Sequence[str], max_bytes: int, states: dict, seen: set,
                   report: IndexReport, tick: Callable[[], None],
                   redact: bool = True, reread: bool = False,
                   fresh: AbstractSet[str] = frozenset(),
                   moved: Optional[Callable[[str, str, int], None]] = None) -> Iterator[tuple]:
    """Walk the folder and yield a task (workers.Task fields) per new or changed file.

    Lazily: the workers read the first changed files while the walk goes on.
    Fills `seen` with every path found and counts unchanged files and skips; a
    file or folder that is there but cannot be read puts the documents it holds
    in `seen` too, so that they are kept. With `reread`, every file is read
    except those in `fresh` (read again already by this re-read).
    `tick` is called at every entry, so that a long stretch of unchanged files
    or a slow disk holds a batch uncommitted no longer than one walk step.

    A new path whose bytes (size and sha256) are those of a stored document
    whose file is gone is that file renamed or moved: `moved(old, new, mtime)`
    re-points the document (its id, passages and links kept), and it is read
    again only if its name changed (a reader may title it by its name).
    """
    hashes: Optional[Dict[int, str]] = None   # stored hashes, read at the first changed file
    by_size: Optional[Dict[int, List[str]]] = None   # stored paths by size, at the first new file
    racy_after = time.time_ns() - RACY_NS
    for entry in walk(fs_root, includes, excludes, max_bytes):
        tick()
        if isinstance(entry, Skipped):
            reason = storable(entry.reason)
            if entry.unreadable:
                kept = _kept_under(entry.path, states)
                seen.update(kept)
                if kept and entry.path in states:
                    reason += KEPT
                elif kept:
                    reason += f"; the indexed versions of its {len(kept):,} files are kept"
            report.skipped.append({"path": entry.path, "reason": reason})
            continue
        if entry.path in seen:
            continue
        seen.add(entry.path)
        state = states.get(entry.path)
        if state and state[1] == entry.size and state[2] == entry.mtime_ns \
                and (not reread or entry.path in fresh):
            report.unchanged += 1
            continue
        if state is None and moved is not None and states:
            if by_size is None:
                by_size = {}
                for p, st in states.items():
                    by_size.setdefault(st[1], []).append(p)
            if hashes is None and by_size.get(entry.size):
                hashes = store.document_hashes(source_id)
            old = _moved_from(fs_root, entry, by_size.get(entry.size, ()), states, hashes or {},
                              seen)
            if old is not None:
                seen.add(old)
                mtime = _stored_mtime(entry.mtime_ns, racy_after)
                moved(old, entry.path, mtime)
                if old.rsplit("/", 1)[-1] == entry.path.rsplit("/", 1)[-1] and not reread:
                    continue
                yield (entry.path, entry.fs_path, None, mtime, redact)
                continue
        old_sha = None
        # the stored hash tells "touched" from "edited"
        if state and (not reread or entry.path in fresh):
            if hashes is None:
                hashes = store.document_hashes(source_id)
            old_sha = hashes.get(state[0])
        yield (entry.path, entry.fs_path, old_sha, _stored_mtime(entry.mtime_ns, racy_after),
               redact)


def _moved_from(fs_root: str, entry, paths: Sequence[str], states: dict, hashes: Dict[int, str],
                seen: set) -> Optional[str]:
    """The stored path `entry` (a new path) was moved from: a document of the same size
    and sha256 whose file is gone (None: none is)."""
    sha = None
    for old in paths:
        if old in seen or os.path.lexists(disk_path(os.path.join(fs_root, *old.split("/")))):
            continue
        if sha is None:
            try:
                sha = _sha256(entry.fs_path)
            except OSError:
                return None
        if hashes.get(states[old][0]) == sha:
            return old
    return None


def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _read_and_write(tasks: Iterator[tuple], out: "_Writer", limits: Limits, sizes: PassageSizes,
                    max_bytes: int, progress: Optional[Progress]) -> None:
    first = next(tasks, None)
    if first is None:
        return   # nothing to read: the worker machinery is never loaded
    from .workers import Pool, Task
    found, walked = 1, False

    def all_tasks() -> Iterator[Task]:
        nonlocal found, walked
        yield Task(*first)
        for t in tasks:
            found += 1
            yield Task(*t)
        walked = True

    done = 0
    with Pool(limits, sizes, max_bytes) as pool:
        for task, outcome in pool.run(all_tasks()):
            out.add(task, outcome)
            done += 1
            if progress and (done < found or not walked):
                progress(done, found if walked else None)
    if progress:
        progress(done, done)


class _Writer:
    """Writes outcomes as they arrive, in transactions of many documents.

    A document is whole inside one transaction, so a kill leaves it old or new.
    Writing each outcome as it comes, rather than a batch at once, keeps the
    workers fed: they wait for this process only while it commits.
    """

    def __init__(self, store: Store, source_id: int, states: dict, report: IndexReport,
                 seen: Optional[set] = None) -> None:
        self.store, self.source_id, self.states, self.report = store, source_id, states, report
        self.seen = seen   # a whole source's run: a file gone is removed at its end
        self.moved: set = set()   # new paths of moved documents, read again for their new name
        self.tx: Optional[contextlib.ExitStack] = None   # the open transaction
        self.docs = self.chars = 0
        self.changed = False
        self.began = 0.0

    def __enter__(self) -> "_Writer":
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is None:
            self.commit()
        elif self.tx is not None:
            self.tx.__exit__(*exc)   # rolled back
            self.tx = None

    def add(self, task, outcome) -> None:
        self._begin()
        self._write(task, outcome)
        self.docs += 1
        self.chars += getattr(outcome, "chars", 0)
        if self.docs >= BATCH_DOCUMENTS or self.chars >= BATCH_CHARS:
            self.commit()
        else:
            self.commit_if_due()

    def move(self, old: str, new: str, mtime_ns: int) -> None:
        """Re-point the document of `old` at `new` (same bytes): id, passages, links kept."""
        self._begin()
        doc_id, size, _ = self.states[old]
        self.store.move_document(doc_id, new, mtime_ns)
        self.states[new] = (doc_id, size, mtime_ns)
        self.moved.add(new)
        self.report.moved += 1
        self.report.changes.append(("moved", new))
        self.changed = True
        self.docs += 1
        self.commit_if_due()

    def _begin(self) -> None:
        if self.tx is None:
            self.tx = contextlib.ExitStack()
            self.tx.enter_context(self.store.transaction())
            self.began = time.monotonic()

    def commit_if_due(self) -> None:
        """Commit a batch that has been open for long enough (between documents only)."""
        if self.tx is not None and time.monotonic() - self.began > BATCH_SECONDS:
            self.commit()

    def commit(self) -> None:
        if self.tx is None:
            return
        if self.changed:
            self.store.bump_generation()
        tx, self.tx = self.tx, None
        tx.close()
        self.docs = self.chars = 0
        self.changed = False

    def _write(self, task, outcome) -> None:
        store, report = self.store, self.report
        state = self.states.get(task.path)
        if isinstance(outcome, SkipFile):
            reason = storable(outcome.reason)
            if state and os.path.lexists(task.fs_path):
                reason += KEPT   # there but cannot be read now (half saved, locked): kept
            elif state and self.seen is not None:
                self.seen.discard(task.path)   # gone since the walk: removed at the end,
            elif state:                        # unless the whole root went with it
                store.remove_documents([state[0]])
                report.removed += 1
                report.changes.append(("removed", task.path))
                self.changed = True
            report.skipped.append({"path": task.path, "reason": reason})
            return
        mtime_ns = task.mtime_ns
        if outcome.same_bytes and state:
            store.touch_document(state[0], outcome.size, mtime_ns)
            if state[1] == outcome.size and real_mtime(state[2]) == real_mtime(mtime_ns):
                report.unchanged += 1   # a racily-clean file, checked again: the same
            else:
                report.touched += 1
            return
        store.put_document(self.source_id, task.path, outcome.title, outcome.format, outcome.size,
                           mtime_ns, outcome.sha256, outcome.warnings, outcome.passages,
                           outcome.phrases, outcome.redactions, outcome.language)
        report.text_chars += outcome.chars
        report.redacted += outcome.redactions
        self.changed = True
        if task.path in self.moved:
            return   # counted as moved
        if state:
            report.updated += 1
        else:
            report.added += 1
        report.changes.append(("updated" if state else "added", task.path))


KEPT = "; the indexed version is kept"


def _kept_under(path: str, states: dict) -> List[str]:
    """The stored documents at `path` or below it ('.': the root)."""
    if path == ".":
        return list(states)
    below = path + "/"
    return [p for p in states if p == path or p.startswith(below)]


def _stored_mtime(mtime_ns: int, racy_after: int) -> int:
    """The mtime to store: flipped in its lowest bit while it is too recent to trust."""
    return mtime_ns ^ 1 if mtime_ns >= racy_after else mtime_ns


def real_mtime(stored: int) -> int:
    """A stored mtime as the file's, its lowest bit (`_stored_mtime`'s mark) cleared."""
    return stored & ~1


def _free_label(store: Store, root: str) -> str:
    base = os.path.basename(root.rstrip(os.sep)) or "root"
    label, n = base, 2
    while store.label_taken(label, root):
        label, n = f"{base}-{n}", n + 1
    return label


def _remove_one(store: Store, report: IndexReport, doc_id: int, rel: str) -> None:
    """A single file gone or now excluded: its document leaves the index."""
    with store.transaction():
        store.remove_documents([doc_id])
        store.bump_generation()
    report.removed = 1
    report.changes.append(("removed", rel))
