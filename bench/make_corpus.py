#!/usr/bin/env python3
"""Build a deterministic mixed-format corpus for the benchmarks.

    python bench/make_corpus.py N OUTDIR [--seed S]

N files in nested folders: about 40% .md, 20% .txt, 15% .html, 5% .json,
7% .docx, 6% .xlsx, 7% .pptx. Text is drawn from a vocabulary with Zipfian
word frequencies (English function words and common words at the head, a long
tail of generated words) mixed with topic words and topic phrases, so documents
share subjects the way a real folder does (the content graph needs that).
About 3% of documents are revisions of an earlier one (mostly the same
paragraphs, maybe another format), as real folders have.

Extracted text per document is 1-30 KB (log-normal, median about 4.5 KB), with
1.5% long documents of 30-100 KB. The same N, seed and Python give the same
bytes; OUTDIR must be empty or absent.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import sys
import time
from typing import Dict, List, Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from office_writer import write_docx, write_pptx, write_xlsx  # noqa: E402

FORMAT_SHARES = (("md", 0.40), ("txt", 0.20), ("html", 0.15), ("json", 0.05),
                 ("docx", 0.07), ("xlsx", 0.06), ("pptx", 0.07))

FUNCTION_WORDS = """the of and to a in is that for it as with was on be by this are or at from not
have an which but they we can has will their more all one been there also if would its when these than
other into some so only about what out up who then them each may should any such most over after our new
could no how between both through where because while before under those very same must first many well
does however during without against across per within upon whether though although""".split()

COMMON_WORDS = """team project data report meeting plan system user process review time work year update
change customer cost budget design test release service support issue quality policy risk number group
level result account order price market product value source version method model office service access
option problem question answer summary detail schedule deadline target goal status action owner note
draft final approval request invoice payment contract vendor supplier staff training document folder file
record table chart figure section page list item task step phase milestone sprint backlog feature ticket
incident outage alert metric dashboard query index search network server database storage backup restore
security password permission role profile setting config install upgrade migration deploy pipeline build
branch merge commit patch bug fix error warning log trace audit compliance legal finance payroll salary
bonus hiring interview candidate onboarding offboarding holiday travel expense receipt reimbursement
quarter month week today tomorrow morning evening weekend region country city address phone email letter
client partner agency board committee director manager engineer analyst designer writer editor researcher
student teacher course lesson exam grade library book article chapter journal paper study survey
experiment sample measurement analysis estimate forecast growth revenue margin profit loss asset liability
inventory shipment delivery warehouse logistics freight route fleet vehicle maintenance repair inspection
equipment machine sensor device battery power energy water kitchen garden house rent mortgage insurance
health doctor appointment medicine recipe coffee espresso grinder kettle oven flour butter sugar bread""".split()

TOPIC_SEEDS = """espresso descaling grinder burr portafilter tamping crema extraction
kubernetes cluster pod node ingress helm manifest autoscaler
mortgage refinance escrow amortization appraisal lender closing
sourdough levain hydration autolyse proofing banneton crumb
payroll withholding deduction garnishment timesheet overtime
telescope eyepiece aperture collimation nebula astrophotography
bicycle derailleur cassette chainring spoke tubeless cadence
aquarium cichlid substrate filtration ammonia nitrate cycling
violin rosin bowing vibrato intonation etude luthier
greenhouse seedling germination compost mulch perennial trellis
warehouse pallet forklift picking replenishment barcode
invoice reconciliation ledger accrual depreciation audit
hiking trailhead switchback elevation waypoint backcountry
podcast microphone episode editing transcript sponsorship
thermostat insulation furnace ductwork humidity ventilation
genealogy ancestry census archive lineage surname parish
kayak paddle rudder portage whitewater eddy
chess opening gambit endgame tempo zugzwang
beekeeping hive colony queen varroa honeycomb
photography shutter exposure aperture lens bokeh""".split("\n")

SYLLABLES_ON = "b c d f g h j k l m n p r s t v w z br cr dr fl gr pl pr st tr sh ch th".split()
SYLLABLES_NUC = "a e i o u ai ea io ou ar er or".split()
SYLLABLES_CODA = ["", "", "", "n", "s", "r", "l", "t", "x", "m", "nd", "st"]

AREAS = ["projects", "notes", "reports", "archive", "meetings", "research", "admin", "personal",
         "clients", "reference"]


def _pseudo_word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES_ON) + rng.choice(SYLLABLES_NUC)
                   for _ in range(rng.randint(2, 3))) + rng.choice(SYLLABLES_CODA)


def _unique_words(rng: random.Random, count: int, taken: set) -> List[str]:
    out = []
    while len(out) < count:
        w = _pseudo_word(rng)
        if w not in taken:
            taken.add(w)
            out.append(w)
    return out


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class Vocabulary:
    """Zipfian general vocabulary plus topics with their own words and phrases."""

    def __init__(self, rng: random.Random, n_docs: int) -> None:
        taken = set(FUNCTION_WORDS) | set(COMMON_WORDS)
        tail = _unique_words(rng, 20000, taken)
        common = COMMON_WORDS[:]
        rng.shuffle(common)
        self.words = FUNCTION_WORDS + common + tail
        weights = [1.0 / (r + 1) ** 1.07 for r in range(len(self.words))]
        self.cum = []
        total = 0.0
        for w in weights:
            total += w
            self.cum.append(total)
        n_topics = max(10, min(120, n_docs // 80))
        self.topics: List[Dict[str, object]] = []
        seeds = [line.split() for line in TOPIC_SEEDS]
        for t in range(n_topics):
            real = seeds[t % len(seeds)] if t < len(seeds) else []
            own = _unique_words(rng, 30 - len(real), taken)
            words = real + own
            rng.shuffle(words)
            phrases = [(words[i], words[(i * 7 + 3) % len(words)]) for i in range(8)]
            name = f"{words[0]} {words[1]}"
            self.topics.append({"name": name, "words": words, "phrases": phrases,
                                "cum": _cumulative([1.0 / (r + 1) ** 0.8 for r in range(len(words))])})

    def general(self, rng: random.Random, k: int) -> List[str]:
        return rng.choices(self.words, cum_weights=self.cum, k=k)

    def topic_word(self, rng: random.Random, topic: Dict[str, object]) -> str:
        return rng.choices(topic["words"], cum_weights=topic["cum"], k=1)[0]  # type: ignore[arg-type]


def _cumulative(weights: Sequence[float]) -> List[float]:
    out, total = [], 0.0
    for w in weights:
        total += w
        out.append(total)
    return out


class Writer:
    """Sentences, paragraphs and whole document models from a `Vocabulary`."""

    def __init__(self, rng: random.Random, vocab: Vocabulary) -> None:
        self.rng = rng
        self.vocab = vocab

    def sentence(self, topics: Sequence[Dict[str, object]]) -> str:
        rng = self.rng
        n = rng.randint(6, 24)
        words = self.vocab.general(rng, n)
        for i in range(n):
            roll = rng.random()
            topic = topics[0] if (len(topics) == 1 or rng.random() < 0.7) else topics[1]
            if roll < 0.10:
                words[i] = self.vocab.topic_word(rng, topic)
            elif roll < 0.13:
                words[i] = " ".join(rng.choice(topic["phrases"]))  # type: ignore[arg-type]
            elif roll < 0.135:
                words[i] = rng.choice([f"{rng.randint(2, 999)}", f"{rng.randint(1, 99)}%",
                                       f"{rng.choice('ABCDEFGHJK')}{rng.choice('XYZQRT')}-{rng.randint(100, 9999)}",
                                       f"20{rng.randint(18, 25)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"])
        text = " ".join(words)
        return text[0].upper() + text[1:] + rng.choice(".....?!")

    def paragraph(self, topics, target: int) -> str:
        out, size = [], 0
        while size < target:
            s = self.sentence(topics)
            out.append(s)
            size += len(s) + 1
        return " ".join(out)

    def heading(self, topics) -> str:
        rng = self.rng
        words = [self.vocab.topic_word(rng, topics[0])] + self.vocab.general(rng, rng.randint(1, 3))
        rng.shuffle(words)
        return " ".join(words).capitalize()

    def model(self, topics, chars: int) -> Dict[str, object]:
        """A document model: title, topics and sections of paragraphs, about `chars` of text."""
        rng = self.rng
        title_words = [self.vocab.topic_word(rng, topics[0]), self.vocab.topic_word(rng, topics[-1]),
                       rng.choice(["plan", "notes", "review", "summary", "report", "checklist", "guide",
                                   "minutes", "proposal", "overview", "log", "draft"])]
        title = " ".join(dict.fromkeys(title_words)).title()
        n_sections = max(1, min(12, chars // 1500 + rng.randint(0, 2)))
        per_section = chars / n_sections
        sections = []
        for _ in range(n_sections):
            paras, size = [], 0
            while size < per_section:
                p = self.paragraph(topics, rng.randint(200, 900))
                paras.append(p)
                size += len(p) + 2
            sections.append((self.heading(topics), paras))
        return {"title": title, "topics": [t["name"] for t in topics], "sections": sections}

    def revise(self, base: Dict[str, object], topics) -> Dict[str, object]:
        rng = self.rng
        sections = []
        for heading, paras in base["sections"]:  # type: ignore[union-attr]
            new = [self.paragraph(topics, len(p)) if rng.random() < 0.1 else p for p in paras]
            sections.append((heading, new))
        return {"title": f"{base['title']} (revised)", "topics": base["topics"], "sections": sections}


# ---------------------------------------------------------------- renderers

def render_md(m, rng: random.Random) -> str:
    out = [f"# {m['title']}", ""]
    for heading, paras in m["sections"]:
        out += [f"## {heading}", ""]
        for p in paras:
            roll = rng.random()
            if roll < 0.12:
                out += [f"- {s.strip()}" for s in re.split(r"(?<=[.?!]) ", p)] + [""]
            elif roll < 0.16:
                ident = "_".join(p.split()[:2]).lower().strip(".?!")
                out += ["```", f"{ident} = load('{_slug(heading)}.cfg')", f"print({ident})", "```", "", p, ""]
            else:
                out += [p, ""]
    return "\n".join(out)


def render_txt(m, rng: random.Random) -> str:
    out = [m["title"], "=" * len(m["title"]), ""]
    for heading, paras in m["sections"]:
        out += [heading.upper(), ""]
        for p in paras:
            out += [p, ""]
    return "\n".join(out)


def _h(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def render_html(m, rng: random.Random) -> str:
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
           f"<title>{_h(m['title'])}</title>",
           "<style>body{font-family:sans-serif} .trackingwidget{display:none}</style>",
           "<script>var trackingwidget = {analyticsbeacon: 'scriptonlyword'};</script>",
           "</head><body>", "<nav><a href=\"../index.html\">Home</a> | <a href=\"#\">Up</a></nav>",
           f"<h1>{_h(m['title'])}</h1>"]
    for i, (heading, paras) in enumerate(m["sections"]):
        out.append(f"<h2 id=\"s{i}\">{_h(heading)}</h2>")
        for p in paras:
            if rng.random() < 0.08:
                cells = p.split()[:12]
                rows = [cells[j:j + 3] for j in range(0, len(cells), 3)]
                out.append("<table>" + "".join(
                    "<tr>" + "".join(f"<td>{_h(c)}</td>" for c in row) + "</tr>" for row in rows) + "</table>")
            out.append(f"<p>{_h(p)}</p>")
    out += ["<footer><p>Generated page</p></footer>", "</body></html>"]
    return "\n".join(out)


def render_json(m, rng: random.Random) -> str:
    data = {
        "title": m["title"],
        "author": {"name": rng.choice(["A. Rivera", "B. Chen", "C. Okafor", "D. Novak"]),
                   "team": m["topics"][0]},
        "tags": m["topics"],
        "created": f"20{rng.randint(18, 25)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        "sections": [{"heading": h, "body": "\n\n".join(ps)} for h, ps in m["sections"]],
        "meta": {"version": rng.randint(1, 9), "reviewed": rng.random() < 0.5},
    }
    return json.dumps(data, indent=2, ensure_ascii=False)


def write_docx_model(path: str, m, rng: random.Random) -> None:
    blocks: List[tuple] = []
    for i, (heading, paras) in enumerate(m["sections"]):
        blocks.append(("heading", 1 if i == 0 or rng.random() < 0.7 else 2, heading))
        for p in paras:
            blocks.append(("para", p))
        if rng.random() < 0.25:
            words = paras[0].split()[:9]
            blocks.append(("table", [["Item", "Owner", "Status"]] +
                           [words[j:j + 3] for j in range(0, len(words) - 2, 3)]))
    write_docx(path, m["title"], blocks)


def write_xlsx_model(path: str, m, rng: random.Random) -> None:
    sections = m["sections"]
    n_sheets = min(len(sections), rng.randint(1, 3))
    sheets = []
    per = math.ceil(len(sections) / n_sheets)
    for s in range(n_sheets):
        chunk = sections[s * per:(s + 1) * per]
        rows: List[List[object]] = [["Item", "Description", "Quantity", "Unit price", "Status"]]
        for heading, paras in chunk:
            for p in paras:
                for sentence in re.split(r"(?<=[.?!]) ", p):
                    rows.append([heading, sentence, rng.randint(1, 500), round(rng.uniform(1, 999), 2),
                                 rng.choice(["open", "done", "blocked", "review"])])
        name = (chunk[0][0] if chunk else f"Data {s + 1}")[:28]
        sheets.append((name, rows))
    write_xlsx(path, m["title"], sheets)


def write_pptx_model(path: str, m, rng: random.Random) -> None:
    slides = []
    sections = m["sections"]
    n_slides = max(3, min(8, len(sections) + rng.randint(1, 3)))
    for k in range(n_slides):
        heading, paras = sections[k % len(sections)]
        sentences = re.split(r"(?<=[.?!]) ", paras[(k // len(sections)) % len(paras)])
        bullets = sentences[:-1] or sentences
        notes = sentences[-1] if len(sentences) > 1 else ""
        slides.append((heading if k < len(sections) else f"{heading} (continued)", bullets, notes))
    write_pptx(path, m["title"], slides)


TEXT_RENDERERS = {"md": render_md, "txt": render_txt, "html": render_html, "json": render_json}
OFFICE_WRITERS = {"docx": write_docx_model, "xlsx": write_xlsx_model, "pptx": write_pptx_model}
SIZE_CAPS = {"xlsx": 20000, "pptx": 12000}


def _format_plan(n: int, rng: random.Random) -> List[str]:
    counts = [(ext, int(round(share * n))) for ext, share in FORMAT_SHARES]
    total = sum(c for _, c in counts)
    counts[0] = (counts[0][0], counts[0][1] + n - total)   # rounding goes to .md
    plan = [ext for ext, c in counts for _ in range(c)]
    rng.shuffle(plan)
    return plan


def _text_size(rng: random.Random) -> int:
    if rng.random() < 0.015:
        return rng.randint(30000, 100000)
    return int(min(30000, max(1000, rng.lognormvariate(math.log(4500), 0.75))))


def build(n: int, outdir: str, seed: int = 42) -> Dict[str, object]:
    rng = random.Random(seed)
    vocab = Vocabulary(rng, n)
    writer = Writer(rng, vocab)
    plan = _format_plan(n, rng)
    models: List[Dict[str, object]] = []
    counts: Dict[str, int] = {}
    total_bytes = 0
    for i, ext in enumerate(plan):
        primary = rng.randrange(len(vocab.topics))
        topics = [vocab.topics[primary]]
        if rng.random() < 0.4:
            topics.append(vocab.topics[rng.randrange(len(vocab.topics))])
        if models and rng.random() < 0.03:
            model = writer.revise(rng.choice(models[-200:]), topics)
            topic_name = model["topics"][0]
        else:
            model = writer.model(topics, min(_text_size(rng), SIZE_CAPS.get(ext, 10 ** 9)))
            topic_name = topics[0]["name"]
        models.append(model)
        folder = [rng.choice(AREAS), _slug(topic_name)]
        if rng.random() < 0.6:
            folder.append(str(rng.randint(2019, 2025)))
        if rng.random() < 0.15:
            folder.append(rng.choice(["drafts", "old", "shared", "2nd pass"]))
        directory = os.path.join(outdir, *folder)
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, f"{_slug(model['title'])[:48]}-{i:05d}.{ext}")
        if ext in TEXT_RENDERERS:
            with open(path, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(TEXT_RENDERERS[ext](model, rng))
        else:
            OFFICE_WRITERS[ext](path, model, rng)
        counts[ext] = counts.get(ext, 0) + 1
        total_bytes += os.path.getsize(path)
    return {"files": n, "by_format": counts, "bytes": total_bytes, "topics": len(vocab.topics)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int, help="number of files")
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args(argv)
    if os.path.isdir(args.outdir) and os.listdir(args.outdir):
        print(f"{args.outdir} is not empty; remove it first", file=sys.stderr)
        return 2
    start = time.perf_counter()
    summary = build(args.n, args.outdir, args.seed)
    summary["seconds"] = round(time.perf_counter() - start, 2)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
