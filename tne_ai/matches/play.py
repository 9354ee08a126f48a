"""A person plays against the AI in a terminal: the game loop of ``tne play`` as a function.

``play()`` reads lines with ``read(prompt)`` and prints with ``write(text)`` (``input`` and
``print`` by default; tests pass their own), so the loop runs the same in a terminal, under
click's CliRunner or driven by a script.  After every action (of anyone) it prints the move
and, before each of the person's decisions, a compact board (no legend), one line a player
(scores, supply, the hand the person may see) and what is asked.  Moves are typed in SPEC
notation (``tile red F4``, ``commit 1``...); ``?`` lists the legal moves, ``hint`` asks the
engine (a search of HINT_ITERATIONS iterations, or ``hint N``, from the person's view only),
``help`` explains, ``board`` shows the whole board, legend and summary, ``undo [N]`` takes
back the person's last (N-th last) decision and every move after it, ``quit`` stops.  Every
number typed (``hint N``, ``undo N``) is read by io.parse_int (ASCII digits, bounded).  A
line that is not a move, or a move that is not legal now, or a command with a bad number, is
answered with one line giving the reason, and a fresh prompt.  In a terminal, lines are
edited and recalled (Up, Down) with the standard library's ``readline`` where the platform
has it.  A decision with one legal answer (commit 0 without tiles of the colour...) is
played at once and said so; it is not one of the person's decisions for ``undo``.

The moves played so far are a ``tne-game/1`` record (formats.game_record), returned however
the game stops.  Given ``out``, the record is written there when the game starts and again
after every move, before the move is shown (io.write_atomic: a temporary file renamed over
the old), so a crash or a kill loses no move the terminal has shown.  ``meta`` holds the
agents by seat (``"human"`` for the person), the AI's spec (``ai``), the seed, the person's
seat, ``truncated`` (false: the terminal game has no ply limit) and, when the person stopped
the game (``quit``, end of input, Ctrl-C), ``stopped``: ``{"seat", "ply", "reason"}``
(formats.py, tne-game/1).  ``tne replay`` reads that record; ``play(resume=path)``
continues it.
"""
import json
import os
import re
import textwrap

from tne_ai.core import board as B
from tne_ai.core import state as S
from tne_ai.agents.builtin import make_agent
from tne_ai.errors import NotationError, TneError
from tne_ai.core.io import parse_int, write_atomic
from tne_ai.limits import MAX_COMMAND_BYTES, MAX_SEED, clip
from tne_ai.core.formats import game_record
from tne_ai.core.notation import move_text, parse_move
from tne_ai.position import Position
from tne_ai.core.render import LEGEND, ascii_board, pending_text, summary

HINT_ITERATIONS = 4000          # the search of ``hint`` (as the web page's Hint)
HINT_MAX_ITERATIONS = 200_000   # ``hint N`` is bounded

HELP = """\
Type a move in SPEC notation, one a line:
  tile red F4        put a tile from your hand      leader green C3   place or move a leader
  withdraw green     take a leader back             catastrophe H7    place a catastrophe
  swap rrk           discard tiles and draw again   pass              do nothing
  commit 2           tiles for a revolt or war      war red           choose the next war
  monument red-blue F4  build on the 2x2 block whose top-left is F4    decline   build none
  treasure B2        take a treasure
Colours may be written r b g k; squares A1 (top left) to P11.  Commands:
  ?           list the legal moves; '? tile red' lists only those starting so
  hint        ask the engine for your move (4000 iterations, from your view only);
              'hint 20000' searches longer
  board       show the whole board, its legend and the scores again
  undo        take back your last decision and the moves after it; 'undo 3' your
              last three
  help        this text
  quit        stop (so do Ctrl-C and Ctrl-D); the game is saved after every move
On the board: r b g k tiles, # monument tile, x catastrophe, * treasure, and a leader as
its colour letter in capitals and the player's number (R0: player 0's red leader)."""

