"""Helpers the tests share, imported as `helpers.<module>` (tests/ is on sys.path).

    files.py    small folders of real files (write_tree, bump_mtime)
    sqlite.py   what this interpreter's SQLite can do (needs_fts5)
    guard.py    guarded subprocesses: open log, network refusal, index driver, raw reads
    zips.py     hand-written ZIP archives for the Office bombs
    corpora.py  generated and hand-written corpora, and what the index stored
    templates.py  an index built once per session and store kind, copied for each test
    documents.py  a reader's document as the file's lines (lines_of)

conftest.py holds fixtures only; no test imports from conftest or from another test.
"""
