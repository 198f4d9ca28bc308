"""The one handler for a bug: a single line, or the traceback when asked for it."""
from __future__ import annotations

import os

from .render import text as render_text


def internal_error(exc: BaseException) -> str:
    """The line that reports an unexpected exception; re-raises it when GLEAN_PERSONAL_DEBUG is set.

    Call it from the `except` block that caught `exc`.
    """
    if os.environ.get("GLEAN_PERSONAL_DEBUG"):
        raise exc
    return render_text.internal_error(exc)
