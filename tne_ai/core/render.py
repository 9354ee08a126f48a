"""Pictures of a state buffer: ASCII board and summary, and an SVG picture.

Pure functions of the state buffer of tne_ai.core.state (bitboards read through
``st.view(np.uint64)``); they never import position.py.
"""
import math
import textwrap

import numpy as np

from tne_ai.core import board as B
from tne_ai.core import state as S
from tne_ai.core.formats import board_cells
from tne_ai.core.notation import move_text

LEGEND = (". land  ~ river  r b g k tiles (red blue green black)  # monument tile  "
          "x catastrophe  * treasure  R0 leader (colour letter in capitals, then the player)")


def _bit(bb, base, s):
    return bool(bb[base + (s >> 6)] & B.SQUARE_BIT[s])


def _cell(st, bb, cells, leaders, s):
    """The 2-character cell of square s (cells: formats.board_cells)."""
    if s in leaders:
        p, c = leaders[s]
        return f"{B.COLOUR_LETTERS[c].upper()}{p}"   # K0, not 0K (which reads as OK)
    ch = cells[s]
    if ch in ".~x":
        return ch + " "
    return ch + ("*" if _bit(bb, S.BB_TREASURE, s) else " ")


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
    cells = board_cells(st)
    lines = ["   " + " ".join(B.FILES)]
    for r in range(B.ROWS):
        row = "".join(_cell(st, bb, cells, leaders, r * B.COLS + col) for col in range(B.COLS))
        lines.append(f"{r + 1:>2} {row}".rstrip())
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
    if st[S.BAG_ORDERED] == 1:
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


# --- SVG ------------------------------------------------------------------------------------
#
# One SVG document written as text (no dependency), 800 units wide: the board on the left
# (16 x 11 squares of CELL units, coordinates around it), a panel per player on the right and,
# when moves are marked, a list of them under the board.  Every drawn game object carries a
# class (and ``data-square``) so that tools and tests can find it:
#
#   square land|river      one per square (176), the terrain under everything else
#   tile red|blue|green|black   a face-up tile
#   flipped                a flipped monument tile
#   monument <colours>     one per built monument, over its 2x2 block (data-square: top left)
#   catastrophe            a catastrophe tile
#   treasure [corner]      a treasure on the board (corner: one of the four corner treasures)
#   leader p<i> <colour>   a leader on the board; its shape is player i's dynasty mark
#   conflict               the pending revolt's or war's leaders ringed, its tile outlined
#   legend                 the line under the board: treasure signs, leader marks
#   player                 a player's block in the panel (data-player)
#   mark best|alternative  a marked move's square (or 2x2 block for a monument)
#   arrow best|alternative a leader move from the board: old square to new square
#   movelist               the list of marked moves with their shares
#
# Leaders and tiles in the panel use other classes (supply-leader, swatch), so counting the
# classes above counts the board.

CELL = 34
BOARD_X = 26
BOARD_Y = 24
BOARD_W = B.COLS * CELL
BOARD_H = B.ROWS * CELL
SVG_WIDTH = 800
PANEL_X = BOARD_X + BOARD_W + 16
PANEL_W = SVG_WIDTH - PANEL_X - 8

LAND_FILL = "#efe4c4"
RIVER_FILL = "#a9d0ea"
TILE_FILL = ("#c8372d", "#2160b5", "#2d8a45", "#2a2a2a")
FLIPPED_FILL = "#d8c28f"
GOLD = "#f2c230"
GOLD_EDGE = "#7a5800"
BEST = "#ff6a00"
ALTERNATIVE = "#7a3db8"
# The tiles' signs are a triangle (temple), waves (farm), a circle (market) and a square
# (settlement); treasures are a gold circle or star: the leaders' marks are none of these.
# The four differ in outline at any size (a hexagon and a pentagon looked alike when small):
# a hexagon, a diamond (a point at the top), a triangle point down (a flat top, unlike the
# temple sign's) and a cross.
DYNASTY_SHAPES = ("hexagon", "diamond", "triangle", "cross")
LEGEND_Y = BOARD_Y + BOARD_H + 36      # the legend's first line under the board's column letters
LEGEND_H = 16                          # and its second line, that much lower
CONFLICT = "#d4145a"


