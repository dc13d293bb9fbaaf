"""``bingwa bots`` and ``bingwa play`` (a person against a bot at the
terminal), and what ``bingwa replay`` (bingwa/cli_replay.py) shares with
it: the bots made from names, the engine's ranked view of a position, the
board turned to North, and the terminal.

Both sessions read commands line by line from stdin, so they can be
scripted (``printf 'c\\nhint\\nquit\\n' | bingwa play -v oware``); end of input
is ``quit``. Every input is checked: a bad one gets one line saying why, and
the session goes on.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import click

from bingwa.cli_common import fail, load_position, load_variant, run_stoppable, variant_option
from bingwa.cli_spelling import old_spelling_note, pick_variant, variant_choice

SIDES = {"south": 0, "north": 1}
SIDE_WORDS = ("South", "North")
HINT_BOT = "alphabeta"  # the engine whose ranked moves ``hint`` shows


# -- bots -----------------------------------------------------------------
@click.command("bots")
def bots_command() -> None:
    """List the bots, one line each (use them with --bot NAME)."""
    from bingwa.protocol.bots import bot_names, find_bot

    names = bot_names()
    width = max(len(name) for name in names)
    for name in names:
        try:
            summary = find_bot(name).summary or "(no summary)"
        except ImportError as exc:  # a bot whose module cannot load here
            summary = f"(unavailable: {exc})"
        click.echo(f"{name:<{width}}  {summary}")


def make_bot(name: str, settings: tuple[str, ...] = ()) -> Any:
    """A new bot ``name`` with ``NAME=VALUE`` options set, or one error line;
    an external engine is started now, so that a bad command fails here and
    not at the bot's first move."""
    from bingwa.bots import BotOptionError
    from bingwa.protocol.bots import find_bot
    from bingwa.protocol.client import EngineError
    from bingwa.protocol.external import ExternalBot

    try:
        bot = find_bot(name)()
    except ValueError as exc:
        fail(str(exc))
    for setting in settings:
        option, sep, value = setting.partition("=")
        if not sep:
            fail(f"bot option {setting!r} must be written NAME=VALUE")
        try:
            bot.set_option(option, value)
        except BotOptionError as exc:
            fail(f"bot {name}: {exc}")
    if isinstance(bot, ExternalBot):
        try:
            bot.ensure_started()
        except EngineError as exc:
            fail(f"bot {name}: {exc}")
    bot.new_game()
    return bot


# -- what the engine thinks -------------------------------------------------
@dataclass
class RankedLine:
    """One move of the engine's ranking: its score (side to move's view)
    and the line it expects."""

    move: str
    score_cp: int | None
    score_mate: int | None
    depth: int | None
    pv: list[str] = field(default_factory=list)

    def score_text(self) -> str:
        return format_score(self.score_cp, self.score_mate)


def format_score(cp: int | None, mate: int | None) -> str:
    """``+1.25`` seeds, ``+M7`` (a proven win in 7 plies), ``-M4``, or ``?``."""
    if mate is not None:
        return f"{'-' if mate < 0 else '+'}M{abs(mate)}"
    if cp is None:
        return "?"
    return f"{cp / 100:+.2f}"


def engine_view(position: Any, seconds: float, count: int, bot_name: str = HINT_BOT,
                settings: tuple[str, ...] = ()) -> list[RankedLine]:
    """The engine's best ``count`` moves in ``position``, best first: multi-PV
    lines of a bot with a MultiPV option, else that bot's one best line."""
    from bingwa.bots import BotOptionError, bot_names
    from bingwa.engine.limits import Info, Limits

    if position.is_over():
        return []
    if bot_name not in bot_names():
        bot_name = "mcts"
    bot = make_bot(bot_name, settings)
    count = max(1, min(count, len(position.legal_moves())))
    try:
        bot.set_option("MultiPV", str(count))
    except BotOptionError:
        count = 1
    lines: dict[int, Info] = {}

    def keep(info: Info) -> None:
        if info.pv:
            lines[info.multipv or 1] = info

    limits = Limits(movetime=max(1, int(seconds * 1000)))
    result = run_stoppable(lambda stop: bot.go(position, limits, keep, stop))
    if not lines and result.best:  # a bot that reports nothing: its move alone
        lines[1] = Info(pv=[result.best])
    return [
        RankedLine(info.pv[0], info.score_cp, info.score_mate, info.depth, list(info.pv))
        for _, info in sorted(lines.items())[:count]
    ]


