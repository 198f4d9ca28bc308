"""How /chat and match strength read a name and a derived word the index lacks (both
stores).

A word typed as a name (*Spark*) that no note holds is foreign to the index even
when the did-you-mean finds a word near it (*spare*): a name is not a slip. A
word made of one the notes hold and a suffix (*sortable*: *sort*) is a wording
they lack, not a thing they never mention. And a name typed as one word counts
as one word for the rule on few words, though it is searched as its parts too
(*PostgreSQL*: *postgre sql*).
"""
from __future__ import annotations

import pytest

from glean_personal import search as search_module
from glean_personal.surfaces.local_backend import foreign_words, typed_names
from helpers.chat import large_index  # noqa: F401  (autouse: the rules of a large index)
from helpers.chat import ask, indexed_notes, message_text, passage_search

NOTES = {
    "budget.md": """\
# Household budget

## Monthly sheet

The sheet has two columns, one for the month and one for the amount spent; the last row
holds the sum of the values above it.

## Savings

Whatever is left at the end of the month goes to the savings account on the first.
""",
    "database.md": """\
# Database notes

## Reports

The monthly reports run against PostgreSQL, with a logical backup taken every night.

## Standby

Replication to the spare server uses two slots, one for each standby.
""",
    "code.md": """\
# Python snippets

## Grouping

`itertools.groupby` groups consecutive items with the same key; sort the items by that
key first, or equal keys that are apart end up in separate groups.
""",
}


@pytest.fixture(scope="module", params=["fts5", "plain"])
def db(request, tmp_path_factory):
    return indexed_notes(tmp_path_factory.mktemp(f"names-{request.param}"), NOTES,
                         request.param)




SPARK = "whatever is left at the end of the month goes to my Spark savings account"


def test_a_name_the_index_lacks_is_foreign_though_a_word_is_near_it(db):
    result = passage_search(db, SPARK)
    assert result.absent_terms == ["spark"] and result.suggestions["spark"] == ["spare"]
    assert result.results[0].section[-1] == "Savings"
    assert result.results[0].strength >= search_module.TUNING.answer_strength
    assert foreign_words(result) == ["spark"]
    message = ask(db, SPARK)
    assert "citations" not in message and "'spark'" in message_text(message)


def test_the_same_word_typed_small_is_a_slip_and_weighed(db):
    # spark may be a slip for spare (did you mean): weighed, not a veto.
    question = SPARK.replace("Spark", "spark")
    assert foreign_words(passage_search(db, question)) == []
    message = ask(db, question)
    assert message["citations"][0]["sourceDocument"]["title"] == "Household budget"


def test_the_name_rule_can_be_turned_off(db, monkeypatch):
    monkeypatch.setattr(search_module, "TUNING",
                        search_module.TUNING.replace(foreign_names=False))
    assert foreign_words(passage_search(db, SPARK)) == []
    assert ask(db, SPARK)["citations"][0]["sourceDocument"]["title"] == "Household budget"


def test_what_is_typed_as_a_name():
    assert typed_names(SPARK) == {"spark"}
    # a sentence's first word, an acronym, a word in small letters: not names
    assert typed_names("Spark holds it. Then Venmo, via USB or paypal") == {"venmo"}
    assert typed_names("sync my iPhone with OpenRC") == {"iphone", "openrc"}


def test_a_word_made_of_a_known_one_and_a_suffix_is_not_foreign(db):
    # sortable is in no note, nor any word near it, but sort is: a wording the notes lack.
    question = "groupby wants the items sortable by the same key first"
    result = passage_search(db, question)
    assert result.absent_terms == ["sortable"] and "sortable" not in result.suggestions
    assert result.bases == {"sortable": "sort"} and foreign_words(result) == []
    message = ask(db, question)
    assert message["citations"][0]["sourceDocument"]["title"] == "Python snippets"
    # a word the index lacks, with the suffix or without it, stays foreign
    assert foreign_words(passage_search(db, "groupby wants the items zorpable by key")) == ["zorpable"]


def test_a_suffix_leaves_a_base_of_four_letters_or_more(db):
    # *keyless* less *less* is *key*, too short; *sizeless*'s *size* is in no note.
    assert passage_search(db, "keyless groups of items").bases == {}
    assert passage_search(db, "monthly sheet columns, sizeless").bases == {}


def test_a_name_typed_as_one_word_counts_one_word(db, monkeypatch):
    # The reports passage holds PostgreSQL (and so its parts, postgre and sql) and
    # logical: two of the question's four words, not three, so its share is halved.
    question = "PostgreSQL logical replication slots"
    hit = passage_search(db, question).results[0]
    assert hit.section[-1] == "Reports"
    monkeypatch.setattr(search_module, "TUNING",
                        search_module.TUNING.replace(few_words_factor=1.0))
    whole = passage_search(db, question).results[0]
    assert whole.passage_id == hit.passage_id
    assert hit.strength == pytest.approx(0.5 * whole.strength, abs=0.002)
    # with a third word of the question in it, the share is whole
    monkeypatch.undo()
    monkeypatch.setattr(search_module, "TUNING", search_module.TUNING.replace(small_index=0))
    backup = passage_search(db, "PostgreSQL logical backup").results[0]
    assert backup.section[-1] == "Reports" and backup.strength == 1.0


ARABIC = {"budget.md": """\
# الميزانية

## الادخار

ما يتبقى في نهاية الشهر يذهب إلى حساب الادخار في البنك في اليوم الأول من الشهر التالي.

## الجدول

الجدول فيه عمودان، واحد للشهر وواحد للمبلغ المصروف.
"""}


@pytest.mark.parametrize("store", ["fts5", "plain"])
def test_a_word_of_a_script_without_capitals_is_no_name(tmp_path, store):
    # Arabic has no capitals: a word of it is neither small nor capital, and was taken
    # for a name typed, so a slip with a word near it (الادخاز: الادخار) was foreign
    # and /chat declined what it answers.
    assert typed_names("نهاية الشهر حساب الادخاز") == frozenset()
    assert typed_names("what does 北京市 mean for Venmo") == {"venmo"}
    db = indexed_notes(tmp_path, ARABIC, store)
    question = "نهاية الشهر حساب الادخاز"
    result = passage_search(db, question)
    assert result.absent_terms == ["الادخاز"] and "الادخار" in result.suggestions["الادخاز"]
    assert foreign_words(result) == []
    message = ask(db, question)
    assert message["citations"][0]["sourceDocument"]["title"] == "الميزانية"
