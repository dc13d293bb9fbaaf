"""The examples of docs/protocol.md work as written (issue 13, item 16):
each ``position`` line of the document is accepted by the engine in the
variant it is written for."""

from __future__ import annotations

import re
from pathlib import Path

from support.testbots import ServerSession

from bingwa.bots import find_bot

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
# a position string opens with its variant's name when it is not Oware's
VARIANT_OF = {"kiswahili": "bao", "kujifunza": "kujifunza"}


def example_positions() -> list[str]:
    """The indented ``position ...`` lines of the document's examples."""
    return [line.strip() for line in DOC.read_text(encoding="utf-8").splitlines()
            if re.match(r"    position (startpos|fen)\b", line)]


def test_the_documents_position_examples_are_accepted():
    examples = example_positions()
    assert len(examples) >= 3
    session = ServerSession(find_bot("greedy")())
    for line in examples:
        words = line.split()
        variant = VARIANT_OF.get(words[2], "oware") if words[1] == "fen" else "oware"
        session.send(f"setoption name UCI_Variant value {variant}", line, "query gameover")
        assert session.sync() == ["response false"], line
    session.close()
