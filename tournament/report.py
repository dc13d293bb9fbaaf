"""The HTML report of a database: one self-contained page (inline SVG and
CSS, nothing fetched from the network) with, per variant, the ratings with
their 95% bootstrap intervals drawn as error bars, the crosstable, the
matchups (W/D/L, pentanomial counts, LOS), how the games ended, and a plot
of the ratings as the games accumulated; an SPRT's verdict (LLR, bounds,
decision) first, and what each run was (date, time control, the engines'
commands) last. Variants come in the order the terminal shows them."""

from __future__ import annotations

import datetime
import html
import math
import random
import shlex
from collections import Counter
from collections.abc import Sequence

from .sprt import Sprt
from .stats import (
    GameScore,
    RatingError,
    Ratings,
    components,
    fit,
    matchup,
    matchups,
    rate,
    signed_elo,
)
from .storage import Run, Store
from .timecontrol import TimeControl

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")

CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { padding: 0.25em 0.7em; border: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
td.self { background: #eee; }
.note { color: #666; font-size: 0.9em; }
svg text { font-family: system-ui, sans-serif; font-size: 12px; }
"""


def _e(text: object) -> str:
    return html.escape(str(text))


def _nice_ticks(lo: float, hi: float, count: int = 6) -> list[float]:
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step) * step
    ticks = []
    x = first
    while x <= hi + 1e-9:
        ticks.append(round(x, 6))
        x += step
    return ticks


def error_bars_svg(ratings: Ratings, width: int = 640) -> str:
    """Each engine's Elo as a dot with its 95% interval as a bar."""
    names = ratings.ranked()
    row_h, left, right, top = 26, 130, 20, 20
    height = top + row_h * len(names) + 30
    # an interval open on one side (a perfect score) runs to the plot's edge
    values = [v for n in names for v in (ratings.ratings[n].low, ratings.ratings[n].value, ratings.ratings[n].high)
              if math.isfinite(v)] or [0.0]
    lo, hi = min(values), max(values)
    pad = max(10.0, (hi - lo) * 0.05)
    lo, hi = lo - pad, hi + pad

    def x(v: float) -> float:
        return left + (min(hi, max(lo, v)) - lo) / (hi - lo) * (width - left - right)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'role="img" aria-label="ratings with 95% intervals">']
    for t in _nice_ticks(lo, hi):
        out.append(f'<line x1="{x(t):.1f}" y1="{top - 5}" x2="{x(t):.1f}" y2="{height - 25}" stroke="#eee"/>')
        out.append(f'<text x="{x(t):.1f}" y="{height - 8}" text-anchor="middle">{t:g}</text>')
    for i, name in enumerate(names):
        est = ratings.ratings[name]
        y = top + row_h * i + row_h / 2
        colour = PALETTE[i % len(PALETTE)]
        out.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{_e(name)}</text>')
        out.append(f'<line x1="{x(est.low):.1f}" y1="{y:.1f}" x2="{x(est.high):.1f}" y2="{y:.1f}" '
                   f'stroke="{colour}" stroke-width="2"/>')
        for end in (est.low, est.high):
            out.append(f'<line x1="{x(end):.1f}" y1="{y - 5:.1f}" x2="{x(end):.1f}" y2="{y + 5:.1f}" '
                       f'stroke="{colour}" stroke-width="2"/>')
        out.append(f'<circle cx="{x(est.value):.1f}" cy="{y:.1f}" r="4" fill="{colour}">'
                   f'<title>{_e(name)}: {signed_elo(est.value)} [{signed_elo(est.low)}, {signed_elo(est.high)}]</title></circle>')
    out.append("</svg>")
    return "\n".join(out)


def rating_history(games: Sequence[GameScore], anchor: str | None, points: int = 40) -> tuple[list[int], dict[str, list[float | None]]]:
    """Point ratings after the first n games, at up to ``points`` values of
    n; a player not yet connected to the anchor has None."""
    marks = sorted({max(2, round(len(games) * (i + 1) / points)) for i in range(points)})
    marks = [m for m in marks if m <= len(games)]
    names = sorted({g.south for g in games} | {g.north for g in games})
    series: dict[str, list[float | None]] = {n: [] for n in names}
    for m in marks:
        sub = list(games[:m])
        group = next((c for c in components(sub) if anchor in c), None) or components(sub)[0]
        members = set(group)
        sub = [g for g in sub if g.south in members]
        a = anchor if anchor in members else None
        try:
            ratings, _, _ = fit(sub, group, a)
        except RatingError:
            ratings = {}
        for n in names:
            series[n].append(ratings.get(n))
    return marks, series


def history_svg(marks: list[int], series: dict[str, list[float | None]], order: list[str],
                width: int = 640, height: int = 320) -> str:
    """Ratings (y) against games played (x), one line per engine."""
    left, right, top, bottom = 60, 130, 15, 35
    values = [v for s in series.values() for v in s if v is not None]
    if not marks or not values:
        return '<p class="note">Too few games for a plot.</p>'
    lo, hi = min(values), max(values)
    if hi - lo < 20:
        lo, hi = lo - 10, hi + 10
    x_max = max(marks)

    def x(n: float) -> float:
        return left + n / x_max * (width - left - right)

    def y(v: float) -> float:
        return top + (hi - v) / (hi - lo) * (height - top - bottom)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'role="img" aria-label="ratings as games accumulate">']
    for t in _nice_ticks(lo, hi):
        out.append(f'<line x1="{left}" y1="{y(t):.1f}" x2="{width - right}" y2="{y(t):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end">{t:g}</text>')
    for t in _nice_ticks(0, x_max, 5):
        out.append(f'<text x="{x(t):.1f}" y="{height - bottom + 16}" text-anchor="middle">{t:g}</text>')
    out.append(f'<text x="{(left + width - right) / 2:.1f}" y="{height - 4}" text-anchor="middle">games</text>')
    out.append(f'<text x="14" y="{(top + height - bottom) / 2:.1f}" text-anchor="middle" '
               f'transform="rotate(-90 14 {(top + height - bottom) / 2:.1f})">Elo</text>')
    for i, name in enumerate(order):
        colour = PALETTE[i % len(PALETTE)]
        points = [(x(m), y(v)) for m, v in zip(marks, series.get(name, [])) if v is not None]
        if not points:
            continue
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        lx, ly = points[-1]
        out.append(f'<text x="{lx + 6:.1f}" y="{ly + 4:.1f}" fill="{colour}">{_e(name)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def crosstable_html(games: Sequence[GameScore], order: list[str]) -> str:
    """Points of the row engine against the column engine, out of games."""
    rows = ['<table><tr><th>engine</th>' + "".join(f"<th>{_e(n)}</th>" for n in order) + "<th>total</th></tr>"]
    for a in order:
        cells = []
        total = 0.0
        played = 0
        for b in order:
            if a == b:
                cells.append('<td class="self"></td>')
                continue
            m = matchup(games, a, b)
            total += m.points
            played += m.games
            cells.append(f"<td>{m.points:g}/{m.games}</td>" if m.games else "<td>-</td>")
        rows.append(f"<tr><td>{_e(a)}</td>{''.join(cells)}<td>{total:g}/{played}</td></tr>")
    rows.append("</table>")
    return "\n".join(rows)


def matchups_html(games: Sequence[GameScore], order: list[str]) -> str:
    rows = ["<table><tr><th>engine</th><th>opponent</th><th>W/D/L</th>"
            "<th>pentanomial [LL LD WL+DD WD WW]</th><th>Elo (95%)</th><th>LOS</th></tr>"]
    for m in matchups(games, order):
        elo = m.elo()
        value = f"{signed_elo(elo.value)} ± {elo.error:.0f}" if math.isfinite(elo.error) and math.isfinite(elo.value) else "-"
        rows.append(f"<tr><td>{_e(m.player)}</td><td>{_e(m.opponent)}</td><td>{m.wins}/{m.draws}/{m.losses}</td>"
                    f"<td>{' '.join(map(str, m.penta))}</td><td>{value}</td><td>{100 * m.los:.1f}%</td></tr>")
    rows.append("</table>")
    return "\n".join(rows)


def ratings_html(ratings: Ratings) -> str:
    rows = ["<table><tr><th>engine</th><th>Elo</th><th>95% interval</th><th>games</th><th>score</th></tr>"]
    for name in ratings.ranked():
        est = ratings.ratings[name]
        games = ratings.games.get(name, 0)
        score = ratings.points.get(name, 0.0) / games if games else 0.0
        rows.append(f"<tr><td>{_e(name)}</td><td>{signed_elo(est.value)}</td><td>[{signed_elo(est.low)}, {signed_elo(est.high)}]</td>"
                    f"<td>{games}</td><td>{100 * score:.1f}%</td></tr>")
    rows.append("</table>")
    fm = ratings.first_move
    note = f"First-player advantage {signed_elo(fm.value)} Elo [{signed_elo(fm.low)}, {signed_elo(fm.high)}]."
    if ratings.regularised:
        note += (" Someone won or lost every game: one virtual draw per pairing keeps the ratings finite,"
                 " and a perfect score's interval is open on one side (Wilson's bound on the other).")
    rows.append(f'<p class="note">{_e(note)}</p>')
    return "\n".join(rows)


def variant_order(store: Store, runs: Sequence[Run], run_id: int | None) -> list[str]:
    """The variants with games, in the order the runs named them (as the
    terminal shows them), then any other."""
    played = store.variants(run_id)
    named = [v for run in runs for v in run.config.get("variants", [])]
    return [v for v in dict.fromkeys(named) if v in played] + [v for v in played if v not in named]


def runs_html(store: Store, runs: Sequence[Run]) -> str:
    """What each run was: when, its time control, and every engine with
    its command, protocol and options."""
    parts = []
    for run in runs:
        tc = TimeControl.from_json(run.config.get("tc", {})).describe()
        decision = f", {run.decision}" if run.decision else ""
        parts.append(f"<h3>Run {run.id}: {_e(run.kind)}, {_e(run.status)}{_e(decision)}</h3>")
        parts.append(f'<p>Started {_e(run.created)}; time control <code>{_e(tc)}</code>.</p>')
        parts.append("<table><tr><th>engine</th><th>command</th><th>protocol</th><th>options</th>"
                     "<th>says it is</th></tr>")
        for engine in store.engines(run.id):
            options = " ".join(f"{k}={v}" for k, v in engine["options"]) or "-"
            parts.append(f"<tr><td>{_e(engine['name'])}</td><td><code>{_e(shlex.join(engine['command']))}</code></td>"
                         f"<td>{_e(engine['protocol'])}</td><td>{_e(options)}</td>"
                         f"<td>{_e(engine['id_name'] or '-')}</td></tr>")
        parts.append("</table>")
    return "\n".join(parts)


def sprt_html(store: Store, run: Run) -> str:
    """An SPRT's verdict: the engines, the hypotheses, the LLR against its
    bounds, the decision and the pentanomial counts it was made on."""
    data = run.config["sprt"]
    test = Sprt(**data)
    new, base = (e["name"] for e in run.config["engines"][:2])
    games = [g for v in run.config.get("variants", []) for g in store.scores(v, run.id)]
    penta = matchup(games, new, base).penta
    llr = test.llr(penta)
    decision = {"H1": f"H1 accepted: {new} is stronger than {base} by {test.elo1:g} rather than {test.elo0:g}",
                "H0": f"H0 accepted: {new} is not stronger than {base} by {test.elo1:g}",
                "inconclusive": "inconclusive: the game cap came first"}.get(run.decision or "", "unfinished")
    return "\n".join([
        f"<h2>SPRT (run {run.id}): {_e(new)} against {_e(base)}</h2>",
        f"<p><strong>{_e(decision)}</strong>.</p>",
        "<table><tr><th>new</th><th>base</th><th>H0</th><th>H1</th><th>alpha</th><th>beta</th>"
        "<th>LLR</th><th>bounds</th><th>pairs</th><th>pentanomial [LL LD WL+DD WD WW]</th></tr>",
        f"<tr><td>{_e(new)}</td><td>{_e(base)}</td><td>{test.elo0:g}</td><td>{test.elo1:g}</td>"
        f"<td>{test.alpha:g}</td><td>{test.beta:g}</td><td>{llr:+.2f}</td>"
        f"<td>[{test.lower:+.2f}, {test.upper:+.2f}]</td><td>{sum(penta)}</td>"
        f"<td>{' '.join(map(str, penta))}</td></tr></table>",
        f'<p class="note">{_e(test.model)} Elo; the test stops when the LLR leaves its bounds.</p>',
    ])


def build_report(store: Store, run_id: int | None = None, variants: Sequence[str] | None = None,
                 anchor: str | None = "random", bootstrap: int = 1000, seed: int = 0,
                 title: str = "bingwa tournament report") -> str:
    """The report of one run (or of every run in the database)."""
    rng = random.Random(seed)
    runs = [store.run(run_id)] if run_id is not None else store.runs()
    if run_id is not None and anchor == "random":  # the run's own anchor, as the terminal rates it
        anchor = runs[0].config.get("anchor", anchor)
    sections = [sprt_html(store, run) for run in runs if run.config.get("sprt")]
    chosen = list(variants) if variants else variant_order(store, runs, run_id)
    for variant in chosen:
        games = store.scores(variant, run_id)
        if not games:
            continue
        tables = rate(games, anchor, bootstrap=bootstrap, rng=rng)
        endings = Counter(g.termination for g in store.games(run_id, variant, moves=False))
        parts = [f"<h2>{_e(variant)}</h2>", f"<p>{len(games)} games.</p>"]
        for table in tables:
            order = table.ranked()
            anchor_text = table.anchor or "the mean rating"
            parts.append(f"<h3>Ratings (anchor: {_e(anchor_text)} = 0)</h3>")
            parts.append(error_bars_svg(table))
            parts.append(ratings_html(table))
            sub = [g for g in games if g.south in table.ratings]
            parts.append("<h3>Crosstable</h3>")
            parts.append(crosstable_html(sub, order))
            parts.append("<h3>Matchups</h3>")
            parts.append(matchups_html(sub, order))
            marks, series = rating_history(sub, table.anchor)
            parts.append("<h3>Ratings as games accumulate</h3>")
            parts.append(history_svg(marks, series, order))
        parts.append("<h3>How games ended</h3><table><tr><th>termination</th><th>games</th></tr>")
        parts += [f"<tr><td>{_e(t)}</td><td>{c}</td></tr>" for t, c in endings.most_common()]
        parts.append("</table>")
        sections.append("\n".join(parts))
    scope = f"run {run_id}" if run_id is not None else "all runs"
    body = "\n".join(sections) or "<p>No games.</p>"
    written = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(title)}</title><style>{CSS}</style></head><body>\n"
            f"<h1>{_e(title)}</h1><p class=\"note\">{_e(store.path.name)}, {scope}; written {written}. "
            f"Elo by maximum likelihood (Bradley-Terry with a first-player term); "
            f"intervals by bootstrap over colour-swapped game pairs.</p>\n"
            f"{body}\n<h2>Runs</h2>\n{runs_html(store, runs)}\n</body></html>\n")
