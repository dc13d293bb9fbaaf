"""Generated garbage never crashes or hangs the server: 10,000 seeded
malformed and random lines in process, a hypothesis property, and random
bytes through ``bingwa engine``. After each run the server still answers
isready, every go got exactly one bestmove, every info line is well formed
and no internal error or traceback appeared."""

from __future__ import annotations

import random
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.testbots import ServerSession

from bingwa.bots import find_bot
from bingwa.engine import variant_names
from bingwa.protocol.wire import parse_info, strip_comment

COMMANDS = ["uci", "ugi", "isready", "ucinewgame", "position", "go", "stop", "ponderhit",
            "setoption", "query", "d", "perft", "debug", "register", "gameover", "#", "bench"]
GO_WORDS = ["wtime", "btime", "winc", "binc", "p1time", "p2time", "p1inc", "p2inc", "movestogo",
            "movetime", "depth", "nodes", "infinite", "ponder", "searchmoves", "mate"]
OPTION_NAMES = ["UCI_Variant", "uci_variant", "Hash", "MultiPV", "Move Overhead", "Ponder",
               "Dialect", "Seed", "grandslam", "pits", "seeds", "empty-capture", "Nope",
               "OwnBook", ""]
VALUES = ["true", "false", "0", "-1", "3", "12", "99999999999999999999", "x", "", "oware",
          "kalah", "bao", "ayoayo", "kujifunza", "auale", "uci", "capture", "kalah pits=3",
          "nocapture", "1.5"]
ODD = ["\x00", "\x1b[2J", "\t", "é", "💥", "\u202e", "\\", '"', "'", "%s", "{}", "--", "=", ";"]


def number(rng: random.Random, huge: bool) -> str:
    pool = ["-5", "0", "1", "7", "50", "300", "1000", "x", "1.5", "+3", "-0"]
    if huge:
        pool += ["99999999999999999999999999", "2147483648", "1" + "0" * 40]
    return rng.choice(pool)


