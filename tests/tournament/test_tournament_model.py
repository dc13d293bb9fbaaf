"""tournament/model.py: engines as entered (EngineSpec)."""

from __future__ import annotations

import pytest

from bingwa.tournament.model import EngineSpec, EngineSpecError
from bingwa.tournament.timecontrol import TimeControl


def test_engine_spec_parsing():
    spec = EngineSpec.parse("name=ab cmd='bingwa engine --bot alphabeta' option.Hash=8 nodes=500 protocol=uci")
    assert spec.command == ("bingwa", "engine", "--bot", "alphabeta")
    assert spec.options == (("Hash", "8"),)
    assert spec.tc == TimeControl(nodes=500)
    assert EngineSpec.parse("greedy").command[-2:] == ("--bot", "greedy")
    assert EngineSpec.from_json(spec.to_json()) == spec
    for bad in ("name=x", "name=x cmd=y colour=red", "cmd=y protocol=xboard", "name=x cmd=a bot=b"):
        with pytest.raises(EngineSpecError):
            EngineSpec.parse(bad)
