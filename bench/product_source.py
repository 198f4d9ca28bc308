"""Which glean_personal the benchmarks measure: a committed revision, exported read-only.

Other people edit the working tree while benchmarks run, so by default the
scripts measure a commit (HEAD): `git archive REV glean_personal` unpacked into
bench/out/src/<sha>/, put first on PYTHONPATH (and on sys.path for in-process
use). `--at worktree` measures the working tree as it is instead.

Either way the package is byte-compiled first, as `pip install` does: a
command timed against bare sources would also time compiling them on every
run (this machine sets PYTHONDONTWRITEBYTECODE, so nothing would be cached).
"""
from __future__ import annotations

import compileall
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from typing import NamedTuple, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def product_source(rev: str = "HEAD") -> Tuple[str, str]:
    """(folder holding the glean_personal package, label) for a revision or 'worktree'."""
    if rev == "worktree":
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "glean_personal"], cwd=REPO,
                               capture_output=True, text=True).stdout.strip()
        sha = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                             capture_output=True, text=True).stdout.strip()
        _compile(REPO)
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
    _compile(dest)
    return dest, f"commit {sha}"


def _compile(src: str) -> None:
    compileall.compile_dir(os.path.join(src, "glean_personal"), quiet=1)


def child_env(src: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("GLEAN_PERSONAL_DB", None)
    return env


class Run(NamedTuple):
    wall: float      # seconds around the whole child process
    code: int
    out: str
    err: str
    rss_mb: float    # peak RSS of the largest process in the child's tree (os.wait4)
    cpu: float = 0.0  # user + system CPU seconds of the child (os.wait4)


def run_child(argv: Sequence[str], src: str) -> Run:
    """Run a command with `src`'s glean_personal first on the path, from `src` itself
    (``python -m`` puts the current folder ahead of PYTHONPATH)."""
    with tempfile.TemporaryFile() as err_file:
        start = time.perf_counter()
        proc = subprocess.Popen(list(argv), cwd=src, env=child_env(src), stdout=subprocess.PIPE,
                                stderr=err_file, stdin=subprocess.DEVNULL)
        out = proc.stdout.read() if proc.stdout else b""
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") \
            else (status >> 8)
        if proc.stdout:
            proc.stdout.close()
        err_file.seek(0)
        err = err_file.read().decode("utf-8", "replace")
    return Run(wall, proc.returncode, out.decode("utf-8", "replace"), err, usage.ru_maxrss / 1024,
               usage.ru_utime + usage.ru_stime)


def glean(*args: str) -> list:
    """argv for the product's command line."""
    return [sys.executable, "-m", "glean_personal", *args]