def show_ranking(echo: Callable[[str], None], lines: list[RankedLine]) -> None:
    for rank, line in enumerate(lines, 1):
        depth = f"depth {line.depth}" if line.depth else ""
        echo(f"  {rank:>2}. {line.move:<5} {line.score_text():>7}  {depth:<9} "
             f"{' '.join(line.pv[:12])}".rstrip())


def describe_outcome(outcome: Any) -> str:
    south, north = outcome.scores
    if outcome.winner is None:
        return f"draw {south}-{north} ({outcome.termination.value})"
    return f"{SIDE_WORDS[outcome.winner]} wins {south}-{north} ({outcome.termination.value})"


# The two layouts Position.draw() makes: two rows (engine/tworow.py: a
# 10-character head, then one cell per pit) and Bao's four rows
# (engine/bao_notation.py: a 3-character head, cells of 6), each row
# followed by a summary line. Turning reorders the rows and reverses each
# row's cells; a picture of another shape is shown as it is.
TWO_ROW_HEAD, BAO_HEAD = 10, 3


def reverse_cells(line: str, head: int, count: int, width: int) -> str:
    """``line`` with its ``count`` cells of ``width`` after ``head``
    characters in the opposite order (what follows them kept)."""
    body = line[head:].ljust(count * width)
    cells = [body[i * width:(i + 1) * width] for i in range(count)]
    return (line[:head] + "".join(reversed(cells)) + body[count * width:]).rstrip()


def turned_picture(picture: str) -> str:
    """The board drawn from North's side: North's row at the bottom, read
    left to right from North's first pit."""
    lines = picture.split("\n")
    order: tuple[int, ...]
    if len(lines) == 5:
        head, order = TWO_ROW_HEAD, (3, 2, 1, 0)
    elif len(lines) == 8:
        head, order = BAO_HEAD, (6, 5, 4, 3, 2, 1, 0)
    else:
        return picture
    count = len(lines[0].split())
    width = (len(lines[0]) - head + 1) // max(1, count)
    turned = [lines[i] if set(lines[i].strip()) == {"-"} else
              reverse_cells(lines[i], head, count, width) for i in order]
    return "\n".join([*turned, lines[-1]])


class Terminal:
    """Lines in, lines out: stdin and click.echo, or anything for tests."""

    def __init__(self, read: Callable[[], str] | None = None,
                 echo: Callable[[str], None] | None = None) -> None:
        # a live status line only on a real terminal, never in a script
        self.live = read is None and echo is None and sys.stdout.isatty()
        self._read = read or sys.stdin.readline
        self.echo = echo or click.echo

    @contextlib.contextmanager
    def thinking(self, text: str) -> Iterator[Callable[[str], None]]:
        """Say ``text`` while a bot searches: a live status line (updated
        through the function yielded) on a terminal, one line otherwise."""
        if self.live:
            from rich.console import Console

            with Console().status(text) as status:
                yield lambda more: status.update(f"{text} {more}")
            return
        self.echo(text)
        yield lambda more: None

    def ask(self, prompt: str) -> str | None:
        """The next line (None at the end of input)."""
        click.echo(prompt, nl=False)
        line = self._read()
        if not line:
            click.echo()
            return None
        return line.strip()


# -- play ------------------------------------------------------------------
PLAY_HELP = """\
Moves: the pit to sow, e.g. c (two-row games), A6< or A3>+ (Bao: the front
rows a8..a1 and A1..A8 lie in the columns of the back rows drawn b8..b1 and
B1..B8).
Commands:
  hint [N]     the engine's N best moves with scores and lines (all by default)
  moves        the legal moves
  undo         take back your last move (and the bot's reply)
  board        draw the board again
  save FILE    write the game record (FILE.ogn: Aualé's OGN, Oware only)
  resign       give up the game
  quit         leave (also at the end of input)
  help         this list"""


