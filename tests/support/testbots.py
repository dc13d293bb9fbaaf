"""Bots and helpers for the protocol tests (not registered in bingwa.bots).

BusyBot (bingwa.bots.busy, which the latency benchmark uses too) really
searches in the sense that matters here: it burns CPU in Python until it
is stopped. The others fail in the ways a server must survive.
"""

from __future__ import annotations

import queue
import threading

from bingwa.bots.base import Bot
from bingwa.bots.busy import BusyBot
from bingwa.engine.limits import Info, Limits, SearchResult


class StubbornBot(BusyBot):
    """Ignores every limit: only the stop event ends its search."""

    name = "stubborn"

    def go(self, position, limits, emit, stop):
        moves = self.candidate_moves(position, limits)
        while not stop.wait(0.001):
            sum(range(2000))
        return SearchResult(moves[0].text if moves else None)


class FailingBot(Bot):
    name = "failing"

    def go(self, position, limits, emit, stop):
        raise RuntimeError("boom")


class IllegalBot(Bot):
    name = "illegal"

    def go(self, position, limits, emit, stop):
        return SearchResult("z", ponder="q")


class NoMoveBot(Bot):
    name = "nomove"

    def go(self, position, limits, emit, stop):
        return SearchResult(None)


class MateBot(Bot):
    """Reports a proven win in 3 plies, a float nps and a lower bound."""

    name = "mate"

    def go(self, position, limits, emit, stop):
        moves = self.candidate_moves(position, limits)
        emit(Info(depth=4, score_mate=3, bound="lowerbound", nodes=10, nps=1234.5,
                  pv=[m.text for m in moves[:2]]))
        emit(Info(string="thinking\nhard"))
        return SearchResult(moves[0].text, ponder=None)


class RecordingBot(Bot):
    """Plays the first candidate move and records what each go asked."""

    name = "recording"

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Limits]] = []

    def go(self, position, limits, emit, stop):
        self.calls.append((position.text(), limits))
        if limits.infinite or limits.ponder:
            stop.wait()
        moves = self.candidate_moves(position, limits)
        return SearchResult(moves[0].text if moves else None)


def read_script(path) -> list[tuple[str, list[str]]]:
    """A conversation file: each line sent (``> ``) with the replies
    expected after it (``< `` exact, ``<~ `` a regular expression)."""
    steps: list[tuple[str, list[str]]] = []
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if line.startswith("> "):
            steps.append((line[2:], []))
        elif line.startswith(("< ", "<~ ")):
            steps[-1][1].append(line)
        elif line.strip() and not line.startswith("#"):
            raise ValueError(f"not a script line: {line!r}")
    return steps


def replay(steps, send, receive, quiet: float = 0.1) -> int:
    """Play a conversation: send each line and check the replies in order
    (``receive(timeout)`` gives the next line or None). A line with no
    reply must get none within ``quiet`` seconds. Returns the lines checked."""
    import re

    checked = 0
    for sent, replies in steps:
        send(sent)
        for reply in replies:
            got = receive(10.0)
            assert got is not None, f"no reply to {sent!r}: expected {reply!r}"
            if reply.startswith("<~ "):
                assert re.fullmatch(reply[3:], got), f"after {sent!r}: {got!r} !~ {reply[3:]!r}"
            else:
                assert got == reply[2:], f"after {sent!r}: got {got!r}, expected {reply[2:]!r}"
            checked += 1
        if not replies and sent != "quit":
            extra = receive(quiet)
            assert extra is None, f"after {sent!r}: unexpected {extra!r}"
    return checked


class LineFeed:
    """A text input fed line by line from another thread (readline blocks
    like a pipe; close() is the end of input). ``readline(size)`` gives at
    most ``size`` characters, the rest of the line comes next, as a file's."""

    def __init__(self) -> None:
        self._lines: queue.Queue[str] = queue.Queue()
        self._rest = ""  # what is left of a line read in part
        self.longest = 0  # the longest piece handed out

    def feed(self, *lines: str) -> None:
        for line in lines:
            self._lines.put(line + "\n")

    def close(self) -> None:
        self._lines.put("")

    def readline(self, size: int = -1) -> str:
        line = self._rest or self._lines.get()
        if 0 <= size < len(line):
            line, self._rest = line[:size], line[size:]
        else:
            self._rest = ""
        self.longest = max(self.longest, len(line))
        return line


class LineSink:
    """A text output that collects whole lines and lets a reader wait."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._partial = ""
        self._cond = threading.Condition()
        self.flushes = 0

    def write(self, text: str) -> int:
        with self._cond:
            self._partial += text
            *done, self._partial = self._partial.split("\n")
            self.lines.extend(done)
            self._cond.notify_all()
        return len(text)

    def flush(self) -> None:
        self.flushes += 1

    def wait_for(self, predicate, timeout: float = 5.0) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self.lines), timeout)


class BrokenSink:
    """An output whose reader went away."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


class ServerSession:
    """An EngineServer on a thread, fed and read line by line."""

    def __init__(self, bot: Bot, **options) -> None:
        import io

        from bingwa.protocol.server import EngineServer

        self.input = LineFeed()
        self.output = LineSink()
        self.errors = io.StringIO()
        self.server = EngineServer(bot, self.input, self.output, errors=self.errors, **options)
        self.status: int | None = None
        self.mark = 0  # lines before it were read by the test
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        self.status = self.server.run()

    @property
    def lines(self) -> list[str]:
        return self.output.lines

    def send(self, *lines: str) -> None:
        self.input.feed(*lines)

    def sync(self, timeout: float = 5.0) -> list[str]:
        """Send isready; the new lines before its readyok."""
        target = self.lines.count("readyok") + 1
        self.send("isready")
        assert self.output.wait_for(lambda ls: ls.count("readyok") >= target, timeout), \
            f"no readyok; output: {self.lines[self.mark:]}"
        ready = [i for i, line in enumerate(self.lines) if line == "readyok"][target - 1]
        new = [line for line in self.lines[self.mark:ready] if line != "readyok"]
        self.mark = ready + 1
        return new

    def wait_for(self, prefix: str, timeout: float = 5.0) -> str:
        """The next line starting with ``prefix`` (lines before it are read)."""
        def found(lines: list[str]) -> bool:
            return any(line.startswith(prefix) for line in lines[self.mark:])

        assert self.output.wait_for(found, timeout), \
            f"no {prefix!r} line; output: {self.lines[self.mark:]}"
        for i in range(self.mark, len(self.lines)):
            if self.lines[i].startswith(prefix):
                self.mark = i + 1
                return self.lines[i]
        raise AssertionError("unreachable")

    def next_line(self, timeout: float) -> str | None:
        """The next unread line, or None after ``timeout`` seconds."""
        if not self.output.wait_for(lambda lines: len(lines) > self.mark, timeout):
            return None
        self.mark += 1
        return self.lines[self.mark - 1]

    def close(self, timeout: float = 10.0) -> list[str]:
        """End of input; every line written after the mark."""
        self.input.close()
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the server did not end at the end of its input"
        return self.lines[self.mark:]
