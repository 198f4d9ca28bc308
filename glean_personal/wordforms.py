"""Forms of one word that the stemmer does not join: irregular verbs, nouns
made from verbs, British and American spellings, and *add*, whose *added* and
*adding* Porter stems to *ad*.

Manuals describe in the passive (*files are hidden*, *the entry is written*,
*edits are kept*) and in nouns (*signature verification*, *after a power
loss*) what people ask for with verbs (*hide files*, *verify a signature*,
*if the machine loses power*). Porter joins *deleted* to *delete* but never
*hidden* to *hide* or *verification* to *verify*, so a question's word also
searches its other forms, and a passage holding one of them holds the word
(docs/search.md, "Synonyms").

Left out: nouns that name something else in software (*application*,
*choice*, *closure*, *entry*, *extension*, *introduction*, *production*,
*permission*, *procedure*, *response*), adjectives that name classes (*Readable*,
*Writable*), verb forms that are mostly other words (*left*, *found*, *saw*,
*bound*, *ground*, *lay*, *led*, *felt*, *rose*, *wound*, *spoke*, *shot*,
*lit*, *bit*, *fell*, *won*), and verbs whose forms are one word (*set*,
*put*, *read*).
"""
from __future__ import annotations

import functools
import re
from typing import Dict, Iterator, Tuple

_VERBS = """
add added; arise arose arisen; awake awoke awoken; bear bore borne; beat beaten;
become became; begin began begun; bend bent; bite bitten; blow blew blown;
break broke broken; breed bred; bring brought; build built; burn burnt;
buy bought; catch caught; choose chose chosen; cling clung; come came;
deal dealt; dig dug; draw drew drawn; drink drank drunk; drive drove driven;
eat ate eaten; fall fallen; feed fed; fight fought; flee fled; fly flew flown;
forbid forbade forbidden; forget forgot forgotten; forgive forgave forgiven;
freeze froze frozen; give gave given; grow grew grown; hang hung; hear heard;
hide hid hidden; hold held; keep kept; know knew known; lean leant; leap leapt;
learn learnt; lend lent; lose lost; mean meant; meet met;
overwrite overwrote overwritten; override overrode overridden; pay paid;
redo redid redone; rebuild rebuilt; rewrite rewrote rewritten; ride rode ridden;
ring rang rung; rise risen; run ran; seek sought; sell sold; send sent;
shake shook shaken; shrink shrank shrunk; sing sang sung; sink sank sunk;
sit sat; sleep slept; slide slid; speak spoken; speed sped; spend spent;
spin spun; stand stood; steal stole stolen; stick stuck; strike struck;
swear swore sworn; sweep swept; swim swam swum; swing swung; take took taken;
teach taught; tear tore torn; tell told; think thought; throw threw thrown;
understand understood; undo undid undone; unfreeze unfroze unfrozen;
wake woke woken; wear wore worn; weave wove woven; withdraw withdrew withdrawn;
withhold withheld; write wrote written; uphold upheld; mislead misled;
misunderstand misunderstood; overtake overtook overtaken; foresee foresaw foreseen
"""


# Nouns made from verbs (and a few the other way), each pair both ways.
_DERIVED = """
create creation; verify verification; notify notification; modify modification;
specify specification; identify identification; classify classification;
justify justification; simplify simplification; describe description;
subscribe subscription; consume consumption; assume assumption; resume resumption;
resolve resolution; solve solution; evolve evolution; decide decision; divide division;
collide collision; reduce reduction; fail failure; expose exposure; store storage;
leak leakage; transmit transmission; submit submission; omit omission; emit emission;
succeed success; maintain maintenance; explain explanation; destroy destruction;
repeat repetition; deny denial; multiply multiplication; grow growth; lose loss;
compare comparison; retain retention; expand expansion; suspend suspension;
convert conversion; invert inversion; rely reliance; comply compliance;
deliver delivery; discover discovery; recover recovery; occur occurrence;
analyze analysis; analyse analysis
"""


@functools.lru_cache(maxsize=1)
def _table() -> Dict[str, Tuple[str, ...]]:
    out: Dict[str, Tuple[str, ...]] = {}
    for group in _DERIVED.split(";"):
        a, b = group.split()
        out[a] = out.get(a, ()) + (b,)
        out[b] = out.get(b, ()) + (a,)
    for group in _VERBS.split(";"):
        words = group.split()
        for w in words:
            out[w] = out.get(w, ()) + tuple(x for x in words if x != w)
    return out


def other_forms(word: str) -> Tuple[str, ...]:
    """The word's other forms (*hide*: *hid*, *hidden*; *verify*: *verification*)
    and its other spelling (*organise*: *organize*), or (). Its -ing or -s form
    has them too (*hiding*, *verifies*)."""
    table = _table()
    spelt = _spelling(word)
    if word in table:
        return table[word] + spelt
    for base in _bases(word):
        if base in table:
            return (base,) + table[base] + spelt
    return spelt


# British and American spellings the stemmer keeps apart (*organis*, *organ*):
# -ise/-ize and -yse/-yze with their endings both ways, British -our as -or, and a
# table for the rest (American -or, -log and -ense words are mostly nothing else).
_SPELLING = (r"(?P<pre>\w{3,}?)(?P<part>is|iz|ys|yz)(?P<end>e|ed|es|ing|er|ers|ation|ations)"
             r"|(?P<pre2>\w{2,}?)(?P<part2>our)(?P<end2>|s|ed|ing|ful|ite|ites)")
_OTHER = {"is": "iz", "iz": "is", "ys": "yz", "yz": "ys", "our": "or"}
_SPELT_PAIRS = """
    centre center; metre meter; litre liter; fibre fiber; theatre theater; grey gray;
    catalogue catalog; dialogue dialog; analogue analog; licence license;
    defence defense; offence offense; color colour; colors colours;
    behavior behaviour; favorite favourite; honor honour; neighbor neighbour;
    flavor flavour; labor labour; humor humour"""


@functools.lru_cache(maxsize=1)
def _spelling_rules() -> Tuple["re.Pattern[str]", Dict[str, str]]:
    """The spelling pattern and table, made on first use (not at every search's import)."""
    table = dict(pair.split() for pair in _SPELT_PAIRS.split(";"))
    table.update({v: k for k, v in list(table.items())})
    return re.compile(_SPELLING), table


def _spelling(word: str) -> Tuple[str, ...]:
    """The word in the other of British and American spelling, or ()."""
    pattern, table = _spelling_rules()
    if word in table:
        return (table[word],)
    if word[-1:] == "s" and word[:-1] in table:
        return (table[word[:-1]] + "s",)
    m = pattern.fullmatch(word)
    if m is None:
        return ()
    for n in ("", "2"):
        part = m.group("part" + n)
        if part is not None:
            return (m.group("pre" + n) + _OTHER[part] + m.group("end" + n),)
    return ()


def _bases(word: str) -> Iterator[str]:
    """The words of which `word` may be the -ing or -s form."""
    if word.endswith("ing") and len(word) > 5:
        stem = word[:-3]
        yield stem                      # throwing
        yield stem + "e"                # hiding
        if stem[-1] == stem[-2]:
            yield stem[:-1]             # running
    elif word.endswith("ies") and len(word) > 4:
        yield word[:-3] + "y"           # verifies
    elif word.endswith("s") and len(word) > 3:
        yield word[:-1]                 # hides