def word(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.3:
        return rng.choice("abcdefABCDEFgzG")
    if kind < 0.45:
        return rng.choice(["A6<", "a5>", "B1<", "A3>+", "(none)", "0000", "FfBe", "moves"])
    if kind < 0.6:
        return rng.choice(ODD) * rng.randint(1, 3)
    if kind < 0.75:
        return str(rng.randint(-100, 100))
    return "".join(rng.choice("abcxyz0123456789-,/_=") for _ in range(rng.randint(1, 12)))


def command_line(rng: random.Random) -> str:
    """A line that is mostly a real command with real-looking arguments."""
    command = rng.choice(COMMANDS)
    if command == "position":
        head = rng.choice([["startpos"], ["fen", "4,4,4,4,4,4/4,4,4,4,4,4", "0", "0", "s"],
                           ["fen", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"], ["fen"], [], [word(rng)],
                           ["fen", "0,0,0,0,0,0/0,0,0,0,0,1", "24", "23", "n"]])
        moves = [rng.choice("abcdefABCDEF") for _ in range(rng.randint(0, 14))]
        if rng.random() < 0.2:
            moves.append(word(rng))
        return " ".join(["position", *head, *(["moves", *moves] if rng.random() < 0.8 else [])])
    if command == "go":
        parts = ["go"]
        for _ in range(rng.randint(0, 5)):
            key = rng.choice(GO_WORDS)
            parts.append(key)
            if key in ("infinite", "ponder"):
                continue
            if key == "searchmoves":
                parts += [rng.choice("abcdefABCDEFz") for _ in range(rng.randint(0, 3))]
            elif rng.random() < 0.9:
                # huge clocks only where no bot waits on them (no ponder budget of hours)
                parts.append(number(rng, huge=key in ("depth", "nodes", "movestogo")))
        return " ".join(parts)
    if command == "setoption":
        parts = ["setoption"]
        if rng.random() < 0.9:
            parts += ["name", rng.choice(OPTION_NAMES)]
        if rng.random() < 0.8:
            parts += ["value", rng.choice(VALUES)]
        return " ".join(parts)
    if command == "query":
        return "query " + rng.choice(["gameover", "p1turn", "result", "legalmoves", "", "x"])
    if command == "perft":
        return "perft " + rng.choice(["0", "1", "2", "3", "-1", "x", "99", ""])
    if command == "bench":
        return "bench please"  # not a command: bench takes seconds, garbage must not
    if command == "#":
        return "# " + word(rng)
    return " ".join([command, *(word(rng) for _ in range(rng.randint(0, 2)))])


def mutate(rng: random.Random, line: str) -> str:
    words = line.split(" ")
    for _ in range(rng.randint(1, 3)):
        action = rng.random()
        at = rng.randrange(len(words) + 1)
        if action < 0.3:
            words.insert(at, word(rng))
        elif action < 0.5 and words:
            del words[min(at, len(words) - 1)]
        elif action < 0.65 and words:
            words[min(at, len(words) - 1)] = words[min(at, len(words) - 1)].upper()
        elif action < 0.8:
            words.insert(at, rng.choice(["", " ", "  "]))
        else:
            words = words[::-1]
    return " ".join(words)


def fuzz_lines(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.55:
            line = command_line(rng)
        elif roll < 0.85:
            line = mutate(rng, command_line(rng))
        elif roll < 0.95:
            line = " ".join(word(rng) for _ in range(rng.randint(0, 8)))
        else:
            line = "".join(chr(rng.randint(1, 0x2FF)) for _ in range(rng.randint(0, 60)))
        line = line.replace("\n", " ")
        lines.append(line)
    return harmless(lines)


def harmless(lines: list[str]) -> list[str]:
    """Without quit (it would end the test early) and with no real bench
    (it takes seconds; ``bench <word>`` is refused at once)."""
    kept = []
    for line in lines:
        words = strip_comment(line).split()
        if words[:1] == ["quit"]:
            continue
        kept.append(line + " now" if words == ["bench"] else line)
    return kept


def go_count(lines: list[str]) -> int:
    return sum(strip_comment(line).split()[:1] == ["go"] for line in lines)


def check_session(session: ServerSession, sent: list[str]) -> None:
    """isready still works; one bestmove per go; clean output."""
    session.sync(timeout=30)
    lines = session.close(timeout=30)
    assert session.status == 0
    output = session.lines
    assert len([line for line in output if line.startswith("bestmove")]) == go_count(sent)
    for line in output:
        assert "Traceback" not in line and "internal error" not in line, line
        if line.startswith("info"):
            parse_info(line, strict=True)
    assert session.errors.getvalue() == ""
    assert lines is not None


def test_ten_thousand_generated_lines_never_crash_or_hang_the_server():
    lines = fuzz_lines(seed=2026, count=10_400)
    assert len(lines) >= 10_000
    assert go_count(lines) > 300
    session = ServerSession(find_bot("random")())
    for start in range(0, len(lines), 500):
        session.send(*lines[start:start + 500])
    check_session(session, lines)


def test_generated_lines_in_every_variant_with_the_greedy_bot():
    lines = []
    for n, name in enumerate(variant_names()):
        lines.append(f"setoption name UCI_Variant value {name}")
        lines += fuzz_lines(seed=n, count=300)
    session = ServerSession(find_bot("greedy")())
    session.send(*lines)
    check_session(session, lines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(
    st.one_of(
        st.text(max_size=60),
        st.builds(lambda c, rest: f"{c} {rest}", st.sampled_from(COMMANDS), st.text(max_size=40)),
    ).map(lambda s: s.replace("\n", " ").replace("\r", " ")),
    max_size=25,
))
def test_any_text_lines_keep_the_server_answering(lines):
    lines = harmless(lines)
    session = ServerSession(find_bot("random")())
    session.send(*lines)
    check_session(session, lines)


def test_random_bytes_through_the_engine_command():
    rng = random.Random(7)
    chunks = []
    for line in fuzz_lines(seed=99, count=2_000):
        chunks.append(line.encode("utf-8", "replace").replace(b"\r", b" ") + b"\n")
        if rng.random() < 0.05:
            noise = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
            chunks.append(noise.replace(b"\n", b" ").replace(b"\r", b" ") + b"\n")
    script = b"".join(chunks) + b"isready\n"  # then the end of input
    done = subprocess.run(
        [sys.executable, "-m", "bingwa", "engine", "--bot", "random"],
        input=script, capture_output=True, timeout=120,
    )
    assert done.returncode == 0
    sent = script.decode("utf-8", "replace").split("\n")
    first_words = [strip_comment(line).split()[:1] for line in sent]
    out = done.stdout.decode("utf-8").splitlines()
    assert out.count("readyok") == first_words.count(["isready"])
    assert len([line for line in out if line.startswith("bestmove")]) == first_words.count(["go"])
    assert "Traceback" not in done.stdout.decode() + done.stderr.decode("utf-8", "replace")
