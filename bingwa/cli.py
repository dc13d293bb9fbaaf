"""The ``bingwa`` command line. Each command imports what it needs when it
runs, so that ``bingwa engine`` answers ``uci`` at once."""

from __future__ import annotations

import importlib
import sys
from typing import Any, NoReturn

import click

from bingwa import __version__


def fail(message: str) -> NoReturn:
    """One clear line on stderr, exit status 2."""
    click.echo(f"bingwa: error: {message}", err=True)
    sys.exit(2)


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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="bingwa")
def main() -> None:
    """bingwa: an engine for mancala games (Oware, Ayoayo, Bao, Kalah)."""


@main.command()
def variants() -> None:
    """List the variants with their aliases and options."""
    from bingwa.engine.variant import REGISTRY, variant_names

    for name in variant_names():
        cls = REGISTRY[name]
        aliases = f" (aliases: {', '.join(cls.aliases)})" if cls.aliases else ""
        click.echo(f"{name}{aliases}")
        for spec in cls.option_specs:
            values = "|".join(spec.choices) if spec.choices else (
                f"{spec.low}..{spec.high}" if spec.kind == "int" else "true|false"
            )
            click.echo(f"    {spec.name}={values} (default {str(spec.default).lower()}): {spec.help}")


@main.command()
@click.argument("variant")
@click.argument("depth", type=click.IntRange(0, 64))
@click.option("--position", "-p", "position_text", help="Start from this position string.")
@click.option("--moves", "-m", default="", help="Moves played first, separated by spaces.")
@click.option("--divide", is_flag=True, help="Count each legal move's subtree apart.")
@variant_option
def perft(
    variant: str,
    depth: int,
    position_text: str | None,
    moves: str,
    divide: bool,
    options: tuple[str, ...],
) -> None:
    """Count the move sequences of exactly DEPTH plies (a rules check and a
    speed benchmark: leaves per second)."""
    from bingwa.engine.perft import run_perft

    var = load_variant(variant, options)
    pos = load_position(var, position_text, moves.split())
    run_perft(pos, depth, divide, click.echo)


# Commands defined in their own modules register themselves on ``main``.
COMMAND_MODULES = (
    "bingwa.cli_demo",
    "bingwa.cli_search",
    "bingwa.cli_protocol",
    "bingwa.cli_play",
    "bingwa.cli_tournament",
    "bingwa.cli_solve",
)
for _name in COMMAND_MODULES:
    try:
        importlib.import_module(_name)
    except ModuleNotFoundError as _exc:
        if _exc.name != _name:
            raise
