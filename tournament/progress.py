"""What a person sees while a run plays and when it ends.

RichProgress draws a live panel (games done, a standings table per
variant with W/D/L and Elo with its interval, the SPRT's LLR against its
bounds, how games ended); LineProgress prints one line per game for logs
and pipes. ``final_tables`` renders the ratings with bootstrap intervals.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from .stats import MatchElo, Ratings, likelihood_of_superiority, matchups, signed_elo

if TYPE_CHECKING:
    from .model import PlayedGame
    from .runner import Tournament
    from .standings import Standings


def _elo(value: float | None, error: float | None) -> str:
    if value is None or not math.isfinite(value):
        return "-"
    if error is None or not math.isfinite(error):
        return f"{signed_elo(value)}"
    return f"{signed_elo(value)} ± {error:.0f}"


def standings_table(standings: Standings, variant: str | None, title: str) -> Table:
    table = Table(title=title, title_justify="left", expand=False)
    for column, justify in (("engine", "left"), ("games", "right"), ("W", "right"), ("D", "right"),
                            ("L", "right"), ("score", "right"), ("Elo (95%)", "right")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for row in standings.rows(variant):
        score = (row.wins + row.draws / 2) / row.games if row.games else 0.0
        table.add_row(row.name, str(row.games), str(row.wins), str(row.draws), str(row.losses),
                      f"{100 * score:.1f}%", _elo(row.elo, row.error))
    return table


def sprt_line(standings: Standings) -> Text:
    sprt = standings.sprt
    assert sprt is not None
    penta = standings.penta()
    llr = standings.llr()
    elo = standings.head_to_head()
    new, base = standings.engines[:2]
    wins, draws, losses = standings.head
    text = Text()
    text.append(f"SPRT {new} vs {base}  ", style="bold")
    text.append(f"LLR {llr:+.2f} [{sprt.lower:+.2f}, {sprt.upper:+.2f}]  ")
    text.append(f"({sprt.model} Elo {sprt.elo0:g} .. {sprt.elo1:g})  ")
    text.append(f"W/D/L {wins}/{draws}/{losses}  penta {penta}  ")
    text.append(f"Elo {_elo(elo.value, elo.error)}  LOS {100 * likelihood_of_superiority(wins, losses):.1f}%")
    if standings.decision:
        text.append(f"  -> {standings.decision}", style="bold green" if standings.decision == "H1" else "bold red")
    return text


def endings_line(standings: Standings) -> Text:
    parts = [f"{name} {count}" for name, count in standings.terminations.most_common()]
    text = Text("endings: " + (", ".join(parts) or "-"))
    if standings.failures:
        failures = ", ".join(f"{e} {t} x{c}" for (e, t), c in sorted(standings.failures.items()))
        text.append(f"   failures: {failures}", style="yellow")
    return text


class RichProgress:
    """A live panel, redrawn as games finish."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console()
        self.bar = Progress(TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), console=self.console)
        self.task: TaskID | None = None
        self.live: Live | None = None
        self.interval = 0.25  # seconds between redraws of the tables
        self.redrawn = 0.0
        self.openings: Progress | None = None
        self.openings_task: TaskID | None = None

    def drawing(self, variant: str, kept: int, wanted: int, scored: int) -> None:
        """The random openings of ``variant`` drawn so far (a bar that goes
        when they are: ``drawn``)."""
        if self.openings is None:
            self.openings = Progress(TextColumn(f"[bold]openings[/] {variant}"), BarColumn(),
                                     MofNCompleteColumn(), TextColumn("{task.fields[scored]:,} scored"),
                                     TimeElapsedColumn(), console=self.console, transient=True)
            self.openings_task = self.openings.add_task("openings", total=wanted, scored=0)
            self.openings.start()
        assert self.openings_task is not None
        self.openings.update(self.openings_task, completed=kept, scored=scored)

    def drawn(self) -> None:
        if self.openings is not None:
            self.openings.stop()
        self.openings = self.openings_task = None

    def _render(self, t: Tournament) -> RenderableType:
        parts: list[RenderableType] = [self.bar]
        st = t.standings
        variants = t.config.variants
        for v in variants:
            parts.append(standings_table(st, v, v))
        if st.sprt is not None:
            parts.append(sprt_line(st))
        parts.append(endings_line(st))
        return Group(*parts)

    def start(self, t: Tournament) -> None:
        total = t.config.planned_games()
        self.task = self.bar.add_task("games", total=total, completed=t.standings.done)
        self.live = Live(self._render(t), console=self.console, refresh_per_second=4, transient=False)
        self.live.start()

    def update(self, t: Tournament, record: PlayedGame) -> None:
        if self.task is not None:
            self.bar.update(self.task, completed=t.standings.done)
        now = time.monotonic()
        if self.live is not None and (now - self.redrawn >= self.interval or t.standings.decision):
            self.live.update(self._render(t))
            self.redrawn = now

    def finish(self, t: Tournament) -> None:
        if self.live is not None:
            self.live.update(self._render(t))
            self.live.stop()
            self.live = None


