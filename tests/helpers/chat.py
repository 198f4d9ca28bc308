"""Asking the REPL's local /chat a question, as the REPL does, and reading its answer."""
from __future__ import annotations

from pathlib import Path
from typing import Dict

import pytest

import glean_personal
from glean_personal import search as search_module
from glean_personal.surfaces.local_backend import LocalBackend

from .files import write_tree


def indexed_notes(tmp: Path, files: Dict[str, str], store: str) -> Path:
    """An index (tmp/p.db) of {name: text} written under tmp/notes, in the store named."""
    folder = write_tree(tmp / "notes", files)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GLEAN_PERSONAL_STORE", store)
        with glean_personal.open_index(tmp / "p.db") as ix:
            ix.index(folder, label="notes")
            assert ix.store.kind == store
    return tmp / "p.db"


def tuned(monkeypatch, **changes) -> None:
    """Search's tuning with `changes` for the rest of the test (a rule turned off)."""
    monkeypatch.setattr(search_module, "TUNING", search_module.TUNING.replace(**changes))


@pytest.fixture(autouse=True)
def large_index(monkeypatch):
    """A few notes make a small index, where /chat never declines for a foreign word
    and two words are enough; a test module that imports this fixture tests the
    rules of a large one."""
    tuned(monkeypatch, small_index=0)


def passage_search(db, question: str):
    """A passage search (as /chat reads one) on the index at `db`."""
    with glean_personal.open_index(db, readonly=True) as ix:
        return ix.search(question, passages=True)


def top_passage(db, question: str):
    """The first hit of a passage search (as /chat reads them) on the index at `db`."""
    with glean_personal.open_index(db, readonly=True) as ix:
        return ix.search(question, passages=True).results[0]


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
