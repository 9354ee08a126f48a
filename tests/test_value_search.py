"""The value network inside the search (``evaluation=net``, search/value.py): its option,
its weights file through the search's faces, and a search steered by a hand-set network."""
import numpy as np
import pytest

from test_tactics import TRADER_SQUARES, TREASURE_TILES, midgame, scores
from tne_ai.errors import TneError
from tne_ai.core.notation import move_text
from tne_ai.search.config import SearchConfig
from tne_ai.search.features import F_TREASURES, N_FEATURES
from tne_ai.search.session import Search
from tne_ai.search.value import NET_ARRAYS, save_net


def treasure_net(path, weight=50.0):
    """A network whose only weight is the linear term ``weight`` on the treasures a player
    holds (2 players; mu 0, sigma 1): a position's value is who holds more treasures."""
    arrays = {"mu": np.zeros(N_FEATURES), "sigma": np.ones(N_FEATURES),
              "A": np.zeros((N_FEATURES, 2)), "B": np.zeros((N_FEATURES, 2)),
              "c": np.zeros((3, 2)), "W2": np.zeros((2, 2)), "b2": np.zeros(2),
              "w3": np.zeros(2), "l": np.zeros((3, N_FEATURES))}
    arrays["l"][0, F_TREASURES] = weight
    assert set(arrays) == set(NET_ARRAYS)
    save_net(path, arrays)
    return path


def test_the_net_option_and_its_file_are_checked(tmp_path):
    cfg = SearchConfig.from_spec("mcts:evaluation=net,iterations=10")
    assert cfg.evaluation == "net" and cfg.net is None
    # the fitted model's own settings (EVALUATION_DEFAULTS) hold for the network too
    assert SearchConfig(evaluation="net").resolved(2).widen == SearchConfig().resolved(2).widen
    missing = str(tmp_path / "missing.npz")
    p = midgame(0, tiles=TREASURE_TILES, hands=["rrbbgg", "rrbbgk"], actions_left=1,
                treasures=["B2", "F3", "K11", "N5", "I7"],
                scores=[scores(5, 5, 5, 0, 2), scores(3, 3, 4, 4, 3)])
    with pytest.raises(TneError) as e:
        Search(p, SearchConfig(evaluation="net", net=missing, iterations=10))
    assert "\n" not in str(e.value) and missing in str(e.value)


def test_a_hand_set_network_steers_the_search_to_the_treasure(tmp_path):
    """P0's last action of his turn; five treasures are left (B2, F3, K11, N5, I7), so taking
    one does not end the game (SPEC 3: it ends at two or fewer).  The region of red tiles
    around B2 and F3 holds two treasures: P0's trader (green leader) placed next to it takes
    one (SPEC 5, treasures), and no other move gains a treasure in one action.  Under a
    network that values only the treasures held, every trader square of that region scores
    P0 one treasure more than any other move, so the search plays one of them; under its
    negation (a treasure held counts against) those squares are the worst moves and the
    search plays none of them."""
    p = midgame(0, tiles=TREASURE_TILES, hands=["rrbbgg", "rrbbgk"], actions_left=1,
                treasures=["B2", "F3", "K11", "N5", "I7"],
                scores=[scores(5, 5, 5, 0, 2), scores(3, 3, 4, 4, 3)])
    path = treasure_net(str(tmp_path / "treasures.npz"))
    traders = {f"leader green {sq}" for sq in TRADER_SQUARES}
    s = Search(p, SearchConfig(evaluation="net", net=path, seed=1))
    s.run(iterations=3000)
    assert move_text(s.best_move()) in traders
    path = treasure_net(str(tmp_path / "no_treasures.npz"), weight=-50.0)
    s = Search(p, SearchConfig(evaluation="net", net=path, seed=1))
    s.run(iterations=3000)
    assert move_text(s.best_move()) not in traders


def test_same_seed_same_search_with_the_shipped_network():
    p = midgame(0, tiles=TREASURE_TILES, hands=["rrbbgg", "rrbbgk"], actions_left=2,
                treasures=["B2", "F3", "K11", "N5", "I7"],
                scores=[scores(5, 5, 5, 0, 2), scores(3, 3, 4, 4, 3)])
    runs = []
    for _ in range(2):
        s = Search(p, SearchConfig(evaluation="net", seed=4))
        s.run(iterations=1500)
        runs.append(s.alternatives())
    assert runs[0] == runs[1]


def test_a_bad_network_file_is_one_error_when_it_is_given_on_every_face(tmp_path):
    """A truncated network file: the engine's setoption answers one error and keeps the
    option as it was; an agent spec and a review are refused before any move."""
    from engine_helpers import EngineProcess
    from tne_ai.agents.builtin import make_agent
    from tne_ai.search.value import NET_FILE
    bad = tmp_path / "bad.npz"
    bad.write_bytes(open(NET_FILE, "rb").read()[:300])
    e = EngineProcess()
    try:
        e.send({"type": "setoption", "name": "evaluation", "value": "net"})
        e.send({"type": "setoption", "name": "net", "value": str(bad)})
        lines = e.sync()
        assert len(lines) == 1 and lines[0]["type"] == "error"
        assert lines[0]["message"].startswith(f"setoption: {bad}: not a value network weights file")
        e.send({"type": "setoption", "name": "weights", "value": str(bad)})
        lines = e.sync()
        assert len(lines) == 1 and lines[0]["message"].startswith(f"setoption: {bad}: not a weights file")
    finally:
        e.close()
    with pytest.raises(TneError, match="not a value network weights file"):
        make_agent(f"mcts:evaluation=net,net={bad},iterations=10")
