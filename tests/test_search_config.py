"""SearchConfig: one name and one bound per search option, the old names as aliases, the
mcts: spec in and out, checked changes, and search(config=...) equal to its keywords."""
import dataclasses
import doctest

import pytest

from tne_ai import limits as L
from tne_ai.agents.builtin import _OPTIONS
from tne_ai.errors import TneError
from tne_ai.position import Position
from tne_ai.search import config as C
from tne_ai.search.config import EVALUATION_DEFAULTS, SearchConfig, SearchConfigError, options
from tne_ai.search.session import Search, search


def test_the_module_examples_run():
    assert doctest.testmod(C).failed == 0


def test_every_option_has_one_row_and_the_fields_are_the_rows():
    names = [row.name for row in options()]
    assert names == [f.name for f in dataclasses.fields(SearchConfig)]
    aliases = [a for row in options() for a in row.aliases]
    assert len(set(names + aliases)) == len(names) + len(aliases)   # no name used twice
    for row in options():
        assert getattr(SearchConfig(), row.name) == row.default
        assert row.help and row.type in ("int", "float", "bool", "choice", "path")


def test_the_old_names_are_aliases_of_one_canonical_name_each():
    old = {"eval": "evaluation", "wexp": "widen_exp", "margin": "commit_margin",
           "rollout_depth": "rollout", "leader_value": "leader", "settle_leaves": "settle",
           "seconds": "time"}
    for alias, name in old.items():
        assert C.canonical(alias) == name
    cfg = SearchConfig.from_spec("mcts:eval=basic,wexp=0.25,margin=0.1")
    assert (cfg.evaluation, cfg.widen_exp, cfg.commit_margin) == ("basic", 0.25, 0.1)
    assert SearchConfig().replace(eval="basic", margin=0.1) == \
        SearchConfig(evaluation="basic", commit_margin=0.1)


def test_every_option_the_mcts_agent_spec_takes_is_accepted():
    values = {"seed": "3", "iterations": "5000", "time": "0.2", "threads": "2", "c": "0.7",
              "rollout": "-1", "leader": "0.5", "eval": "basic", "prior": "none", "widen": "2",
              "wexp": "0.6", "settle": "1", "weights": "w.npz", "margin": "0.05", "reuse": "0",
              "endings": "0", "open_losing": "0.03", "norm": "1", "net": "v.npz",
              "policy": "p.npz", "belief": "1"}
    # the agent spec takes every option of the config (these by their older names, plus the
    # tree's capacity and batch)
    assert {C.canonical(k) for k in values} | {"capacity", "batch"} == set(_OPTIONS["mcts"])
    spec = "mcts:" + ",".join(f"{k}={v}" for k, v in values.items())
    cfg = SearchConfig.from_spec(spec)
    from tne_ai.agents.builtin import parse_spec
    assert SearchConfig(**parse_spec(spec)[1]) == cfg
    assert cfg == SearchConfig(seed=3, iterations=5000, time=0.2, threads=2, c=0.7, rollout=-1,
                               leader=0.5, evaluation="basic", prior="none", widen=2.0,
                               widen_exp=0.6, settle=True, weights="w.npz",
                               commit_margin=0.05, reuse=False, endings=False, open_losing=0.03,
                               norm=True, net="v.npz", policy="p.npz", belief=True)
    assert SearchConfig.from_spec(cfg.to_spec()) == cfg
    assert SearchConfig.from_spec("mcts") == SearchConfig() == SearchConfig.from_spec("mcts:")
    assert SearchConfig().to_spec() == "mcts:"


# each numeric option's bounds, read from tne_ai/limits.py and the rule text of SPEC/DESIGN
BOUNDS = {"c": (0.0, L.MAX_EXPLORATION, True),
          "widen": (0.0, L.MAX_WIDEN, False),
          "widen_exp": (0.0, L.MAX_WIDEN_EXP, False), "commit_margin": (0.0, 1.0, False),
          "rollout": (-1, L.MAX_PLIES, False), "open_losing": (0.0, 1.0, False),
          "leader": (-L.MAX_LEADER_VALUE, L.MAX_LEADER_VALUE, False),
          "threads": (1, L.MAX_THREADS, False), "capacity": (2, L.MAX_NODES, False),
          "batch": (1, L.MAX_BATCH, False), "iterations": (1, L.MAX_ITERATIONS, False),
          "time": (0.0, L.MAX_SECONDS, True), "seed": (0, L.MAX_SEED, False)}


@pytest.mark.parametrize("name", list(BOUNDS))
def test_each_number_option_is_bounded_with_one_line_at_both_ends(name):
    lo, hi, lo_open = BOUNDS[name]
    row = {r.name: r for r in options()}[name]
    assert (row.low, row.high, row.low_open) == (lo, hi, lo_open)
    step = 1 if row.type == "int" else 0.5
    assert getattr(SearchConfig().replace(**{name: hi}), name) == hi
    if not lo_open:
        assert getattr(SearchConfig().replace(**{name: lo}), name) == lo
    for bad in ((lo if lo_open else lo - step), hi + step):
        with pytest.raises(SearchConfigError, match=rf"^option {name}=\S+ is out of range") as e:
            SearchConfig().replace(**{name: bad})
        assert "\n" not in str(e.value)
        text = str(int(bad)) if row.type == "int" else repr(float(bad))
        with pytest.raises(SearchConfigError, match=rf"^option {name}=\S+ in spec .* is out of range"):
            SearchConfig.from_spec(f"mcts:{name}={text}")


