"""Layers with one direction of dependency: a module never imports from above itself."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "glean_personal"

# Lower numbers are lower layers; a module may import its own layer or below.
LAYERS = {
    "errors": 0, "config": 0, "document": 0, "porter": 0,
    "analysis": 1, "query": 1, "evaluation": 1,
    "formats": 2, "passages": 2, "phrases": 2, "redact": 2,
    "store": 3,
    "walk": 4, "workers": 4, "indexer": 4, "search": 4, "graph": 4, "relocate": 4,
    "api": 5,
    "render": 6, "client_render": 6, "local_backend": 6,
    "cli": 7, "repl": 7, "mcp": 7, "__main__": 7, "__init__": 8,
}


def _layer(parts) -> int:
    return LAYERS[parts[0]]


def _imports(path: Path):
    rel = path.relative_to(PACKAGE).with_suffix("").parts
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if node.module and node.module.split(".")[0] == "glean_personal":
                    target = node.module.split(".")[1:]
                    names = [target] if target else [[a.name] for a in node.names]
                else:
                    continue
            else:
                base = list(rel[:len(rel) - node.level])
                target = base + (node.module.split(".") if node.module else [])
                names = [target] if target else [[a.name] for a in node.names]
            for t in names:
                if t:
                    yield node.lineno, t


def test_no_module_imports_from_a_higher_layer():
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("").parts
        mine = _layer(rel)
        for line, target in _imports(path):
            if target[0] not in LAYERS:
                continue
            if _layer(target) > mine:
                bad.append(f"{'/'.join(rel)}.py:{line} imports {'.'.join(target)}")
    assert bad == []


def test_only_the_store_speaks_sql():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).parts
        if rel[0] == "store":
            continue
        text = path.read_text(encoding="utf-8")
        assert ".execute(" not in text and "import sqlite3" not in text, path.name