class PlaySession:
    """A person (``human`` side) against ``bot`` from ``position``."""

    def __init__(self, position: Any, bot: Any, bot_name: str, human: int,
                 move_time: float, hint_time: float, terminal: Terminal) -> None:
        self.pos = position
        self.bot = bot
        self.bot_name = bot_name
        self.human = human
        self.move_time = move_time
        self.hint_time = hint_time
        self.term = terminal
        self.notes: list[Any] = []  # an Annotation (bot moves) or None, per ply
        self.movers: list[int] = []
        # a game the referee ended: (the side that lost, how)
        self.forfeit: tuple[int, Any] | None = None

    # the loop
    def run(self) -> None:
        echo = self.term.echo
        echo(f"{self.pos.variant.spec()}: you play {SIDE_WORDS[self.human]}, "
             f"bingwa ({self.bot_name}) plays {SIDE_WORDS[1 - self.human]}. "
             "Type help for the commands.")
        self.show()
        while True:
            if not self.finished() and self.pos.turn != self.human:
                self.bot_move()
                self.show()
                continue
            line = self.term.ask(f"{self.pos.turn_name if not self.finished() else 'game over'}> ")
            if line is None or not self.handle(line):
                echo("bye")
                return

    def finished(self) -> bool:
        return self.forfeit is not None or self.pos.is_over()

    def show(self) -> None:
        echo = self.term.echo
        echo("")
        picture = self.pos.draw()
        echo(turned_picture(picture) if self.human == 1 else picture)
        if self.pos.move_stack:
            last = self.pos.move_stack[-1]
            who = "you" if self.movers[-1] == self.human else f"bingwa ({self.bot_name})"
            echo(click.style(f"Last move: {last.text} by {who}", bold=True))
        if self.forfeit is not None:
            loser, how = self.forfeit
            echo(f"Game over: {SIDE_WORDS[1 - loser]} wins by {how.value}")
        elif self.pos.is_over():
            echo(f"Game over: {describe_outcome(self.pos.outcome())}")

    def handle(self, line: str) -> bool:
        """Act on one input line; False to leave."""
        from bingwa.engine import AmbiguousMoveError, BingwaError, IllegalMoveError

        echo = self.term.echo
        words = line.split()
        if not words:
            return True
        command, args = words[0].lower(), words[1:]
        if command in ("quit", "exit", "q"):
            return False
        if command in ("help", "?"):
            echo(PLAY_HELP)
        elif command == "board":
            self.show()
        elif command == "moves":
            moves = self.pos.legal_moves() if not self.finished() else []
            echo("legal moves: " + (" ".join(m.text for m in moves) or "none (the game is over)"))
        elif command == "hint":
            self.hint(args)
        elif command == "undo":
            self.undo()
        elif command == "save":
            if len(args) != 1:
                echo("save needs one file name: save FILE")
            else:
                self.save(args[0])
        elif command == "resign":
            if self.finished():
                echo("the game is over already")
            else:
                self.end(self.human, "RESIGNATION")
                self.show()
        elif self.finished():
            echo(f"the game is over: {line!r} cannot be played (undo, save FILE or quit)")
        else:
            try:
                move = self.pos.parse_move(line)
            except IllegalMoveError as exc:
                echo(f"illegal move: {exc}")
            except AmbiguousMoveError as exc:  # a move, only short: not an unknown command
                echo(f"ambiguous move: {exc}")
            except BingwaError as exc:
                echo(f"unknown command {words[0]!r} and not a move: {exc}. Type help for the "
                     "commands.")
            else:
                self.push(move, None)
                self.show()
        return True

    def push(self, move: Any, note: Any) -> None:
        self.movers.append(self.pos.turn)
        self.pos.push(move)
        self.notes.append(note)

    def end(self, loser: int, how: str) -> None:
        from bingwa.engine.game import Termination

        self.forfeit = (loser, Termination[how])

    def bot_move(self) -> None:
        from bingwa.engine import BingwaError
        from bingwa.engine.limits import Info, Limits
        from bingwa.engine.records import Annotation

        infos: list[Info] = []
        start = time.monotonic()
        side = self.pos.turn
        limits = Limits(movetime=max(1, int(self.move_time * 1000)))
        try:
            with self.term.thinking(f"bingwa ({self.bot_name}) is thinking "
                                    f"({self.move_time:g} s)...") as progress:

                def report(info: Info) -> None:
                    infos.append(info)
                    if info.depth and info.pv:
                        progress(f"depth {info.depth}, "
                                 f"{format_score(info.score_cp, info.score_mate)}, {info.pv[0]}")

                result = run_stoppable(lambda stop: self.bot.go(self.pos, limits, report, stop))
        except Exception as exc:  # noqa: BLE001 any failure of a bot (an external engine...)
            self.term.echo(f"bingwa ({self.bot_name}) failed: {type(exc).__name__}: {exc}")
            self.end(side, "CRASH")
            return
        elapsed = int((time.monotonic() - start) * 1000)
        try:
            move = self.pos.parse_move(result.best or "")
        except BingwaError as exc:
            self.term.echo(f"bingwa ({self.bot_name}) chose an illegal move: {exc}")
            self.end(side, "ILLEGAL_MOVE")
            return
        info = result.info or (infos[-1] if infos else Info())
        note = None
        if info.score_cp is not None or info.score_mate is not None:
            note = Annotation(score_cp=info.score_cp, score_mate=info.score_mate,
                              depth=info.depth or 0, time_ms=elapsed)
        self.push(move, note)
        said = ""
        if note is not None:
            said = (f" (score {format_score(note.score_cp, note.score_mate)}, depth {note.depth}, "
                    f"{elapsed / 1000:.2f} s)")
        self.term.echo(f"bingwa ({self.bot_name}) plays {move.text}{said}")

    def hint(self, args: list[str]) -> None:
        echo = self.term.echo
        if self.finished():
            echo("the game is over: no hint")
            return
        count = len(self.pos.legal_moves())
        if args:
            if not args[0].isdigit() or int(args[0]) < 1:
                echo(f"hint takes a number of moves, not {args[0]!r}")
                return
            count = int(args[0])
        echo(f"thinking {self.hint_time:g} s...")
        show_ranking(echo, engine_view(self.pos, self.hint_time, count))

    def undo(self) -> None:
        if self.human not in self.movers:
            self.term.echo("nothing to undo: you have not moved yet")
            return
        self.forfeit = None
        while self.movers:
            mover = self.movers.pop()
            self.pos.pop()
            self.notes.pop()
            if mover == self.human:
                break
        self.show()

    def record(self) -> Any:
        from bingwa.engine.records import GameRecord

        names = ["human", f"bingwa {self.bot_name}"]
        if self.human == 1:
            names.reverse()
        result = termination = None
        if self.forfeit is not None:
            loser, termination = self.forfeit
            result = ("0-1", "1-0")[loser]
        return GameRecord.from_position(
            self.pos, south=names[0], north=names[1], result=result,
            termination=termination, time_control=f"{self.move_time:g}/move",
            annotations=self.notes, tags={"Event": "bingwa play"},
        )

    def save(self, path: str) -> None:
        from bingwa.engine.ogn import OGNError, dumps_ogn

        record = self.record()
        try:
            text = dumps_ogn(record) if path.lower().endswith(".ogn") else record.dumps()
        except OGNError as exc:
            self.term.echo(f"cannot save as OGN: {exc}")
            return
        try:
            with open(path, "w", encoding="utf-8") as out:
                out.write(text)
        except OSError as exc:
            self.term.echo(f"cannot save to {path}: {exc.strerror or exc}")
            return
        self.term.echo(f"saved {len(record.moves)} moves to {path}")


