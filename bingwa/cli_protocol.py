"""``bingwa engine`` (a bot behind the protocol on stdin/stdout) and
``bingwa compliance -- CMD ...`` (check an engine against docs/protocol.md)."""

from __future__ import annotations

import sys

import click

from bingwa.cli_common import fail


def load_bot(name: str):
    """A new bot: a registered name, or ``package.module:Class`` for a bot
    class outside bingwa."""
    import importlib

    from bingwa.bots import Bot
    from bingwa.protocol.bots import find_bot

    if ":" in name:
        module_name, _, class_name = name.partition(":")
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError) as exc:
            fail(f"cannot load bot {name!r}: {exc}")
        if not (isinstance(cls, type) and issubclass(cls, Bot)):
            fail(f"{name!r} is not a Bot class")
        return cls()
    try:
        return find_bot(name)()
    except ValueError as exc:
        fail(str(exc))


def default_bot() -> str:
    from bingwa.bots import bot_names

    return "alphabeta" if "alphabeta" in bot_names() else "greedy"


def text_streams():
    """stdin and stdout as UTF-8 text that never raises on bad bytes."""
    import io

    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", errors="replace",
                              newline="\n")
    return stdin, stdout


@click.command()
@click.option("--bot", "-b", "bot_name", default=None,
              help="The bot to serve (default: alphabeta), or module:Class.")
@click.option("--variant", "-v", default="oware", show_default=True,
              help="The variant at start (setoption name UCI_Variant changes it).")
@click.option("--dialect", type=click.Choice(["uci", "auale"]), default="uci", show_default=True,
              help="auale: speak the Oware dialect of the Aualé GUI.")
def engine(bot_name: str | None, variant: str, dialect: str) -> None:
    """Serve a bot over the protocol on stdin/stdout (docs/protocol.md)."""
    import os

    from bingwa.engine import BingwaError
    from bingwa.protocol.server import EngineServer

    bot = load_bot(bot_name or default_bot())
    # A bot in pure Python holds the GIL while it searches; the reader
    # thread gets it back within this interval (default 5 ms) to answer
    # isready and stop. Only contended switches pay for it.
    sys.setswitchinterval(0.001)
    stdin, stdout = text_streams()
    try:
        server = EngineServer(bot, stdin, stdout, variant=variant, dialect=dialect,
                              errors=sys.stderr)
    except BingwaError as exc:
        fail(str(exc))
    try:
        status = server.run()
    except KeyboardInterrupt:
        click.echo("bingwa: interrupted", err=True)
        status = 130
    try:
        stdout.flush()
    except (OSError, ValueError):
        # the GUI closed the pipe: keep Python quiet at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    sys.exit(status)


@click.command(context_settings={"ignore_unknown_options": True})
@click.option("--dialect", type=click.Choice(["uci", "auale"]), default="uci", show_default=True,
              help="The dialect the engine speaks.")
@click.option("--timeout", default=10.0, show_default=True,
              help="Seconds allowed for the handshake and for each search.")
@click.option("--variant", "-v", "variants", multiple=True,
              help="Check only this variant (repeatable; default: every variant the engine offers).")
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def compliance(dialect: str, timeout: float, variants: tuple[str, ...],
               command: tuple[str, ...]) -> None:
    """Check the engine started by COMMAND against the protocol: handshake,
    options, positions of every variant, clock forms, info lines, one
    bestmove per go, isready during a search, stop, quit. Exit status 1 when
    a check fails.

        bingwa compliance -- bingwa engine --bot random
    """
    from bingwa.protocol.compliance import run_compliance

    report = run_compliance(list(command), dialect=dialect, timeout=timeout,
                            variants=list(variants) or None, echo=click.echo)
    sys.exit(0 if report.passed else 1)
