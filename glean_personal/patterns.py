"""Regular expressions compiled on first use, and tried only where they may match.

Compiling a pattern is Python work (the `re` module's parser and compiler):
30-200 µs each here, a millisecond or two for the module-level patterns of a
search. A pattern that only some inputs need (text with non-ASCII characters or
identifiers, code, a table of contents) is made with `lazy`, so a command that
never meets such input never compiles it (docs/benchmarks.md). A pattern that
ignores case and needs one of a few words is tried only for a text that
`holds_any` of them.
"""
from __future__ import annotations

import re
from typing import Any, Tuple


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


# The letters besides ASCII's that a pattern ignoring case takes for ASCII ones
# (İ and ı for i, K for k, ſ for s); lower-casing any other letter gives no ASCII
# letter, and İ is the only one it would make two characters of.
_AS_ASCII = str.maketrans({"\u0130": "i", "\u0131": "i", "\u212a": "k", "\u017f": "s"})


def folded(text: str) -> str:
    """`text` letter for letter as a pattern ignoring case compares it with ASCII."""
    return text.lower() if text.isascii() else text.translate(_AS_ASCII).lower()


def holds_any(text: str, words: Tuple[str, ...]) -> bool:
    """Whether `text` holds one of `words` (lower-case ASCII) as a pattern ignoring
    case finds them: if not, no such pattern that needs one of them can match it."""
    text = folded(text)
    for word in words:   # a loop: `any()` of a generator costs three times as much here
        if word in text:
            return True
    return False