def _n(x):
    """A coordinate as short, stable text (at most one decimal)."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _esc(text):
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _xy(s):
    """Top-left corner of square s."""
    r, c = divmod(s, B.COLS)
    return BOARD_X + c * CELL, BOARD_Y + r * CELL


def _centre(s):
    x, y = _xy(s)
    return x + CELL / 2, y + CELL / 2


def _text(x, y, text, size=12, anchor="start", fill="#222", weight=None, extra=""):
    w = f' font-weight="{weight}"' if weight else ""
    a = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}"{a}{w} fill="{fill}"{extra}>'
            f'{_esc(text)}</text>')


def _dynasty(player, cx, cy, r, fill, stroke="#fff", width=2.0):
    """Player `player`'s dynasty mark (hexagon, diamond, triangle point down, cross) centred on
    cx, cy; no tile sign or treasure has these shapes, so a leader never looks like either."""
    paint = f'fill="{fill}" stroke="{stroke}" stroke-width="{_n(width)}"'
    shape = DYNASTY_SHAPES[player % 4]
    if shape == "hexagon":
        pts = tuple((cx + 1.15 * r * math.sin(2 * math.pi * i / 6),
                     cy - 1.15 * r * math.cos(2 * math.pi * i / 6)) for i in range(6))
    elif shape == "triangle":
        pts = ((cx - 1.4 * r, cy - 0.9 * r), (cx + 1.4 * r, cy - 0.9 * r), (cx, cy + 1.45 * r))
    elif shape == "diamond":
        pts = ((cx, cy - 1.3 * r), (cx + 1.3 * r, cy), (cx, cy + 1.3 * r), (cx - 1.3 * r, cy))
    else:
        a, b = 0.45 * r, 1.2 * r
        pts = ((cx - a, cy - b), (cx + a, cy - b), (cx + a, cy - a), (cx + b, cy - a),
               (cx + b, cy + a), (cx + a, cy + a), (cx + a, cy + b), (cx - a, cy + b),
               (cx - a, cy + a), (cx - b, cy + a), (cx - b, cy - a), (cx - a, cy - a))
    return (f'<polygon points="{" ".join(f"{_n(x)},{_n(y)}" for x, y in pts)}" '
            f'stroke-linejoin="round" {paint}/>')


def _tile_glyph(c, x, y):
    """A small white sign on a tile (temple, farm, market, settlement), so that the colours
    can be told apart without colour vision."""
    cx, cy = x + CELL / 2, y + CELL / 2
    ink = 'fill="none" stroke="#fff" stroke-opacity="0.7" stroke-width="1.6"'
    if c == B.RED:
        return (f'<polygon points="{_n(cx - 7)},{_n(cy + 5)} {_n(cx)},{_n(cy - 6)} '
                f'{_n(cx + 7)},{_n(cy + 5)}" {ink}/>')
    if c == B.BLUE:
        return (f'<path d="M{_n(cx - 8)},{_n(cy - 3)} h16 M{_n(cx - 8)},{_n(cy + 1)} h16 '
                f'M{_n(cx - 8)},{_n(cy + 5)} h16" {ink}/>')
    if c == B.GREEN:
        return f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="6" {ink}/>'
    return f'<rect x="{_n(cx - 6)}" y="{_n(cy - 6)}" width="12" height="12" {ink}/>'


def _star(cx, cy, r_out, r_in, points=5):
    pts = []
    for i in range(2 * points):
        r = r_out if i % 2 == 0 else r_in
        angle = math.pi * i / points - math.pi / 2
        pts.append(f"{_n(cx + r * math.cos(angle))},{_n(cy + r * math.sin(angle))}")
    return " ".join(pts)


def _catastrophe_icon(x, y, size, cls="catastrophe", square=None):
    """A catastrophe tile: a dark square with a white cross (on the board: class catastrophe
    with its square; in the panel: supply-catastrophe)."""
    attrs = f' data-square="{square}"><title>catastrophe on {square}</title>' if square else ">"
    m = size * 0.26
    return (f'<g class="{cls}"{attrs}'
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(size)}" height="{_n(size)}" rx="3" '
            f'fill="#4a4a4a"/><path d="M{_n(x + m)},{_n(y + m)} L{_n(x + size - m)},'
            f'{_n(y + size - m)} M{_n(x + size - m)},{_n(y + m)} L{_n(x + m)},{_n(y + size - m)}" '
            f'stroke="#fff" stroke-width="3" stroke-linecap="round"/></g>')


def _board_svg(st, bb, out):
    n = int(st[S.PLAYERS])
    out.append(f'<rect x="{BOARD_X - 1}" y="{BOARD_Y - 1}" width="{BOARD_W + 2}" '
               f'height="{BOARD_H + 2}" fill="none" stroke="#6b5a3a" stroke-width="2"/>')
    river = set(B.RIVER_SQUARES)
    for s in range(B.SQUARES):
        x, y = _xy(s)
        kind = "river" if s in river else "land"
        out.append(f'<rect class="square {kind}" data-square="{B.square_name(s)}" x="{x}" y="{y}" '
                   f'width="{CELL}" height="{CELL}" '
                   f'fill="{RIVER_FILL if kind == "river" else LAND_FILL}" '
                   f'stroke="#cbbd97" stroke-width="0.6"/>')
    for s in range(B.SQUARES):
        x, y = _xy(s)
        name = B.square_name(s)
        if _bit(bb, S.BB_FLIP, s):
            out.append(f'<rect class="flipped" data-square="{name}" x="{x + 1}" y="{y + 1}" '
                       f'width="{CELL - 2}" height="{CELL - 2}" fill="{FLIPPED_FILL}" '
                       f'stroke="#a08a57" stroke-width="1"/>')
            continue
        for c in range(4):
            if _bit(bb, S.BB_TILE + 3 * c, s):
                out.append(f'<g class="tile {B.COLOURS[c]}" data-square="{name}">'
                           f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" '
                           f'rx="4" fill="{TILE_FILL[c]}"/>{_tile_glyph(c, x, y)}</g>')
        if _bit(bb, S.BB_CATA, s):
            out.append(_catastrophe_icon(x + 2, y + 2, CELL - 4, square=name))
    for m in range(6):
        s = int(st[S.MON_SQ + m])
        if s < 0:
            continue
        x, y = _xy(s)
        a, b = B.MONUMENTS[m]
        name = B.MONUMENT_NAMES[m]
        out.append(f'<g class="monument {name}" data-square="{B.square_name(s)}">'
                   f'<title>{name} monument on {B.square_name(s)}</title>'
                   f'<rect x="{x + 9}" y="{y + 9}" width="{2 * CELL - 18}" '
                   f'height="{2 * CELL - 18}" '
                   f'fill="{TILE_FILL[a]}" stroke="#5b4a2a" stroke-width="1.5"/>'
                   f'<rect x="{x + 21}" y="{y + 21}" width="{2 * CELL - 42}" '
                   f'height="{2 * CELL - 42}" '
                   f'fill="{TILE_FILL[b]}" stroke="#fff" stroke-width="1.5"/></g>')
    corners = set(B.CORNER_SQUARES)
    for s in B.TEMPLE_SQUARES:
        if not _bit(bb, S.BB_TREASURE, s):
            continue
        x, y = _xy(s)
        cx, cy = x + CELL - 8, y + 8
        name = B.square_name(s)
        if s in corners:
            out.append(f'<g class="treasure corner" data-square="{name}"><title>corner treasure on '
                       f'{name}</title><polygon points="{_star(cx, cy, 8, 3.6)}" fill="{GOLD}" '
                       f'stroke="{GOLD_EDGE}" stroke-width="1"/></g>')
        else:
            out.append(f'<g class="treasure" data-square="{name}"><title>treasure on {name}</title>'
                       f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="5.5" fill="{GOLD}" '
                       f'stroke="{GOLD_EDGE}" stroke-width="1"/></g>')
    for p in range(n):
        for c in range(4):
            s = int(st[S.LEADER_SQ + 4 * p + c])
            if s < 0:
                continue
            cx, cy = _centre(s)
            name = B.square_name(s)
            out.append(f'<g class="leader p{p} {B.COLOURS[c]}" data-square="{name}">'
                       f'<title>player {p} {B.COLOURS[c]} leader on {name}</title>'
                       f'{_dynasty(p, cx, cy, 11.5, TILE_FILL[c])}'
                       + _text(cx, cy + 4, str(p), 10, "middle", "#fff", "bold") + '</g>')
    _conflict_svg(st, out)
    _legend_svg(n, out)
    for col, letter in enumerate(B.FILES):
        x = BOARD_X + col * CELL + CELL / 2
        out.append(_text(x, BOARD_Y - 8, letter, 12, "middle", "#444", "bold"))
        out.append(_text(x, BOARD_Y + BOARD_H + 15, letter, 12, "middle", "#444", "bold"))
    for row in range(B.ROWS):
        y = BOARD_Y + row * CELL + CELL / 2 + 4
        out.append(_text(BOARD_X - 6, y, str(row + 1), 12, "end", "#444", "bold"))


def _conflict_svg(st, out):
    """The pending decision on the board: the two leaders of a revolt or war ringed (and
    the unifying tile of a war, or the square whose tile asks for a monument, outlined)."""
    phase = int(st[S.PHASE])
    rings, boxes, what = [], [], ""
    if phase in (S.PH_REVOLT, S.PH_WAR):
        c = int(st[S.CF_COLOUR])
        for p in (int(st[S.CF_ATTACKER]), int(st[S.CF_DEFENDER])):
            rings.append(int(st[S.LEADER_SQ + 4 * p + c]))
        what = f"{'revolt' if phase == S.PH_REVOLT else 'war'} ({B.COLOURS[c]})"
    if phase in (S.PH_WAR, S.PH_WAR_CHOICE):
        boxes.append(int(st[S.UNIFY_SQ]))
        what = what or "wars to choose"
    if phase == S.PH_MONUMENT:
        boxes.append(int(st[S.PLACED_SQ]))
        what = "monument to build"
    if not rings and not boxes:
        return
    out.append(f'<g class="conflict"><title>{_esc(what)}: {_esc(pending_text(st))}</title>')
    for s in rings:
        cx, cy = _centre(s)
        out.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="16" fill="none" '
                   f'stroke="{CONFLICT}" stroke-width="2.5" stroke-dasharray="4 2"/>')
    for s in boxes:
        x, y = _xy(s)
        out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" '
                   f'rx="4" fill="none" stroke="{CONFLICT}" stroke-width="2.5" '
                   f'stroke-dasharray="4 2"/>')
    out.append('</g>')


def _legend_svg(players, out):
    """Two lines under the board: the treasures' signs and each player's leader mark; the
    tiles' signs, a catastrophe, a monument and a conflict's ring."""
    y = LEGEND_Y
    x = BOARD_X
    out.append('<g class="legend">')
    out.append(f'<polygon points="{_star(x + 6, y - 4, 7, 3.2)}" fill="{GOLD}" '
               f'stroke="{GOLD_EDGE}" stroke-width="1"/>')
    out.append(_text(x + 16, y, "corner treasure", 10, fill="#444"))
    x += 100
    out.append(f'<circle cx="{_n(x + 6)}" cy="{_n(y - 4)}" r="5" fill="{GOLD}" '
               f'stroke="{GOLD_EDGE}" stroke-width="1"/>')
    out.append(_text(x + 16, y, "treasure", 10, fill="#444"))
    x += 64
    out.append(_text(x, y, "leaders:", 10, fill="#444"))
    x += 46
    for p in range(players):
        out.append(_dynasty(p, x + 7, y - 4, 5.5, "#666", "#666", 1))
        out.append(_text(x + 17, y, f"player {p}", 10, fill="#444"))
        x += 62
    # the second line: the tiles' signs, a catastrophe, a monument, a conflict's ring
    y += LEGEND_H
    x = BOARD_X
    k = 14 / CELL
    for c, name in enumerate(("red temple", "blue farm", "green market", "black settlement")):
        out.append(f'<g transform="translate({_n(x)},{_n(y - 11)}) scale({k:.3f})">'
                   f'<rect x="2" y="2" width="{CELL - 4}" height="{CELL - 4}" rx="4" '
                   f'fill="{TILE_FILL[c]}"/>{_tile_glyph(c, 0, 0)}</g>')
        out.append(_text(x + 17, y, name, 10, fill="#444"))
        x += 17 + 6 * len(name) + 12
    out.append(_catastrophe_icon(x, y - 11, 14, cls="legend-catastrophe"))
    out.append(_text(x + 17, y, "catastrophe", 10, fill="#444"))
    x += 17 + 66 + 12
    out.append(f'<rect x="{_n(x)}" y="{_n(y - 11)}" width="14" height="14" fill="{FLIPPED_FILL}"/>'
               f'<rect x="{_n(x + 3)}" y="{_n(y - 8)}" width="8" height="8" fill="{TILE_FILL[0]}" '
               f'stroke="#fff" stroke-width="1"/>')
    out.append(_text(x + 17, y, "monument", 10, fill="#444"))
    x += 17 + 54 + 12
    out.append(f'<circle cx="{_n(x + 7)}" cy="{_n(y - 4)}" r="6" fill="none" stroke="{CONFLICT}" '
               f'stroke-width="1.8" stroke-dasharray="3 1.5"/>')
    out.append(_text(x + 17, y, "conflict", 10, fill="#444"))
    out.append('</g>')


def _swatches(x, y, values, out, gold=None):
    """Coloured squares with a number after each (scores or a hand); gold adds a treasure.
    Each number gets the room its digits need, so 10 and more do not run into the next."""
    for c in range(4):
        out.append(f'<rect class="swatch" x="{_n(x)}" y="{_n(y - 10)}" width="10" height="10" '
                   f'rx="2" fill="{TILE_FILL[c]}"/>')
        text = str(int(values[c]))
        out.append(_text(x + 13, y, text, 10))
        x += 13 + 6.5 * len(text) + 6
    if gold is not None:
        out.append(f'<circle class="swatch" cx="{_n(x + 5.5)}" cy="{_n(y - 4.5)}" r="5.5" '
                   f'fill="{GOLD}" stroke="{GOLD_EDGE}" stroke-width="1"/>')
        out.append(_text(x + 14, y, str(int(gold)), 10))


def _panel_svg(st, known_hands, viewer, out):
    """The side panel; returns its bottom y."""
    n = int(st[S.PLAYERS])
    bb = st.view(np.uint64)
    x0 = PANEL_X
    y = BOARD_Y - 6
    over = int(st[S.PHASE]) == S.PH_OVER
    turn = int(st[S.TURN])
    to_act = int(st[S.TO_ACT])
    if over:
        head = "Game over"
    else:
        left = int(st[S.ACTIONS_LEFT])
        head = f"Player {turn}'s turn, {left} action{'s' if left != 1 else ''} left"
        head += f"; player {to_act} acts" if to_act != turn else ""
    out.append(_text(x0, y, head, 12, weight="bold"))
    y += 4
    if not over and int(st[S.PHASE]) != S.PH_ACTION:
        for line in textwrap.wrap(pending_text(st), 36):
            y += 14
            out.append(_text(x0, y, line, 11, fill="#8a3b00"))
    if st[S.BAG_ORDERED] == 1:
        bag = int(st[S.BAG_LEN])
    else:
        bag = int(st[S.BAG_COUNT:S.BAG_COUNT + 4].sum())
    treasures = sum(_bit(bb, S.BB_TREASURE, s) for s in B.TEMPLE_SQUARES)
    y += 16
    out.append(_text(x0, y, f"Bag {bag} tiles · {treasures} treasures left", 11, fill="#444"))
    y += 8
    for p in range(n):
        acting = p == to_act and not over
        out.append(f'<g class="player" data-player="{p}">')
        out.append(f'<rect x="{x0}" y="{y}" width="{PANEL_W}" height="84" rx="6" fill="#faf6ea" '
                   f'stroke="{BEST if acting else "#b8a77a"}" '
                   f'stroke-width="{2.5 if acting else 1}"/>')
        out.append(_dynasty(p, x0 + 14, y + 15, 7, "#555", "#555", 1))
        who = f"Player {p}" + (" (you)" if viewer == p else "")
        out.append(_text(x0 + 28, y + 20, who, 13, weight="bold"))
        if acting:
            out.append(_text(x0 + PANEL_W - 8, y + 20, "to act", 11, "end", BEST, "bold"))
        out.append(_text(x0 + 8, y + 40, "Score", 11, fill="#555"))
        _swatches(x0 + 52, y + 40, st[S.SCORE + 5 * p:S.SCORE + 5 * p + 4], out,
                  gold=st[S.SCORE + 5 * p + S.SCORE_TREASURE])
        out.append(_text(x0 + 8, y + 59, "Supply", 11, fill="#555"))
        ix = x0 + 59
        supply = [c for c in range(4) if st[S.LEADER_SQ + 4 * p + c] < 0]
        for c in supply:
            out.append(f'<g class="supply-leader p{p} {B.COLOURS[c]}">'
                       + _dynasty(p, ix, y + 55, 6, TILE_FILL[c], "#fff", 1.2) + '</g>')
            ix += 17
        if not supply:
            out.append(_text(ix - 7, y + 59, "no leaders", 11, fill="#555"))
            ix += 62
        ix += 4
        for _ in range(int(st[S.CATASTROPHES + p])):
            out.append(_catastrophe_icon(ix - 7, y + 48, 14, cls="supply-catastrophe"))
            ix += 17
        out.append(_text(x0 + 8, y + 78, "Hand", 11, fill="#555"))
        hand = st[S.HAND + 4 * p:S.HAND + 4 * p + 4]
        if bool(known_hands[p]) and (viewer is None or viewer == p):
            _swatches(x0 + 52, y + 78, hand, out)
        else:
            out.append(_text(x0 + 52, y + 78, f"hidden ({int(hand.sum())} tiles)", 11,
                             fill="#555"))
        out.append('</g>')
        y += 90
    return y


def _mark_target(st, code):
    """(square, size in squares, leader's old square or -1) a move is drawn on, or None."""
    if S.A_TILE <= code < S.A_LEADER:
        return (code - S.A_TILE) % B.SQUARES, 1, -1
    if S.A_LEADER <= code < S.A_WITHDRAW:
        c, s = divmod(code - S.A_LEADER, B.SQUARES)
        old = int(st[S.LEADER_SQ + 4 * int(st[S.TO_ACT]) + c])
        return s, 1, old
    if S.A_CATASTROPHE <= code < S.A_SWAP:
        return code - S.A_CATASTROPHE, 1, -1
    if S.A_MONUMENT <= code < S.A_DECLINE:
        return (code - S.A_MONUMENT) % B.SQUARES, 2, -1
    if S.A_TREASURE <= code < S.N_ACTIONS:
        return code - S.A_TREASURE, 1, -1
    return None


def _percent(share):
    """A share as a percentage: one decimal under 10% (0.5%), whole numbers above (62%)."""
    if share is None:
        return ""
    return f"{100 * share:.1f}%" if share < 0.095 else f"{round(100 * share)}%"


def _marks_svg(st, marks, out):
    """Marked moves: rank 1 (the chosen move) in orange, the others in purple, dashed; the
    rank in a badge inside the square, an arrow for a leader moved on the board; one mark a
    square (the best rank there; a monument's block with a better mark inside is left out),
    so marks never overlap and stay on the board; every move, marked or not, is in the move
    list under the board, with its share.  Returns the bottom y of the list."""
    taken = set()
    arrows = []  # drawn over the marks
    for rank, (code, share) in enumerate(marks):
        target = _mark_target(st, int(code))
        if target is None:
            continue
        s, size, old = target
        cover = {s + dr * B.COLS + dc for dr in range(size) for dc in range(size)}
        if cover & taken:
            continue
        taken |= cover
        kind = "best" if rank == 0 else "alternative"
        colour = BEST if rank == 0 else ALTERNATIVE
        dash = '' if rank == 0 else ' stroke-dasharray="5 3"'
        width = 4 if rank == 0 else 2.5
        x, y = _xy(s)
        text = move_text(int(code))
        out.append(f'<g class="mark {kind}" data-square="{B.square_name(s)}" '
                   f'data-rank="{rank + 1}">'
                   f'<title>{_esc(text)} {_percent(share)}</title>'
                   f'<rect x="{_n(x + 2)}" y="{_n(y + 2)}" width="{size * CELL - 4}" '
                   f'height="{size * CELL - 4}" rx="5" fill="none" stroke="{colour}" '
                   f'stroke-width="{width}"{dash}/></g>')
        if old >= 0 and old != s:
            x1, y1 = _centre(old)
            x2, y2 = _centre(s)
            dx, dy = x2 - x1, y2 - y1
            dist = math.hypot(dx, dy)
            # from the edge of the leader's mark to just short of the new square's centre
            x1, y1 = x1 + dx * 14 / dist, y1 + dy * 14 / dist
            x2, y2 = x2 - dx * 7 / dist, y2 - dy * 7 / dist
            ends = f'x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}"'
            arrows.append(f'<g class="arrow {kind}" data-from="{B.square_name(old)}" '
                       f'data-to="{B.square_name(s)}"><line {ends} stroke="#fff" '
                       f'stroke-width="6" stroke-linecap="round"/><line {ends} stroke="{colour}" '
                       f'stroke-width="3.5" marker-end="url(#arrowhead-{kind})"/></g>')
        out.append(f'<g class="mark-rank"><circle cx="{_n(x + 11)}" cy="{_n(y + 11)}" r="8" '
                   f'fill="{colour}" stroke="#fff" stroke-width="1.5"/>'
                   + _text(x + 11, y + 15, str(rank + 1), 11, "middle", "#fff", "bold") + '</g>')
    out += arrows
    y = LEGEND_Y + LEGEND_H + 12
    height = 24 + 16 * len(marks)
    out.append(f'<g class="movelist"><rect x="{BOARD_X}" y="{y}" width="{BOARD_W}" '
               f'height="{height}" rx="6" fill="#fbfaf5" stroke="#b8a77a"/>')
    out.append(_text(BOARD_X + 8, y + 16, f"Player {int(st[S.TO_ACT])} to act: moves "
                     "(share of search visits)", 12, weight="bold"))
    for rank, (code, share) in enumerate(marks):
        ly = y + 33 + 16 * rank
        colour = BEST if rank == 0 else ALTERNATIVE
        dash = '' if rank == 0 else ' stroke-dasharray="5 3"'
        out.append(f'<line x1="{BOARD_X + 10}" y1="{ly - 4}" x2="{BOARD_X + 30}" y2="{ly - 4}" '
                   f'stroke="{colour}" stroke-width="{4 if rank == 0 else 2.5}"{dash}/>')
        label = f"{rank + 1}. {move_text(int(code))}"
        if share is not None:
            label += f"  {_percent(share)}"
        out.append(_text(BOARD_X + 38, ly, label, 12, extra=' class="movelist-entry"'))
    out.append('</g>')
    return y + height


def svg(st, known_hands=None, viewer=None, marks=None):
    """An SVG picture of the state, as text: the board with coordinates, tiles, monuments,
    catastrophes, treasures (corner ones as stars) and leaders (player i's dynasty mark:
    hexagon, diamond, triangle point down, cross, in the leader's colour, with the player's number), a
    pending conflict ringed, two legend lines, and a panel per player: scores, leaders and
    catastrophes in supply, the hand when known; the header names the player to act.

    ``known_hands`` and ``viewer`` hide hands as in ``summary`` (default: every hand shown).
    ``marks``: moves of the player to act to draw, best first, as ``(action code, share)``
    pairs (share of search visits 0..1, or None): squares (a 2x2 block for a monument) are
    outlined with the rank in a badge (one mark a square, the best rank there), a leader moved
    on the board gets an arrow from its old square, and every marked move (swaps, pass,
    commits... included) is listed under the board with its share."""
    n = int(st[S.PLAYERS])
    if known_hands is None:
        known_hands = [True] * n
    bb = st.view(np.uint64)
    body = []
    _board_svg(st, bb, body)
    bottom = LEGEND_Y + LEGEND_H + 8
    if marks:
        bottom = max(bottom, _marks_svg(st, [(int(c), s) for c, s in marks], body))
    bottom = max(bottom, _panel_svg(st, known_hands, viewer, body))
    height = int(bottom) + 8
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{SVG_WIDTH}" height="{height}" '
            f'viewBox="0 0 {SVG_WIDTH} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
            '<title>Tigris &amp; Euphrates position</title>',
            '<defs>']
    for kind, colour in (("best", BEST), ("alternative", ALTERNATIVE)):
        head.append(f'<marker id="arrowhead-{kind}" viewBox="0 0 10 10" refX="7" refY="5" '
                    f'markerWidth="4" markerHeight="4" orient="auto">'
                    f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>')
    head.append('</defs>')
    head.append(f'<rect class="background" width="{SVG_WIDTH}" height="{height}" fill="#fff"/>')
    return "\n".join(head + body + ["</svg>"]) + "\n"


def visit_shares(alternatives, chosen=None, top=4):
    """``(code, share)`` marks from a search's ``alternatives`` ([(code, visits, mean)], most
    visited first): the ``chosen`` move first (if given), then the most visited others, ``top``
    in all, each with its share of all the visits (moves that needed no search share 1)."""
    total = sum(int(v) for _, v, _ in alternatives)
    shares = [(int(c), int(v) / total if total else 1.0 / len(alternatives))
              for c, v, _ in alternatives]
    first = [m for m in shares if m[0] == chosen]
    return (first + [m for m in shares if m[0] != chosen])[:top]
