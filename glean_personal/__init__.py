"""glean_personal: a portable, local content index for one person's files.

The whole index is one SQLite file; every surface (CLI, REPL, MCP) is a thin
skin over `open_index` and the `Index` it returns. Names are imported lazily
so that a command pays only for what it uses.
"""
from typing import TYPE_CHECKING, Any

from .version import __version__

if TYPE_CHECKING:  # what a type checker sees; at run time __getattr__ imports on first use
    from .api import Index, open_index
    from .errors import GleanError
__all__ = ["open_index", "Index", "GleanError", "__version__"]


def __getattr__(name: str) -> Any:
    if name in ("open_index", "Index"):
        from . import api
        return getattr(api, name)
    if name == "GleanError":
        from .errors import GleanError
        return GleanError
    raise AttributeError(f"module 'glean_personal' has no attribute {name!r}")
