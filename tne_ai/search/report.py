"""The best move of one search as `tne bestmove` prints it: its JSON object and its text.

The search's result (``Search.run``: a SearchInfo) holds the chosen move, its plan to the end
of the turn with the win chance after each action, and the root's alternatives ``(action,
visits, mean)``; the win chance of a move is its mean reward for the player who chooses it
(tne_ai/matches/review.py, "Win chance").  ``chosen_by`` names the rule that chose the move,
``bestmove_json`` and ``bestmove_lines`` write it out.
"""
from tne_ai.core.notation import move_text
from tne_ai.search.session import commit_margin_decides, round_win

BESTMOVE_SHOWN = 10   # the alternatives `tne bestmove --json` lists
NOISE_TOP = 5         # the top moves the within-noise note compares

# how the search chose its move (``chosen_by``): the JSON value, then the words of the text
CHOICE_RULES = {
    "visits": "chosen by visits",
    "commit-margin": "chosen as the smallest commit not clearly worse than the best "
                     "(commit margin)",
    "exact": "chosen by the exact endings",
    "forced": "the only legal move",
}


def chosen_by(info, config, st):
    """The rule by which the search of ``st`` with ``config`` chose ``info.move`` (a key of
    CHOICE_RULES), as ``Search.best_move`` and the exact endings apply them: "forced" (one
    legal move, nothing searched), "exact" (the best mean over the solved worlds),
    "commit-margin" (a root commit decision with a commit margin: ``smallest_commit``),
    else "visits" (the most visited move)."""
    if info.forced:
        return "forced"
    if info.exact:
        return "exact"
    if commit_margin_decides(config, st):
        return "commit-margin"
    return "visits"


def _percent(mean):
    return f"{100 * round_win(mean):.1f}"


def higher_win(info, shown=BESTMOVE_SHOWN, printed=round_win):
    """The visited moves among the first ``shown`` alternatives whose win chance as printed
    (``printed``: the JSON's 4 decimals, or the text's percentage) is above the chosen
    move's: [(action, visits, mean)], in the alternatives' order.  A move chosen by visits
    can show a lower win chance than one searched less (a mean over fewer visits is less
    sure)."""
    if info.forced:
        return []
    chosen = next(((a, v, m) for a, v, m in info.alternatives if a == info.move), None)
    if chosen is None or chosen[1] <= 0:
        return []
    return [(a, v, m) for a, v, m in info.alternatives[:shown]
            if a != info.move and v > 0 and float(printed(m)) > float(printed(chosen[2]))]


def bestmove_json(info, player, rule):
    """The JSON object of `tne bestmove --json` for a SearchInfo (``rule``: ``chosen_by``)."""
    from tne_ai.search.noise import within_noise
    d = info.to_dict()
    best = d["lines"][0]
    top = info.alternatives[:NOISE_TOP]
    names = [a["move"] for a in d["alternatives"][:NOISE_TOP]]
    tied = [] if info.forced else [n for n, f in zip(names[1:], within_noise(top)[1:]) if f]
    return {"move": d["move"], "iterations": d["visits"], "seconds": d["seconds"],
            "nodes": d["nodes"], "player": player, "win": best["win"], "pv": best["pv"],
            "pv_win": best["pv_win"],
            "alternatives": [{"move": a["move"], "visits": a["visits"], "mean": a["mean"],
                              "win": a["win"]} for a in d["alternatives"][:BESTMOVE_SHOWN]],
            "forced": d["forced"],
            "within_noise": tied,   # of the top five, those the search cannot tell from the best
            "chosen_by": rule,
            # the moves listed with a higher win chance than the chosen one
            "higher_win": [move_text(a) for a, _, _ in higher_win(info)]}


def bestmove_lines(info, rule):
    """The text of `tne bestmove` for a SearchInfo (``rule``: ``chosen_by``): the move, its
    win chance, the rest of the turn as planned; then, when a listed move shows a higher win
    chance, how the move was chosen; then the only-move or within-noise line."""
    from tne_ai.search.noise import noise_note
    d = bestmove_json(info, None, rule)
    lines = [d["pv"][0]]
    if d["win"] is not None:
        lines.append(f"win chance {_percent(d['win'])}%")
    for move, w in zip(d["pv"][1:], d["pv_win"][1:]):
        lines.append(f"then {move}" + ("" if w is None else f" (win chance {100 * w:.1f}%)"))
    higher = higher_win(info, printed=_percent)
    if higher:
        visits = next(v for a, v, _ in info.alternatives if a == info.move)
        shows = ", ".join(f"{move_text(a)} {_percent(m)}% on {v} visits" for a, v, m in higher)
        sure = " (a mean over fewer visits is less sure)" if rule == "visits" else ""
        lines.append(f"{CHOICE_RULES[rule]}, not by win chance: {d['move']} shows "
                     f"{_percent(d['win'])}% on {visits} visits, {shows}{sure}")
    if info.forced:
        lines.append("the only legal move: nothing to search")
    elif d["within_noise"] and d["alternatives"] and d["alternatives"][0]["move"] == d["pv"][0]:
        top = info.alternatives[:NOISE_TOP]
        lines.append(noise_note(top, [move_text(int(a)) for a, _, _ in top]))
    return lines
