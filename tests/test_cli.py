"""The command line: the JSON shapes and exit codes of docs/reference.md, one-line errors."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.files import write_tree
from helpers.templates import index_copy

CORPUS = Path(__file__).parent / "data" / "corpus"


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "glean_personal", *map(str, args)],
                          capture_output=True, text=True, input=stdin)


def _build(home: Path) -> Path:
    root = write_tree(home / "notes", {
        "budget.md": "# Budget\n\nThe quarterly budget review covers salary bands.\n",
        "trip.txt": "Packing list for the Lisbon trip: passport, charger.\n",
    })
    path = home / "p.db"
    done = run("index", root, "--db", path, "--json", "--label", "notes")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["source"] == {"root": str(root), "label": "notes"}
    assert (report["added"], report["updated"], report["touched"], report["unchanged"],
            report["removed"], report["skipped"]) == (2, 0, 0, 0, 0, [])
    assert isinstance(report["seconds"], float)
    return path


@pytest.fixture
def db(tmp_path, tmp_path_factory, store_kind):
    """A copy of two notes indexed by the command line once per store kind."""
    return index_copy(tmp_path_factory, "cli", store_kind, _build, tmp_path / "p.db")


def test_help_lists_every_verb():
    out = run("--help").stdout
    for verb in ("index", "search", "link", "related", "status", "sources", "fetch", "extract",
                 "purge", "verify", "export", "evaluate", "repl", "mcp"):
        assert f"    {verb}" in out
    assert run("--version").stdout.startswith("glean-personal ")


def test_search_json_shape(db):
    out = run("search", "salary bands", "--db", db, "--json", "--explain")
    data = json.loads(out.stdout)
    assert data["query"] == "salary bands" and data["store"] in ("fts5", "plain")
    hit = data["results"][0]
    assert set(hit["document"]) >= {"id", "title", "url", "source", "path", "format"}
    assert {"title", "url", "score", "section", "passages_matched", "passages_total",
            "snippets", "matched_terms", "missed_terms", "tied_with_previous"} <= set(hit)
    snip = hit["snippets"][0]
    assert snip["text"] == snip["snippet"] and snip["ranges"][0].keys() == {"startIndex", "endIndex"}


def test_a_page_past_the_last_result_says_so(db):
    """Not "No results": the search found something, only not that far down."""
    out = run("search", "budget", "--offset", "5", "--db", db)
    assert out.returncode == 0
    assert out.stdout == "The offset is past the last result: this search has 1 result.\n"


def test_search_a_query_starting_with_a_dash(db):
    assert run("search", "--db", db, "--", "--force-with-lease").returncode == 0


def test_link_related_json_and_stale_notice(db, tmp_path):
    before = run("related", "budget", "--db", db)
    assert before.returncode == 1 and "run `glean-personal link`" in before.stderr
    data = json.loads(run("link", "--db", db, "--json").stdout)
    assert set(data) >= {"documents", "links", "median_score", "max_degree", "seconds"}
    rel = json.loads(run("related", "budget.md", "--db", db, "--json").stdout)
    assert rel["document"]["path"] == "budget.md" and isinstance(rel["neighbours"], list)


def test_fetch_sources_and_purge(db):
    doc = json.loads(run("fetch", "budget", "--db", db, "--json").stdout)
    assert "salary bands" in doc["text"]
    srcs = json.loads(run("sources", "--db", db, "--json").stdout)
    assert srcs[0]["label"] == "notes" and srcs[0]["documents"] == 2
    assert run("purge", "notes", "--db", db).returncode == 0
    assert json.loads(run("sources", "--db", db, "--json").stdout) == []
    assert (Path(srcs[0]["root"]) / "budget.md").exists()


@pytest.mark.parametrize("args, code, words", [
    (["search"], 2, "required"),
    (["search", "x", "--limit", "zero"], 2, "whole number"),
    (["search", "x", "--after", "yesterday"], 2, "date"),
    (["frobnicate"], 2, "invalid choice"),
    (["index", "/definitely/not/here"], 1, "no such file or folder"),
    (["fetch", "nothing-like-this"], 1, "no indexed document"),
    (["fetch", "100000000000000000000"], 1, "no indexed document"),   # past SQLite's integers
    (["fetch", "²"], 1, "no indexed document"),                       # isdigit, yet not int()
    (["related", "100000000000000000000"], 1, "no indexed document"),
    (["search", "budget", "--source", ""], 2, "expected a name, got an empty one"),
    (["search", "budget", "--type", " "], 2, "expected a name, got an empty one"),
    (["search", "budget", "--path", ""], 2, "expected a name, got an empty one"),
    (["fetch", "budget", "--section", "Salaries"], 1, "no section"),
])
def test_errors_are_one_line_with_the_right_code(db, args, code, words):
    out = run(*args, "--db", db)
    assert out.returncode == code
    assert words in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


def test_an_ambiguous_fragment_lists_the_candidates(db):
    out = run("fetch", ".", "--db", db)
    assert out.returncode == 1 and "matches 2 documents" in out.stderr
    assert "budget.md" in out.stderr and "trip.txt" in out.stderr


def test_extract_shows_a_document_or_why_not(tmp_path):
    docx = CORPUS / "python-docx" / "test.docx"
    data = json.loads(run("extract", docx, "--json").stdout)
    assert data["format"] == "docx" and data["sections"]
    empty = tmp_path / "empty.md"
    empty.write_bytes(b"")
    out = run("extract", empty)
    assert out.returncode == 1 and "empty file" in out.stdout


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32", reason="symlinks")
def test_extract_says_why_index_skips_a_symbolic_link(tmp_path):
    """`extract` shows what `index` gets: a link is not followed, and it says where the
    file is read instead (it printed the target's text)."""
    note = tmp_path / "note.md"
    note.write_text("# Note\n\nPlant the garlic in October.\n")
    (tmp_path / "link.md").symlink_to(note)
    (tmp_path / "loop.md").symlink_to(tmp_path / "loop.md")
    (tmp_path / "gone.md").symlink_to(tmp_path / "nowhere.md")
    out = run("extract", tmp_path / "link.md")
    assert out.returncode == 1 and "garlic" not in out.stdout
    assert "not followed" in out.stdout and str(note) in out.stdout
    assert "symbolic link loop" in run("extract", tmp_path / "loop.md").stdout
    assert "broken symbolic link" in run("extract", tmp_path / "gone.md").stdout
    assert "garlic" in run("extract", note).stdout


def test_extract_never_opens_a_secret_looking_file(tmp_path):
    """`extract` says what `index` would do (review16): a secret-looking file, one in a
    secret folder, or a link to one, is "never read"; it printed the file's text."""
    root = write_tree(tmp_path / "f", {".env": "API_PASSWORD=hunter2-swordfish",
                                       ".ssh/config": "Host hunter2-swordfish",
                                       "keys/server.pem": "hunter2-swordfish"})
    (root / "innocent.md").symlink_to(root / ".env")
    for name in (".env", ".ssh/config", "keys/server.pem", "innocent.md"):
        out = run("extract", root / name)
        assert out.returncode == 1, name
        assert "secret-looking file: never read" in out.stdout
        assert "hunter2" not in out.stdout + out.stderr
        data = json.loads(run("extract", root / name, "--json").stdout)
        assert data["skipped"] == "secret-looking file: never read"


def test_status_skips_lists_the_last_runs_skips(tmp_path, store_kind):
    root = write_tree(tmp_path / "f", {"ok.md": "fine", "pic.png": "x", ".env": "SECRET=1"})
    db = tmp_path / "p.db"
    run("index", root, "--db", db, "--quiet")
    out = run("status", "--skips", "--db", db).stdout
    assert "pic.png: unsupported file type .png" in out and ".env: secret-looking" in out


def test_the_parser_built_for_one_verb_parses_as_the_whole_one(monkeypatch):
    """cli.main builds only the verb its command line names: the same help, the same values."""
    import argparse
    import contextlib
    import io

    from glean_personal.surfaces.args import build_parser

    monkeypatch.setenv("COLUMNS", "80")
    whole = build_parser()
    sub = next(a for a in whole._actions if isinstance(a, argparse._SubParsersAction))

    def helped(parser, verb):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
            parser.parse_args([verb, "--help"])
        return out.getvalue()

    assert len(sub.choices) > 10
    for verb in sub.choices:
        one = build_parser(verb)
        built = next(a for a in one._actions if isinstance(a, argparse._SubParsersAction))
        assert list(built.choices) == [verb]
        assert helped(one, verb) == helped(whole, verb), verb
    for argv in (["search", "rotate logs", "--limit", "3", "--json"],
                 ["index", "notes", "--include", "*.md", "--label", "n"], ["status"], ["repl"]):
        assert vars(build_parser(argv[0]).parse_args(argv)) == vars(whole.parse_args(argv))
    assert build_parser("--help").format_help() == whole.format_help()


def test_links_out_of_the_folder_in_the_text_report(tmp_path, store_kind):
    """A link out of the folder names its target: each target was a summary line of its
    own, and a target's line break or colour code went to the terminal as it was."""
    root, outside = tmp_path / "notes", tmp_path / "outside"
    write_tree(root, {"a.md": "# A\n\nlanternfish\n"})
    for name in ("R-intro", "R-lang", "odd\nname\x1b[31m"):
        (outside / name).mkdir(parents=True)
        os.symlink(outside / name, root / name.split("\n")[0])
    done = run("index", root, "--db", tmp_path / "p.db")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "        3  symbolic link leads outside the folder" in lines
    assert "\x1b" not in done.stdout
    odd = [line for line in lines if line.startswith("    odd: ")]
    assert odd == ["    odd: symbolic link leads outside the folder, to "
                   f"{outside}/odd\\nname\\x1b[31m: never followed "
                   "(index that folder to search its files)"]
    status = run("status", "--skips", "--db", tmp_path / "p.db").stdout
    assert "\x1b" not in status and "odd\\nname" in status


def test_a_file_name_with_a_line_break_keeps_every_output_line_one_line(tmp_path, store_kind):
    """A title taken from such a name is one line; the path in `fetch`, `related` and an
    error line shows the break escaped (the search hit's path line always did)."""
    root = tmp_path / "notes"
    write_tree(root, {"new\nline\tname.txt": "lanternfish harbour\n",
                      "other.txt": "lanternfish harbour quay\n"})
    db_path = tmp_path / "p.db"
    assert run("index", root, "--db", db_path).returncode == 0
    hits = json.loads(run("search", "lanternfish", "--db", db_path, "--json").stdout)["results"]
    named = [h for h in hits if h["document"]["path"] == "new\nline\tname.txt"]
    assert named and named[0]["title"] == "new line name"
    shown = run("search", "lanternfish", "--db", db_path).stdout
    assert "1. new line name" in shown or "2. new line name" in shown
    fetched = run("fetch", "name.txt", "--db", db_path)
    assert fetched.returncode == 0, fetched.stderr
    assert "notes: new\\nline\\tname.txt  (txt, id" in fetched.stdout.splitlines()[1]
    assert run("link", "--db", db_path).returncode == 0
    related = run("related", "other", "--db", db_path).stdout
    assert "(new\\nline\\tname.txt)" in related
    bad = run("status", "--db", root / "new\nline\tname.txt")
    assert bad.returncode == 3
    assert len(bad.stderr.strip().splitlines()) == 1 and "new\\nline\\tname.txt" in bad.stderr


def test_a_word_with_one_dash_excludes_as_typed_on_the_command_line(db):
    """`search budget -lisbon` was refused ("unrecognized arguments: -lisbon", exit 2):
    the shell passes the word alone, and only `search "budget -lisbon"` worked."""
    out = run("search", "quarterly", "-salary", "--db", db, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["query"] == "quarterly -salary" and data["excluded_terms"] == ["salary"]
    assert data["results"] == []
    kept = json.loads(run("search", "--json", "passport", "-salary", "--limit", "3",
                          "--db", db).stdout)
    assert [h["document"]["path"] for h in kept["results"]] == ["trip.txt"]
    assert run("search", "passport", "--bogus", "--db", db).returncode == 2
    assert json.loads(run("search", "--db", db, "--json", "--", "--passport").stdout)["query"] \
        == "--passport"


def test_search_takes_an_abbreviated_flag_with_its_value(db):
    """argparse takes `--lim 1` for `--limit 1`, and `search` did; reading `-word`s as
    query words once made `--lim` a flag with no value and `1` a query word
    ("argument --limit: expected one argument", exit 2)."""
    out = run("search", "--lim", "1", "passport", "--sou", "notes", "--db", db, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["query"] == "passport" and len(data["results"]) == 1
    assert run("search", "passport", "--lim=1", "--db", db).returncode == 0
    ambiguous = run("search", "passport", "--pa", "x", "--db", db)   # --path, --passages
    assert ambiguous.returncode == 2 and "ambiguous" in ambiguous.stderr


def test_bidi_controls_in_folder_and_file_names_are_shown_escaped(tmp_path, store_kind):
    """U+202E in a name reverses what the terminal prints after it; every text output
    shows it escaped, as it shows other control characters (JSON keeps the name)."""
    folder = write_tree(tmp_path / "notes\u202egpj.exe", {"a\u202etxt.md": "# A\n\nquokka\n"})
    db = tmp_path / "p.db"
    outputs = [run("index", folder, "--db", db), run("sources", "--db", db),
               run("status", "--db", db), run("search", "quokka", "--db", db),
               run("fetch", "txt.md", "--db", db),
               run("purge", "nosuch\u202e", "--db", db)]
    for done in outputs:
        assert "\u202e" not in done.stdout + done.stderr, done.args
    assert "notes\\u202egpj.exe" in outputs[0].stdout and "notes\\u202egpj.exe" in outputs[1].stdout
    assert "a\\u202etxt.md" in outputs[3].stdout and "a\\u202etxt.md" in outputs[4].stdout
    assert "nosuch\\u202e" in outputs[5].stderr
    data = json.loads(run("search", "quokka", "--db", db, "--json").stdout)
    assert data["results"][0]["document"]["path"] == "a\u202etxt.md"


@pytest.mark.parametrize("argv", [
    ("link", "--min-score", "nan"), ("link", "--min-score", "inf"),
    ("link", "--min-score=-inf"), ("watch", "--interval", "nan"),
    ("watch", "--interval", "inf"), ("watch", "--interval", "1e10"),
    ("watch", "--interval", "86401"),
])
def test_numbers_that_are_not_finite_are_usage_errors(tmp_path, argv):
    """`nan` and `inf` are words float() takes (review16): `watch --interval nan` (or
    inf, or 1e10: past the clock's range) was an internal error, exit 1, and `link
    --min-score nan` linked as if no floor were set, stored NaN, and every later
    `index` then kept no new link."""
    root = write_tree(tmp_path / "f", {"a.md": "# A\n\nheron weir\n"})
    db = tmp_path / "p.db"
    run("index", root, "--db", db, "--quiet")
    out = run(*argv, "--db", db)
    assert out.returncode == 2, out.stderr
    assert "internal error" not in out.stderr and out.stderr.count("\n") == 1
    assert "expected" in out.stderr


def test_the_api_refuses_times_and_scores_that_are_not_numbers(tmp_path, store_kind):
    import math

    import glean_personal
    from glean_personal.errors import UsageError
    root = write_tree(tmp_path / "f", {"a.md": "# A\n\nheron weir\n"})
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        ix.index(root)
        assert len(ix.search("heron")) == 1
        assert len(ix.search("heron", after=-math.inf, before=math.inf)) == 1
        assert len(ix.search("heron", after=math.inf)) == 0
        assert len(ix.search("heron", before=1e300)) == 1
        for bad in (math.nan, "2024-01-01"):
            with pytest.raises(UsageError, match="after and before"):
                ix.search("heron", after=bad)
        with pytest.raises(UsageError, match="min-score"):
            ix.link(min_score=math.nan)
        for bad in (math.nan, math.inf, 1e10, 0, -1):
            with pytest.raises(UsageError, match="interval"):
                next(ix.watch(interval=bad))


def test_status_counts_agree_with_their_nouns(db):
    out = run("status", "--db", db).stdout
    assert "2 documents, " in out and ", 1 source, " in out and "1 sources" not in out


def test_a_folder_inside_an_indexed_folder_is_flagged_when_added(tmp_path, store_kind):
    """Indexing `files/notes` beside `files` finds every note twice: the run says so."""
    root = write_tree(tmp_path / "files", {"notes/todo.md": "# Todo\n\nRenew the passport.\n",
                                           "trip.md": "# Trip\n\nPack the charger.\n"})
    db = tmp_path / "p.db"
    assert run("index", root, "--db", db).returncode == 0
    added = run("index", root / "notes", "--db", db)
    assert added.returncode == 0
    assert f"warning: the source 'files' ({root}) holds this folder" in added.stdout
    data = json.loads(run("index", root / "notes", "--db", db, "--json").stdout)
    assert "overlaps" not in data   # a refresh: said when the source was added
    data = json.loads(run("index", tmp_path, "--db", db, "--json").stdout)
    assert [(o["label"], o["relation"]) for o in data["overlaps"]] == [
        ("files", "inside it"), ("notes", "inside it")]
