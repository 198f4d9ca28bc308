"""Which glean_personal the benchmarks measure: a committed revision, exported read-only.

Other people edit the working tree while benchmarks run, so by default the
scripts measure a commit (HEAD): `git archive REV glean_personal` unpacked into
bench/out/src/<sha>/, put first on PYTHONPATH (and on sys.path for in-process
use). `--at worktree` measures the working tree as it is instead.
"""
from __future__ import annotations

import io
import os
import subprocess
import tarfile
from typing import Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def product_source(rev: str = "HEAD") -> Tuple[str, str]:
    """(folder holding the glean_personal package, label) for a revision or 'worktree'."""
    if rev == "worktree":
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "glean_personal"], cwd=REPO,
                               capture_output=True, text=True).stdout.strip()
        sha = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                             capture_output=True, text=True).stdout.strip()
        return REPO, f"worktree at {sha}" + (" with uncommitted changes" if dirty else "")
    sha = subprocess.run(["git", "rev-parse", "--short", rev], cwd=REPO, check=True,
                         capture_output=True, text=True).stdout.strip()
    dest = os.path.join(HERE, "out", "src", sha)
    if not os.path.isdir(os.path.join(dest, "glean_personal")):
        data = subprocess.run(["git", "archive", "--format=tar", sha, "glean_personal"], cwd=REPO,
                              check=True, capture_output=True).stdout
        os.makedirs(dest, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(dest)
    return dest, f"commit {sha}"


def child_env(src: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("GLEAN_PERSONAL_DB", None)
    return env