_DECISION = {"revolt": "commit", "war": "commit", "war-choice": "war choice",
             "monument": "monument", "treasure": "treasure"}


class _Quit(Exception):
    """The person typed quit."""


class _Undo(Exception):
    """The person typed ``undo [N]``: take back his last ``count`` decisions."""

    def __init__(self, count):
        super().__init__(count)
        self.count = count


# control characters (after blanks are folded) and lone surrogates (bytes that were not
# UTF-8, as Python decodes a terminal's input): shown escaped, never echoed raw
_UNSHOWABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def _clean(line):
    """A typed line as one line of printable text: blanks folded to single spaces, control
    characters and undecodable bytes written as escapes ('\\x1b', '\\udcff')."""
    text = " ".join(str(line).split())
    return _UNSHOWABLE.sub(lambda m: repr(m.group())[1:-1], text)


def _sort_key(word):
    s = B.parse_square(word)
    return (0, s, "") if s >= 0 else (1, 0, word)


def hint_lines(texts, width=100):
    """The legal moves ``texts`` grouped for reading: one line per kind of move, the last word
    varying (``tile red: A1 B1 ...``, squares in board order); a move of one word stands
    alone (``pass``).  Every line starts with two spaces, a wrapped continuation with six."""
    groups = {}
    for text in sorted(texts):
        words = text.split()
        key = " ".join(words[:-1]) if len(words) > 1 else text
        args = groups.setdefault(key, [])
        if len(words) > 1:
            args.append(words[-1])
    lines = []
    for key, args in groups.items():
        if not args:
            lines.append(f"  {key}")
            continue
        args.sort(key=_sort_key)
        lines += textwrap.wrap(f"{key}: {' '.join(args)}", width, initial_indent="  ",
                               subsequent_indent="      ")
    return lines


def _asked(p):
    """What the person is asked now: 'action 1 of 2', 'commit', 'treasure'..."""
    pend = p.pending
    if pend is None:
        return f"action {3 - p.actions_left} of 2"
    return _DECISION.get(pend["kind"], pend["kind"])


def undo_count(arg, undoable):
    """The N of ``undo N`` (``arg`` the text after the word; empty: 1), 1 to ``undoable``
    (the person's decisions so far); TneError naming what is wrong otherwise."""
    if undoable == 0:
        raise TneError("undo: you have made no decision to take back")
    if not arg:
        return 1
    return parse_int(arg, "undo", 1, undoable)


def _ask(p, seat, read, write, undoable=0):
    """Prompt until the person types a legal move (its action code) or a command that stops
    (_Quit) or takes back his last decisions (_Undo; ``undoable``: how many he has made)."""
    legal = p.legal_codes()
    texts = [move_text(c) for c in legal]
    prompt = f"player {seat}, your {_asked(p)}> "
    while True:
        try:
            line = read(prompt)
        except UnicodeDecodeError:   # a terminal whose Python decodes its input strictly
            write("not a move: the line is not UTF-8 text; type ? for the legal moves")
            continue
        if len(line) > MAX_COMMAND_BYTES:
            write(f"not a move: a line of {len(line)} characters (at most "
                  f"{MAX_COMMAND_BYTES}); type ? for the legal moves")
            continue
        command = _clean(line)
        word = command.lower()
        if not command:
            continue
        first, _, rest = word.partition(" ")
        if first in ("hint", "hints"):
            for line in engine_hint(p, seat, rest):
                write(line)
            continue
        if first == "undo":
            try:
                count = undo_count(rest, undoable)
            except TneError as e:
                write(f"{e}; type help for help")
                continue
            raise _Undo(count)
        if first == "?":
            rest = " ".join(B.COLOURS[B.COLOUR_LETTERS.index(w)] if len(w) == 1 and
                            w in B.COLOUR_LETTERS else w for w in rest.split())
            shown = [t for t in texts if t.startswith(rest)] if rest else texts
            write(f"legal moves ({len(shown)}"
                  f"{' starting ' + repr(clip(rest, 40)) if rest else ''}):")
            write("\n".join(hint_lines(shown)) if shown else "  none")
            continue
        if word in ("help", "h"):
            write(HELP)
            continue
        if word == "board":  # the whole board, legend and summary
            write(ascii_board(p.st))
            write(summary(p.st, p.known_hands, seat))
            continue
        if word in ("quit", "exit", "q"):
            raise _Quit()
        try:
            code = parse_move(command)
        except NotationError as e:
            write(f"not a move: {e}; type ? for the legal moves, help for help")
            continue
        if code not in legal:
            write(f"not legal now: '{move_text(code)}': {p.why_illegal(code)}")
            continue
        return code


