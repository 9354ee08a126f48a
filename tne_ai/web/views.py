"""What a seat may see (SPEC section 7), and the words and symbols the page shows.

A seat's view of a game is a ``tne-position/1`` object in which every other player's hand is
``null`` and the bag is left out (its order is hidden; its size is sent as a number), plus the
move log with the other players' swaps redacted to their tile count (discards are face down),
the legal moves only when the seat is to act, and the public conflict strengths.  The page
never receives anything else about the hidden tiles, the way ``determinize`` gives the search
only the searcher's information set (DESIGN.md).
"""
from tne_ai.core import board as B
from tne_ai.core import render as R
from tne_ai.core import state as S
from tne_ai.core.rules.apply import conflict_strengths
from tne_ai.core.formats import position_to_dict
from tne_ai.search.noise import standard_error, within_noise
from tne_ai.core.notation import move_text


def bag_size(st):
    if st[S.BAG_ORDERED] == 1:
        return int(st[S.BAG_LEN])
    return int(st[S.BAG_COUNT:S.BAG_COUNT + 4].sum())


def position_view(st, seat):
    """The tne-position/1 object seat may see: its own hand only (none for seat None), no bag."""
    n = int(st[S.PLAYERS])
    known = [seat == i for i in range(n)]
    d = position_to_dict(st, known, False)
    d.pop("bag", None)
    if "hand_sizes" not in d and not all(known):
        d["hand_sizes"] = [int(st[S.HAND + 4 * i:S.HAND + 4 * i + 4].sum()) for i in range(n)]
    return d


def redacted(text, mover, seat):
    """A log line as seat may read it: another player's swap shows only how many tiles."""
    if text.startswith("swap ") and mover != seat:
        k = len(text.split()[1])
        return f"swap {k} tile{'s' if k != 1 else ''}"
    return text


def conflict_info(st):
    """The public facts of a conflict in progress: both sides' board strength and the
    attacker's commit (SPEC section 4; committed tiles are public, section 7), or None."""
    phase = int(st[S.PHASE])
    if phase not in (S.PH_REVOLT, S.PH_WAR):
        return None
    att, dfn = conflict_strengths(st)
    commit = int(st[S.CF_COMMIT])
    return {"kind": "revolt" if phase == S.PH_REVOLT else "war",
            "colour": B.COLOURS[int(st[S.CF_COLOUR])],
            "attacker": int(st[S.CF_ATTACKER]), "defender": int(st[S.CF_DEFENDER]),
            "attacker_board": int(att), "defender_board": int(dfn),
            "attacker_commit": None if commit < 0 else commit}


def _leaders(st):
    n = int(st[S.PLAYERS])
    return {(p, c): int(st[S.LEADER_SQ + 4 * p + c]) for p in range(n) for c in range(4)}


def outcome(before, code, after):
    """A conflict's outcome in words when ``code`` (played in ``before``) settled one: who
    won with which strengths, which leader went home, what was removed, who scored; else None."""
    phase = int(before[S.PHASE])
    if phase not in (S.PH_REVOLT, S.PH_WAR) or before[S.CF_COMMIT] < 0:
        return None
    if int(before[S.TO_ACT]) != int(before[S.CF_DEFENDER]):
        return None
    info = conflict_info(before)
    colour = info["colour"]
    att, dfn = info["attacker"], info["defender"]
    a_total = info["attacker_board"] + info["attacker_commit"]
    d_total = info["defender_board"] + (code - S.A_COMMIT)
    winner = att if a_total > d_total else dfn
    what = "revolt" if phase == S.PH_REVOLT else f"war around {B.square_name(int(before[S.UNIFY_SQ]))}"
    parts = [f"{what} ({colour}): player {att} {info['attacker_board']}+{info['attacker_commit']}"
             f" = {a_total} against player {dfn} {info['defender_board']}+{code - S.A_COMMIT}"
             f" = {d_total}: player {winner} wins"
             + (" (ties go to the defender)" if a_total == d_total else "")]
    gone = [f"player {p}'s {B.COLOURS[c]} leader"
            for (p, c), s in _leaders(before).items() if s >= 0 and _leaders(after)[(p, c)] < 0]
    if gone:
        parts.append(", ".join(gone) + " back to supply")
    removed = []
    for c in range(4):
        k = int(after[S.OUT_OF_GAME + c] - before[S.OUT_OF_GAME + c])
        if c == B.COLOURS.index(colour):
            k -= code - S.A_COMMIT  # the defender's committed tiles
        if k > 0:
            removed.append(f"{k} {B.COLOURS[c]}")
    if phase == S.PH_WAR and removed:
        parts.append("removed " + ", ".join(removed) + " tile(s)")
    scored = []
    for p in range(int(before[S.PLAYERS])):
        for c in range(4):
            k = int(after[S.SCORE + 5 * p + c] - before[S.SCORE + 5 * p + c])
            if k > 0:
                scored.append(f"player {p} scores {k} {B.COLOURS[c]}")
    parts += scored
    return "; ".join(parts)


