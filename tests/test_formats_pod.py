"""Perl's POD (`.pod`): sections from `=head` and definition items, text as perldoc shows it."""
from __future__ import annotations

import re

from glean_personal.config import Limits
from glean_personal.formats import read_document
from helpers.cost import cpu_budget

# Written for this test in the style of Perl's own pages (perlfunc, perlfaq,
# perldiag): a NAME line, headings with index entries, a list of functions
# whose items head their entries, bullets, verbatim code, links, escapes,
# output for other formatters, and code after `=cut`.
PAGE = """#!perl
# Generated: do not edit.

=encoding utf8

=head1 NAME

perlkettle - how to boil water in Perl

=head1 DESCRIPTION

Boiling is done by L<C<boil>|/boil KETTLE> and checked with
C<< $kettle->temperature >>.  See L<perlfunc/open> and L<perlop>.
X<boil> X<kettle>

=head2 Functions
X<function>

=over 4

=item boil KETTLE,DEGREES
X<boil>

=item boil KETTLE

Heats the I<KETTLE> to B<DEGREES> (100 by default); returns E<lt>trueE<gt>
on success.  Café owners use F</etc/kettle.conf>.

    boil($kettle, 90) or die "cold: $!";
    print "done\\n";

=item pour KETTLE

Pours it.  Z<>Never pour an empty kettle.

=back

Both functions croak on a broken kettle.

=head2 Safety

=over

=item *

Unplug it first.

=item 2.

Let it cool.

=back

=begin html

<p>Only on the web site.</p>

=end html

=for comment Nobody reads this.

=for :text Shown to text readers.

=cut

sub boil { die "not really" }

=head1 SEE ALSO

L<The kettle site|https://example.org/kettle>.

=cut
"""


def test_a_pod_page_reads_as_perldoc_shows_it():
    doc = read_document(PAGE.encode(), "perlkettle.pod")
    assert doc.format == "pod"
    assert doc.title == "perlkettle - how to boil water in Perl"
    assert [" › ".join(s.heading) for s in doc.sections] == [
        "NAME", "DESCRIPTION", "DESCRIPTION › Functions › boil KETTLE,DEGREES",
        "DESCRIPTION › Functions › pour KETTLE", "DESCRIPTION › Functions",
        "DESCRIPTION › Safety", "SEE ALSO"]
    text = doc.text
    for words in ("Boiling is done by boil and checked with\n$kettle->temperature.",
                  "See open in perlfunc and perlop.",
                  "boil KETTLE\n\nHeats the KETTLE to DEGREES (100 by default); returns <true>",
                  "Café owners use /etc/kettle.conf.",
                  '    boil($kettle, 90) or die "cold: $!";\n    print "done\\n";',
                  "Pours it.  Never pour an empty kettle.",
                  "Both functions croak on a broken kettle.",
                  "• Unplug it first.", "2. Let it cool.", "Shown to text readers.",
                  "The kettle site."):
        assert words in text, words
    assert not re.search(r"\b[A-Z]<|^=\w", text, re.M), re.search(r"\b[A-Z]<|^=\w", text, re.M)
    for junk in ("Generated", "Only on the web", "Nobody", "not really", "utf8", "function\n"):
        assert junk not in text, junk


def test_pod_lines_keep_their_place():
    doc = read_document(PAGE.encode(), "perlkettle.pod")
    lines = PAGE.split("\n")
    entry = next(s for s in doc.sections if s.heading[-1] == "boil KETTLE,DEGREES")
    assert entry.text.startswith("boil KETTLE\n")
    for k, row in enumerate(entry.text.split("\n")):
        if row.strip().startswith(("Heats", "boil(", "print")):
            assert lines[entry.first_line - 1 + k].lstrip().startswith(row.lstrip()[:6])


def test_search_finds_a_function_by_its_entry(open_ix, tmp_path):
    folder = tmp_path / "pod"
    folder.mkdir()
    (folder / "perlkettle.pod").write_text(PAGE, encoding="utf-8")
    ix = open_ix()
    ix.index(folder)
    hit = ix.search("pour an empty kettle", limit=1).results[0]
    assert list(hit.section) == ["DESCRIPTION", "Functions", "pour KETTLE"]
    assert hit.title == "perlkettle - how to boil water in Perl"
    assert hit.document["format"] == "pod"
    first, last = hit.lines
    assert first <= PAGE.split("\n").index("Pours it.  Z<>Never pour an empty kettle.") + 1 <= last


