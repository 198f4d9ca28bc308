"""Small folders of real files, written for a test."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Dict


def write_tree(root: Path, files: Dict[str, str]) -> Path:
    """Write {relative path: text} under root and return root."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def bump_mtime(path: Path, seconds: int = 10) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + seconds * 1_000_000_000))