class LineProgress:
    """Lines per finished game for logs, pipes and CI, as cutechess writes
    them: the game, then the running score of its two engines
    (``Score of A vs B: W - L - D  [score] games``) and their Elo
    difference (``Elo difference: X +/- Y, LOS: Z %, DrawRatio: W %``)."""

    def __init__(self, console: Console | None = None, every: int = 1) -> None:
        self.console = console or Console(highlight=False)
        self.every = max(1, every)
        self.started = time.monotonic()
        self.gap = 1.0  # seconds at least between lines while openings are drawn ...
        self.pause = 10.0  # ... and at most
        self.said = self.started
        self.kept = -1

    def drawing(self, variant: str, kept: int, wanted: int, scored: int) -> None:
        """A line at each tenth of the openings wanted (``gap`` seconds
        apart at least: a quick draw says nothing), and every ``pause``
        seconds while none is found."""
        step = max(1, wanted // 10)
        now = time.monotonic()
        tenth = kept != self.kept and (kept % step == 0 or kept == wanted)
        if (tenth and now - self.said >= self.gap) or now - self.said >= self.pause:
            self.console.print(f"openings {variant}: {kept} of {wanted} balanced, {scored:,} scored")
            self.said = now
        self.kept = kept

    def drawn(self) -> None:
        self.kept = -1

    def start(self, t: Tournament) -> None:
        total = t.config.planned_games()
        self.console.print(f"run {t.run_id}: {t.config.kind}, {len(t.config.engines)} engines, "
                           f"{', '.join(t.config.variants)}; {t.standings.done} of "
                           f"{total if total is not None else 'open-ended'} games done")

    def update(self, t: Tournament, record: PlayedGame) -> None:
        st = t.standings
        if st.done % self.every and not st.decision:
            return
        p = record.planned
        total = t.config.planned_games()
        line = (f"[{st.done}/{total if total is not None else '-'}] game #{p.index} {p.variant}: "
                f"{p.south} - {p.north} {record.result} ({record.termination})")
        if st.sprt is not None:
            line += f"  LLR {st.llr():+.2f} [{st.sprt.lower:+.2f}, {st.sprt.upper:+.2f}]"
        self.console.print(line)
        a, b = st.pair_of(p.south, p.north)
        wins, losses, draws = st.pairs[a, b]
        games = wins + losses + draws
        self.console.print(f"Score of {a} vs {b}: {wins} - {losses} - {draws}  "
                           f"[{(wins + draws / 2) / games:.3f}] {games}")
        self.console.print(MatchElo.from_wld(wins, losses, draws).line(), soft_wrap=True)  # a log line: never wrapped

    def finish(self, t: Tournament) -> None:
        elapsed = time.monotonic() - self.started
        self.console.print(f"{t.played} games in {elapsed:.1f} s")


class QuietProgress:
    def drawing(self, variant: str, kept: int, wanted: int, scored: int) -> None: ...
    def drawn(self) -> None: ...
    def start(self, t: Tournament) -> None: ...
    def update(self, t: Tournament, record: PlayedGame) -> None: ...
    def finish(self, t: Tournament) -> None: ...


def ratings_table(variant: str, ratings: Ratings) -> Table:
    anchor = ratings.anchor or "the mean"
    title = f"{variant}: Elo, {anchor} = 0"
    table = Table(title=title, title_justify="left")
    for column in ("#", "engine", "Elo", "95% interval", "games", "score"):
        table.add_column(column, justify="left" if column == "engine" else "right")
    for rank, name in enumerate(ratings.ranked(), 1):
        est = ratings.ratings[name]
        games = ratings.games.get(name, 0)
        score = ratings.points.get(name, 0.0) / games if games else 0.0
        table.add_row(str(rank), name, f"{signed_elo(est.value)}", f"[{signed_elo(est.low)}, {signed_elo(est.high)}]",
                      str(games), f"{100 * score:.1f}%")
    return table


def ratings_notes(ratings: Ratings) -> str:
    """What the table does not show: how the intervals were made, the
    first-player term, and whether the prior was needed."""
    fm = ratings.first_move
    notes = (f"95% bootstrap intervals over game pairs; first-player advantage "
             f"{signed_elo(fm.value)} [{signed_elo(fm.low)}, {signed_elo(fm.high)}] Elo")
    if ratings.regularised:
        notes += ("; someone won or lost every game: one virtual draw per pairing keeps ratings finite, "
                  "and a perfect score's interval is open on one side (Wilson's bound on the other)")
    return notes


def matchups_table(variant: str, games, engines: list[str]) -> Table:
    """W/D/L, pentanomial counts, Elo and LOS of every pair that met."""
    table = Table(title=f"{variant}: matchups", title_justify="left")
    for column in ("engine", "opponent", "W/D/L", "penta [LL LD WL+DD WD WW]", "Elo (95%)", "LOS"):
        table.add_column(column)
    for m in matchups(games, engines):
        elo = m.elo()
        table.add_row(m.player, m.opponent, f"{m.wins}/{m.draws}/{m.losses}",
                      " ".join(map(str, m.penta)), _elo(elo.value, elo.error), f"{100 * m.los:.1f}%")
    return table
