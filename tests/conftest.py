"""Shared fixtures: both store kinds, a private home, a fresh index.

Helpers that tests import (files, guards, corpora) live in tests/helpers/.
"""
from __future__ import annotations

import pytest

import glean_personal

STORE_KINDS = ("fts5", "plain")


@pytest.fixture(params=STORE_KINDS)
def store_kind(request, monkeypatch) -> str:
    """Run the test once per store kind (the env var picks the kind at creation)."""
    monkeypatch.setenv("GLEAN_PERSONAL_STORE", request.param)
    return request.param


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