@click.command(epilog=old_spelling_note("the variant as the first argument (bingwa play oware)",
                                      "-v/--variant (bingwa play -v oware)"))
@variant_choice()
@click.option("--bot", "-b", "bot_name", default=None,
              help="The opponent (default: alphabeta); see bingwa bots.")
@click.option("--side", type=click.Choice(["south", "north"]), default="south",
              show_default=True, help="Your side (South moves first); the board is drawn from it.")
@click.option("--time", "move_time", type=click.FloatRange(0.001, 3600), default=1.0,
              show_default=True, help="The bot's thinking time a move, in seconds.")
@click.option("--position", "-p", "position_text", help="Start from this position string.")
@click.option("--hint-time", type=click.FloatRange(0.001, 3600), default=1.0,
              show_default=True, help="Thinking time of the hint command, in seconds.")
@click.option("--bot-option", "-B", "bot_options", multiple=True, metavar="NAME=VALUE",
              help="A bot option, e.g. -B Seed=3 or -B 'Skill Level=5'.")
@variant_option
def play(old_variant: tuple[str, ...], variant: str | None, bot_name: str | None, side: str,
         move_time: float, position_text: str | None, hint_time: float,
         bot_options: tuple[str, ...], options: tuple[str, ...]) -> None:
    """Play a variant against a bot at the terminal (moves and commands on
    stdin; type help)."""
    from bingwa.bots import bot_names

    if bot_name is None:
        bot_name = HINT_BOT if HINT_BOT in bot_names() else "mcts"
    var = load_variant(pick_variant(variant, old_variant), options)
    pos = load_position(var, position_text)
    bot = make_bot(bot_name, bot_options)
    session = PlaySession(pos, bot, bot_name, SIDES[side], move_time, hint_time, Terminal())
    try:
        session.run()
    except KeyboardInterrupt:
        click.echo()  # end the prompt's line; the group says "interrupted"
        raise
