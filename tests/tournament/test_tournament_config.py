"""tournament/config.py: a run's configuration, through JSON and checked."""

from __future__ import annotations

import json

import pytest

from bingwa.tournament.config import RunConfig
from bingwa.tournament.model import EngineSpec
from bingwa.tournament.referee import Adjudication, Rules
from bingwa.tournament.schedule import ScheduleError
from bingwa.tournament.sprt import Sprt
from bingwa.tournament.timecontrol import TimeControl


def test_run_config_round_trips_through_json():
    config = RunConfig("sprt", (EngineSpec.bot("greedy", "new"), EngineSpec.bot("random", "base")),
                       ("kalah pits=4",), TimeControl(nodes=100), rounds=None,
                       rules=Rules(50, 2000, Adjudication(10, 4, 200)), sprt=Sprt(0, 5),
                       max_games=101, concurrency=2)
    again = RunConfig.from_json(json.loads(json.dumps(config.to_json())))
    assert again == config
    assert config.planned_games() == 102  # whole pairs
    with pytest.raises(ScheduleError, match="Aualé"):
        RunConfig("round-robin", (EngineSpec("a", ("x",), "auale"), EngineSpec.bot("random")),
                  ("kalah",), TimeControl(depth=1))
