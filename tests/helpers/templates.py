"""Indexes built once per test session and copied for each test that uses one.

Building even a small index starts the worker pool and writes every document;
copying the finished file takes a millisecond. Each test gets its own copy of
the database file, so a test that writes (purge, link, another index) changes
nothing that another test sees. The indexed folders are shared: a test must
not change them, and `index_copy` fails if one did (or if the template itself
changed), so the sharing can never make a test pass by accident.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Callable, Dict, Tuple

_BUILT: Dict[Tuple[str, str], Tuple[Path, Path, tuple]] = {}   # home, db, fingerprint


def _fingerprint(home: Path) -> tuple:
    """Every file under `home` (the template's folders and its database): path, size, mtime."""
    out = []
    for dirpath, dirnames, filenames in os.walk(home):
        dirnames.sort()
        for name in sorted(filenames):
            st = os.lstat(os.path.join(dirpath, name))
            out.append((os.path.relpath(os.path.join(dirpath, name), home), st.st_size,
                        st.st_mtime_ns))
    return tuple(out)


def index_copy(factory, name: str, kind: str, build: Callable[[Path], Path], dest: Path) -> Path:
    """Copy to `dest` the index `build(home)` makes (once per `name` and store `kind`).

    `build` writes its folders under `home`, indexes them into a database under
    `home` and returns that database's path; GLEAN_PERSONAL_STORE must already
    name `kind` (the `store_kind` fixture sets it).
    """
    key = (name, kind)
    if key not in _BUILT:
        home = factory.mktemp(f"template-{name}-{kind}")
        db = build(home)
        assert not os.path.exists(str(db) + "-journal"), "the template's writer is still open"
        _BUILT[key] = (home, db, _fingerprint(home))
    home, db, fingerprint = _BUILT[key]
    assert _fingerprint(home) == fingerprint, f"a test changed the shared template {name}/{kind}"
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(db, dest)   # the bytes and the mode (0600)
    return dest

