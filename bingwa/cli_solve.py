"""``bingwa solve``: exact values (endgame databases and solvers). The
group lives here; its commands live in their own modules, imported at the
bottom so that they register."""

from __future__ import annotations

import click

from bingwa.cli import main


@click.group()
def solve() -> None:
    """Exact values: endgame databases and solvers."""


main.add_command(solve)

import bingwa.cli_solve_exact  # noqa: E402,F401  isort: skip  (registers its commands)
