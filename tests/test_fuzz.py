"""Random-game fuzzing: 200 seeded games, uniform over the legal moves, with the rules'
invariants checked after every move (153 tiles accounted for, leaders next to a temple, no two
same-colour leaders in one kingdom between actions, hands of at most 6: SPEC sections 1-3 and 9)
and the position file round-tripped after every move."""
import numpy as np
import pytest

from tne_ai.core import state as S
from tne_ai.core.board import NEIGHBOURS, TOTAL_TILES
from tne_ai.core.rules.apply import apply_action
from tne_ai.core.rules.kingdoms import kingdom_clash
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.rng import make_rng, below
from tne_ai.core.formats import game_record, load_game_record
from tne_ai.core.notation import move_text
from tne_ai.position import Position

GAMES = 200
MOVE_CAP = 3000  # a game here takes about 200 moves; every game must end well before this


def bits(st, offset):
    return sum(bin(int(w) & (2 ** 64 - 1)).count("1") for w in st[offset:offset + 3])


def has_bit(st, offset, s):
    return (int(st[offset + (s >> 6)]) >> (s & 63)) & 1


def tiles_accounted(st):
    """Board (face-up and flipped) + hands + bag + out of game + hidden discards."""
    board = sum(bits(st, S.BB_TILE + 3 * c) for c in range(4)) + bits(st, S.BB_FLIP)
    return (board + st[S.HAND:S.HAND + 16].sum() + st[S.BAG_COUNT:S.BAG_COUNT + 4].sum()
            + st[S.OUT_OF_GAME:S.OUT_OF_GAME + 4].sum() + st[S.HIDDEN_DISCARDS])


def check_invariants(st):
    assert tiles_accounted(st) == TOTAL_TILES
    for i in range(4 * st[S.PLAYERS]):
        s = st[S.LEADER_SQ + i]
        if s >= 0:
            assert has_bit(st, S.BB_LEADER, s)
            assert any(n >= 0 and has_bit(st, S.BB_TILE, n) for n in NEIGHBOURS[s]), \
                "a leader without an adjacent face-up temple"
    assert bits(st, S.BB_LEADER) == int((st[S.LEADER_SQ:S.LEADER_SQ + 16] >= 0).sum())
    if st[S.PHASE] in (S.PH_ACTION, S.PH_OVER):
        assert not kingdom_clash(st), "two same-colour leaders in one kingdom between actions"
    for p in range(st[S.PLAYERS]):
        assert 0 <= st[S.HAND + 4 * p:S.HAND + 4 * p + 4].sum() <= 6


@pytest.mark.parametrize("chunk", range(10))
def test_random_games_keep_invariants_and_round_trip(chunk):
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    for game in range(chunk * GAMES // 10, (chunk + 1) * GAMES // 10):
        pos = Position.new(players=2 + game % 3, seed=game)
        start = pos.to_json()
        rng = make_rng(game)
        played = []
        while not pos.is_over():
            n = legal_moves(pos.st, moves)
            assert n > 0
            code = int(moves[below(rng, n)])
            played.append(move_text(code))
            apply_action(pos.st, code, rng)
            check_invariants(pos.st)
            again = Position.from_json(pos.to_json())
            assert np.array_equal(again.st, pos.st), f"game {game} move {len(played)}: round trip"
            assert len(played) < MOVE_CAP, f"game {game} did not end"
        assert pos.actions_left == 0
        # the game record replays to the same final ranking, with no RNG involved
        record = load_game_record(game_record(start, played, pos.to_json(), {"seed": game}))
        replay = Position.from_json(record["start"])
        for text in record["moves"]:
            replay.push(text)
        assert replay.is_over() and replay.ranking() == pos.ranking()
        assert np.array_equal(replay.st, pos.st)
