"""Opening personal.db: private permissions, pragmas, errors made readable.

The file is created 0600 in a 0700 folder before SQLite touches it, and the
rollback journal (not WAL) keeps the index in that one file: a committed
transaction is always in the main file, and a kill mid-transaction leaves a
hot journal that the next open rolls back.
"""
from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
import threading
from pathlib import Path
from typing import Iterator

from ..analysis import alt_text, fold_all
from ..errors import DatabaseError, LockedError, ReadOnlyError, UsageError
from .schema import ALT_FUNCTION

MMAP_BYTES = 1 << 30
BUSY_TIMEOUT_MS = 30_000   # as long as a writer waits its turn (api.WRITER_WAIT_SECONDS)


def default_db_path() -> Path:
    """`GLEAN_PERSONAL_DB` if set, else ~/.gleancode/personal.db."""
    env = os.environ.get("GLEAN_PERSONAL_DB")
    return Path(env).expanduser() if env else Path.home() / ".gleancode" / "personal.db"


def prepare_folder(path: Path) -> None:
    """Create the index file's folder (0700) if it is missing."""
    folder = path.parent
    if not folder.exists():
        old = os.umask(0o077)
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseError(f"cannot create the index folder {folder}: {exc.strerror}") from None
        finally:
            os.umask(old)
        _chmod(folder, 0o700)


def prepare_file(path: Path) -> bool:
    """Create the folder (0700) and an empty file (0600) if missing; True if new."""
    prepare_folder(path)
    if path.exists():
        if path.is_dir():
            raise DatabaseError(f"{path} is a folder, not an index file")
        return path.stat().st_size == 0
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(fd)
    except FileExistsError:
        return False
    except OSError as exc:
        raise DatabaseError(f"cannot create the index file {path}: {exc.strerror}") from None
    _chmod(path, 0o600)
    return True


def create_atomically(path: Path, build) -> bool:
    """Create `path` whole: `build(conn)` fills a private temporary file, which is then
    linked into place. False if another process created `path` meanwhile.

    So no reader ever sees a half-made index, and an empty file at `path` is
    never one of ours: it is refused rather than silently turned into an index.
    """
    prepare_folder(path)
    drop_dead_temporaries(path, ".new")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.close(fd)
        _chmod(tmp, 0o600)
    except OSError as exc:
        raise DatabaseError(f"cannot create the index file {path}: {exc.strerror}") from None
    try:
        conn = connect(tmp)
        try:
            with translate(path):
                build(conn)
        finally:
            conn.close()
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        except OSError:   # no hard links here: a rename that may replace nothing
            if path.exists():
                return False
            os.rename(tmp, path)
        return True
    finally:
        for leftover in (tmp, Path(str(tmp) + "-journal")):
            try:
                os.unlink(leftover)
            except OSError:
                pass


def drop_dead_temporaries(path: Path, suffix: str) -> None:
    """Remove the temporary files (.NAME.PID<suffix> and their journals) that killed
    processes left beside `path`: a new index being built (.new), an export (.part).
    One whose process still runs is left alone, and so is one of another user's."""
    folder = path.parent
    prefix = f".{path.name}."
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        if not name.endswith((suffix, suffix + "-journal")):
            continue
        pid = name[len(prefix):].split(".", 1)[0]
        if not (pid.isascii() and pid.isdigit()):
            continue
        if int(pid) != os.getpid():
            try:
                os.kill(int(pid), 0)
                continue                 # still running: its work is under way
            except ProcessLookupError:
                pass
            except (PermissionError, OverflowError):
                continue
        try:
            os.unlink(folder / name)
        except OSError:
            pass


def drop_stale_journal(conn: sqlite3.Connection, path: Path) -> None:
    """Remove a journal that a writer killed before it changed the file left behind.

    SQLite rolls a hot journal back when the file is next read, but leaves one
    that holds nothing to roll back (killed before its header was written) until
    the next write. Removed here, under the writer's lock and SQLite's RESERVED
    lock, so no writer can be using it; if either is taken, it is left alone.
    """
    journal = Path(str(path) + "-journal")
    if not journal.exists():
        return
    import fcntl
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)   # the writers' turn-taking lock
        except OSError:
            return                     # a glean-personal writer is at work: its journal
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # a hot one rolls back
                os.unlink(journal)
            finally:
                conn.execute("ROLLBACK")
        except (sqlite3.Error, OSError):
            pass
        finally:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    finally:
        os.close(fd)


def _chmod(path: Path, mode: int) -> None:
    try:
        os.chmod(path, mode)
    except OSError:
        pass


