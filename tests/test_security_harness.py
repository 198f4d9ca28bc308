"""Proof that the security tests' instruments work (tests/helpers/guard.py, zips.py).

A check that nothing was opened means nothing unless the log would have shown
an open: these tests prove that it does, and that the network guard really
refuses.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from helpers.guard import guard_env, logged
from helpers.zips import ZipWriter, overlapping_block


# -- the instruments, tested -------------------------------------------------------
def _guarded(tmp_path: Path, code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], env=guard_env(tmp_path, tmp_path),
                          capture_output=True, text=True, timeout=300)


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
