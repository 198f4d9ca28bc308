"""Renderers: one module per output, over the same result objects.

`text` is the one home for human-readable text, `json` for the command line's
`--json` output, and `client` draws Client API responses (any backend's).
`render.text` is imported on first use: a command that prints JSON and meets
no error needs none of it.
"""
from __future__ import annotations

import importlib


def __getattr__(name: str) -> object:
    if name in ("text", "json", "client"):
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
