"""A document's language (declared, else its text's, else its path's), a question's, and
search preferring the question's language, on both stores, over real-shaped files."""
from __future__ import annotations

import sqlite3

import pytest

from glean_personal import search as search_module
from glean_personal.language import (declared_in_markup, document_language, named_language,
                                     normalise,
                                     path_hint, query_language, text_language)
from helpers.files import write_tree

# A manual's page and its translation, as Apache httpd ships them (`manual/en/`,
# `manual/de/`, each page saying its language), with a German letter and English
# notes beside them that say nothing of their language.
_EN_PAGE = """<!DOCTYPE html>
<html lang="en"><head><title>Binding to Addresses and Ports - Apache HTTP Server</title></head>
<body><h1>Binding to Addresses and Ports</h1>
<p>Configuring Apache HTTP Server to listen on specific addresses and ports. When httpd
starts, it binds to some port and address on the local machine and waits for incoming
requests. By default, it listens to all addresses on the machine. However, it may need
to be told to listen on specific ports, or only on selected addresses, or a combination
of both. This is often combined with the Virtual Host feature, which determines how
httpd responds to different IP addresses, hostnames and ports.</p>
<p>The Listen directive tells the server to accept incoming requests only on the
specified ports or address-and-port combinations. If only a port number is specified in
the Listen directive, the server listens to the given port on all interfaces. If an IP
address is given as well as a port, the server will listen on the given port and
interface. Multiple Listen directives may be used to specify a number of addresses and
ports to listen on.</p></body></html>
"""
_DE_PAGE = """<!DOCTYPE html>
<html lang="de"><head><title>An Adressen und Ports binden - Apache HTTP Server</title></head>
<body><h1>An Adressen und Ports binden</h1>
<p>Konfiguration der vom Apache HTTP Server verwendeten Adressen und Ports. Beim Start
bindet sich der httpd an bestimmte Adressen und Ports der lokalen Maschine und wartet
auf eingehende Anfragen. Standardmäßig lauscht er an allen Adressen des Systems. Es
kann jedoch notwendig sein, ihm mitzuteilen, nur an bestimmten Ports oder nur an
ausgewählten Adressen zu lauschen. Die Listen Direktive legt die Ports des httpd fest:
Listen 80.</p>
</body></html>
"""
_LETTER = """Sehr geehrte Frau Weber,

die Heizung in meiner Wohnung ist seit dem ersten Dezember ausgefallen. Ich habe den
Hausmeister zweimal angerufen, aber es ist noch nichts passiert. Die Heizkörper bleiben
kalt, auch wenn das Thermostat auf fünf steht. Ich bitte Sie, den Schaden bis zum Ende
der Woche beheben zu lassen, und behalte mir vor, die Miete für diese Zeit zu mindern.

Mit freundlichen Grüßen
Anna Schmidt
"""
_NOTES = """Heating notes

The radiators in the flat stay cold when the thermostat is on five. I called the
caretaker twice about the heating, and nothing has happened yet. Next step: write to
the landlord and ask for the repair to be done by the end of the week.
"""
FILES = {"manual/en/bind.html": _EN_PAGE, "manual/de/bind.html": _DE_PAGE,
         "post/brief-vermieterin.txt": _LETTER, "post/heating.txt": _NOTES,
         "recipes/bread.md": "# Sourdough bread\n\nFeed the starter the night before, then mix "
                             "flour, water and salt, and leave the dough to rise for four hours.\n",
         "recipes/soup.md": "# Lentil soup\n\nSoften an onion and a carrot in oil, add the red "
                            "lentils and the stock, and simmer for twenty minutes.\n",
         "garden.md": "# Garden\n\nPrune the apple tree in February, before the buds open, and "
                      "mulch the beds with compost in spring.\n"}


def _indexed(tmp_path, open_ix, files):
    ix = open_ix()
    report = ix.index(write_tree(tmp_path / "files", files), label="files")
    assert report.added == len(files)
    return ix


