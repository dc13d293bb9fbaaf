"""Every registered bot passes ``bingwa compliance`` when served by
``bingwa engine`` (the external bot, which needs an engine command, is
served wrapping the random bot)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bingwa.engine.kernel import use_compiled
from bingwa.protocol.bots import bot_names

# The external bot behind the protocol server, wrapping another engine.
EXTERNAL_ENGINE = """\
import sys
from bingwa.protocol.external import ExternalBot
from bingwa.protocol.server import EngineServer
bot = ExternalBot()
bot.set_option("Command", f"{sys.executable} -m bingwa engine --bot random")
sys.exit(EngineServer(bot, sys.stdin, sys.stdout).run())
"""


def engine_command(name: str) -> list[str]:
    if name == "external":
        return [sys.executable, "-c", EXTERNAL_ENGINE]
    return [sys.executable, "-m", "bingwa", "engine", "--bot", name]


def bots() -> list:
    """Every bot; under BINGWA_PURE=1 the pure-Python MCTS twin is too slow
    for the checker's time-outs, so it runs only with the slow tests."""
    return [pytest.param(name, marks=pytest.mark.slow)
            if name == "mcts" and not use_compiled() else name
            for name in bot_names()]


@pytest.mark.parametrize("name", bots())
def test_bot_passes_compliance(name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bingwa", "compliance", "--", *engine_command(name)],
        capture_output=True, text=True, timeout=300,
    )
    lines = done.stdout.splitlines()
    failures = [line for line in lines if line.startswith("FAIL")]
    assert not failures, "\n".join(failures + done.stderr.splitlines()[-5:])
    assert done.returncode == 0
    assert lines[-1].endswith("checks passed") and lines[-1].split()[0] == lines[-1].split()[2]
    assert f"({name})" in lines[0]  # the handshake named the bot