def engine_hint(p, seat, arg=""):
    """The lines of ``hint [N]``: the engine's move for ``seat`` from a search of N iterations
    (HINT_ITERATIONS by default) of the seat's own view (the other hands unknown, the bag's
    order too), its top moves with visits and win chance, and which are within noise of the
    best (noise.py)."""
    from tne_ai.search.noise import noise_note, standard_error
    from tne_ai.search.session import search
    iterations = HINT_ITERATIONS
    if arg:
        try:
            iterations = parse_int(arg, "hint", 100, HINT_MAX_ITERATIONS)
        except TneError as e:
            return [f"{e}; 'hint N' searches N iterations, 100 to {HINT_MAX_ITERATIONS}"]
    view = p.view(seat)
    result = search(view.st, iterations=iterations, seed=0)
    top = result.alternatives[:5]
    lines = [f"engine's suggestion ({result.iterations} iterations, from your view; win "
             f"chances ± two standard errors): {move_text(result.move)}"]
    for rank, (code, visits, mean) in enumerate(top, 1):
        lines.append(f"  {rank}. {move_text(int(code))}: {int(visits)} visits, win chance "
                     f"{100 * mean:.0f}% ± {200 * standard_error(mean, visits):.0f}")
    note = noise_note(top, [move_text(int(c)) for c, _, _ in top]) if len(top) > 1 else None
    if note:
        lines.append("  " + note)
    return lines


def compact_lines(p, seat):
    """The board without its legend and one line a player: what the person sees before each
    of his decisions (``board`` shows the whole, with the summary)."""
    lines = ascii_board(p.st).split("\n")[:-1]
    st = p.st
    for k in range(p.players):
        score = " ".join(f"{c[0] if c != 'black' else 'k'}{int(st[S.SCORE + 5 * k + i])}"
                         for i, c in enumerate(B.COLOURS)) + f" t{int(st[S.SCORE + 5 * k + 4])}"
        hand = st[S.HAND + 4 * k:S.HAND + 4 * k + 4]
        hand_text = (" ".join(f"{B.COLOURS[c]} {int(hand[c])}" for c in range(4))
                     if k == seat else f"{int(hand.sum())} hidden")
        supply = "".join(B.COLOUR_LETTERS[c] for c in range(4)
                         if st[S.LEADER_SQ + 4 * k + c] < 0) or "-"
        lines.append(f"{'you' if k == seat else f'player {k}'}: score {score} | supply {supply}"
                     f" | catastrophes {int(st[S.CATASTROPHES + k])} | hand {hand_text}")
    return lines


def strength_line(p):
    """Both sides' strengths in the conflict p waits for: on the board, committed so far."""
    from tne_ai.core.rules.apply import conflict_strengths
    att_board, dfn_board = (int(x) for x in conflict_strengths(p.st))
    att, dfn = int(p.st[S.CF_ATTACKER]), int(p.st[S.CF_DEFENDER])
    commit = int(p.st[S.CF_COMMIT])
    committed = "not yet committed" if commit < 0 else f"+ {commit} committed = {att_board + commit}"
    return (f"strength: attacker player {att} {att_board} on the board {committed}; defender "
            f"player {dfn} {dfn_board} on the board (ties go to the defender)")