@pytest.fixture
def ix(tmp_path, open_ix):
    return _indexed(tmp_path, open_ix, FILES)


def _paths(result):
    return [h.document["path"] for h in result.results]


def _stored_languages(ix) -> dict:
    conn = sqlite3.connect(ix.store.path)
    try:
        return dict(conn.execute("SELECT path, lang FROM documents"))
    finally:
        conn.close()


def test_each_document_keeps_its_language(ix):
    assert _stored_languages(ix) == {"manual/en/bind.html": "en", "manual/de/bind.html": "de",
                                     "post/brief-vermieterin.txt": "de",
                                     "post/heating.txt": "en", "recipes/bread.md": "en",
                                     "recipes/soup.md": "en", "garden.md": "en"}


def test_an_english_question_prefers_the_english_page(ix, monkeypatch):
    question = "how do I make the server listen on ports 80 and 8000"
    assert _paths(ix.search(question))[0] == "manual/en/bind.html"
    # the translation, shorter and holding every number, leads when languages weigh alike
    monkeypatch.setattr(search_module, "TUNING", search_module.TUNING.replace(other_language=1.0))
    assert _paths(ix.search(question))[0] == "manual/de/bind.html"


def test_a_german_question_prefers_the_german_page(ix, monkeypatch):
    question = "welche Ports nutzt der Server"
    damped = {h.document["path"]: h.score for h in ix.search(question).results}
    assert list(damped)[0] == "manual/de/bind.html"
    monkeypatch.setattr(search_module, "TUNING", search_module.TUNING.replace(other_language=1.0))
    alike = {h.document["path"]: h.score for h in ix.search(question).results}
    assert damped["manual/en/bind.html"] == pytest.approx(alike["manual/en/bind.html"] / 2)
    assert damped["manual/de/bind.html"] == pytest.approx(alike["manual/de/bind.html"])


def test_nothing_disappears(ix):
    # a translation asked for by its own words is found, and an English question still
    # lists the German page after the English one
    assert _paths(ix.search("lauschen Adressen"))[0] == "manual/de/bind.html"
    assert _paths(ix.search("the heating is cold")) == ["post/heating.txt",
                                                        "post/brief-vermieterin.txt"]
    assert _paths(ix.search("warum bleibt die Heizung kalt"))[0] == "post/brief-vermieterin.txt"


def test_a_keyword_query_takes_the_index_main_language(ix):
    # no function words: the language most of the index is in (English, by passages)
    assert query_language("Listen ports") is None
    assert _paths(ix.search("Listen ports"))[0] == "manual/en/bind.html"


@pytest.mark.parametrize("text, expected", [
    (_EN_PAGE, "en"), (_LETTER, "de"), (_NOTES, "en"),
    ("Pour configurer un hôte virtuel, il faut ajouter une section dans le fichier de "
     "configuration et redémarrer le serveur. Les noms des hôtes sont dans la liste qui "
     "est sur la page suivante, avec les adresses et les ports que vous pouvez utiliser.", "fr"),
    ("Para configurar el servidor es necesario editar el fichero de configuración y reiniciar "
     "el servicio. Los nombres de los hosts están en la lista que se encuentra en la página "
     "siguiente, con las direcciones y los puertos que se pueden usar.", "es"),
    ("バックアップを作成するには、ファイルメニューから保存を選択します。", "ja"),
    ("Резервная копия создаётся из меню Файл.", "ru"),
    ("백업을 만들려면 파일 메뉴에서 저장을 선택하십시오.", "ko"),
    ("def main():\n    return run(argv[1:])\n", None),   # code says nothing
    ("Listen 80\nListen 8000\n", None),
])
def test_text_language(text, expected):
    assert text_language(text) == expected


