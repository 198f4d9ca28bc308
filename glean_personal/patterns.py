"""Regular expressions compiled on first use.

Compiling a pattern is Python work (the `re` module's parser and compiler):
30-200 µs each here, a millisecond or two for the module-level patterns of a
search. A pattern that only some inputs need (text with non-ASCII characters or
identifiers, code, a table of contents) is made with `lazy`, so a command that
never meets such input never compiles it (docs/benchmarks.md).
"""
from __future__ import annotations

import re
from typing import Any


class lazy:  # noqa: N801 - it reads as the `re.compile` it stands for
    """Stands for `re.compile(pattern, flags)`. The first use of an attribute
    (`.search`, `.sub`, ...) compiles the pattern, and each attribute is then kept
    on this object, so later calls cost what the compiled pattern's do."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_source":   # copy, pickle: not the pattern's
            raise AttributeError(name)
        value = getattr(re.compile(*self._source), name)
        setattr(self, name, value)
        return value
