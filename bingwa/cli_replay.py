"""``bingwa replay``: step through a game record (bingwa records, or
Aualé's .ogn) and ask the engine at any move. Commands are read line by
line from stdin, as ``bingwa play`` reads them (bingwa/cli_play.py, whose
terminal and engine view it uses).
"""

from __future__ import annotations

from typing import Any

import click

from bingwa.cli_common import fail
from bingwa.cli_play import (
    HINT_BOT,
    SIDE_WORDS,
    Terminal,
    describe_outcome,
    engine_view,
    make_bot,
    show_ranking,
)

REPLAY_HELP = """\
Commands (a number alone jumps to that ply):
  next [N], n      forward N plies (1 by default; an empty line too)
  back [N], b      back N plies
  first, last      the start, the end
  goto N           the position after N plies
  analyse [S], a   the engine's view of this position (S seconds, default --time)
  moves            the moves of the game, numbered
  tags             the record's tags
  board            draw the board again
  quit             leave (also at the end of input)
  help             this list"""


class ReplaySession:
    def __init__(self, record: Any, bot_name: str, seconds: float, count: int,
                 bot_options: tuple[str, ...], terminal: Terminal) -> None:
        self.record = record
        self.bot_name = bot_name
        self.seconds = seconds
        self.count = count
        self.bot_options = bot_options
        self.term = terminal
        self.ply = 0
        self.pos = record.position(0)
        self.movers = []  # the side that played each ply
        pos = record.start_position()
        for move in record.moves:
            self.movers.append(pos.turn)
            pos.push(move.text)

    def run(self) -> None:
        tags = self.record.tags
        self.term.echo(f"{self.record.variant.spec()}: {tags.get('South', '?')} (South) - "
                       f"{tags.get('North', '?')} (North), {self.record.result}, "
                       f"{len(self.record.moves)} plies. Type help for the commands.")
        self.show()
        while True:
            line = self.term.ask(f"[{self.ply}/{len(self.record.moves)}]> ")
            if line is None or not self.handle(line):
                self.term.echo("bye")
                return

    def goto(self, ply: int, show: bool = True) -> None:
        ply = max(0, min(ply, len(self.record.moves)))
        while self.ply < ply:
            self.pos.push(self.record.moves[self.ply].text)
            self.ply += 1
        while self.ply > ply:
            self.pos.pop()
            self.ply -= 1
        if show:
            self.show()

    def show(self) -> None:
        echo = self.term.echo
        echo("")
        if self.ply:
            move = self.record.moves[self.ply - 1]
            mover = SIDE_WORDS[self.movers[self.ply - 1]]
            note = f" {{{move.annotation.format()}}}" if move.annotation else ""
            echo(f"ply {self.ply}: {mover} played {move.text}{note}")
        else:
            echo("the start of the game" + (f" {{{self.record.comment}}}"
                                            if self.record.comment else ""))
        echo(self.pos.draw())
        if self.ply == len(self.record.moves):
            outcome = self.pos.outcome()
            if outcome is not None:
                echo(f"Game over: {describe_outcome(outcome)}")
            else:
                how = self.record.tags.get("Termination")
                echo(f"End of the record: {self.record.result}" + (f" ({how})" if how else ""))

    def steps(self, args: list[str]) -> int | None:
        if not args:
            return 1
        if args[0].isdigit():
            return int(args[0])
        self.term.echo(f"expected a number of plies, not {args[0]!r}")
        return None

    def handle(self, line: str) -> bool:
        echo = self.term.echo
        words = line.split()
        if not words:
            self.goto(self.ply + 1)
            return True
        command, args = words[0].lower(), words[1:]
        if command in ("quit", "exit", "q"):
            return False
        if command.isdigit():
            self.goto(int(command))
        elif command in ("next", "n", "forward", "f", "+"):
            steps = self.steps(args)
            if steps is not None:
                self.goto(self.ply + steps)
        elif command in ("back", "b", "prev", "p", "-"):
            steps = self.steps(args)
            if steps is not None:
                self.goto(self.ply - steps)
        elif command in ("first", "start"):
            self.goto(0)
        elif command in ("last", "end"):
            self.goto(len(self.record.moves))
        elif command == "goto":
            if len(args) != 1 or not args[0].isdigit():
                echo("goto needs a ply number: goto N")
            else:
                self.goto(int(args[0]))
        elif command in ("analyse", "analyze", "a", "engine"):
            self.analyse(args)
        elif command == "moves":
            echo(self.move_list())
        elif command == "tags":
            for name, value in self.record.tags.items():
                echo(f"{name}: {value}")
        elif command == "board":
            self.show()
        elif command in ("help", "?"):
            echo(REPLAY_HELP)
        else:
            echo(f"unknown command {words[0]!r}. Type help for the commands.")
        return True

    def analyse(self, args: list[str]) -> None:
        echo = self.term.echo
        seconds = self.seconds
        if args:
            try:
                seconds = float(args[0])
            except ValueError:
                seconds = -1
            if not 0 < seconds <= 3600:
                echo(f"analyse takes a time in seconds, not {args[0]!r}")
                return
        if self.pos.is_over():
            echo("the game is over here: nothing to analyse")
            return
        echo(f"{self.bot_name} thinking {seconds:g} s...")
        show_ranking(echo, engine_view(self.pos, seconds, self.count, self.bot_name,
                                       self.bot_options))

    def move_list(self) -> str:
        words = [f"{i}.{'SN'[mover]} {move.text}"
                 for i, (mover, move) in enumerate(zip(self.movers, self.record.moves,
                                                       strict=True), 1)]
        return "  ".join(words) or "(no moves)"


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--game", "-g", "game_number", type=click.IntRange(1), default=1,
              show_default=True, help="Which game of the file.")
@click.option("--ply", type=click.IntRange(0), default=0, help="Start after this many plies.")
@click.option("--bot", "-b", "bot_name", default=HINT_BOT, show_default=True,
              help="The engine the analyse command asks.")
@click.option("--time", "seconds", type=click.FloatRange(0.001, 3600), default=1.0,
              show_default=True, help="Thinking time of analyse, in seconds.")
@click.option("--lines", "count", type=click.IntRange(1, 256), default=3, show_default=True,
              help="Moves analyse ranks.")
@click.option("--bot-option", "-B", "bot_options", multiple=True, metavar="NAME=VALUE",
              help="An option of the analysing bot, e.g. -B MultiPV=3.")
def replay(file: str, game_number: int, ply: int, bot_name: str, seconds: float, count: int,
           bot_options: tuple[str, ...]) -> None:
    """Step through a game record (bingwa records, or Aualé's .ogn) and ask
    the engine at any move (commands on stdin; type help)."""
    from bingwa.engine.ogn import read_ogn
    from bingwa.engine.records import RecordError, read_records

    try:
        games = read_ogn(file) if file.lower().endswith(".ogn") else read_records(file)
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}")
    except RecordError as exc:
        fail(f"{file}: {exc}")
    except UnicodeDecodeError as exc:
        fail(f"{file}: not a text file ({exc.reason})")
    if not games:
        fail(f"{file}: no game in the file")
    if game_number > len(games):
        fail(f"{file} has {len(games)} game{'s' if len(games) > 1 else ''}, not {game_number}")
    make_bot(bot_name, bot_options)  # fail now, not at the first analyse
    session = ReplaySession(games[game_number - 1], bot_name, seconds, count, bot_options,
                            Terminal())
    session.goto(ply, show=False)
    try:
        session.run()
    except KeyboardInterrupt:
        click.echo()  # end the prompt's line; the group says "interrupted"
        raise