@pytest.mark.parametrize("question, expected", [
    ("how do I make apache serve a folder", "en"),
    ("what is a split transaction", "en"),
    ("wie lege ich ein neues Konto an", "de"),
    ("comment configurer un hôte virtuel", "fr"),
    ("cómo configurar el servidor", "es"),
    ("mod_rewrite RewriteRule", None),              # keywords alone: undecided
    ("set up mod_rewrite in apache", None),         # *in* is English, German, Dutch…
    ("東京の天気", "ja"),
])
def test_query_language(question, expected):
    assert query_language(question) == expected


@pytest.mark.parametrize("head, expected", [
    (b'<!DOCTYPE html SYSTEM "about:legacy-compat">\n<html lang="pt-br"><head>', "pt"),
    (b'<?xml version="1.0"?>\n<book xml:lang="it"><title>', "it"),
    (b'<html><head><meta http-equiv="Content-Language" content="de-DE"></head>', "de"),
    (b'<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en-US" lang="en-US">', "en"),
    (b'<html><body><p>no language said</p>', None),
    (b'<html lang="x-klingon">', None),
])
def test_declared_in_markup(head, expected):
    assert declared_in_markup(head) == expected


@pytest.mark.parametrize("path, expected", [
    ("manual/de/bind.html", "de"), ("gnucash-guide-it/index.html", "it"),
    ("index.html.fr", "fr"), ("mod/core.html.ja.utf8", "ja"), ("guide.de.md", "de"),
    ("docs/en-US/intro.html", "en"), ("po/zh_CN/notes.txt", "zh"),
    ("src/tool.pl", None), ("lisp/mode.el", None), ("my-docs/x.md", None),
])
def test_path_hint(path, expected):
    assert path_hint(path) == expected


def test_the_file_says_first_then_its_text_then_its_path():
    # Debian's `manual/en/bind.html` of Apache httpd 2.4 is the Brazilian translation
    assert document_language(_NOTES, "pt", "manual/en/bind.html") == "pt"
    assert document_language(_LETTER, None, "manual/en/letter.txt") == "de"
    assert document_language("Listen 80", None, "manual/fr/listen.txt") == "fr"
    assert document_language("Listen 80", None, "listen.txt") is None
    assert normalise("nb-NO") == "no" and normalise("C") is None


# A manual and its German translation as GnuCash ships them (`gnucash-guide-en/`,
# `gnucash-guide-de/`, no page saying its language), the translation holding a page
# left in English: an older copy of the original, a little shorter.
_BACKUP = """<html><head><title>Backing Up and Recovering Data</title></head><body>
<h1>Backing Up and Recovering Data</h1>
<p>GnuCash creates several types of files to help ensure that your data is not lost. If
you look in the folder where your saved file resides, you may see other files created by
GnuCash with the same name and a date and time stamp: backup files, which are a copy of
the data file written every time you save. To recover data from a backup file, open the
backup file that has the date and time you want to go back to, and save it under a new
name. Log files record every change you make to the data file since the last save.{more}</p>
</body></html>
"""
_SICHERN = """<html><head><title>Datensicherung und Wiederherstellung</title></head><body>
<h1>Datensicherung und Wiederherstellung</h1>
<p>GnuCash erzeugt mehrere Arten von Dateien, die dafür sorgen, dass Ihre Daten nicht
verloren gehen. Wenn Sie in den Ordner schauen, in dem Ihre Datei gespeichert ist, sehen
Sie vielleicht weitere Dateien mit dem gleichen Namen und einem Datum: Sicherungsdateien,
die bei jedem Speichern geschrieben werden. Um Daten aus einer Sicherung wiederherzustellen,
öffnen Sie die gewünschte Datei und speichern Sie sie unter einem neuen Namen.</p>
</body></html>
"""
MANUALS = {
    "gnucash-guide-en/basics-backup1.html": _BACKUP.format(
        more=" Keep the backup files on another disk as well, in case the first one fails."),
    "gnucash-guide-de/basics-backup1.html": _BACKUP.format(more=""),
    "gnucash-guide-de/basics-sichern1.html": _SICHERN,
    "gnucash-guide-de/basics-files1.html": _SICHERN.replace("Datensicherung", "Dateien"),
    "it/notes.txt": "Notes on the office network\n\nThe printer on the second floor is "
                    "shared with the accounts team, and its queue is cleared every night.\n",
}


