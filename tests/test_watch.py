"""`watch` as a person runs it: a foreground process, one line per change, Ctrl-C stops it."""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import glean_personal
from helpers.files import bump_mtime, write_tree

WAIT = 60.0   # generous: the suite runs on a busy 2-core box; only a failure waits this long


class Lines:
    """A subprocess's stdout lines, read on a thread, awaited with a deadline."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.queue: "queue.Queue[str]" = queue.Queue()
        self.seen: list = []
        threading.Thread(target=self._read, args=(proc.stdout,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self.queue.put(line.rstrip("\n"))
        self.queue.put(None)

    def wait_for(self, *needles: str) -> str:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                line = self.queue.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
            if all(n in line for n in needles):
                return line
        raise AssertionError(f"no line with {needles} in {self.seen}")


def test_watch_sees_added_changed_removed_then_stops_cleanly(tmp_path, store_kind):
    folder = write_tree(tmp_path / "notes", {"first.md": "# First\n\nbicycle pump valves\n"})
    db = tmp_path / "p.db"
    with glean_personal.open_index(db) as ix:
        ix.index(folder)
        ix.link()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "glean_personal", "watch", "notes",
                             "--db", str(db), "--interval", "0.2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        lines = Lines(proc)
        lines.wait_for("Watching 1 folder")
        (folder / "second.md").write_text("# Second\n\nbicycle pump gaskets\n")
        lines.wait_for("added", "second.md")
        (folder / "first.md").write_text("# First\n\nbicycle pump valves and hoses\n")
        bump_mtime(folder / "first.md")
        lines.wait_for("updated", "first.md")
        (folder / "second.md").unlink()
        lines.wait_for("removed", "second.md")
        proc.send_signal(signal.SIGINT)
        lines.wait_for("Stopped watching")
        proc.wait(timeout=WAIT)
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert not Path(str(db) + "-journal").exists()
    with glean_personal.open_index(db, readonly=True) as ix:
        assert ix.verify().ok
        assert [h.document["path"] for h in ix.search("hoses").results] == ["first.md"]
        assert ix.search("gaskets").results == []
        assert not ix.status().graph["stale"]


def test_watch_api_stops_when_told(tmp_path, store_kind):
    folder = write_tree(tmp_path / "notes", {"a.md": "# A\n\nspokes and nipples\n"})
    stop = threading.Event()
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        events = []
        for event in ix.watch([folder], interval=0.05, stop=stop):
            events.append(event)
            stop.set()     # the first pass indexes the new folder: one event, then stop
        assert [(e["event"], e["path"]) for e in events] == [("added", "a.md")]


def test_watch_says_once_that_a_root_went_missing_and_keeps_it(tmp_path, store_kind):
    folder = write_tree(tmp_path / "notes", {"a.md": "# A\n\nrim tape and spoke holes\n"})
    stop = threading.Event()
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        ix.index(folder)
        folder.rename(tmp_path / "unplugged")
        seen = []
        for event in ix.watch(["notes"], interval=0.01, stop=stop):
            seen.append(event["event"])
            if len(seen) == 1:
                (tmp_path / "unplugged").rename(folder)    # plugged back in
            else:
                stop.set()
        assert seen == ["missing", "back"]
        assert ix.status().documents == 1


def test_watch_keeps_a_source_whose_mount_point_holds_a_stray_file(tmp_path, store_kind):
    folder = write_tree(tmp_path / "notes", {f"n{i}.md": f"# N{i}\n\nrim tape {i}\n"
                                             for i in range(4)})
    stop = threading.Event()
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        ix.index(folder)
        folder.rename(tmp_path / "unplugged")
        folder.mkdir()
        (folder / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")   # left at the mount point
        seen = []
        for event in ix.watch(["notes"], interval=0.01, stop=stop):
            seen.append((event["event"], event.get("reason") or ""))
            stop.set()
        assert [e for e, _ in seen] == ["missing"], seen   # not "removed", never "back"
        assert "none of its 4 indexed files" in seen[0][1]
        assert ix.status().documents == 4


def test_watch_waits_out_another_writer_instead_of_exiting(tmp_path, store_kind, monkeypatch):
    """Another process holding the index past the writers' wait ended the watch with
    exit 3 (lifecycle trial); the pass now says it is waiting and the next one goes on."""
    import fcntl
    from glean_personal import api
    folder = write_tree(tmp_path / "notes", {"a.md": "# A\n\nquince jam\n"})
    db = tmp_path / "p.db"
    with glean_personal.open_index(db) as ix:
        ix.index(folder)
    monkeypatch.setattr(api, "WRITER_WAIT_SECONDS", 0.2)
    held = os.open(db, os.O_RDONLY)
    fcntl.flock(held, fcntl.LOCK_EX)          # the writers' lock, as another index holds it
    with glean_personal.open_index(db) as ix:
        events = ix.watch([str(folder)], interval=0.05)
        first = next(events)
        assert first["event"] == "waiting" and first["path"] == str(ix.path)
        fcntl.flock(held, fcntl.LOCK_UN)
        os.close(held)
        write_tree(folder, {"b.md": "# B\n\nmedlar jelly\n"})
        added = next(e for e in events if e["event"] == "added")
        events.close()
        assert added["path"] == "b.md" and ix.search("medlar").results
