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
import os
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, List, Optional, Sequence

from .config import Limits, PassageSizes, Progress
from .errors import NotFound, SkipFile, UsageError
from .store.core import Store
from .walk import Skipped, storable, walk

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
    skipped: List[Dict[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    text_chars: int = 0

    def to_dict(self) -> dict:
        return {"source": {"root": self.root, "label": self.label}, "added": self.added,
                "updated": self.updated, "touched": self.touched, "unchanged": self.unchanged,
                "removed": self.removed, "skipped": list(self.skipped),
                "seconds": round(self.seconds, 3), "text_chars": self.text_chars}

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed)


def resolve_root(folder: str) -> str:
    root = os.path.abspath(os.path.expanduser(str(folder)))
    if not os.path.exists(root):
        raise NotFound(f"no such folder: {root}")
    if not os.path.isdir(root):
        raise UsageError(f"not a folder: {root} (index takes a folder; use `extract` for one file)")
    return root


def index_source(store: Store, folder: str, label: Optional[str], includes: Optional[Sequence[str]],
                 excludes: Optional[Sequence[str]], max_bytes: Optional[int], limits: Limits,
                 sizes: PassageSizes, progress: Optional[Progress] = None) -> IndexReport:
    """Add or refresh one source; filters left as None repeat the stored ones."""
    started = time.monotonic()
    fs_root = resolve_root(folder)
    root = storable(fs_root)   # what is stored; undecodable bytes escaped
    stored = store.source_settings(root)
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
    settings = (label, list(includes), list(excludes), max_bytes)
    if stored and settings == (stored["label"], stored["includes"], stored["excludes"],
                               stored["max_bytes"]):
        source_id = stored["id"]
    else:
        with store.transaction():
            source_id = store.save_source(root, *settings)
    report = IndexReport(root, label)
    states = store.document_states(source_id)
    seen: set = set()
    with _Writer(store, source_id, states, report) as writer:
        tasks = _changed_files(store, source_id, fs_root, includes, excludes, max_bytes, states,
                               seen, report, tick=writer.commit_if_due)
        _read_and_write(tasks, writer, limits, sizes, max_bytes, progress)

    gone = [states[p][0] for p in states if p not in seen]
    if gone:
        with store.transaction():
            store.remove_documents(gone)
            store.bump_generation()
        report.removed += len(gone)
    report.skipped.sort(key=lambda s: s["path"])
    report.seconds = time.monotonic() - started
    with store.transaction():
        store.record_run(source_id, report.to_dict())
    return report


def _changed_files(store: Store, source_id: int, fs_root: str, includes: Sequence[str],
                   excludes: Sequence[str], max_bytes: int, states: dict, seen: set,
                   report: IndexReport, tick: Callable[[], None]) -> Iterator[tuple]:
    """Walk the folder and yield a task (workers.Task fields) per new or changed file.

    Lazily: the workers read the first changed files while the walk goes on.
    Fills `seen` with every path found and counts unchanged files and skips.
    `tick` is called at every entry, so that a long stretch of unchanged files
    or a slow disk holds a batch uncommitted no longer than one walk step.
    """
    hashes: Optional[Dict[int, str]] = None   # stored hashes, read at the first changed file
    racy_after = time.time_ns() - RACY_NS
    for entry in walk(fs_root, includes, excludes, max_bytes):
        tick()
        if isinstance(entry, Skipped):
            report.skipped.append({"path": entry.path, "reason": storable(entry.reason)})
            continue
        if entry.path in seen:
            continue
        seen.add(entry.path)
        state = states.get(entry.path)
        if state and state[1] == entry.size and state[2] == entry.mtime_ns:
            report.unchanged += 1
            continue
        old_sha = None
        if state:   # the stored hash tells "touched" from "edited"
            if hashes is None:
                hashes = store.document_hashes(source_id)
            old_sha = hashes.get(state[0])
        yield entry.path, entry.fs_path, old_sha, _stored_mtime(entry.mtime_ns, racy_after)


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

    def __init__(self, store: Store, source_id: int, states: dict, report: IndexReport) -> None:
        self.store, self.source_id, self.states, self.report = store, source_id, states, report
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
        if self.tx is None:
            self.tx = contextlib.ExitStack()
            self.tx.enter_context(self.store.transaction())
            self.began = time.monotonic()
        self._write(task, outcome)
        self.docs += 1
        self.chars += getattr(outcome, "chars", 0)
        if self.docs >= BATCH_DOCUMENTS or self.chars >= BATCH_CHARS:
            self.commit()
        else:
            self.commit_if_due()

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
            report.skipped.append({"path": task.path, "reason": storable(outcome.reason)})
            if state:  # the file is still there but can no longer be read
                store.remove_documents([state[0]])
                report.removed += 1
                self.changed = True
            return
        mtime_ns = task.mtime_ns
        if outcome.same_bytes and state:
            store.touch_document(state[0], outcome.size, mtime_ns)
            if state[1] == outcome.size and _real_mtime(state[2]) == _real_mtime(mtime_ns):
                report.unchanged += 1   # a racily-clean file, checked again: the same
            else:
                report.touched += 1
            return
        store.put_document(self.source_id, task.path, outcome.title, outcome.format, outcome.size,
                           mtime_ns, outcome.sha256, outcome.warnings, outcome.passages,
                           outcome.phrases)
        report.text_chars += outcome.chars
        self.changed = True
        if state:
            report.updated += 1
        else:
            report.added += 1


def _stored_mtime(mtime_ns: int, racy_after: int) -> int:
    """The mtime to store: flipped in its lowest bit while it is too recent to trust."""
    return mtime_ns ^ 1 if mtime_ns >= racy_after else mtime_ns


def _real_mtime(stored: int) -> int:
    return stored & ~1


def _free_label(store: Store, root: str) -> str:
    base = os.path.basename(root.rstrip(os.sep)) or "root"
    label, n = base, 2
    while store.label_taken(label, root):
        label, n = f"{base}-{n}", n + 1
    return label