@pytest.fixture
def manuals(tmp_path, open_ix):
    return _indexed(tmp_path, open_ix, MANUALS)


def test_a_page_left_untranslated_counts_as_its_folders(manuals, monkeypatch):
    # its text is English, and the index says so…
    stored = _stored_languages(manuals)
    assert stored["gnucash-guide-de/basics-backup1.html"] == "en"
    assert stored["gnucash-guide-de/basics-sichern1.html"] == "de"
    assert stored["it/notes.txt"] == "en"   # `it/` names no language alone
    # …but it sits in the German manual: an English question prefers the English manual's page
    question = "how do I recover my data from a backup file"
    damped = {h.document["path"]: h.score for h in manuals.search(question).results}
    assert list(damped) == ["gnucash-guide-en/basics-backup1.html",
                            "gnucash-guide-de/basics-backup1.html"]
    monkeypatch.setattr(search_module, "TUNING", search_module.TUNING.replace(other_language=1.0))
    alike = {h.document["path"]: h.score for h in manuals.search(question).results}
    copy = "gnucash-guide-de/basics-backup1.html"   # alike, the two are within a hair
    assert damped[copy] == pytest.approx(alike[copy] / 2)
    assert alike[copy] == pytest.approx(alike["gnucash-guide-en/basics-backup1.html"], rel=0.01)


def test_the_language_is_in_the_json_summary(ix):
    hit = ix.search("Heizung Thermostat").results[0]
    assert hit.to_dict()["document"]["language"] == "de"


# A GNOME help tree as aisleriot installs it (`/usr/share/help/<locale>/aisleriot/`): the
# original in `C/`, a full German translation, and Hungarian and Ukrainian ones that
# translate only the title and headings, the rules left in English. Their text is
# English, `hu` has no word table and `uk/` names no language alone (it is a word), so
# neither their text nor their path marks them: the siblings do.
_GAME = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE sect1 PUBLIC "-//OASIS//DTD DocBook XML V4.3//EN" "http://www.oasis-open.org/docbook/xml/4.3/docbookx.dtd">
<sect1 id="Gaps">
  <title>{title}</title>
  <para>{written} Zach Keene</para>
  <sect2><title>{setup}</title>
    <para>All cards are dealt into four rows of 13 cards each; the aces are then
    discarded to leave four gaps. Two redeals are allowed.</para>
  </sect2>
  <sect2><title>{rules}</title>
    <para>Gaps in the leftmost column may be filled by moving a 2 of any suit there. A
    gap to the right of any non-King card may be filled by placing the card with the same
    suit but one rank higher into the gap. Gaps following Kings or other gaps may not be
    filled. Once a card is placed in a sequence starting with a 2 in the leftmost slot, it
    can no longer be moved. If no moves are possible, double-clicking any card will cause
    a redeal.{more}</para>
  </sect2>
</sect1>
"""
_GERMAN_GAME = """<?xml version="1.0" encoding="utf-8"?>
<sect1 id="Gaps">
  <title>Lücken</title>
  <para>Geschrieben von Zach Keene</para>
  <sect2><title>Regeln</title>
    <para>Alle Karten werden in vier Reihen zu je 13 Karten ausgeteilt; die Asse werden
    dann entfernt, so dass vier Lücken bleiben. Eine Lücke rechts von einer Karte, die
    kein König ist, kann mit der Karte derselben Farbe und des nächsthöheren Werts gefüllt
    werden. Lücken nach Königen oder anderen Lücken können nicht gefüllt werden.</para>
  </sect2>
