"""(Re)write the Office files of examples/ from tests/office_factory.py.

The text, Markdown, HTML and JSON examples are written by hand; the .docx,
.xlsx and .pptx ones are generated here so they can be rebuilt and reviewed
as source. Run from the repository root: `python tests/make_examples.py`.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from office_factory import docx, para, pptx, slide_table, table, xlsx  # noqa: E402
from pdf_factory import document  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

STYLES = {"Title": "Title", "Heading1": "heading 1", "Heading2": "heading 2"}


def safety_procedures() -> bytes:
    body = "".join([
        para("Safety Procedures", style="Title"),
        para("These procedures apply to everyone in the workshop: volunteers, visitors and "
             "Earn-a-Bike participants. The session lead is responsible for safety during a "
             "session and has the final word."),
        para("Before every session", style="Heading1"),
        para("Walk round the workshop before opening. Check that the fire exit is clear, the "
             "first-aid kit is complete, and the compressor has been drained. Make sure every "
             "workstand clamp closes fully and the floor is free of oil."),
        para("Chemicals", style="Heading1"),
        para("Degreaser, chain lubricant and vulcanising solution are kept in the locked metal "
             "cabinet. Wear nitrile gloves when handling degreaser and open the back door for "
             "ventilation. Oily rags go in the metal bin with the lid, never in the general waste."),
        para("Never spray degreaser or lubricant near disc brakes. Contaminated pads must be "
             "replaced, not cleaned."),
        para("Lifting bikes onto workstands", style="Heading1"),
        para("Lift with your legs, not your back. Heavy bikes (cargo bikes, e-bikes) need two "
             "people. Clamp the seat post, never the frame tubes of a carbon bike."),
        para("Sharp tools and chainrings", style="Heading1"),
        para("Chainrings and cassette teeth cut. Wear cut-resistant gloves when removing cranks "
             "or chainrings, and wrap a rag over the chainring teeth before applying force to a "
             "crank puller."),
        para("After an accident", style="Heading1"),
        para("Give first aid, or call a first aider from the roster. Write what happened in the "
             "accident book the same day, including near misses. The coordinator reviews the "
             "accident book at every committee meeting."),
        para("Who to call", style="Heading2"),
        table([["Role", "Name", "When"],
               ["Session lead", "on the roster", "during a session"],
               ["Coordinator", "Priya Natarajan", "any accident or near miss"],
               ["First aiders", "Tomasz Nowak, Aisha Rahman", "injuries"]]),
    ])
    return docx(body, title="Safety Procedures", styles=STYLES,
                footnotes=["The accident book is on the shelf above the till, next to the "
                           "petty cash tin."],
                comments=["Tomasz: add the chainring slide to the induction deck too."],
                headers=["Spoke & Sprocket — Safety Procedures"],
                footers=["Reviewed March 2024 by the committee"])


def parts_inventory() -> bytes:
    stock = [["Part", "Supplier", "In stock", "Reorder level", "Unit cost"],
             ["Inner tube 700x25c", "CycleParts Direct", 46, 20, 4.2],
             ["Inner tube 26x1.95", "CycleParts Direct", 31, 20, 4.5],
             ["Patch kit", "CycleParts Direct", 8, 20, 1.8],
             ["Brake pads, V-brake", "CycleParts Direct", 24, 10, 3.1],
             ["Brake pads, cantilever", "CycleParts Direct", 0, 10, 3.4],
             ["Brake cable", "Northern Bike Supply", 60, 25, 1.2],
             ["Gear cable", "Northern Bike Supply", 55, 25, 1.1],
             ["Chain, 8-speed", "Northern Bike Supply", 12, 6, 9.5],
             ["Tyre levers (pair)", "Northern Bike Supply", 15, 10, 1.5]]
    tools = [["Tool", "Location", "Sign out?"],
             ["Truing stand (2)", "Back room", True],
             ["Dishing tool", "Back room pegboard", True],
             ["Spoke keys", "Back room pegboard", False],
             ["Headset press", "Back room", True],
             ["Track pumps", "Workstands", False]]
    return xlsx([("Consumables", stock), ("Specialist tools", tools)], title="Parts inventory",
                file_numbers=[2, 1])


def budget() -> bytes:
    income = [["Income", "Plan", "Actual to March"],
              ["Council grant", 6000, 6000],
              ["Second-hand bike sales", 7200, 1450],
              ["Parts sales", 2400, 610],
              ["Donations", 1200, 385],
              ["Total", ("formula", "SUM(B2:B5)", "16800"), ("formula", "SUM(C2:C5)", "8445")]]
    expenses = [["Expense", "Plan", "Actual to March"],
                ["Rent", 6000, 1500],
                ["Wheel-building bench and truing stand", 2500, 2460],
                ["Parts for resale", 2000, 780],
                ["Earn-a-Bike parts", 2800, 290],
                ["Insurance renewal (June)", 900, 0],
                ["Consumables (degreaser, rags, gloves)", 600, 140],
                ["Total", ("formula", "SUM(B2:B7)", "14800"), ("formula", "SUM(C2:C7)", "5170")]]
    summary = [["Summary 2024", "Plan", "Actual to March"],
               ["Income", ("formula", "Income!B6", "16800"), ("formula", "Income!C6", "8445")],
               ["Expenses", ("formula", "Expenses!B8", "14800"), ("formula", "Expenses!C8", "5170")],
               ["Surplus", ("formula", "B2-B3", "2000"), ("formula", "C2-C3", "3275")],
               ["Note", "Flag any category more than 10% over plan to the committee."]]
    return xlsx([("Summary", summary), ("Income", income), ("Expenses", expenses)],
                title="Budget 2024", file_numbers=[3, 1, 2])


def induction_deck() -> bytes:
    slides = [
        {"title": "Volunteer induction",
         "body": ["Spoke & Sprocket Community Bike Workshop", "About 45 minutes, with a tour"],
         "notes": ["Welcome everyone, introduce yourself and the session lead."]},
        {"title": "What we do",
         "body": ["Drop-in repair sessions on Saturdays", "Earn-a-Bike classes on Tuesdays",
                  "Selling serviced second-hand bikes"],
         "notes": ["Mention that we teach rather than fix: the visitor holds the tools."]},
        {"title": "Safety first",
         "body": ["Gloves for degreaser and chains", "Two people to lift heavy bikes",
                  "Know where the first-aid kit and accident book are"],
         "notes": ["Walk to the first-aid kit and fire extinguisher during the tour."]},
        {"title": "Chainrings cut",
         "body": ["Wear cut-resistant gloves when removing cranks",
                  "Wrap a rag over the teeth before using the crank puller"],
         "notes": ["Added after the February accident (see meeting notes, 12 March)."]},
        {"title": "The repairs you will see most",
         "shapes": slide_table([["Repair", "Share of visits"], ["Punctures", "40%"],
                                ["Brake adjustment", "18%"], ["Gear indexing", "12%"]]),
         "notes": ["Hand out the laminated repair guide for punctures and brakes."]},
        {"title": "Your first shifts",
         "body": ["Shadow an experienced volunteer for two sessions",
                  "Add yourself to the volunteer roster", "Ask questions, always"]},
    ]
    return pptx(slides, title="Volunteer induction")


def wheel_guide() -> bytes:
    pages = [
        ["Wheel truing and spoke tension",
         "",
         "A wheel that wobbles from side to side is out of true. Most wobbles come from a few",
         "spokes that have lost tension, so the cure is to tighten the right spokes a little",
         "at a time, never to loosen the whole wheel.",
         "",
         "Checking a wheel",
         "Put the wheel in the truing stand and spin it slowly. Bring the caliper in until it",
         "just touches the rim at the worst point, and mark that spot with a piece of tape.",
         "Pluck the spokes near the mark: a spoke that sounds dull and low has lost tension.",
         "Check the hub bearings first. A loose cone makes a true wheel look out of true."],
        ["Correcting a wobble",
         "If the rim rubs on the right, tighten the left-side spokes at the rub a quarter turn",
         "each, and loosen the right-side spokes beside them by the same amount. Work out from",
         "the middle of the wobble and spin again after every few turns.",
         "",
         "Spoke keys come in several sizes. Use the one that fits the nipple snugly; a loose key",
         "rounds the nipple and the spoke then has to be cut out and replaced.",
         "",
         "When the wheel is true within a millimetre, squeeze pairs of parallel spokes hard",
         "to stress-relieve them, then check the wheel again before it goes back on the bike."],
    ]
    return document("Wheel truing and spoke tension", pages,
                    [("Checking a wheel", 0), ("Correcting a wobble", 1)])


def main() -> None:
    outputs = {
        "safety-procedures.docx": safety_procedures(),
        "parts-inventory.xlsx": parts_inventory(),
        "budget-2024.xlsx": budget(),
        "volunteer-induction.pptx": induction_deck(),
        "wheel-truing-guide.pdf": wheel_guide(),
    }
    for name, data in outputs.items():
        (EXAMPLES / name).write_bytes(data)
        print(f"wrote examples/{name} ({len(data):,} bytes)")


if __name__ == "__main__":
    main()
