"""``bingwa variants`` and ``bingwa perft``: the rules at the command line
(the variants registered, with their options, and the count of move
sequences that checks each variant's rules)."""

from __future__ import annotations

import click

from bingwa.cli_common import NumberArgumentCommand, load_position, load_variant, variant_option
from bingwa.cli_spelling import old_spelling_note, pick_variant, variant_choice


@click.command()
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


@click.command(cls=NumberArgumentCommand, epilog=old_spelling_note(
    "the variant as the first argument (bingwa perft oware 5)", "-v/--variant (bingwa perft -v oware 5)"))
@variant_choice()
@click.argument("depth", type=click.IntRange(0, 64))
@click.option("--position", "-p", "position_text", help="Start from this position string.")
@click.option("--moves", "-m", default="", help="Moves played first, separated by spaces.")
@click.option("--divide", is_flag=True, help="Count each legal move's subtree apart.")
@variant_option
def perft(
    old_variant: tuple[str, ...],
    variant: str | None,
    depth: int,
    position_text: str | None,
    moves: str,
    divide: bool,
    options: tuple[str, ...],
) -> None:
    """Count the move sequences of exactly DEPTH plies (a rules check and a
    speed benchmark: leaves per second)."""
    from bingwa.engine.perft import run_perft

    var = load_variant(pick_variant(variant, old_variant), options)
    pos = load_position(var, position_text, moves.split())
    # the compiled count checks for Ctrl-C every few milliseconds; the
    # group answers it with one line and exit status 130
    run_perft(pos, depth, divide, click.echo)
