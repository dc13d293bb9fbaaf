"""The ``bingwa`` command line: the command group and every command added
to it by name, from the module that defines it.

A new verb goes in a ``cli_*`` module of its concern (its shared helpers
in bingwa/cli_common.py) and is added below; a module that is missing is
an ImportError here, never a command silently gone. Each command imports
what it needs when it runs, so that loading all of them stays cheap and
``bingwa engine`` answers ``uci`` at once."""

from __future__ import annotations

import click

from bingwa import (
    __version__,
    cli_demo,
    cli_play,
    cli_protocol,
    cli_regress,
    cli_replay,
    cli_rules,
    cli_search,
    cli_solve,
    cli_tournament,
    cli_web,
)
from bingwa.cli_common import BingwaGroup


@click.group(cls=BingwaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="bingwa")
def main() -> None:
    """bingwa: an engine for mancala games (Oware, Ayoayo, Bao, Kalah)."""


for command in (
    cli_rules.variants,
    cli_rules.perft,
    cli_demo.demo,
    cli_search.bench,
    cli_search.analyse,
    cli_protocol.engine,
    cli_protocol.compliance,
    cli_play.bots_command,
    cli_play.play,
    cli_replay.replay,
    cli_tournament.tournament,
    cli_tournament.sprt,
    cli_tournament.ratings,
    cli_tournament.export,
    cli_web.serve,
    cli_solve.solve,
    cli_regress.regress,
):
    main.add_command(command)
