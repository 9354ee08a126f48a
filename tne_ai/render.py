"""Pictures of a state buffer: ASCII board and summary (SVG comes later).

Pure functions of the state buffer of tne_ai.state (bitboards read through
``st.view(np.uint64)``); they never import position.py.
"""
import numpy as np

from . import board as B
from . import state as S

LEGEND = (". land  ~ river  r b g k tiles (red blue green black)  # monument tile  "
          "x catastrophe  * treasure  0R leader (player digit, colour letter)")


def _bit(bb, base, s):
    return bool(bb[base + (s >> 6)] & B.SQUARE_BIT[s])


def _cell(st, bb, leaders, s):
    """The 2-character cell of square s."""
    if s in leaders:
        p, c = leaders[s]
        return f"{p}{B.COLOUR_LETTERS[c].upper()}"
    mark = "*" if _bit(bb, S.BB_TREASURE, s) else " "
    if _bit(bb, S.BB_FLIP, s):
        return "#" + mark
    if _bit(bb, S.BB_CATA, s):
        return "x "
    for c in range(4):
        if _bit(bb, S.BB_TILE + 3 * c, s):
            return B.COLOUR_LETTERS[c] + mark
    return ("~" if s in B.RIVER_SQUARES else ".") + " "


def ascii_board(st):
    """The 11x16 board with column letters A-P on top, row numbers 1-11 at the left, two
    characters a square, then a legend line."""
    bb = st.view(np.uint64)
    leaders = {}
    for p in range(int(st[S.PLAYERS])):
        for c in range(4):
            s = int(st[S.LEADER_SQ + 4 * p + c])
            if s >= 0:
                leaders[s] = (p, c)
    lines = ["   " + " ".join(B.FILES)]
    for r in range(B.ROWS):
        cells = "".join(_cell(st, bb, leaders, r * B.COLS + col) for col in range(B.COLS))
        lines.append(f"{r + 1:>2} {cells}".rstrip())
    lines.append(LEGEND)
    return "\n".join(lines)


def _counts_text(values):
    return " ".join(f"{B.COLOURS[c]} {int(values[c])}" for c in range(4))


def pending_text(st):
    """One line saying whose decision the state waits for."""
    phase = int(st[S.PHASE])
    to_act = int(st[S.TO_ACT])
    if phase == S.PH_OVER:
        return "game over"
    if phase == S.PH_ACTION:
        return f"player {to_act} chooses an action"
    if phase in (S.PH_REVOLT, S.PH_WAR):
        colour = B.COLOURS[int(st[S.CF_COLOUR])]
        att, dfn = int(st[S.CF_ATTACKER]), int(st[S.CF_DEFENDER])
        commit = int(st[S.CF_COMMIT])
        what = (f"revolt ({colour})" if phase == S.PH_REVOLT else
                f"war ({colour}) around {B.square_name(int(st[S.UNIFY_SQ]))}")
        committed = "not yet committed" if commit < 0 else f"committed {commit}"
        return (f"{what}: attacker player {att} ({committed}), defender player {dfn}; "
                f"player {to_act} commits")
    if phase == S.PH_WAR_CHOICE:
        return (f"wars around {B.square_name(int(st[S.UNIFY_SQ]))}: player {to_act} chooses "
                f"the colour of the next war")
    if phase == S.PH_MONUMENT:
        return (f"monument: the tile on {B.square_name(int(st[S.PLACED_SQ]))} completed a 2x2 "
                f"block; player {to_act} builds or declines")
    if phase == S.PH_TREASURE:
        return f"treasure: player {to_act} takes a treasure"
    return f"unknown phase {phase}"


def summary(st, known_hands, viewer=None):
    """Text lines under the board: per player scores, catastrophes, leaders in supply and
    hand (a known hand is shown to viewer None; viewer i sees only his own hand), then the
    bag, tiles out of the game, monuments, turn, actions left and the pending decision."""
    n = int(st[S.PLAYERS])
    bb = st.view(np.uint64)
    turn = int(st[S.TURN])
    lines = []
    for p in range(n):
        score = " ".join(f"{k} {int(st[S.SCORE + 5 * p + i])}"
                         for i, k in enumerate(B.COLOURS + ("treasure",)))
        supply = [B.COLOURS[c] for c in range(4) if st[S.LEADER_SQ + 4 * p + c] < 0]
        hand = st[S.HAND + 4 * p:S.HAND + 4 * p + 4]
        shown = bool(known_hands[p]) and (viewer is None or viewer == p)
        hand_text = (_counts_text(hand) if shown else f"hidden ({int(hand.sum())} tiles)")
        marks = " (turn)" if p == turn and st[S.PHASE] != S.PH_OVER else ""
        lines.append(f"player {p}{marks}: score {score} | catastrophes "
                     f"{int(st[S.CATASTROPHES + p])} | supply: {' '.join(supply) or 'none'} | "
                     f"hand: {hand_text}")
    if st[S.BAG_ORDERED]:
        bag = f"bag: {int(st[S.BAG_LEN])} tiles (ordered)"
    else:
        bag = f"bag: {int(st[S.BAG_COUNT:S.BAG_COUNT + 4].sum())} tiles"
    lines.append(bag)
    lines.append(f"out of game: {_counts_text(st[S.OUT_OF_GAME:S.OUT_OF_GAME + 4])}; "
                 f"hidden discards {int(st[S.HIDDEN_DISCARDS])}")
    monuments = [f"{B.MONUMENT_NAMES[m]} at {B.square_name(int(st[S.MON_SQ + m]))}"
                 for m in range(6) if st[S.MON_SQ + m] >= 0]
    treasures = sum(_bit(bb, S.BB_TREASURE, s) for s in B.TEMPLE_SQUARES)
    lines.append(f"monuments: {', '.join(monuments) or 'none'}; treasures on the board "
                 f"{treasures}")
    if st[S.PHASE] == S.PH_OVER:
        lines.append(f"game over (last turn: player {turn})")
    else:
        lines.append(f"turn: player {turn}, {int(st[S.ACTIONS_LEFT])} action(s) left; "
                     f"{pending_text(st)}")
    return "\n".join(lines)
