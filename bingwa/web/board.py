"""What the page draws, computed from a Position: the rows of pits as South
sees them, the stores (captures), Bao's hands and marks, and for every pit
of the side to move its legal moves or the reason it cannot move.

The page holds no rules: it shows this view and sends back the canonical
text of one of the listed moves (the server checks it again).
"""

from __future__ import annotations

from typing import Any

from bingwa.engine import Move, Outcome, Position, Termination
from bingwa.engine import bao_notation as bao
from bingwa.engine.bao import execute as bao_execute
from bingwa.engine.tworow import pit_letter

SIDES = ("South", "North")
KICHWA = (0, 7)  # ring places of the front pits 1 and 8
KIMBI = (0, 1, 6, 7)  # front pits 1, 2, 7, 8


def is_bao(pos: Position) -> bool:
    return pos.variant.kernel_module == "bao"


def board_view(pos: Position, previous: Position | None = None,
               last: Move | None = None) -> dict[str, Any]:
    """The board as JSON-ready data; ``previous`` and ``last`` (the position
    before the last move and that move) mark what the move changed."""
    view = _bao_view(pos) if is_bao(pos) else _tworow_view(pos)
    view["turn"] = pos.turn
    view["over"] = pos.is_over()
    view["scores"] = list(pos.scores())
    if previous is not None and last is not None:
        view["last"] = _last_move(view, pos, previous, last)
    if view["family"] == "tworow" and view["over"]:
        _sweep(view, pos)
    return view


def _sweep(view: dict[str, Any], pos: Position) -> None:
    """The end as the scores count it: the seeds still in the pits when a
    two-row game ends go to the stores (Kalah's row emptied, Oware's side
    that cannot be fed, a repetition), so they are drawn there, each pit
    they left marked ``swept``. A game whose scores are its stores (a
    majority) is drawn as it is."""
    outcome = pos.outcome()
    final = list(outcome.scores) if outcome is not None else view["stores"]
    left = sum(cell["seeds"] for row in view["rows"] for cell in row)
    gained = [final[side] - view["stores"][side] for side in (0, 1)]
    if not left or sum(gained) != left or min(gained) < 0:
        return
    for row in view["rows"]:
        for cell in row:
            if cell["seeds"]:
                cell["seeds"] = 0
                cell["swept"] = True
    view["stores"] = final
    view["swept"] = gained


