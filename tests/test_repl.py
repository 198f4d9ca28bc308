"""The REPL, driven through its stdin like a script (and once through a real subprocess)."""
from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from glean_personal.surfaces import cli, repl
from helpers.corpora import build_index, write_corpus

ROOT = Path(__file__).resolve().parents[1]
COVERED = ("/search", "/chat", "/autocomplete", "/getdocuments")


@pytest.fixture(scope="module", params=["fts5", "plain"])
def db(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"repl-{request.param}")
    return build_index(tmp / "files", tmp / "p.db", request.param)


class _Stdin(io.StringIO):
    def isatty(self) -> bool:
        return False


def run(lines, *argv, monkeypatch, env=None):
    """Feed `lines` to `glean-personal repl ARGV`; returns (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", _Stdin("\n".join(lines) + "\n"))
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    for key, value in (env or {}).items():
        monkeypatch.setenv(key, value)
    code = cli.main(["repl", *argv])
    return code, out.getvalue(), err.getvalue()


def test_personal_search_behaves_like_the_cli_verb(db, monkeypatch, capsys):
    code, out, err = run(["/personal search espresso --limit 1"], "--db", str(db),
                         monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    monkeypatch.undo()
    assert cli.main(["search", "espresso", "--limit", "1", "--db", str(db)]) == 0
    assert out == capsys.readouterr().out


def test_personal_index_uses_the_sessions_db(tmp_path, monkeypatch):
    db = tmp_path / "fresh.db"
    folder = write_corpus(tmp_path / "files")
    code, out, err = run([f"/personal index {folder} --label mine", "/personal sources",
                          "/personal search --json Lisbon --limit 1"],
                         "--db", str(db), monkeypatch=monkeypatch)
    assert code == 0, err
    assert db.exists() and "mine" in out and f"Indexed {folder}" in out
    results = json.loads(out[out.index("{"):])["results"]
    assert results[0]["title"] == "Lisbon trip"


@pytest.mark.parametrize("line, message", [
    ("/personal search espresso --limit many", "--limit"),
    ("/personal search", "QUERY"),
    ("/personal frobnicate", "frobnicate"),
    ("/personal", "needs a verb"),
    ("/personal fetch no-such-doc", "no indexed document"),
    ("/getdocuments \"unclosed", "cannot read"),
    ("/mode cloud", "unknown mode"),
    ("/json maybe", "/json on"),
    ("/chat", "ask something"),
    ("/", "unknown command"),                                    # a slash alone
])
def test_bad_commands_print_one_line_and_the_session_goes_on(db, monkeypatch, line, message):
    code, out, err = run([line, "/search Lisbon"], "--db", str(db), monkeypatch=monkeypatch)
    assert code == 0
    assert len(err.strip().splitlines()) == 1 and message in err
    assert "Traceback" not in err
    assert "Lisbon trip" in out  # the next line still ran


def test_limits_and_offsets_past_sqlites_integers_find_nothing_more(db, monkeypatch):
    huge = "99999999999999999999"
    code, out, err = run([f"/search Lisbon --offset {huge}",
                          f"/personal search Lisbon --offset {huge}",
                          f"/personal search Lisbon --limit {huge}"],
                         "--db", str(db), monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    assert out.count("The offset is past the last result: this search has 1 result.") == 2
    assert "No results" not in out and "Lisbon trip" in out


def test_help_of_a_verb_prints_and_continues(db, monkeypatch):
    code, out, err = run(["/personal status --help", "/help", "/search Lisbon"],
                         "--db", str(db), monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    assert "usage: glean-personal status" in out and "/autocomplete PREFIX" in out
    assert "Lisbon trip" in out


def test_endpoints_render_with_the_local_index_banner(db, monkeypatch):
    code, out, err = run(["/search espresso", "/chat descale the espresso machine",
                          "/autocomplete Lisb", "/getdocuments notes/roadmap.md"],
                         "--db", str(db), monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    assert out.count("[LOCAL INDEX]") == 4
    assert "1. Espresso care" in out
    assert "Descale the espresso machine" in out and "[1] Espresso care" in out
    assert "Lisbon trip" in out and "## Quarter one goals" in out


def test_chat_without_a_good_match_says_so_without_citations(db, monkeypatch):
    code, out, _ = run(["/chat sourdough starter feeding schedule"], "--db", str(db),
                       monkeypatch=monkeypatch)
    assert "has nothing on that" in out and "[1]" not in out and "file://" not in out


@pytest.mark.parametrize("endpoint", ["/people", "/answers how", "/indexing", "/summarize"])
def test_other_endpoints_name_what_local_mode_covers(db, monkeypatch, endpoint):
    code, out, err = run([endpoint, "/quit"], "--db", str(db), monkeypatch=monkeypatch)
    assert code == 0 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert all(c in err for c in COVERED)


def test_json_mode_prints_the_raw_responses(db, monkeypatch):
    code, out, err = run(["/json on", "/search Lisbon", "/people"], "--db", str(db),
                         monkeypatch=monkeypatch)
    assert out.startswith("json on\n")
    decoder = json.JSONDecoder()
    body = out[len("json on\n"):]
    first, end = decoder.raw_decode(body)
    second, _ = decoder.raw_decode(body[end:].lstrip())
    assert first["localIndex"] is True and first["results"][0]["title"] == "Lisbon trip"
    assert "errorInfo" in second


def test_search_json_flag_for_one_line(db, monkeypatch):
    _, out, _ = run(["/search --json Lisbon"], "--json", "--db", str(db), monkeypatch=monkeypatch)
    assert json.loads(out)["metadata"]["searchedQuery"] == "Lisbon"


def test_mode_auto_resolves_to_local_and_says_why(db, monkeypatch):
    for var in ("GLEAN_API_TOKEN", "GLEAN_INSTANCE", "GLEAN_SERVER_URL"):
        monkeypatch.delenv(var, raising=False)
    _, out, _ = run(["/mode", "/mode local", "/mode"], "--db", str(db), monkeypatch=monkeypatch)
    lines = out.splitlines()
    assert "resolved to local" in lines[0] and "no Glean credentials" in lines[0]
    assert lines[1].startswith("mode local") and lines[2].startswith("mode local")
    _, out, _ = run(["/mode auto"], "--db", str(db), monkeypatch=monkeypatch,
                    env={"GLEAN_API_TOKEN": "x", "GLEAN_SERVER_URL": "https://example.invalid"})
    assert "no tenant client" in out and "resolved to local" in out


def test_bare_text_searches_and_quit_ends_the_session(db, monkeypatch):
    code, out, err = run(["# a comment", "", "Lisbon", "/quit", "/search espresso"],
                         "--db", str(db), monkeypatch=monkeypatch)
    assert code == 0 and "Lisbon trip" in out and "Espresso care" not in out


def test_ctrl_c_cancels_the_command_not_the_session(db, monkeypatch):
    calls = []

    def interrupted(self, rest):
        calls.append(rest)
        raise KeyboardInterrupt

    monkeypatch.setattr(repl.Session, "personal", interrupted)
    code, out, err = run(["/personal index /somewhere", "/search Lisbon"], "--db", str(db),
                         monkeypatch=monkeypatch)
    assert code == 0 and calls == ["index /somewhere"]
    assert "interrupted" in err and "Lisbon trip" in out


def test_a_missing_index_is_one_line(tmp_path, monkeypatch):
    code, out, err = run(["/search anything", "/quit"], "--db", str(tmp_path / "none.db"),
                         monkeypatch=monkeypatch)
    assert code == 0 and "no index at" in err and len(err.splitlines()) == 1


def test_advice_on_a_missing_index_names_the_repls_way(tmp_path, monkeypatch):
    code, out, err = run(["/search anything", "/personal status", "/chat what is due",
                          "/json on", "/search anything"], "--db", str(tmp_path / "none.db"),
                         monkeypatch=monkeypatch)
    assert code == 0 and "glean-personal" not in out + err
    assert err.count("run `/personal index FOLDER` first") == 3
    body = json.loads(out[out.index("{"):])
    assert body["errorInfo"]["errorMessages"][0]["errorMessage"].endswith(
        "run `/personal index FOLDER` first")
    assert not (tmp_path / "none.db").exists()
    code, out, err = run(["/personal index", "/personal sources"], "--db",
                         str(tmp_path / "fresh.db"), monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    assert out == "No sources yet: `/personal index FOLDER` adds one.\n" * 2


def test_repl_advice_names_only_verbs_personal_runs():
    assert repl.repl_advice("run `glean-personal link` to refresh; `glean-personal compact` "
                            "gives it back (see `glean-personal --help`)") == (
        "run `/personal link` to refresh; `/personal compact` gives it back "
        "(see `/personal --help`)")
    assert repl.repl_advice("`glean-personal repl` and `glean-personal mcp`") == \
        "`glean-personal repl` and `glean-personal mcp`"


def _cli_verbs():
    import argparse
    from glean_personal.surfaces.args import build_parser
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)


def test_personal_runs_every_verb_its_help_and_refusals_list(db, tmp_path, monkeypatch):
    assert list(repl.PERSONAL_VERBS) == [v for v in _cli_verbs() if v not in ("repl", "mcp")]
    listed = ", ".join(repl.PERSONAL_VERBS)
    note = write_corpus(tmp_path / "files") / "notes" / "espresso.md"
    code, out, err = run(["/help", "/personal repl", "/personal mcp", "/personal serch x",
                          "/personal", "/personal --db x.db repl", f"/personal extract {note}",
                          f"/personal export {tmp_path / 'copy.db'}"], "--db", str(db),
                         monkeypatch=monkeypatch)
    assert code == 0
    assert listed in " ".join(out.split())   # /help, as it wraps the list
    refusals = err.splitlines()
    assert refusals == [
        f"error: /personal repl is not a verb the REPL runs; /personal runs {listed}",
        f"error: /personal mcp is not a verb the REPL runs; /personal runs {listed}",
        f"error: /personal serch: no such verb (did you mean search?); /personal runs {listed}",
        f"error: /personal needs a verb: {listed}",
        f"error: /personal x.db: no such verb; /personal runs {listed}"]   # as the parser reads it
    assert "Title: Espresso care" in out and (tmp_path / "copy.db").exists()


def test_personal_help_lists_the_verbs_it_runs(db, monkeypatch):
    """`/personal --help` had printed `glean-personal --help`, whose verbs include
    `repl` and `mcp`, which /personal refuses."""
    code, out, err = run(["/personal --help", "/personal help", "/personal status --help"],
                         "--db", str(db), monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    listing, rest = out.split("`/personal VERB --help` shows a verb's flags.\n", 1)
    verbs = [line.split()[0] for line in listing.splitlines() if line.startswith("  ")]
    assert verbs == list(repl.PERSONAL_VERBS) and "  search    ranked documents" in listing
    assert rest.count("/personal VERB [ARGS] runs") == 1 and "usage: glean-personal status" in rest


def test_repl_md_lists_the_verbs_personal_runs():
    text = (ROOT / "docs" / "repl.md").read_text(encoding="utf-8")
    bullet = text[text.index("- `/personal VERB …` runs any command-line verb"):]
    bullet = " ".join(bullet[:bullet.index(")")].split())
    assert bullet.endswith("(" + ", ".join(f"`{v}`" for v in repl.PERSONAL_VERBS))


def test_bad_repl_arguments_exit_2_with_one_line(monkeypatch):
    code, out, err = run([], "--bogus", monkeypatch=monkeypatch)
    assert code == 2 and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("line, text, expected", [
    ("/pe", "/pe", ["/personal "]),
    ("/personal se", "se", ["search "]),
    ("/personal search --li", "--li", ["--limit"]),
    ("/personal index x --ex", "--ex", ["--exclude"]),
    ("/mode a", "a", ["auto"]),
    ("/json o", "o", ["on", "off"]),
    ("/search foo", "foo", []),
])
def test_tab_completion_of_commands_and_flags(line, text, expected):
    assert repl.completions(line, text) == expected


def test_history_file_is_private_and_beside_the_index(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("GLEAN_PERSONAL_DB", raising=False)
    monkeypatch.delenv(repl.HISTORY_ENV, raising=False)
    readline = pytest.importorskip("readline")
    path = repl.history_path()
    assert path == Path(tmp_path, ".gleancode", "repl_history")
    handle = repl._setup_readline()
    readline.add_history("/search espresso")
    repl._save_history(handle)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_history_of_another_index_stays_beside_it_not_in_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("GLEAN_PERSONAL_DB", raising=False)
    monkeypatch.delenv(repl.HISTORY_ENV, raising=False)
    db = tmp_path / "work" / "p.db"
    db.parent.mkdir()
    assert repl.history_path(str(db)) == tmp_path / "work" / "p.db.history"
    readline = pytest.importorskip("readline")
    handle = repl._setup_readline(str(db))
    readline.add_history("/search espresso")
    repl._save_history(handle, str(db))
    assert (tmp_path / "work" / "p.db.history").exists() and list(home.iterdir()) == []
    monkeypatch.setenv(repl.HISTORY_ENV, str(tmp_path / "h"))
    assert repl.history_path(str(db)) == tmp_path / "h"
    monkeypatch.setenv(repl.HISTORY_ENV, "")
    assert repl.history_path(str(db)) is None


def test_more_and_offset_page_through_a_search(db, monkeypatch):
    code, out, err = run(["/search notes OR trip OR espresso OR roadmap --limit 2", "/more",
                          "/search notes OR trip OR espresso OR roadmap --limit 2 --offset 2"],
                         "--db", str(db), monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    pages = out.split("[LOCAL INDEX]\n")[1:]
    assert len(pages) == 3 and pages[0].startswith("1. ") and pages[1].startswith("3. ")
    assert pages[1] == pages[2]
    assert "/more shows the next page (or /search … --offset 2)" in pages[0]


def test_more_without_a_search_or_past_the_end_says_so(db, monkeypatch):
    code, out, err = run(["/more", "/search Lisbon", "/more"], "--db", str(db),
                         monkeypatch=monkeypatch)
    assert "nothing to page yet" in err and "no more results for 'Lisbon'" in err


@pytest.mark.parametrize("query", ["espresso --source nope", "espresso --type nosuch",
                                   "espreso", "espreso Lisbon"])
def test_search_says_what_the_command_line_says_of_its_query(db, monkeypatch, capsys, query):
    code, out, err = run([f"/search {query}"], "--db", str(db), monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    monkeypatch.undo()
    assert cli.main(["search", *query.split(), "--db", str(db)]) == 0
    said = capsys.readouterr().out.splitlines()
    if said[0].startswith("No results for "):   # then the notices, absent words, did-you-mean
        words = query.split(" --")[0]
        assert out.splitlines()[1:] == [f"No results for {words!r}."] + said[1:]
    else:                                       # the absent words and did-you-mean, then hits
        notes = said[:said.index("")]
        assert notes and out.splitlines()[1:len(notes) + 2] == notes + [""]


def test_the_last_page_says_so_and_a_more_after_it_that_there_is_none(db, monkeypatch):
    query = "notes OR trip OR espresso OR roadmap OR compost"
    code, out, err = run([f"/search {query} --limit 100"], "--db", str(db),
                         monkeypatch=monkeypatch)
    total = out.count("\n   file://")
    assert total >= 3 and out.rstrip().endswith(f"End of results ({total} in all).")
    pages = -(-total // 2)
    code, out, err = run([f"/search {query} --limit 2"] + ["/more"] * pages, "--db", str(db),
                         monkeypatch=monkeypatch)
    shown = out.split("[LOCAL INDEX]\n")[1:]
    assert len(shown) == pages
    assert all("End of results" not in page and "/more shows the next page" in page
               for page in shown[:-1])
    assert shown[-1].rstrip().endswith(f"End of results ({total} in all).")
    assert "/more shows" not in shown[-1]
    assert err == f"error: no more results for {query!r}\n"


def test_search_flags_are_parsed_as_the_command_line_parses_them(db, monkeypatch):
    code, out, err = run(["/search espresso OR Lisbon --limit 1",
                          "/search espresso OR Lisbon --type html",
                          "/search espresso OR Lisbon --path 'web/*' --json",
                          "/search espresso -descale --limit 5",
                          "/search espresso --bogus", "/search espresso --limit x",
                          "/search --limit 2"],
                         "--db", str(db), monkeypatch=monkeypatch)
    first, second, third = out.split("[LOCAL INDEX]\n")[1:4]
    assert first.count("file://") == 1 and "--limit" not in first
    assert "Lisbon trip" in second and "Espresso care" not in second
    data, _ = json.JSONDecoder().raw_decode(second[second.index("{"):])
    assert data["metadata"]["searchedQuery"] == "espresso OR Lisbon"
    assert [r["document"]["metadata"]["path"] for r in data["results"]] == ["web/lisbon.html"]
    assert "'espresso -descale'" in third   # the exclusion stayed in the query
    errors = err.splitlines()
    assert "does not take --bogus; it takes --after" in errors[0]
    assert "--limit" in errors[1] and "whole number" in errors[1]
    assert "search for something" in errors[2]


def test_unknown_commands_say_so_and_suggest_the_nearest(db, monkeypatch):
    code, out, err = run(["/serch Lisbon", "/foo", "/mroe"], "--db", str(db),
                         monkeypatch=monkeypatch)
    lines = err.splitlines()
    assert lines[0].startswith("error: unknown command /serch; did you mean /search?")
    assert lines[1] == "error: unknown command /foo (/help lists the commands)"
    assert "did you mean /more?" in lines[2]


def test_banner_gives_local_facts_and_no_credentials_talk(db, monkeypatch):
    for var in ("GLEAN_API_TOKEN", "GLEAN_INSTANCE", "GLEAN_SERVER_URL"):
        monkeypatch.delenv(var, raising=False)
    session = repl.Session(str(db))
    try:
        banner = session.banner()
    finally:
        session.close()
    assert "6 documents in 1 source(s) (notes)" in banner and str(db) in banner
    assert "credential" not in banner.lower() and "Glean" not in banner.replace("glean-", "")
    monkeypatch.setenv("GLEAN_API_TOKEN", "x")
    monkeypatch.setenv("GLEAN_SERVER_URL", "https://example.invalid")
    session = repl.Session(str(db))
    try:
        assert "no tenant client" in session.banner()
    finally:
        session.close()


@pytest.mark.parametrize("argv", [["repl"], []])
def test_subprocess_reads_stdin_without_prompt_noise(db, argv):
    env = dict(os.environ, PYTHONPATH=str(ROOT), GLEAN_PERSONAL_DB=str(db))
    proc = subprocess.run([sys.executable, "-m", "glean_personal"] + argv,
                          input="/search Lisbon\n/autocomplete Lis\n", capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "glean[" not in proc.stdout and proc.stderr == ""
    assert proc.stdout.startswith("[LOCAL INDEX]\n1. Lisbon trip")


def test_search_help_is_the_command_lines_help(db, monkeypatch):
    code, out, err = run(["/search --help"], "--db", str(db), monkeypatch=monkeypatch)
    assert code == 0 and err == "" and out.startswith("usage: /search")
    assert "--offset N" in out and "--path GLOB" in out


def test_control_characters_in_names_never_reach_the_terminal(tmp_path, monkeypatch):
    """A file or folder named with terminal escapes (set the title, write the clipboard,
    clear the screen) is shown escaped by every text surface; JSON is untouched."""
    folder = tmp_path / "notes\x1b]0;owned\x07"
    folder.mkdir()
    (folder / "\x1b[2Jred\x9b1m.md").write_text("# Red\n\nlanternfish swim in the deep\n")
    (folder / "plain.md").write_text("# Plain\n\nlanternfish again, and the deep\n")
    db = tmp_path / "p.db"
    lines = [f"/personal index {tmp_path / 'notes'}\x1b]0;owned\x07 --label a", "/personal link",
             "/search lanternfish", "/chat lanternfish deep", "/getdocuments 1",
             "/personal fetch red", "/personal related red", "/personal search lanternfish",
             "/personal sources", "/personal fetch nothing\x1b[2J"]
    lines[0] = "/personal index '" + str(folder) + "' --label a"
    code, out, err = run(lines, "--db", str(db), monkeypatch=monkeypatch)
    assert code == 0
    for text in (out, err):
        assert not any(ch in text for ch in "\x07\x9b"), text
        assert "\x1b" not in text.replace("\x1b[1m", "").replace("\x1b[2m", "").replace(
            "\x1b[0m", ""), text
    assert "\\x1b[2Jred\\x9b1m.md" in out and "lanternfish" in out
    code, out, _ = run(["/json on", "/search lanternfish"], "--db", str(db),
                       monkeypatch=monkeypatch)
    assert "\\u001b[2Jred\\u009b1m.md" in out or "\x9b" in out   # JSON keeps the real name


def test_chat_citation_names_a_title_its_heading_path_repeats_once(tmp_path, monkeypatch):
    # A Markdown or reStructuredText page's first heading is its title and the top of
    # every heading path: the citation reads "Copies and views › View", not the title twice.
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "copies.md").write_text(
        "# Copies and views\n\n## View\n\nA view shares the data buffer of the array it was "
        "made from, so a change made to a view shows in the original array.\n", encoding="utf-8")
    db = tmp_path / "c.db"
    assert cli.main(["index", str(folder), "--db", str(db)]) == 0
    code, out, _ = run(["/chat does a change made to a view show in the original array"],
                       "--db", str(db), monkeypatch=monkeypatch)
    assert code == 0 and "[1] Copies and views \u203a View\n" in out, out


@pytest.mark.parametrize("line, searched", [
    ("/search what's the Lisbon trip", "what's the Lisbon trip"),      # an apostrophe
    ('/search "Lisbon trip" passport', '"Lisbon trip" passport'),      # a phrase keeps its quotes
    ('/search "Lisbon trip', '"Lisbon trip'),                          # a quote left open
    ("/search --source 'notes' '\"Lisbon trip\"'", '"Lisbon trip"'),   # shell-style quoting
    ('/search --limit "3" Lisbon', "Lisbon"),
])
def test_a_search_line_is_a_query_as_typed_never_a_shell_error(db, monkeypatch, line, searched):
    """`/search what's …` once answered "cannot read that line (No closing quotation)",
    and `/search "a b"` lost its quotes (two words ORed, not the phrase)."""
    code, out, err = run([line.replace("/search", "/search --json", 1)], "--db", str(db),
                         monkeypatch=monkeypatch)
    assert err == "", err
    answer = json.loads(out)
    assert answer["metadata"]["searchedQuery"] == searched


def test_query_split_keeps_phrases_and_apostrophes():
    assert repl.query_split("it's \"a b\" c") == ["it's", '"a b"', "c"]
    assert repl.query_split('x "open to the end') == ["x", '"open to the end']
    assert repl.query_split("--source 'my notes' y") == ["--source", "my notes", "y"]
    assert repl.query_split("don't 'x") == ["don't", "'x"]
    assert repl.query_split("   ") == []


@pytest.mark.parametrize("kind", ["fts5", "plain"])
def test_a_path_with_bidi_or_control_characters_is_shown_escaped(tmp_path, monkeypatch, kind):
    """A file name holding U+202E (right-to-left override) or a tab shows escaped in
    /search and /getdocuments, as the command line shows it: raw, the override
    reverses what the terminal prints after it (`invoice\\u202eexe.md` reads as
    `invoicedm.exe`)."""
    import glean_personal
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "invoice\u202eexe.md").write_text("# Invoice\n\nThe quokka invoice.\n")
    (folder / "tab\there.md").write_text("# Tabbed\n\nThe quokka tab.\n")
    monkeypatch.setenv("GLEAN_PERSONAL_STORE", kind)
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        ix.index(folder, label="files")
    code, out, err = run(["/search quokka", "/getdocuments invoice", "/getdocuments tab"],
                         "--db", str(tmp_path / "p.db"), monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    assert "\u202e" not in out and "tab\there" not in out
    assert out.count("files: invoice\\u202eexe.md") == 2
    assert out.count("files: tab\\there.md") == 2
