"""``bingwa tournament`` and ``bingwa sprt`` refuse bad input in one line."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("args, message, status", [
    (["tournament", "--bot", "random", "--bot", "nosuchbot", "--depth", "1"], "unknown bot 'nosuchbot'", 2),
    (["tournament", "-e", "name=x cmd=no-such-program", "--bot", "random", "--depth", "1"], "no program", 2),
    (["tournament", "--bot", "random", "--bot", "greedy"], "give a time control", 2),
    (["tournament", "--bot", "random", "--bot", "greedy", "--tc", "40/"], "moves/time+inc", 2),
    (["tournament", "--bot", "random", "--bot", "greedy", "--depth", "1", "-v", "chess"], "unknown variant", 2),
    (["tournament", "--bot", "random", "--bot", "greedy", "--depth", "1", "--gauntlet", "zz"], "gauntlet engine", 2),
    (["tournament", "--resume"], "no such database", 2),
    (["sprt", "--new", "random", "--depth", "1"], "give --new and --base", 3),
    (["sprt", "--new", "random", "--base", "greedy", "--elo0", "5", "--elo1", "0", "--depth", "1"], "elo0 must be below", 3),
])
def test_command_line_refuses_bad_input_in_one_line(tmp_path, args, message, status):
    from click.testing import CliRunner

    from bingwa.cli import main

    db = ["--db", str(tmp_path / "cli.sqlite")]
    result = CliRunner().invoke(main, args + db)
    assert result.exit_code == status, result.output
    assert message in result.output
    assert "Traceback" not in result.output