def conflict_lines(before, code, after):
    """What the defender's commit ``code`` decided, from the positions before and after it:
    the strengths and commits, the winner, the leader and tiles removed, the points scored.
    Empty unless ``code`` ends a revolt or a war (SPEC section 3)."""
    from tne_ai.core.rules.apply import conflict_strengths
    pend = before.pending
    if pend is None or pend["kind"] not in ("revolt", "war") or pend["attacker_commit"] is None:
        return []
    colour = pend["colour"]
    att, dfn = pend["attacker"], pend["defender"]
    att_board, dfn_board = (int(x) for x in conflict_strengths(before.st))
    att_commit, dfn_commit = pend["attacker_commit"], int(code) - S.A_COMMIT
    att_total, dfn_total = att_board + att_commit, dfn_board + dfn_commit
    winner, loser = (att, dfn) if att_total > dfn_total else (dfn, att)
    what = f"revolt ({colour})" if pend["kind"] == "revolt" else \
        f"war ({colour}) around {pend['unifying']}"
    lines = [f"{what}: player {att} attacked with {att_board} on the board + {att_commit} "
             f"committed = {att_total}; player {dfn} defended with {dfn_board} + {dfn_commit} "
             f"= {dfn_total}; player {winner} wins"
             + (" (ties go to the defender)" if att_total == dfn_total else "")]
    removed = []
    c = B.COLOURS.index(colour)
    square = int(before.st[S.LEADER_SQ + 4 * loser + c])
    if square >= 0 and int(after.st[S.LEADER_SQ + 4 * loser + c]) < 0:
        removed.append(f"player {loser}'s {colour} leader from {B.square_name(square)}")
    letter = B.COLOUR_LETTERS[c]
    tiles = before.to_json()["board"], after.to_json()["board"]
    gone = sum(row.count(letter) for row in tiles[0]) - sum(row.count(letter) for row in tiles[1])
    if gone > 0:
        removed.append(f"{gone} {colour} tile{'s' if gone != 1 else ''}")
    lines.append("removed: " + ("; ".join(removed) if removed else "nothing"))
    points = []
    for k in range(before.players):
        for key in B.COLOURS + ("treasure",):
            gain = after.scores[k][key] - before.scores[k][key]
            if gain:
                points.append(f"player {k} +{gain} {key}")
    lines.append("scored: " + (", ".join(points) if points else "nothing"))
    return lines


def _who(k, seat, names):
    return f"player {k} (you)" if k == seat else f"player {k} ({names[k]})"


def _result_lines(p, seat, names):
    finals = p.final_scores()
    places = p.ranking()
    lines = ["game over"]
    for k in range(p.players):
        lines.append(f"  {_who(k, seat, names)}: place {places[k]}, colours after treasures "
                     f"{' '.join(str(v) for v in finals[k])} (score {finals[k][0]})")
    return lines


def default_record_path(directory="."):
    """``tne-game.json`` in ``directory``, or ``tne-game-N.json`` with the first N free, so
    that a new game never overwrites an old record."""
    path = os.path.join(directory, "tne-game.json")
    n = 1
    while os.path.exists(path):
        path = os.path.join(directory, f"tne-game-{n}.json")
        n += 1
    return path


def _resumed(path):
    """(record, position at its end, seat, seed, ai spec) of a game saved by play()."""
    from tne_ai.matches.tournament import find_record, replay
    record = find_record(path)
    meta = record.get("meta", {})
    seat, seed, ai = meta.get("human_seat"), meta.get("seed"), meta.get("ai")
    p = replay(record)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < p.players:
        raise TneError(f"{path}: meta.human_seat is {clip(repr(seat), 40)}: not a game saved "
                       f"by tne play")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise TneError(f"{path}: meta.seed is {clip(repr(seed), 40)}, expected 0 to {MAX_SEED}")
    if ai is not None and not isinstance(ai, str):
        raise TneError(f"{path}: meta.ai is {clip(repr(ai), 40)}, expected an agent spec")
    if p.is_over():
        raise TneError(f"{path}: the game is over; there is nothing to resume")
    return record, p, seat, seed, ai


