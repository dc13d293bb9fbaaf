"""tournament/progress.py: a run's live progress, in lines and in a live display."""

from __future__ import annotations

import random

import pytest
from support.tournament import in_process, small_config

from bingwa.tournament.config import OpeningsConfig
from bingwa.tournament.model import EngineSpec
from bingwa.tournament.openings import negamax_margin, random_openings
from bingwa.tournament.runner import Tournament
from bingwa.tournament.sprt import Sprt
from bingwa.tournament.storage import Store


def test_live_progress_shows_standings_and_the_sprt(tmp_path):
    import io

    from rich.console import Console

    from bingwa.tournament.progress import RichProgress

    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120, color_system=None)
    config = small_config(kind="sprt", engines=(EngineSpec.bot("greedy", "new"), EngineSpec.bot("random", "base")),
                          variants=("kalah",), rounds=None, sprt=Sprt(0, 50), max_games=400, anchor="base")
    Tournament.create(Store(tmp_path / "live.sqlite"), config, factory=in_process,
                      progress=RichProgress(console)).run()
    text = out.getvalue()
    final = text[text.rindex("/400"):]  # the last frame, from its progress bar on
    for word in ("engine", "W", "D", "L", "Elo (95%)", "new", "base", "LLR", "[-2.94, +2.94]", "-> H1", "penta"):
        assert word in final, word


def test_drawing_openings_shows_how_many_are_found_and_the_bar_goes_on_ctrl_c():
    """Balanced openings can take minutes to find (8 plies of Kujifunza):
    the run says how many it has, in lines or a live bar, and a Ctrl-C
    while it draws leaves no bar behind."""
    import io

    from rich.console import Console

    from bingwa.tournament.progress import LineProgress, RichProgress
    from bingwa.tournament.runner import make_openings

    calls = []
    random_openings("oware", 20, 4, random.Random(5), lambda p: negamax_margin(p, 1), margin_cp=100,
                    on_scored=lambda kept, scored: calls.append((kept, scored)))
    assert [scored for _, scored in calls] == list(range(1, len(calls) + 1))
    assert calls[-1][0] == 20 and all(a[0] <= b[0] <= a[0] + 1 for a, b in zip(calls, calls[1:]))

    out = io.StringIO()
    config = small_config(variants=("oware",), rounds=20, openings=OpeningsConfig(plies=4, depth=1))
    Tournament.create(Store(":memory:"), config, factory=in_process,
                      progress=LineProgress(Console(file=out, width=200)))
    assert "openings" not in out.getvalue()  # drawn in well under a second: no line
    lines = LineProgress(Console(file=out, width=200))
    lines.gap = 0.0
    Tournament.create(Store(":memory:"), config, factory=in_process, progress=lines)
    kept = [int(line.split(": ")[1].split(" of ")[0]) for line in out.getvalue().splitlines()
            if line.startswith("openings oware: ")]
    assert set(range(2, 21, 2)) <= set(kept) and kept[-1] == 20 and len(kept) <= 12

    out = io.StringIO()
    live = RichProgress(Console(file=out, force_terminal=True, width=120, color_system=None))
    Tournament.create(Store(":memory:"), config, factory=in_process, progress=live)
    assert live.openings is None and "openings oware" in out.getvalue()

    def interrupted(position):
        if len(seen) == 3:
            raise KeyboardInterrupt
        seen.append(position)
        return 0

    seen: list = []
    live = RichProgress(Console(file=io.StringIO(), force_terminal=True, width=120))
    with pytest.raises(KeyboardInterrupt):
        make_openings(config, interrupted, live)
    assert live.openings is None and len(seen) == 3
