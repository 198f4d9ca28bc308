"""Asking the REPL's local /chat a question, as the REPL does, and reading its answer."""
from __future__ import annotations

from glean_personal.surfaces.local_backend import LocalBackend


def ask(db, question: str) -> dict:
    """The first message of /chat's answer to one USER question, on the index at `db`."""
    backend = LocalBackend(db)
    try:
        request = {"messages": [{"author": "USER", "fragments": [{"text": question}]}]}
        return backend.call("chat", request)["messages"][0]
    finally:
        backend.close()


def message_text(message: dict) -> str:
    return "".join(f.get("text", "") for f in message["fragments"])
