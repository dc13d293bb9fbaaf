"""A worker's seat at the tournament: the engines it plays and the games
it plays with them, one after another. The local runner's threads and the
Ray backend's tasks each play through one Seat."""

from __future__ import annotations

import threading
from collections.abc import Callable

from .config import RunConfig
from .model import EngineSpec, PlannedGame, PlayedGame
from .players import Player
from .referee import Aborted, play_game

PlayerFactory = Callable[[EngineSpec], Player]


def process_players(config: RunConfig) -> PlayerFactory:
    """The default: each engine as a process, over the protocol client."""
    from .engines import ProcessPlayer

    return lambda spec: ProcessPlayer(spec, config.rules)



class Seat:
    """One worker's engines: plays planned games one after another."""

    def __init__(self, config: RunConfig, openings: dict[str, list[list[str]]],
                 factory: PlayerFactory, stop: threading.Event | None = None) -> None:
        self.config = config
        self.openings = openings
        self.factory = factory
        self.stop = stop
        self.players: dict[str, Player] = {}

    def player(self, name: str) -> Player:
        if name not in self.players:
            self.players[name] = self.factory(self.config.engine(name))
        return self.players[name]

    def play(self, planned: PlannedGame) -> PlayedGame:
        players = (self.player(planned.south), self.player(planned.north))
        tcs = (self.config.tc_of(planned.south), self.config.tc_of(planned.north))
        opening = self.openings[planned.variant][planned.opening]
        try:
            record = play_game(planned, opening, players, tcs, self.config.rules, self.stop)
        except Aborted:
            self.close()
            raise
        if record.loser:  # a failed engine is killed and restarted for its next game
            self.drop(record.loser)
        return record

    def drop(self, name: str) -> None:
        player = self.players.pop(name, None)
        if player is not None:
            player.close()

    def close(self) -> None:
        for name in list(self.players):
            self.drop(name)
