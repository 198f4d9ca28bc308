"""Shared fixtures: both store kinds, a private home, a fresh index.

Helpers that tests import (files, guards, corpora) live in tests/helpers/.
"""
from __future__ import annotations

import os

import pytest

import glean_personal

STORE_KINDS = ("fts5", "plain")


@pytest.fixture(params=STORE_KINDS)
def store_kind(request, monkeypatch) -> str:
    """Run the test once per store kind (the env var picks the kind at creation)."""
    monkeypatch.setenv("GLEAN_PERSONAL_STORE", request.param)
    return request.param


@pytest.fixture(scope="session", autouse=True)
def _bytecode_cache(tmp_path_factory):
    """The Pythons the tests start share one bytecode cache for the session.

    Where PYTHONDONTWRITEBYTECODE is set (as on this project's machines), every
    `python -m glean_personal` a test starts would compile the package, and the
    modules it imports, from source again: about a third of its CPU time. The
    children write and read their bytecode in a session folder instead
    (PYTHONPYCACHEPREFIX), never beside the sources; a child started with its
    own PYTHONDONTWRITEBYTECODE reads the cache and adds nothing to it. What
    the code does is the same either way: only compiling is saved.
    """
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        yield
        return
    mp = pytest.MonkeyPatch()
    mp.setenv("PYTHONPYCACHEPREFIX", str(tmp_path_factory.mktemp("pycache")))
    mp.delenv("PYTHONDONTWRITEBYTECODE")
    yield
    mp.undo()


@pytest.fixture(autouse=True)
def _private_home(tmp_path_factory, monkeypatch):
    """Never touch the real ~/.gleancode: every test gets its own home."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("GLEAN_PERSONAL_DB", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.fixture
def open_ix(tmp_path, store_kind):
    """open_index on a fresh db in tmp_path, closed after the test."""
    opened = []

    def _open(name: str = "p.db"):
        ix = glean_personal.open_index(tmp_path / name)
        opened.append(ix)
        return ix
    yield _open
    for ix in opened:
        ix.close()