def test_formatting_codes_with_more_brackets_nest_and_links_read_as_words():
    data = (b"=head1 Codes\n\nC<< $a->[0] >> and C<<< x >> y >>> and B<C<bold code>> and\n"
            b"L<text|Data::Dumper/SYNOPSIS>, L</\"Sorting\">, L<https://perl.org/a>,\n"
            b"E<0x263A> E<eacute> E<verbar> E<sol> E<nosuch>, C<left open\n")
    text = read_document(data, "c.pod").text
    assert text == ("$a->[0] and x >> y and bold code and\n"
                    "text, Sorting, https://perl.org/a,\n"
                    "\u263a \u00e9 | / nosuch, left open")


def test_hostile_pod_costs_linear_time():
    for body in ("C<" * 50_000 + "x" * 200_000 + ">" * 50_000,
                 "L<" * 50_000, "C<< " * 50_000 + "x", ">" * 200_000,
                 "E<" + "9" * 100_000 + ">"):
        data = ("=head1 One\n\n" + body + "\n\nend words\n").encode()
        with cpu_budget(1.0):
            assert "end words" in read_document(data, "a.pod", Limits()).text
    items = ("=head1 List\n\n=over\n\n" + "=item x\n\n" * 20_000 + "text\n\n=back\n").encode()
    with cpu_budget(2.0):
        assert "text" in read_document(items, "a.pod", Limits()).text


# A module as CPAN authors write one: POD between the subs it documents, and
# after `__END__`; an example in the POD holds a `sub` and unbalanced quotes.
MODULE = """package Kettle;
use strict;

=head1 NAME

Kettle - boil water from Perl

=head1 METHODS

=head2 boil

Heats the water; don't pour it before it's done:

    sub on_done { print "it's ready\\n" }

=cut

sub boil {
    my ($self, $degrees) = @_;
    return $self->{heat}->($degrees // 100);
}

=head2 pour

Pours the tea into C<$cup>.

=cut

sub pour { my ($self, $cup) = @_; $cup->fill }

1;
__END__

=head1 SEE ALSO

L<Teapot>
"""


def test_pod_inside_perl_code_is_read_as_pod_and_the_code_as_code():
    doc = read_document(MODULE.encode(), "Kettle.pm")
    assert doc.format == "pl"
    lines = MODULE.split("\n")
    by_heading = {s.heading: s for s in doc.sections}
    assert [s.heading for s in doc.sections] == [
        (), ("NAME",), ("METHODS", "boil"), ("boil",), ("METHODS", "pour"), ("pour",), (),
        ("SEE ALSO",)]
    assert by_heading[("METHODS", "pour")].text == "Pours the tea into $cup."
    assert by_heading[("boil",)].text.startswith("sub boil {")
    assert "sub on_done" in by_heading[("METHODS", "boil")].text   # an example, not a definition
    for heading, line in ((("NAME",), "Kettle - boil water from Perl"), (("boil",), "sub boil {"),
                          (("METHODS", "pour"), "Pours the tea into C<$cup>."),
                          (("pour",), "sub pour { my ($self, $cup) = @_; $cup->fill }")):
        assert by_heading[heading].first_line == lines.index(line) + 1, heading
    assert "=cut" not in doc.text and "C<" not in doc.text
    assert doc.title == "Kettle - boil water from Perl"   # its NAME line, as perldoc shows it


def test_search_finds_a_method_by_its_pod(open_ix, tmp_path):
    folder = tmp_path / "lib"
    folder.mkdir()
    (folder / "Kettle.pm").write_text(MODULE, encoding="utf-8")
    ix = open_ix()
    ix.index(folder)
    hit = ix.search("pours the tea into the cup", limit=1, passages=True).results[0]
    assert list(hit.section) == ["METHODS", "pour"]
    assert hit.passage_text == "Pours the tea into $cup."
