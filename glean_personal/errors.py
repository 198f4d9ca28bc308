"""One exception hierarchy for the package.

Surfaces turn these into one-line messages and exit codes (docs/reference.md,
"Exit codes"): every subclass carries the exit code the command line uses.
"""
from __future__ import annotations


class GleanError(Exception):
    """Root of every error the package raises on purpose."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class UsageError(GleanError):
    """The caller asked for something malformed (a bad flag value, a bad date)."""

    exit_code = 2


class SettingError(GleanError):
    """A setting (an argument of `open_index`, or the environment) has a value it cannot take."""


class MoveRefused(GleanError):
    """A folder does not hold the files of the source it would be moved to."""


class NotFound(GleanError):
    """A document, source or folder the caller named does not exist."""


class Ambiguous(GleanError):
    """A path fragment matches more than one document; `candidates` lists them."""

    def __init__(self, message: str, candidates: list) -> None:
        super().__init__(message)
        self.candidates = candidates


class NotLinked(GleanError):
    """The content graph has not been built yet (`link` builds it)."""


class DatabaseError(GleanError):
    """The index file is unusable: corrupt, locked, wrong kind, or too new."""

    exit_code = 3


class LockedError(DatabaseError):
    """Another process held the index for longer than the busy timeout."""


class StoreKindError(DatabaseError):
    """The file was built with FTS5 and this interpreter's SQLite lacks it."""


class ReadOnlyError(DatabaseError):
    """A write to an index opened read-only, or to a file this process cannot write."""


class SchemaTooNew(DatabaseError):
    """The file was written by a newer glean_personal."""


class SkipFile(GleanError):
    """A file that will not be indexed; `reason` goes into the skip report."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnsupportedEndpoint(GleanError):
    """A REPL endpoint that the current backend does not serve; `endpoint` names it."""

    def __init__(self, message: str, endpoint: str) -> None:
        super().__init__(message)
        self.endpoint = endpoint


class LocalModeError(UnsupportedEndpoint):
    """An endpoint that the local backend does not serve (REPL local mode)."""