def _forced(p, seat):
    """Whether the person is to answer a decision with one legal answer (played at once)."""
    return p.to_act == seat and p.pending is not None and len(p.legal_codes()) == 1


def replay_decisions(start, moves, seat):
    """The position after ``moves`` from the position object ``start``, and the plies at
    which the person in ``seat`` decided (was to act and not forced: _forced)."""
    p = Position.from_json(start)
    decisions = []
    for ply, text in enumerate(moves):
        if p.to_act == seat and not _forced(p, seat):
            decisions.append(ply)
        p.push(text)
    return p, decisions


def play(players=2, ai="mcts:time=1", seat=0, seed=0, read=input, write=print, out=None,
         resume=None):
    """Play a game: the person in ``seat`` against ``make_agent(ai, seed=...)`` in every
    other seat, from ``Position.new(players, seed)``.  Returns the ``tne-game/1`` record
    however the game stops; given ``out``, writes it there at the start and after every move
    (module docstring).  With ``resume`` (the path of a record saved by play) the game goes
    on from where it stopped, with that record's players, seat, seed and AI spec (``ai`` if
    it has none); the AI's searches then differ from an unbroken game's.  Raises TneError for
    a bad argument (players, seat, an agent spec, a record) before anything is asked or
    written, and for a record that cannot be written (the game stops there; the file holds
    every move shown before)."""
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise TneError(f"players must be 2, 3 or 4, not {clip(repr(players), 40)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise TneError(f"seed must be an integer 0 to {MAX_SEED}, not {clip(repr(seed), 40)}")
    if out is not None and not os.path.isdir(os.path.dirname(os.path.abspath(out))):
        raise TneError(f"{out}: cannot write the game record there: no such directory")
    if resume is not None:
        record, p, seat, seed, saved_ai = _resumed(resume)
        ai = saved_ai or ai
        players = p.players
        start = record["start"]
        moves = list(record["moves"])
        p, decisions = replay_decisions(start, moves, seat)
    elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise TneError(f"seat {clip(repr(seat), 40)}: players are numbered 0 to {players - 1}")
    agents = {k: make_agent(ai, seed=seed * 4 + k) for k in range(players) if k != seat}
    names = ["human" if k == seat else agents[k].name for k in range(players)]
    if resume is None:
        p = Position.new(players, seed)
        start = p.to_json()
        moves = []
        decisions = []
    # a path that is not a regular file (/dev/null, a pipe) is written once, at the end
    live = out is not None and (not os.path.exists(out) or os.path.isfile(out))

    def record_of(stop=None):
        meta = {"agents": names, "ai": ai, "seed": seed, "human_seat": seat,
                "truncated": False}
        if stop is not None:
            meta["stopped"] = {"seat": seat, "ply": len(moves), "reason": stop}
        return game_record(start, moves, p.to_json(), meta)

    def save(record):
        try:
            write_atomic(out, json.dumps(record, indent=1) + "\n")
        except OSError as e:
            raise TneError(f"{out}: cannot write the game record: {e.strerror or e}; the "
                           f"game stops here") from None

    write(f"Tigris & Euphrates, {players} players, seed {seed}: you are player {seat}; "
          + ", ".join(f"player {k} is {names[k]}" for k in range(players) if k != seat) + "."
          + (f" Resumed after move {len(moves)}." if resume is not None else ""))
    write("Type a move such as 'tile red F4', ? for the legal moves, hint for the engine's, "
          "help for help.")
    write(LEGEND)  # the board itself comes before each prompt
    if read is input:
        try:
            import readline  # noqa: F401  (input() then edits lines and keeps a history)
        except ImportError:  # a platform without it: plain lines
            pass
    stop = None
    try:
        if live:
            save(record_of())
        while not p.is_over():
            k = p.to_act
            told = []   # what is said before the move, once it is saved
            if _forced(p, seat):
                code = p.legal_codes()[0]
                told = [f"decision: {pending_text(p.st)}",
                        f"your only choice, played at once: {move_text(code)}"]
            elif k == seat:
                write("\n".join(compact_lines(p, seat)))
                if p.pending is not None:
                    write(f"decision: {pending_text(p.st)}")
                    if p.pending["kind"] in ("revolt", "war"):
                        write(strength_line(p))
                    write("\n".join(hint_lines(move_text(c) for c in p.legal_codes())))
                try:
                    code = _ask(p, seat, read, write, len(decisions))
                except _Undo as u:
                    ply = decisions[-u.count]
                    taken = moves[ply:]
                    moves, decisions = moves[:ply], decisions[:-u.count]
                    p, _ = replay_decisions(start, moves, seat)
                    if live:
                        save(record_of())
                    write(f"undo: took back {len(taken)} move{'' if len(taken) == 1 else 's'}"
                          f" ({u.count} of your decisions); back before your '{taken[0]}'")
                    continue
                decisions.append(len(moves))
            else:
                if len(p.legal_codes()) > 1 and names[k].startswith(("mcts", "openspiel")):
                    write(f"{_who(k, seat, names)} is thinking...")
                code = agents[k].choose(p)
            before = p.copy()
            p.push(code)
            moves.append(move_text(code))
            if live:
                save(record_of())
            for line in told:
                write(line)
            write(f"{_who(k, seat, names)}: {move_text(code)}")
            for line in conflict_lines(before, code, p):
                write(line)
    except _Quit:
        stop = "quit"
    except EOFError:
        stop = "end of input"
    except KeyboardInterrupt:
        stop = "interrupted"
    if stop is None:
        write(ascii_board(p.st))
        write(summary(p.st, p.known_hands, None))
        write("\n".join(_result_lines(p, seat, names)))
    else:
        write(f"\nstopped ({stop}) after {len(moves)} move{'' if len(moves) == 1 else 's'}")
    record = record_of(stop)
    if out is not None:
        save(record)
        write(f"game record written to {out}")
    return record


# --- reading the person's lines (`tne play`) ---------------------------------------------------

class PipeLines:
    """``input()`` for a stdin that is a pipe or a file: reads the file descriptor itself
    with short select() timeouts, so that the main thread runs Python often and a Ctrl-C
    (SIGINT), whichever thread the kernel hands it to, stops the read at once.  The prompt
    goes to stdout; a line longer than limits.MAX_COMMAND_BYTES ends the input, with a note
    on stderr."""

    def __init__(self, fd):
        self.fd = fd
        self.buffer = b""
        self.ended = False

    def __call__(self, prompt=""):
        import select
        import sys
        sys.stdout.write(prompt)
        sys.stdout.flush()
        while b"\n" not in self.buffer and not self.ended:
            if len(self.buffer) > MAX_COMMAND_BYTES:   # an endless line (/dev/zero)
                self.buffer, self.ended = b"", True
                sys.stderr.write(f"tne: note: stdin: a line longer than {MAX_COMMAND_BYTES} "
                                 f"bytes; the input ends there\n")
                sys.stderr.flush()
                break
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                chunk = os.read(self.fd, 65536)
                self.buffer += chunk
                self.ended = not chunk
        if not self.buffer:
            raise EOFError
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace").rstrip("\r")


def line_reader():
    """The ``read`` of ``play`` for this process's stdin: ``input`` on a terminal (line
    editing) or a stdin without a file descriptor (an in-memory one, as click's CliRunner
    gives), else a PipeLines on it."""
    import sys
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        return input
    return input if os.isatty(fd) else PipeLines(fd)