</sect1>
"""
HELP = {
    "C/aisleriot/gaps.xml": _GAME.format(
        title="Gaps", written="Written by", setup="Setup", rules="Rules",
        more=" Any cards not in sequence will be removed, shuffled, and redealt."),
    "hu/aisleriot/gaps.xml": _GAME.format(
        title="Hézagok", written="Írta", setup="Beállítás", rules="Szabályok", more=""),
    "uk/aisleriot/gaps.xml": _GAME.format(
        title="Пролом", written="Написано", setup="Налаштування", rules="Правила", more=""),
    "de/aisleriot/gaps.xml": _GERMAN_GAME,
}


def test_a_translation_tree_names_its_folders_languages():
    from glean_personal.language import tree_languages
    paths = {1: "C/aisleriot/gaps.xml", 2: "hu/aisleriot/gaps.xml",
             3: "uk/aisleriot/gaps.xml", 4: "de/aisleriot/gaps.xml",
             5: "en_GB/aisleriot/gaps.xml", 6: "sr@latin/aisleriot/gaps.xml",
             7: "C/aisleriot/klondike.xml"}
    assert tree_languages(paths) == {2: "hu", 3: "uk", 4: "de", 5: "en", 6: "sr"}
    # folders named like codes are no tree without siblings known as languages
    assert tree_languages({1: "id/notes.txt", 2: "ca/notes.txt", 3: "de/notes.txt"}) == {}
    assert tree_languages({1: "C/a/x.xml", 2: "hu/a/x.xml"}) == {}
    # a tree deeper in the paths, two locale folders in a row, and a file named like one
    assert tree_languages({1: "help/C/a/x.xml", 2: "help/de/a/x.xml", 3: "help/fr/a/x.xml",
                           4: "de/fr/y.txt", 5: "notes/de"}) == {2: "de", 3: "fr"}


def test_a_page_half_translated_in_a_help_tree_counts_as_its_folders(tmp_path, open_ix,
                                                                     monkeypatch):
    helps = _indexed(tmp_path, open_ix, HELP)
    stored = _stored_languages(helps)
    assert stored["hu/aisleriot/gaps.xml"] == "en" and stored["uk/aisleriot/gaps.xml"] == "en"
    question = "how do I fill the holes left when the aces are taken out"
    damped = {h.document["path"]: h.score for h in helps.search(question, limit=10).results}
    monkeypatch.setattr(search_module, "TUNING", search_module.TUNING.replace(other_language=1.0))
    alike = {h.document["path"]: h.score for h in helps.search(question, limit=10).results}
    # alike, a shorter half translation leads the original
    assert list(alike)[0] != "C/aisleriot/gaps.xml"
    assert list(damped)[0] == "C/aisleriot/gaps.xml"
    for path in set(damped) & set(alike) - {"C/aisleriot/gaps.xml"}:
        assert damped[path] == pytest.approx(alike[path] / 2)
    # the tree is read from the whole index, not only from a search's candidates: a page
    # matched alone (by a word its translation kept) is still known by its folder
    from glean_personal.language import tree_languages
    assert helps.store.translation_trees(tree_languages) == {
        "hu/aisleriot/gaps.xml": "hu", "uk/aisleriot/gaps.xml": "uk",
        "de/aisleriot/gaps.xml": "de"}


# A company's handbooks filed by country, all in English: `us/`, `uk/`, `ca/` and `de/`
# look like a translation tree (four locale-shaped folders, `uk` and `de` languages of
# the tables), but none is the original (`C`, `en`) a translation is made from.
_OFFICES = {
    "us": ("New York", "Submit travel expenses through the Expensify app within 30 days; "
                       "receipts over $75 need a photo. Mileage is paid at the IRS rate."),
    "uk": ("London", "Claim travel expenses on the monthly expense form, signed by your line "
                     "manager; rail tickets are booked through Trainline and VAT receipts are "
                     "required."),
    "ca": ("Toronto", "Travel expenses go through Concur; claims in US dollars are converted "
                      "at the Bank of Canada rate on the day of travel."),
    "de": ("Berlin", "Travel expenses are claimed with the Reisekosten form; the per diem "
                     "follows the federal rates and hotel invoices must name the company."),
}
HANDBOOKS = {
    f"offices/{code}/handbook.md": f"# {city} office handbook\n\n## Getting in\n\nThe {city} "
    "office opens at eight; visitors sign in at reception and wear a badge.\n\n## Expenses\n\n"
    f"{rule}\n\n## Holidays\n\nThe {city} office follows the local public holidays; the "
    "calendar is on the intranet.\n"
    for code, (city, rule) in _OFFICES.items()}
HANDBOOKS["policies/expenses.md"] = (
    "# Expense policy\n\nEvery employee may claim reasonable travel expenses for business "
    "trips. The office handbook of each country says how to claim them. Keep every receipt, "
    "and claim within two months of the trip.\n")


def test_folders_named_by_countries_are_no_translation_tree():
    from glean_personal.language import tree_languages
    assert tree_languages({i: path for i, path in enumerate(HANDBOOKS)}) == {}
    # search's check of its candidates needs no original (it may not be among them)
    assert tree_languages({i: path for i, path in enumerate(HANDBOOKS)}, original=False)
    assert tree_languages({1: "travel/de/notes.md", 2: "travel/fr/notes.md",
                           3: "travel/it/notes.md", 4: "travel/no/notes.md"}) == {}
    # beside the original, the same folders are a tree
    assert tree_languages({1: "docs/en/intro.md", 2: "docs/de/intro.md",
                           3: "docs/it/intro.md"}) == {1: "en", 2: "de", 3: "it"}
    assert tree_languages({1: "help/en_US/a.page", 2: "help/uk/a.page",
                           3: "help/ca/a.page"}) == {1: "en", 2: "uk", 3: "ca"}


def test_english_handbooks_filed_by_country_keep_their_weight(tmp_path, open_ix, monkeypatch):
    ix = _indexed(tmp_path, open_ix, HANDBOOKS)
    assert set(_stored_languages(ix).values()) == {"en"}
    question = "how do I claim travel expenses in the London office"
    damped = {h.document["path"]: h.score for h in ix.search(question, limit=10).results}
    monkeypatch.setattr(search_module, "TUNING", search_module.TUNING.replace(other_language=1.0))
    alike = {h.document["path"]: h.score for h in ix.search(question, limit=10).results}
    assert list(damped)[0] == "offices/uk/handbook.md"
    # `uk/`, `us/` and `ca/` name no language here (`de/` does alone, as a folder name:
    # `path_hint`): the London handbook counted half, as if it were Ukrainian
    for path in ("offices/uk/handbook.md", "offices/us/handbook.md", "offices/ca/handbook.md",
                 "policies/expenses.md"):
        assert damped[path] == pytest.approx(alike[path]), path


# A person's travel notes filed by country, in English: `de/` and `fr/` name languages
# to `path_hint`, but no page under them is German or French.
TRAVEL = {
    "travel/de/packing.md": "# Packing for Germany\n\nBring the rain jacket and a power "
    "adapter for the sockets. The train from Munich to Berlin leaves early, so pack the "
    "snacks and the rail pass the night before and leave them by the door.\n",
    "travel/fr/packing.md": "# Packing for France\n\nBring sunscreen and a hat, and a "
    "reusable water bottle for the walks. The hotel is by the sea, so there is no need "
    "for the heavy boots this time.\n",
    "travel/it/packing.md": "# Packing for Italy\n\nBring comfortable shoes for the "
    "cobblestones and a scarf for the churches. The flight leaves in the afternoon, so "
    "there is time to buy what is missing in the morning.\n",
    "misc/ideas.md": "# Weekend ideas\n\nA walk along the river when it rains, then a "
    "ride on the train to the next town for lunch and back in the evening.\n",
}


def test_english_notes_in_a_folder_named_by_a_country_are_english(tmp_path, open_ix,
                                                                  monkeypatch):
    ix = _indexed(tmp_path, open_ix, TRAVEL)
    assert _stored_languages(ix)["travel/de/packing.md"] == "en"
    question = "what should I pack for the train"
    damped = {h.document["path"]: h.score for h in ix.search(question, limit=10).results}
    monkeypatch.setattr(search_module, "TUNING", search_module.TUNING.replace(other_language=1.0))
    alike = {h.document["path"]: h.score for h in ix.search(question, limit=10).results}
    # `travel/de/` holds no German page: the notes for Germany, which say train and
    # pack, counted half, as if German
    assert list(damped)[0] == "travel/de/packing.md"
    assert damped["travel/de/packing.md"] == pytest.approx(alike["travel/de/packing.md"])
    # a German note beside them makes `de/` a German folder again: the English one
    # there counts as a translation's page left in English, as in GnuCash's guide
    from glean_personal.language import language_folders
    assert language_folders([("travel/de/packing.md", "en"),
                             ("travel/de/fahrplan.md", "de")]) == {"travel/de"}
    assert language_folders([("gnucash-guide-de/a.html", "de")]) == {"gnucash-guide-de"}


# A plugin reference in English and in Czech, named by their files as WeeChat ships its
# guides (`weechat_plugin_api.en.html`, `.cs.html`): the Czech page keeps the function
# names and some English words, and no word table tells Czech (nor Serbian, whose
# Cyrillic pages mix in so much English that no script decides either).
_API_EN = """<html><head><title>Plugin API reference</title></head><body>
<h1>hook_signal</h1><p>Hook a signal: when the signal is sent, WeeChat calls the callback
with the signal data. The callback returns WEECHAT_RC_OK, or WEECHAT_RC_OK_EAT to stop
other callbacks from receiving the signal.</p></body></html>
"""
_API_CS = """<html><head><title>Referenční příručka API pro pluginy</title></head><body>
<h1>hook_signal</h1><p>Zavěšení na signál: když je signál odeslán, WeeChat zavolá callback
s daty signálu. Callback vrací WEECHAT_RC_OK nebo WEECHAT_RC_OK_EAT, aby ostatní callbacky
signál nedostaly.</p></body></html>
"""
PLUGIN_API = {"html/plugin_api.en.html": _API_EN, "html/plugin_api.cs.html": _API_CS,
              "html/notes.html": "<html><head><title>Notes</title></head><body><p>The relay "
                                 "plugin lets a remote interface connect to WeeChat and read "
                                 "the buffers; it needs a password.</p></body></html>"}


def test_a_translation_its_file_name_names_counts_as_that_language(tmp_path, open_ix,
                                                                    monkeypatch):
    ix = _indexed(tmp_path, open_ix, PLUGIN_API)
    assert _stored_languages(ix)["html/plugin_api.cs.html"] is None   # its text says nothing
    question = "how does the callback of a signal hook stop the others"
    damped = {h.document["path"]: h.score for h in ix.search(question).results}
    monkeypatch.setattr(search_module, "TUNING", search_module.TUNING.replace(other_language=1.0))
    alike = {h.document["path"]: h.score for h in ix.search(question).results}
    page = "html/plugin_api.cs.html"
    assert damped[page] == pytest.approx(alike[page] / 2)
    assert list(damped)[0] == "html/plugin_api.en.html"


@pytest.mark.parametrize("path, expected", [
    ("html/weechat_user.sr.html", "sr"), ("guide.cs.html", "cs"), ("index.html.fr", "fr"),
    ("guide.de.md", "de"), ("how.to.html", None), ("mc.hint.cs", None), ("notes.md", None),
    ("sr/guide.html", None), ("release.v2.html", None),
])
def test_named_language(path, expected):
    assert named_language(path) == expected
