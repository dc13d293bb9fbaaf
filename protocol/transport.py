"""Transports carry protocol lines between the client and an engine:

- ProcessTransport: an engine command run as a child process;
- InProcessTransport: an EngineServer on a thread of this process, over OS
  pipes (the real server code without the cost of starting Python);
- ScriptedTransport: a script of the exact lines the client must send and
  the engine's replies (tests, as python-chess's mock engine).

A thread reads each line as it arrives and stamps it with the monotonic
time, so times the client measures are round trips on the pipe.
"""

from __future__ import annotations

import collections
import os
import queue
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

from .errors import EngineCrash, EngineStartError

Clock = Callable[[], float]
Received = tuple[float, str]  # (monotonic time read, line)


class Transport:
    """Carries lines between the client and an engine."""

    def send(self, line: str) -> None:
        raise NotImplementedError

    def receive(self, timeout: float | None) -> Received | None:
        """The next line, or None once ``timeout`` seconds have passed
        without one (None: wait for ever). Raises EngineCrash at the end
        of the engine's output."""
        raise NotImplementedError

    def close(self, timeout: float = 2.0) -> int | None:
        """Wait for the engine to end (killing it after ``timeout``); its
        exit status."""
        return None

    def returncode(self) -> int | None:
        return None

    def error_tail(self) -> list[str]:
        """The last lines the engine wrote to its error stream."""
        return []


_EOF = object()


class StreamTransport(Transport):
    """Lines over a pair of text streams, read by a thread that stamps
    each line with the time it arrived."""

    def __init__(self, write: TextIO, read: TextIO) -> None:
        self._write = write
        self._lines: queue.Queue[Any] = queue.Queue()
        self._eof = False
        self._reader = threading.Thread(target=self._pump, args=(read,), daemon=True,
                                        name="bingwa-client-reader")
        self._reader.start()

    def _pump(self, read: TextIO) -> None:
        try:
            for line in read:
                self._lines.put((time.monotonic(), line.rstrip("\r\n")))
        except (OSError, ValueError):
            pass
        self._lines.put(_EOF)

    def send(self, line: str) -> None:
        try:
            self._write.write(line + "\n")
            self._write.flush()
        except (OSError, ValueError) as exc:
            raise EngineCrash(f"cannot write to the engine: {exc}",
                              returncode=self.returncode()) from None

    def receive(self, timeout: float | None) -> Received | None:
        if self._eof:
            raise self._crash()
        try:
            item = self._lines.get(timeout=None if timeout is None else max(0.0, timeout))
        except queue.Empty:
            return None
        if item is _EOF:
            self._eof = True
            raise self._crash()
        return item

    def _crash(self) -> EngineCrash:
        code = self.returncode()
        tail = self.error_tail()
        text = "the engine ended" + (f" with status {code}" if code is not None else "")
        if tail:
            text += f"; its last error line: {tail[-1]}"
        return EngineCrash(text, returncode=code)


class ProcessTransport(StreamTransport):
    """An engine command run as a child process."""

    def __init__(self, command: list[str], *, cwd: str | None = None,
                 env: dict[str, str] | None = None) -> None:
        try:
            self.process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, encoding="utf-8", errors="replace", bufsize=1, cwd=cwd, env=env,
            )
        except OSError as exc:
            raise EngineStartError(f"cannot start {' '.join(command)!r}: {exc}") from None
        self.command = command
        self._errors: collections.deque[str] = collections.deque(maxlen=50)
        assert self.process.stdin and self.process.stdout and self.process.stderr
        threading.Thread(target=self._pump_errors, args=(self.process.stderr,), daemon=True,
                         name="bingwa-client-stderr").start()
        super().__init__(self.process.stdin, self.process.stdout)  # type: ignore[arg-type]

    def _pump_errors(self, stream: TextIO) -> None:
        try:
            for line in stream:
                self._errors.append(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass

    def returncode(self) -> int | None:
        try:
            return self.process.wait(0.2)
        except subprocess.TimeoutExpired:
            return None

    def error_tail(self) -> list[str]:
        return list(self._errors)

    def close(self, timeout: float = 2.0) -> int | None:
        try:
            if self.process.stdin:
                self.process.stdin.close()
        except OSError:
            pass
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.terminate()
        try:
            return self.process.wait(1.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


class InProcessTransport(StreamTransport):
    """An EngineServer running on a thread of this process, over OS pipes:
    the real server code, without the cost of starting Python."""

    def __init__(self, make_server: Callable[[TextIO, TextIO], Any]) -> None:
        to_server_r, to_server_w = os.pipe()
        from_server_r, from_server_w = os.pipe()
        server_in = os.fdopen(to_server_r, "r", encoding="utf-8", errors="replace")
        server_out = os.fdopen(from_server_w, "w", encoding="utf-8")
        self.server = make_server(server_in, server_out)
        self.status: int | None = None

        def serve() -> None:
            try:
                self.status = self.server.run()
            finally:
                server_out.close()
                server_in.close()

        self.thread = threading.Thread(target=serve, daemon=True, name="bingwa-inprocess-engine")
        self.thread.start()
        super().__init__(
            os.fdopen(to_server_w, "w", encoding="utf-8"),
            os.fdopen(from_server_r, "r", encoding="utf-8", errors="replace"),
        )

    def returncode(self) -> int | None:
        self.thread.join(0.2)
        return None if self.thread.is_alive() else self.status

    def close(self, timeout: float = 2.0) -> int | None:
        try:
            self._write.close()
        except OSError:
            pass
        self.thread.join(timeout)
        return self.returncode()


class ScriptedTransport(Transport):
    """A pretend engine that follows a script: ``expect(line, *replies)``
    says the client must send ``line`` next and the engine answers
    ``replies``. A line the script does not expect fails the test at once.
    A receive with no reply waiting stands for the whole wait elapsing (no
    real waiting). Reply with ScriptedTransport.EOF for a crash."""

    EOF = "\x00EOF"

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self.expected: collections.deque[tuple[str, tuple[str, ...]]] = collections.deque()
        self.incoming: collections.deque[str] = collections.deque()
        self.sent: list[str] = []

    def expect(self, line: str, *replies: str) -> None:
        self.expected.append((line, replies))

    def reply(self, *replies: str) -> None:
        """Lines the engine writes without being asked (e.g. at start)."""
        self.incoming.extend(replies)

    def send(self, line: str) -> None:
        self.sent.append(line)
        if not self.expected:
            raise AssertionError(f"the client sent {line!r}; the script expected nothing")
        want, replies = self.expected.popleft()
        if line != want:
            raise AssertionError(f"the client sent {line!r}; the script expected {want!r}")
        self.incoming.extend(replies)

    def receive(self, timeout: float | None) -> Received | None:
        if self.incoming:
            line = self.incoming.popleft()
            if line == self.EOF:
                raise EngineCrash("the engine ended", returncode=1)
            return self.clock(), line
        if timeout is None:
            raise AssertionError("the client waits for ever; the script has no reply left")
        return None

    def assert_done(self) -> None:
        if self.expected:
            raise AssertionError(f"the script still expects {self.expected[0][0]!r}")