@pytest.mark.parametrize("spec, words", [
    ("mcts:foo=1", "unknown option 'foo' for mcts"),
    ("mcts:halving=32", "unknown option 'halving' for mcts"),      # dropped options
    ("mcts:select=puct", "unknown option 'select' for mcts"),
    ("mcts:c=abc", "is not a valid float"),
    ("mcts:c=nan", "is not a valid float"),
    ("mcts:threads=1.5", "is not a valid int"),
    ("mcts:settle=2", "expected true or false"),
    ("mcts:eval=deep", "use one of model, net, basic"),
    ("mcts:prior=visits", "use one of policy, kinds, none"),
    ("mcts:prior=", "needs a value"),
    ("mcts:c", "needs a value"),
    ("greedy:seed=1", "not an mcts spec"),
])
def test_bad_specs_get_one_line_naming_the_option(spec, words):
    with pytest.raises(SearchConfigError, match=words) as e:
        SearchConfig.from_spec(spec)
    assert isinstance(e.value, TneError) and "\n" not in str(e.value)


def test_replace_checks_types_and_names():
    for kw, words in (({"threads": 1.0}, "expected an integer"), ({"c": "0.5"}, "expected a number"),
                      ({"c": float("inf")}, "finite"), ({"settle": 2}, "true or false"),
                      ({"evaluation": "deep"}, "use one of"), ({"depth": 3}, "unknown search option"),
                      ({"threads": True}, "expected an integer"), ({"margin": 0.1, "commit_margin": 0.2}, "twice")):
        with pytest.raises(SearchConfigError, match=words):
            SearchConfig().replace(**kw)
    with pytest.raises(SearchConfigError, match="out of range"):
        SearchConfig(threads=65)
    cfg = SearchConfig(c=1)
    assert cfg.c == 1.0 and isinstance(cfg.c, float)
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.c = 2.0


def test_resolved_fills_the_evaluations_own_options_and_keeps_the_given_ones():
    for evaluation, own in EVALUATION_DEFAULTS.items():
        r = SearchConfig(evaluation=evaluation).resolved()
        assert {k: getattr(r, k) for k in own} == own
        assert r.leader == 0.0
    r = SearchConfig(evaluation="basic", c=2.0, settle=True).resolved()
    assert (r.c, r.settle, r.widen) == (2.0, True, 0.0)


def test_the_hand_belief_is_on_for_2_and_3_players_and_off_for_4_by_default():
    # DESIGN "Data flows one way": the default search (the value network) deals the other
    # hands by the hand belief with 2 and 3 players and uniformly with 4; the linear search
    # and the basic evaluation deal uniformly; a value given is kept for every count
    for players, on in ((2, True), (3, True), (4, False)):
        assert Search(Position.new(players, seed=1)).config.belief is on
        assert SearchConfig(evaluation="model").resolved(players).belief is False
        assert SearchConfig(evaluation="basic").resolved(players).belief is False
        assert SearchConfig(belief=True).resolved(players).belief is True
        assert SearchConfig(belief=False).resolved(players).belief is False


def test_normalised_ucb_is_on_for_2_and_3_players_and_off_for_4_by_default():
    # DESIGN "Normalised UCB": on by default with the fitted evaluation for 2 and 3 players,
    # off for 4; a value given is kept for every count, the basic evaluation never has it
    for players, on in ((2, True), (3, True), (4, False)):
        assert Search(Position.new(players, seed=1)).config.norm is on
        assert SearchConfig().resolved(players).norm is on
        assert Search(Position.new(players, seed=1), SearchConfig(norm=True)).config.norm is True
        assert Search(Position.new(players, seed=1), SearchConfig(norm=False)).config.norm is False
        assert SearchConfig(evaluation="basic").resolved(players).norm is False
    st = Position.new(4, seed=6).st
    assert search(st, iterations=400, seed=2).alternatives == \
        search(st, iterations=400, seed=2, config=SearchConfig(norm=False)).alternatives
    assert search(st, iterations=400, seed=2).alternatives != \
        search(st, iterations=400, seed=2, config=SearchConfig(norm=True)).alternatives


def test_search_with_a_config_equals_search_with_its_keywords():
    st = Position.new(2, seed=4).st
    by_keywords = search(st, iterations=300, seed=5, evaluation="basic", prior="none", widen=0,
                         c=0.9, rollout_depth=2)
    cfg = SearchConfig.from_spec("mcts:iterations=300,seed=5,eval=basic,prior=none,widen=0,c=0.9,rollout=2")
    by_config = search(st, config=cfg)
    assert (by_config.move, by_config.alternatives) == (by_keywords.move, by_keywords.alternatives)
    # a keyword beats the config's option
    other = search(st, config=cfg, c=0.7)
    assert other.alternatives == search(st, iterations=300, seed=5, evaluation="basic", prior="none",
                                        widen=0, c=0.7, rollout_depth=2).alternatives
    with pytest.raises(SearchConfigError, match="threads=0 is out of range"):
        search(st, iterations=10, threads=0)
