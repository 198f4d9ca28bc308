"""Moving a source: check that a folder holds a source's files, then re-point it.

Documents are stored relative to their source's root, so a move changes one
row: the root. Before it does, a sample of the source's documents (spread
evenly over its paths) is looked up under the new root and compared by size,
then by SHA-256, so a mistyped folder is refused instead of emptying the
source at the next `index`.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import List

from .docref import disk_path
from .store.core import Store

SAMPLE_FILES = 32
HASH_CHUNK = 1 << 20


@dataclass
class MoveCheck:
    """How well a folder matches a source's documents."""

    label: str
    old_root: str
    new_root: str
    documents: int
    checked: int = 0
    matched: int = 0
    missing: int = 0
    different: int = 0

    @property
    def ok(self) -> bool:
        """A majority of the sample matched (files edited since the last index may not)."""
        return self.checked > 0 and self.matched * 2 > self.checked

    def to_dict(self) -> dict:
        return {"label": self.label, "old_root": self.old_root, "new_root": self.new_root,
                "documents": self.documents, "checked": self.checked, "matched": self.matched,
                "missing": self.missing, "different": self.different, "ok": self.ok}


def check_folder(store: Store, source: dict, new_root: str,
                 sample: int = SAMPLE_FILES) -> MoveCheck:
    """Compare a sample of `source`'s documents with the files under `new_root`."""
    check = MoveCheck(source["label"], source["root"], new_root, source["documents"])
    for path, size, sha in store.sample_documents(source["id"], sample):
        check.checked += 1
        fs_path = disk_path(os.path.join(new_root, *path.split("/")))
        try:
            if os.path.islink(fs_path) or not os.path.isfile(fs_path):
                check.missing += 1
            elif os.path.getsize(fs_path) != size or _sha256(fs_path) != sha:
                check.different += 1
            else:
                check.matched += 1
        except OSError:
            check.missing += 1
    return check


def moved_here(store: Store, new_root: str, missing) -> List[MoveCheck]:
    """Sources whose root is missing (`missing(source)` says) and whose files `new_root`
    holds, best match first."""
    found = []
    for source in store.sources():
        if source["documents"] and source["root"] != new_root and missing(source):
            check = check_folder(store, source, new_root)
            if check.ok:
                found.append(check)
    found.sort(key=lambda c: (-c.matched / c.checked, c.label))
    return found


def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(HASH_CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()
