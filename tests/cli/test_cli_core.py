"""The command line's core commands: perft, variants, demo, and one clear
error line for bad input."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from bingwa.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_perft_prints_count_time_and_rate():
    result = run("perft", "oware", "5")
    assert result.exit_code == 0
    assert "perft(5) = 5219" in result.output
    assert "leaves/s" in result.output


def test_perft_divide_sums_to_the_total():
    result = run("perft", "kalah", "4", "--divide")
    lines = result.output.splitlines()
    parts = [line.split(": ") for line in lines if len(line) > 1 and line[1] == ":"]
    assert [p[0] for p in parts] == list("abcdef")
    assert sum(int(p[1]) for p in parts) == 942
    assert "perft(4) = 942" in result.output


def test_perft_from_a_position_with_moves_and_options():
    result = run("perft", "oware", "1", "--position", "0,0,0,0,0,2/1,2,0,0,0,0 22 21 s",
                 "-o", "grandslam=forbidden")
    assert "perft(1) = 1" in result.output
    result = run("perft", "kalah pits=3 seeds=2", "2", "--moves", "b")
    assert result.exit_code == 0 and "perft(2) =" in result.output


def test_bad_input_gets_one_error_line_and_a_nonzero_exit():
    for args, message in [
        (("perft", "owre", "3"), "unknown variant 'owre'"),
        (("perft", "oware", "3", "-p", "4,4/4,4 0 0 s"), "South's row has 2 pits, not 6"),
        (("perft", "oware", "3", "-m", "a a"), "move 2: a: not your pit"),
        (("perft", "oware", "3", "-o", "grandslam=perhaps"), "grandslam takes one of"),
        (("demo", "--depth", "-1"), "'--depth': -1 is not in the range 1<=x<=11"),
        (("perft", "oware", "99"), "'DEPTH': 99 is not in the range 0<=x<=64"),
        (("nosuch",), "No such command 'nosuch'"),
    ]:
        proc = subprocess.run(
            [sys.executable, "-m", "bingwa", *args], capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 2, args
        assert proc.stdout == ""
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], proc.stderr
        assert "Traceback" not in proc.stderr


def test_variants_lists_every_variant_with_options():
    result = run("variants")
    assert "oware" in result.output and "grandslam=nocapture|forbidden" in result.output
    assert "kalah" in result.output and "pits=1..12" in result.output


def test_demo_shows_a_table_per_variant_with_perft_and_games():
    from bingwa.engine import variant_names

    result = run("demo", "--games", "2", "--depth", "4", "--search-depth", "2")
    assert result.exit_code == 0, result.output
    assert "oware: perft(4) = 1,014 leaves in " in result.output
    blocks = result.output.strip().split("\n\n")
    assert [b.split(":")[0] for b in blocks[:-1]] == variant_names()
    for block in blocks[:-1]:
        title, header, *games, caption = block.splitlines()
        assert "M leaves/s" in title
        assert header.split() == ["game", "South", "North", "result", "plies", "end", "scores"]
        assert [g.split()[1:3] for g in games] == [["alphabeta", "greedy"], ["greedy", "alphabeta"]]
        for game in games:
            assert game.split()[3] in ("1-0", "0-1", "1/2-1/2", "*")
            assert int(game.split()[4]) > 0  # plies
        assert caption.strip().startswith("alphabeta (depth 2) ")
    assert blocks[-1].startswith("demo done in ")


def test_demo_columns_are_aligned_in_plain_text():
    from bingwa.cli_demo import Table, plain_lines

    table = Table("t", ("game", "South", "plies"), [("1", "alphabeta", "5"), ("12", "greedy", "140")])
    assert plain_lines(table) == [
        "t",
        "  game  South      plies",
        "     1  alphabeta      5",
        "    12  greedy       140",
    ]


def test_demo_draws_a_rich_table_on_a_terminal():
    import io

    from rich.console import Console

    from bingwa.cli_demo import Table, show_table

    out = io.StringIO()
    show_table(Table("oware", ("game", "South"), [("1", "alphabeta")], "caption"),
               Console(file=out, force_terminal=True, width=80))
    assert "┏" in out.getvalue() and "alphabeta" in out.getvalue()


def test_demo_perft_goes_deeper_until_it_takes_measurable_time():
    from bingwa.cli_demo import PERFT_TARGET_SECONDS, timed_perft

    now = [0.0]

    def clock() -> float:
        return now[0]

    def count(depth: int) -> int:  # each ply costs 4 times the last
        now[0] += 0.001 * 4**depth
        return 10**depth

    run = timed_perft(count, None, clock)
    assert run.depth == 4 and run.leaves == 10**4  # 0.256 s: the first >= 0.1 s
    assert run.seconds >= PERFT_TARGET_SECONDS
    assert timed_perft(count, 2, clock).depth == 2  # --depth is obeyed


def test_demo_ranges_are_bounded():
    for args in (["--depth", "-1"], ["--depth", "100"], ["--search-depth", "0"],
                 ["--games", "-1"], ["--search-depth", "30"]):
        result = run("demo", *args)
        assert result.exit_code == 2, args
        assert "bingwa: error: Invalid value for" in result.output, args
        assert "Traceback" not in result.output and "Usage:" not in result.output


# Every command bingwa had when cli.py began adding them one by one (issue
# 28): one that drops out of the registration fails here, not silently.
COMMANDS = ("analyse", "bench", "bots", "compliance", "demo", "engine", "export", "perft", "play",
            "ratings", "regress", "replay", "serve", "solve", "sprt", "tournament", "variants")
SOLVE_COMMANDS = ("build", "kalah", "kujifunza", "query", "verify")


def listed_commands(output: str) -> list[str]:
    """The command names of a ``--help`` page's "Commands:" section."""
    section = output.split("Commands:\n", 1)[1]
    return [line.split()[0] for line in section.splitlines() if line.startswith("  ")]


def test_help_lists_every_command():
    assert listed_commands(run("--help").output) == list(COMMANDS)
    assert listed_commands(run("solve", "--help").output) == list(SOLVE_COMMANDS)


def test_bingwa_bench_searches_with_the_bench_table_size():
    from bingwa.cli_search import bench
    from bingwa.engine.bench import BENCH_HASH_MB

    assert [p.default for p in bench.params if p.name == "hash_mb"] == [BENCH_HASH_MB]
