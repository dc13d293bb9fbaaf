"""What the commands of the ``bingwa`` command line share: one error line
(``fail``), click's usage errors as one line (``BingwaGroup``), Ctrl-C
during compiled work (``run_stoppable``), negative numbers as arguments
(``NumberArgumentCommand``), and the variant and position every command
reads (``load_variant``, ``load_position``, ``-o NAME=VALUE``).

It imports click and the standard library only; the engine is imported by
the helpers that use it, when they run (bingwa/cli.py: ``bingwa engine``
answers ``uci`` at once)."""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import click

T = TypeVar("T")

EXIT_INTERRUPTED = 130  # what shells report for a job ended by Ctrl-C (128 + SIGINT)


def fail(message: str, status: int = 2) -> NoReturn:
    """One clear line on stderr, exit status 2 (or ``status``)."""
    click.echo(f"bingwa: error: {message}", err=True)
    sys.exit(status)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during ``run_stoppable``: ``partial`` is what the work
    returned once told to stop (None if it had not returned)."""

    def __init__(self, partial: Any = None) -> None:
        super().__init__()
        self.partial = partial


def run_stoppable(work: Callable[[threading.Event], T]) -> T:
    """``work(stop)`` on a worker thread, its result returned.

    Compiled searches keep the main thread from seeing Ctrl-C until they
    return; waiting here in short waits lets it arrive at once. The first
    Ctrl-C sets ``stop`` and waits for the work to return what it has
    (raised as ``Interrupted(partial)``); a second one leaves it behind.
    """
    stop = threading.Event()
    done = threading.Event()
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = work(stop)
        except BaseException as exc:  # noqa: BLE001 handed to the main thread
            outcome["error"] = exc
        finally:
            done.set()

    # waited for with an Event: a Thread.join that Ctrl-C interrupts marks the
    # thread finished while it still runs (CPython 3.11)
    threading.Thread(target=target, daemon=True, name="bingwa-work").start()
    while not done.is_set():
        try:
            done.wait(0.05)
        except KeyboardInterrupt:
            if stop.is_set():
                raise Interrupted() from None
            stop.set()
    if "error" in outcome:
        raise outcome["error"]
    if stop.is_set():
        raise Interrupted(outcome.get("value"))
    return outcome["value"]


def usage_error(exc: click.UsageError, command: str) -> NoReturn:
    """click's usage error as one line, with where to look, and the exit
    status the command gave it (``bingwa sprt``: 3)."""
    fail(f"{exc.format_message()} (see bingwa{' ' + command if command else ''} --help)",
         exc.exit_code)


class BingwaGroup(click.Group):
    """The command group: whatever a command does, a bad argument is one
    error line and Ctrl-C is one line and exit status 130."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            usage_error(exc, "")

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            usage_error(exc, ctx.invoked_subcommand or "")
        except KeyboardInterrupt:
            click.echo("bingwa: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)


NEGATIVE_NUMBER = re.compile(r"-\d+(\.\d*)?")


class NumberArgumentCommand(click.Command):
    """A command with a number among its arguments (``perft VARIANT
    DEPTH``): ``-3`` there is a number its range refuses ("Invalid value
    for 'DEPTH': -3 is not in the range 0<=x<=64"), not "No such option
    '-3'" (click reads every word that starts with ``-`` as an option)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        numbers = [p for p in self.params if isinstance(p, click.Argument)
                   and isinstance(p.type, (click.IntRange, click.FloatRange))]
        takes_value = {name for p in self.params if isinstance(p, click.Option) and not p.is_flag
                       for name in p.opts}
        for before, word in zip(["", *args], args):
            if word == "--":
                break
            if numbers and before not in takes_value and NEGATIVE_NUMBER.fullmatch(word):
                numbers[0].type.convert(word, numbers[0], ctx)  # raises the range's error
        return super().parse_args(ctx, args)


def load_variant(spec: str, options: tuple[str, ...] = ()) -> Any:
    from bingwa.engine import BingwaError, find_variant

    try:
        return find_variant(" ".join((spec, *options)))
    except BingwaError as exc:
        fail(str(exc))


def load_position(variant: Any, text: str | None, moves: tuple[str, ...] | list[str] = ()) -> Any:
    """The position ``text`` (or the start) with ``moves`` played, or one
    error line naming what is wrong."""
    from bingwa.engine import BingwaError, Position

    try:
        pos = Position(variant, text=text) if text else Position(variant)
        for i, move in enumerate(moves, 1):
            try:
                pos.push(move)
            except BingwaError as exc:
                raise type(exc)(f"move {i}: {exc}") from None
        return pos
    except BingwaError as exc:
        fail(str(exc))


variant_option = click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="A variant option, e.g. -o grandslam=capture, -o pits=4.",
)
