"""The instruments the security tests rely on, and proof that they work.

* `guard_env()` gives a subprocess a `sitecustomize.py` whose audit hook
  records every file it opens under a watched folder (forked workers
  included) and refuses, and records, any IPv4/IPv6 socket or name lookup.
* `run_index_driver()` indexes folders through the real facade in a guarded
  subprocess and reports each run's report, its cost and the peak memory of
  the process and of its worker processes.
* `ZipWriter` writes ZIP archives member by member from precompressed data, so
  the tests can build bombs (overlapping entries, lying headers) that
  `zipfile` refuses to write.

A check that nothing was opened means nothing unless the log would have shown
an open: the tests at the bottom prove that it does, and that the network
guard really refuses.
"""
from __future__ import annotations

import json
import os
import sqlite3
import struct
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import pytest

from glean_personal.store.connection import register_functions

REPO = Path(__file__).resolve().parents[1]

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
    import json, resource, sys, time
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

    spec = json.loads(sys.argv[1])
    out = {}
    with open_index(spec["db"], store=spec.get("store"), limits=Limits(**spec["limits"])) as ix:
        for job in spec["jobs"]:
            started = time.perf_counter()
            report = ix.index(job["folder"], label=job["name"], **job.get("kwargs", {}))
            out[job["name"]] = {"report": report.to_dict(),
                                "seconds": time.perf_counter() - started,
                                "maxrss_kb": peak_kb()}
    print(json.dumps({
        "results": out,
        "maxrss_self_kb": peak_kb(),
        "maxrss_children_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    }))
''')


def run_index_driver(tmp: Path, watch: Path, db: Path, jobs: Sequence[dict],
                     limits: dict, store: Optional[str] = None, timeout: float = 240) -> dict:
    """Index each job's folder as its own source in one guarded subprocess."""
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


# -- ZIP archives written by hand ----------------------------------------------
class ZipWriter:
    """Members from precompressed raw-deflate data; the central directory may lie."""

    def __init__(self) -> None:
        self.body = bytearray()
        self.central: List[bytes] = []

    @staticmethod
    def local_header(name: bytes, crc: int, csize: int, usize: int, method: int = 8) -> bytes:
        return struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, method, 0, 0x21,
                           crc, csize, usize, len(name), 0) + name

    def add_raw(self, name: str, data: bytes, crc: int, usize: int, method: int = 8,
                declared_usize: Optional[int] = None) -> None:
        """One member; `declared_usize` puts a different size in both headers."""
        raw = name.encode("utf-8")
        size = usize if declared_usize is None else declared_usize
        self.add_entry(raw, len(self.body), crc, len(data), size, method)
        self.body += self.local_header(raw, crc, len(data), size, method) + data

    def add(self, name: str, content: bytes) -> None:
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        self.add_raw(name, c.compress(content) + c.flush(), zlib.crc32(content), len(content))

    def add_entry(self, raw_name: bytes, offset: int, crc: int, csize: int, usize: int,
                  method: int = 8) -> None:
        self.central.append(struct.pack(
            "<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 20, 0, method, 0, 0x21, crc, csize,
            usize, len(raw_name), 0, 0, 0, 0, 0, offset) + raw_name)

    def getvalue(self) -> bytes:
        cd = b"".join(self.central)
        return bytes(self.body) + cd + struct.pack(
            "<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(self.central), len(self.central),
            len(cd), len(self.body), 0)


def crc32_combine(crc1: int, crc2: int, len2: int) -> int:
    """zlib's crc32_combine: the CRC of A+B from crc(A), crc(B) and len(B)."""
    def times(mat: List[int], vec: int) -> int:
        out, i = 0, 0
        while vec:
            if vec & 1:
                out ^= mat[i]
            vec >>= 1
            i += 1
        return out

    def square(mat: List[int]) -> List[int]:
        return [times(mat, mat[n]) for n in range(32)]

    if len2 <= 0:
        return crc1
    odd = [0xEDB88320] + [1 << n for n in range(31)]
    even = square(odd)
    odd = square(even)
    while True:
        even = square(odd)
        if len2 & 1:
            crc1 = times(even, crc1)
        len2 >>= 1
        if not len2:
            break
        odd = square(even)
        if len2 & 1:
            crc1 = times(odd, crc1)
        len2 >>= 1
        if not len2:
            break
    return crc1 ^ crc2


def overlapping_block(names: Iterable[str], kernel_bytes: int) -> Tuple[bytes, List[tuple]]:
    """David Fifield's "better zip bomb": every member's data quotes the next member's
    local header in a stored deflate block, then runs on into the next member's data,
    so all members share one kernel of `kernel_bytes` inflated bytes.

    Returns the block and (raw name, offset in block, crc, csize, usize) per member.
    """
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    kernel = c.compress(b"a" * kernel_bytes) + c.flush()
    crc, usize, csize = zlib.crc32(b"a" * kernel_bytes), kernel_bytes, len(kernel)
    raw_names = [n.encode("utf-8") for n in names]
    headers: List[bytes] = []
    entries: List[list] = []
    for i in range(len(raw_names) - 1, -1, -1):
        header = ZipWriter.local_header(raw_names[i], crc, csize, usize)
        headers.insert(0, header)
        entries.insert(0, [raw_names[i], 0, crc, csize, usize])
        quote = struct.pack("<BHH", 0, len(header), len(header) ^ 0xFFFF)
        crc = crc32_combine(zlib.crc32(header), crc, usize)
        usize += len(header)
        csize += len(quote) + len(header)
    block = bytearray()
    for i, header in enumerate(headers):
        entries[i][1] = len(block)
        block += header
        if i + 1 < len(headers):
            block += struct.pack("<BHH", 0, len(headers[i + 1]), len(headers[i + 1]) ^ 0xFFFF)
    block += kernel
    return bytes(block), [tuple(e) for e in entries]


# -- the instruments, tested -------------------------------------------------------
def _guarded(tmp_path: Path, code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], env=guard_env(tmp_path, tmp_path),
                          capture_output=True, text=True, timeout=60)


def test_the_guard_logs_opens_in_the_process_and_in_forked_children(tmp_path):
    watched = tmp_path / "watched.txt"
    watched.write_text("x")
    code = textwrap.dedent(f'''
        import os
        open({str(watched)!r}).close()
        pid = os.fork()
        if pid == 0:
            os.close(os.open({str(watched)!r}, os.O_RDONLY))
            os._exit(0)
        os.waitpid(pid, 0)
    ''')
    proc = _guarded(tmp_path, code)
    assert proc.returncode == 0, proc.stderr
    assert logged(tmp_path, "opens").count(str(watched)) == 2


@pytest.mark.parametrize("code", [
    "import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM)",
    "import socket; socket.socket()",
    "import socket; socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)",
    "import socket; socket.getaddrinfo('localhost', 80)",
    "import socket; socket.create_connection(('127.0.0.1', 9))",
    "import urllib.request; urllib.request.urlopen('http://127.0.0.1:9/')",
    "import _socket; _socket.socket(_socket.AF_INET)",
])
def test_the_guard_refuses_and_logs_every_kind_of_network_use(tmp_path, code):
    proc = _guarded(tmp_path, code)
    assert proc.returncode != 0
    assert logged(tmp_path, "net"), proc.stderr


def test_the_guard_allows_local_pipes_between_processes(tmp_path):
    code = ("import socket, multiprocessing as mp; a, b = socket.socketpair(); a.close(); b.close(); "
            "r, w = mp.Pipe(); w.send(1); assert r.recv() == 1")
    proc = _guarded(tmp_path, code)
    assert proc.returncode == 0, proc.stderr
    assert logged(tmp_path, "net") == []


def test_the_overlapping_bomb_really_inflates_far_beyond_its_size():
    import io
    import zipfile
    names = [f"part/{i:03d}.xml" for i in range(32)]
    block, entries = overlapping_block(names, 1 << 20)
    z = ZipWriter()
    z.body += block
    for raw, offset, crc, csize, usize in entries:
        z.add_entry(raw, offset, crc, csize, usize)
    data = z.getvalue()
    declared = sum(e[4] for e in entries)
    assert declared > 30 * len(data)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:   # CRCs are right: it really inflates
            assert len(zf.read(names[-1])) == 1 << 20
            assert len(zf.read(names[0])) == entries[0][4]
    except zipfile.BadZipFile as exc:   # newer Pythons refuse overlapping entries outright
        assert "verlap" in str(exc)