def move_marks(st, code):
    """(square, size, old square) a move is drawn on (the renderer's rule), or None."""
    t = R._mark_target(st, int(code))
    if t is None:
        return None
    s, size, old = t
    return {"square": B.square_name(s), "size": size,
            "from": B.square_name(old) if old >= 0 and old != s else None}


def symbols():
    """The renderer's geometry, colours and symbols (render.py) as SVG snippets the page
    places by translation, so the page looks like ``tne show --svg`` and follows it."""
    cell = R.CELL
    leaders = [[R._dynasty(p, 0, 0, 11.5, R.TILE_FILL[c])
                + R._text(0, 4, str(p), 10, "middle", "#fff", "bold") for c in range(4)]
               for p in range(4)]
    small = [[R._dynasty(p, 0, 0, 6, R.TILE_FILL[c], "#fff", 1.2) for c in range(4)]
             for p in range(4)]
    tiles = [f'<rect x="2" y="2" width="{cell - 4}" height="{cell - 4}" rx="4" '
             f'fill="{R.TILE_FILL[c]}"/>' + R._tile_glyph(c, 0, 0) for c in range(4)]
    return {
        "cell": cell, "land": R.LAND_FILL, "river": R.RIVER_FILL, "tile_fill": list(R.TILE_FILL),
        "flipped": R.FLIPPED_FILL, "gold": R.GOLD, "gold_edge": R.GOLD_EDGE, "best": R.BEST,
        "alternative": R.ALTERNATIVE, "map": list(B.MAP), "files": B.FILES, "rows": B.ROWS,
        "cols": B.COLS, "colours": list(B.COLOURS), "monuments": list(B.MONUMENT_NAMES),
        "leader": leaders, "leader_small": small, "tile": tiles,
        "catastrophe": R._catastrophe_icon(2, 2, cell - 4),
        "treasure": f'<circle cx="{cell - 8}" cy="8" r="5.5" fill="{R.GOLD}" '
                    f'stroke="{R.GOLD_EDGE}" stroke-width="1"/>',
        "corner_treasure": f'<polygon points="{R._star(cell - 8, 8, 8, 3.6)}" fill="{R.GOLD}" '
                           f'stroke="{R.GOLD_EDGE}" stroke-width="1"/>',
    }


def share_marks(st, alternatives, top=5):
    """The search's top moves for the page: text, visits, share, win chance, its standard
    error and whether it is within noise of the best (noise.py), where drawn."""
    total = sum(int(v) for _, v, _ in alternatives) or 1
    shown = alternatives[:top]
    flags = within_noise(shown)
    out = []
    for (code, visits, mean), tied in zip(shown, flags):
        out.append({"move": move_text(int(code)), "visits": int(visits),
                    "share": int(visits) / total, "win": float(mean),
                    "se": round(standard_error(mean, visits), 4), "within_noise": bool(tied),
                    "mark": move_marks(st, code)})
    return out


def game_view(game, seat):
    """The whole payload for one seat of a game (a Game from games.py); seat None = watcher."""
    st = game.position.st
    to_act = int(st[S.TO_ACT])
    over = int(st[S.PHASE]) == S.PH_OVER
    mine = seat is not None and seat == to_act and not over and game.seats[seat] == "human"
    log = [{"ply": i + 1, "player": e["player"], "by": e["by"],
            "move": redacted(e["move"], e["player"], seat), "outcome": e["outcome"],
            "mark": e["mark"] if not e["move"].startswith("swap") else None}
           for i, e in enumerate(game.log)]
    view = {
        "id": game.id, "version": game.version, "seat": seat, "seats": list(game.seats),
        "hotseat": game.hotseat,
        "players": game.players, "position": position_view(st, seat), "bag": bag_size(st),
        "to_act": to_act, "over": over, "thinking": game.thinking,
        "legal": sorted(move_text(c) for c in game.legal_codes()) if mine else [],
        "conflict": conflict_info(st), "log": log, "error": game.ai_error,
        "can_undo": seat is not None and game.can_undo(seat),
    }
    if over:
        view["final"] = game.position.final_scores()
        view["ranking"] = game.position.ranking()
    return view

