"""The command line's `--json` output: the facade's `to_dict`, written one way.

UTF-8 as is (`ensure_ascii=False`), indented by two; the shapes are described
in docs/reference.md.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...reports import Status


def dumps(data: object) -> str:
    """`data` as the text `--json` prints (and the REPL's `/json on`)."""
    return json.dumps(data, ensure_ascii=False, indent=2)


def status(st: "Status", skips: bool = False) -> dict:
    """`status --json`: each source's `last_skipped` only when `--skips` asked for it."""
    data = st.to_dict()
    if not skips:
        for s in data["sources"]:
            s.pop("last_skipped", None)
    return data