def connect(path: Path, readonly: bool = False) -> sqlite3.Connection:
    """A connection with the pragmas every command relies on."""
    uri = f"file:{_quote(str(path))}?mode={'ro' if readonly else 'rw'}"
    with translate(path):
        conn = sqlite3.connect(uri, uri=True, isolation_level=None,
                               timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if not readonly:
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
            if mode.lower() != "delete":
                conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute("PRAGMA secure_delete = ON")  # deleted text is overwritten, not left behind
        conn.execute("PRAGMA temp_store = MEMORY")
        conn.execute("PRAGMA cache_size = -32000")
        register_functions(conn)
    return conn


def register_functions(conn: sqlite3.Connection) -> None:
    """The SQL functions the schema relies on: the FTS5 store's view of search forms;
    and `glean_fold`, text folded as search forms fold it (autocomplete's titles)."""
    conn.create_function(ALT_FUNCTION, 1, _alt_sql, deterministic=True)
    conn.create_function(FOLD_FUNCTION, 1, _fold_sql, deterministic=True)


FOLD_FUNCTION = "glean_fold"


def _fold_sql(value: object) -> str:
    return _folded(value) if isinstance(value, str) else ""


@functools.lru_cache(maxsize=1 << 14)
def _folded(text: str) -> str:
    # Kept: autocomplete folds the same titles at every keystroke.
    return fold_all(text)


_CTRL_C = threading.local()
"""Set when Ctrl-C landed inside an SQL function of this thread's statement."""


def _alt_sql(value: object) -> str:
    try:
        return alt_text(value) if isinstance(value, str) else ""
    except KeyboardInterrupt:
        # sqlite3 swallows an exception raised in an SQL function and fails the
        # statement with "user-defined function raised exception" (FTS5's own check
        # would call that damage): remember it was Ctrl-C, for `interrupted`.
        _CTRL_C.pending = True
        raise


@contextlib.contextmanager
def interruptible(conn: sqlite3.Connection) -> Iterator[None]:
    """Around one long statement that calls the search-form function for every row
    (FTS5's rebuild and check): Ctrl-C stops the statement through SQLite's own
    interrupt, then raises KeyboardInterrupt, instead of striking inside the function,
    where sqlite3 would swallow it. Only where Python's default handler is in place
    (the main thread of a command); elsewhere nothing changes."""
    import signal
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return

    def on_ctrl_c(signum, frame) -> None:
        _CTRL_C.pending = True
        conn.interrupt()
    signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if getattr(_CTRL_C, "pending", False):   # arrived after the statement finished
        _CTRL_C.pending = False
        raise KeyboardInterrupt


def interrupted(exc: BaseException) -> bool:
    """Did `exc` come from Ctrl-C inside an SQL function? (Forgets it once asked.)"""
    if getattr(_CTRL_C, "pending", False):   # whatever SQLite made of the failed call
        _CTRL_C.pending = False
        return True
    return False


def map_for_reading(conn: sqlite3.Connection) -> None:
    """Read pages straight from the OS page cache instead of copying each in.

    For read-only commands: a search touches scattered passage rows. Writers,
    which read whole tables (link) or little (index), keep plain reads and a
    smaller resident size. SQLite falls back to reads where mmap fails.
    """
    conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")


def _quote(path: str) -> str:
    return path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")


@contextlib.contextmanager
def translate(path: Path) -> Iterator[None]:
    """Turn sqlite3 errors into the package's one-line database errors."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        text = str(exc)
        if interrupted(exc):
            raise KeyboardInterrupt from None
        if "pattern too complex" in text:   # SQLite's cap on one LIKE/GLOB pattern
            raise UsageError("that path pattern or name is too long to look up (SQLite "
                             "allows 50,000 bytes); shorten it") from None
        if "locked" in text or "busy" in text:
            raise LockedError(
                f"the index {path} is busy: another glean-personal process is writing it; "
                "try again when it finishes") from None
        if "readonly" in text or "read-only" in text:
            raise ReadOnlyError(f"the index {path} is read-only here (opened for reading, or "
                                "the file or its folder cannot be written): nothing was "
                                "changed") from None
        if "disk is full" in text or "disk I/O error" in text:
            what = "no space left" if "full" in text else "a disk error"
            raise DatabaseError(f"{what} writing {path}: the unfinished step was rolled back "
                                "(what was committed before it is kept); free some space or "
                                "check the disk, then run the command again") from None
        if "unable to open" in text:
            raise DatabaseError(f"cannot open the index {path}: check the path and its permissions") from None
        if "malformed" in text or "corrupt" in text or "not a database" in text:
            raise DatabaseError(f"the index {path} is damaged ({text}); run `verify --repair`, "
                                "or move it aside and index again") from None
        if "no such module: fts5" in text:
            raise DatabaseError(
                f"the index {path} was built with FTS5, which this Python's SQLite lacks; "
                "use a Python whose SQLite has FTS5, or re-create the index with "
                "GLEAN_PERSONAL_STORE=plain") from None
        raise DatabaseError(f"the index {path} could not be used: {text}") from None
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"the index {path} is not a usable index file ({exc}); "
                            "move it aside and index again") from None


def like_contains(text: str) -> str:
    """A LIKE pattern (with `ESCAPE '\\'`) matching any text that contains `text` literally."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