# -- two-row games -------------------------------------------------------------
def _tworow_view(pos: Position) -> dict[str, Any]:
    m = pos.variant.pits_per_side
    pits, scores, _ = pos.state
    cells = {i: _pit(pos, i, pit_letter(i, m), pits[i], i // m, []) for i in range(2 * m)}
    north = [cells[i] for i in range(2 * m - 1, m - 1, -1)]
    south = [cells[i] for i in range(m)]
    return {
        "family": "tworow",
        "rows": [north, south],
        "stores": list(scores),
        "store_word": "store" if pos.variant.name == "kalah" else "captured",
        "hands": None,
    }


# -- Bao -------------------------------------------------------------------------
def _bao_view(pos: Position) -> dict[str, Any]:
    pits, hands, _, houses, block = pos.state
    kiswahili = pos.variant.name == "bao"
    rows = []
    for row in bao.ROW_PITS:
        cells = []
        for pit in row:
            side, k = divmod(pit, bao.RING)
            marks = []
            if k < 8:
                marks.append("front")
                if k in KICHWA:
                    marks.append("kichwa")
                if k in KIMBI:
                    marks.append("kimbi")
                if kiswahili and k == bao.NYUMBA:
                    marks.append("nyumba")
                    if houses[side]:
                        marks.append("owned")
            if pit == block:
                marks.append("blocked")
            cells.append(_pit(pos, pit, bao.pit_name(pit), pits[pit], side, marks))
        rows.append(cells)
    return {
        "family": "bao",
        "rows": rows,
        "stores": None,
        "store_word": "held",
        "hands": list(hands),
    }


def _bao_labels(pos: Position, move: Move) -> dict[str, str]:
    """How the page words the choices a Bao move carries (docs/notation-bao.md):
    the kichwa of a namua capture, else the direction; the safari."""
    state = pos.state
    mover = state[2]
    k, right, safari = bao.decode_move(move.code)
    run = bao_execute(state, move.code)
    # South sees his rows numbered from the left; North's are mirrored on screen
    screen_right = right if mover == 0 else not right
    arrow = "\u2192" if screen_right else "\u2190"
    if run.namua and run.capture_move:
        kichwa = bao.pit_name(bao.RING * mover + (7 if right else 0))
        label = f"capture into kichwa {kichwa}"
    else:
        label = "sow to the " + ("right" if right else "left")
    if safari:
        label += ", take the safari"
    elif any(m.code == move.code | bao.SAFARI for m in pos.legal_moves()):
        label += ", stop at the nyumba"
    return {"arrow": arrow, "label": label}


# -- pits and moves ----------------------------------------------------------------
def _start_of(pos: Position, move: Move) -> int:
    """The pit (absolute index) a move starts from."""
    if is_bao(pos):
        return bao.RING * pos.turn + bao.decode_move(move.code)[0]
    return move.code


def _pit(pos: Position, pit: int, name: str, seeds: int, owner: int,
         marks: list[str]) -> dict[str, Any]:
    cell: dict[str, Any] = {"id": pit, "name": name, "seeds": seeds, "owner": owner,
                            "marks": marks}
    moves = [m for m in pos.legal_moves() if _start_of(pos, m) == pit]
    if moves:
        if is_bao(pos):
            cell["moves"] = [{"text": m.text, **_bao_labels(pos, m)} for m in moves]
        else:
            cell["moves"] = [{"text": m.text, "arrow": "", "label": m.text} for m in moves]
    else:
        cell["why"] = why_not(pos, pit, name, seeds, owner)
    return cell


def why_not(pos: Position, pit: int, name: str, seeds: int, owner: int) -> str:
    """Why no move starts from ``pit``, in one line for the status bar."""
    if pos.is_over():
        return "the game is over"
    if owner != pos.turn:
        return f"{name} is {SIDES[owner]}'s pit and {SIDES[pos.turn]} is to move"
    if not seeds:
        return f"{name} is empty"
    if is_bao(pos):
        code = bao.encode_move(pit % bao.RING, False)
    else:
        code = pit
    return f"{name} cannot move: {pos.variant.illegal_reason(pos.state, code)}"


def _last_move(view: dict[str, Any], pos: Position, previous: Position,
               last: Move) -> dict[str, Any]:
    """The last move's pit, the pits it sowed into and those it captured
    from: an opponent pit only ever loses seeds to a capture."""
    mover = previous.turn
    start = _start_of(previous, last)
    before, after = _pits(previous), _pits(pos)
    captured = 0
    for row in view["rows"]:
        for cell in row:
            pit = cell["id"]
            change = after[pit] - before[pit]
            if pit == start:
                cell["origin"] = True
            elif cell["owner"] != mover and change < 0:
                cell["captured"] = True
                captured -= change
            elif change > 0:
                cell["sown"] = True
    if not is_bao(pos):
        captured = pos.scores()[mover] - previous.scores()[mover]
    return {"text": last.text, "side": mover, "captured": captured}


def _pits(pos: Position) -> Any:
    return pos.state[0]


# -- the end --------------------------------------------------------------------------
REASONS = {
    Termination.MAJORITY: "more than half the seeds were captured",
    Termination.NO_MOVES: "{to_move} has no legal move",
    Termination.REPETITION: "the position repeated",
    Termination.ROW_EMPTY: "a row is empty",
    Termination.FRONT_ROW_EMPTY: "{to_move}'s inner row is empty",
}


def outcome_view(pos: Position) -> dict[str, Any] | None:
    """Who won, the scores and why, or None while the game goes on."""
    outcome: Outcome | None = pos.outcome()
    if outcome is None:
        return None
    south, north = outcome.scores
    to_move = SIDES[pos.turn]
    reason = REASONS.get(outcome.termination, outcome.termination.value)
    reason = reason.format(to_move=to_move)
    if outcome.winner is None:
        headline = f"Draw, {south}-{north}"
    else:
        headline = f"{SIDES[outcome.winner]} wins, {south}-{north}"
    return {
        "winner": outcome.winner,
        "scores": [south, north],
        "termination": outcome.termination.value,
        "result": outcome.result(),
        "text": f"{headline}: {reason}",
    }
