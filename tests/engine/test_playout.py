"""The play-outs that try to refute the search's exact claims
(engine/playout.py; benchmarks/claims.py runs thousands)."""

from __future__ import annotations

import random

import pytest

from bingwa.engine import Position, tablebase
from bingwa.engine.limits import Limits
from bingwa.engine.playout import (
    Claim,
    claim_of,
    play_out,
    random_endgame,
    refuter,
    search_player,
    walk,
)
from bingwa.engine.searcher import Searcher

pytest.importorskip("bingwa.engine.search")

@pytest.fixture(scope="module")
def proven_tb(tmp_path_factory: pytest.TempPathFactory):
    pytest.importorskip("bingwa.engine._owaredb")
    path = tmp_path_factory.mktemp("proven")
    tablebase.build(path, 6, prove=True)
    return tablebase.open_tablebase(path)


def engine_with(tb) -> Searcher:
    searcher = Searcher()
    searcher.set_tablebase(tb)
    return searcher


def claims(rng: random.Random, count: int, seeds: tuple[int, int], tb=None):
    """``count`` (position, claim) pairs of random endgames, some after a
    few quiet moves (a history that decides what repeats)."""
    out = []
    while len(out) < count:
        pos = walk(random_endgame(rng, "oware", rng.randint(*seeds)), rng, rng.randint(0, 8))
        claim = claim_of(engine_with(tb), pos, Limits(depth=8))
        if claim is not None:
            out.append((pos, claim))
    return out


@pytest.mark.parametrize("databases", [False, True])
def test_no_claim_of_the_search_is_refuted_by_play(databases: bool, proven_tb) -> None:
    """With and without databases (the engine reads them; the refuter does
    not), after a history or none."""
    tb = proven_tb if databases else None
    rng = random.Random(26)
    found = claims(rng, 40, (3, 12), tb)
    assert any(claim.winner is None for _, claim in found)  # draws are claimed too
    assert any(pos.move_stack for pos, _ in found)
    for pos, claim in found:
        engine = engine_with(tb)
        game = play_out(pos, claim, search_player(engine, Limits(depth=8)),
                        refuter(Limits(depth=10), rng, 0.2), rng)
        assert game.refuted is None, (pos.text(), [m.text for m in pos.move_stack], game)
        assert game.result is not None


def test_a_false_claim_is_refuted() -> None:
    """The play-out can fail: the claim turned round is beaten by the engine
    playing the side that really wins."""
    rng = random.Random(5)
    refuted = 0
    for pos, claim in claims(rng, 10, (3, 10)):
        if claim.winner is None:
            continue
        false = Claim(1 - claim.winner, claim.plies)
        game = play_out(pos, false, search_player(Searcher(), Limits(depth=2)),
                        search_player(Searcher(), Limits(depth=10)), rng)
        refuted += game.refuted is not None
        if game.refuted:
            assert "did not win" in game.refuted
    assert refuted >= 5


def test_a_claim_describes_itself() -> None:
    assert Claim(0, 7).describe() == "South wins within 7 plies"
    assert Claim(None, 4).describe() == "draw in 4"
    pos = Position("oware", text="0,0,0,0,0,1/0,0,0,0,0,0 23 24 s")
    # South's one move feeds North, who then has no move left but to feed back
    assert claim_of(Searcher(), pos, Limits(depth=4)) is not None
