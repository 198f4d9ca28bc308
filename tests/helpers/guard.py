"""Instruments for the security tests (their proof is tests/test_security_harness.py).

* `guard_env()` gives a subprocess a `sitecustomize.py` whose audit hook
  records every file it opens under a watched folder (forked workers
  included) and refuses, and records, any IPv4/IPv6 socket or name lookup.
* `run_index_driver()` indexes folders through the real facade in a guarded
  subprocess and reports each run's report, its cost (CPU seconds of the
  process and its workers, which a busy machine does not inflate) and the
  peak memory of the process and of its worker processes.
* `documents()`, `integrity_problems()` and `file_bytes()` read the index
  file straight from SQLite.
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from glean_personal.store.connection import register_functions

REPO = Path(__file__).resolve().parents[2]   # the repository: tests/helpers/guard.py

SITECUSTOMIZE = textwrap.dedent('''
    """Test guard: log opens under GLEAN_TEST_WATCH; forbid IPv4/IPv6 networking."""
    import json as _json
    import os as _os
    import socket as _socket
    import sys as _sys

    _WATCH = _os.environ.get("GLEAN_TEST_WATCH", "")
    _LOGS = {"open": _os.environ.get("GLEAN_TEST_OPEN_LOG"),
             "net": _os.environ.get("GLEAN_TEST_NET_LOG")}
    _FDS = {}
    _INET = {_socket.AF_INET, _socket.AF_INET6, -1}   # -1: the AF_INET default
    _busy = []

    def _log(kind, text):
        path = _LOGS.get(kind)
        if not path or _busy:
            return
        _busy.append(1)
        try:
            fd = _FDS.get(kind)
            if fd is None:
                fd = _FDS[kind] = _os.open(path, _os.O_WRONLY | _os.O_APPEND | _os.O_CREAT, 0o600)
            _os.write(fd, (_json.dumps([_os.getpid(), text]) + "\\n").encode("ascii"))
        finally:
            _busy.pop()

    def _refuse(what):
        _log("net", what)
        raise PermissionError("network use is forbidden here: " + what)

    def _hook(event, args):
        if event == "open":
            path = args[0]
            if isinstance(path, bytes):
                path = _os.fsdecode(path)
            if isinstance(path, str) and _WATCH and path.startswith(_WATCH):
                _log("open", path)
        elif event == "socket.__new__":
            if args[1] in _INET:
                _refuse("socket(family=%r)" % (args[1],))
        elif event in ("socket.connect", "socket.bind", "socket.sendto"):
            if getattr(args[0], "family", None) in _INET:
                _refuse("%s %r" % (event, args[1:]))
        elif event in ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex",
                       "socket.gethostbyaddr", "socket.getnameinfo"):
            _refuse("%s %r" % (event, args))

    _sys.addaudithook(_hook)

    class _GuardedSocket(_socket.socket):
        def __init__(self, family=-1, type=-1, proto=-1, fileno=None):
            if fileno is None and family in _INET:
                _refuse("socket.socket(family=%r)" % (family,))
            super().__init__(family, type, proto, fileno)

    _socket.socket = _GuardedSocket
''')


def guard_env(tmp: Path, watch: Path, extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """Environment for a guarded subprocess; logs go to tmp/opens.log and tmp/net.log."""
    guard = tmp / "guard"
    guard.mkdir(exist_ok=True)
    (guard / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = dict(os.environ)
    env.pop("GLEAN_PERSONAL_DB", None)
    env.pop("GLEAN_PERSONAL_STORE", None)
    env.update({
        "PYTHONPATH": os.pathsep.join([str(guard), str(REPO)]),
        "GLEAN_TEST_WATCH": str(watch),
        "GLEAN_TEST_OPEN_LOG": str(tmp / "opens.log"),
        "GLEAN_TEST_NET_LOG": str(tmp / "net.log"),
        "PYTHONDONTWRITEBYTECODE": "1",
    })
    env.update(extra or {})
    return env


def logged(tmp: Path, kind: str) -> List[str]:
    """What the guard logged: opened paths ("opens") or refused network calls ("net")."""
    path = tmp / f"{kind}.log"
    if not path.exists():
        return []
    return [json.loads(line)[1] for line in path.read_text().splitlines() if line.strip()]


DRIVER = textwrap.dedent('''
    import json, resource, sys
    from glean_personal.api import open_index
    from glean_personal.config import Limits

    def peak_kb():
        """This process's own peak RSS (VmHWM restarts at exec; ru_maxrss does not)."""
        try:
            with open("/proc/self/status") as fh:
                for line in fh:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    def cpu_seconds():
        """CPU time of this process and of its reaped children (each run's workers)."""
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    spec = json.loads(sys.argv[1])
    out = {}
    for job in spec["jobs"]:
        limits = Limits(**dict(spec["limits"], **job.get("limits", {})))
        with open_index(spec["db"], store=spec.get("store"), limits=limits) as ix:
            before = cpu_seconds()
            report = ix.index(job["folder"], label=job["name"], **job.get("kwargs", {}))
            out[job["name"]] = {"report": report.to_dict(),
                                "cpu_seconds": cpu_seconds() - before,
                                "maxrss_kb": peak_kb()}
    print(json.dumps({
        "results": out,
        "maxrss_self_kb": peak_kb(),
        "maxrss_children_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    }))
''')


def run_index_driver(tmp: Path, watch: Path, db: Path, jobs: Sequence[dict],
                     limits: dict, store: Optional[str] = None, timeout: float = 600) -> dict:
    """Index each job's folder as its own source in one guarded subprocess.

    `limits` are `Limits` fields for every job; a job's own "limits" override them
    (the cases that test the per-file time budget run with a short one, the rest
    with one no busy machine can exhaust).
    """
    spec = {"db": str(db), "store": store, "limits": limits, "jobs": list(jobs)}
    proc = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(spec)],
                          env=guard_env(tmp, watch), capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def documents(db: Path) -> Dict[Tuple[str, str], dict]:
    """(source label, path) -> {"text", "title", "warnings", "sha256"} straight from SQLite."""
    conn = sqlite3.connect(str(db))
    try:
        docs = {}
        for doc_id, label, path, title, warnings, sha in conn.execute(
                "SELECT d.id, s.label, d.path, d.title, d.warnings, d.sha256 "
                "FROM documents d JOIN sources s ON s.id = d.source_id"):
            text = "\n".join(r[0] for r in conn.execute(
                "SELECT text FROM passages WHERE document_id = ? ORDER BY ordinal", (doc_id,)))
            docs[(label, path)] = {"text": text, "title": title, "sha256": sha,
                                   "warnings": json.loads(warnings)}
        return docs
    finally:
        conn.close()


def integrity_problems(db: Path) -> List[str]:
    """PRAGMA integrity_check plus the full-text index's own check."""
    conn = sqlite3.connect(str(db))
    register_functions(conn)   # the FTS5 check reads the search forms through one
    try:
        problems = [r[0] for r in conn.execute("PRAGMA integrity_check") if r[0] != "ok"]
        kind = dict(conn.execute("SELECT key, value FROM meta")).get("store")
        if kind == "fts5":
            try:
                conn.execute("INSERT INTO passage_fts(passage_fts, rank) "
                             "VALUES ('integrity-check', 1)")
            except sqlite3.DatabaseError as exc:
                problems.append(f"fts5: {exc}")
        else:
            missing = conn.execute("SELECT count(*) FROM passages WHERE id NOT IN "
                                   "(SELECT passage_id FROM plain_lengths)").fetchone()[0]
            stale = conn.execute("SELECT count(*) FROM plain_lengths WHERE passage_id NOT IN "
                                 "(SELECT id FROM passages)").fetchone()[0]
            if missing or stale:
                problems.append(f"plain: {missing} passages unindexed, {stale} stale")
        return problems
    finally:
        conn.close()


def file_bytes(db: Path) -> bytes:
    """The index file and any journal beside it, as raw bytes."""
    data = db.read_bytes()
    for suffix in ("-journal", "-wal"):
        side = Path(str(db) + suffix)
        if side.exists():
            data += side.read_bytes()
    return data
