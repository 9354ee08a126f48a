"""Tournaments (tne_ai.matches.tournament and `tne tournament` / `tne replay`).

Tiny budgets only: random, greedy and mcts:iterations=10 agents, one or two deals.  Expected
outcomes come from the schedule's definition (every rotation of every table), from the rules
(a finished game's ranking, the truncation rule) and from the CLI contract, never from a
previous run's output.
"""
import json
import math
import sys
from collections import Counter

import pytest
from click.testing import CliRunner

from tne_ai.cli import main
from helpers import assert_user_error
from tne_ai.core.formats import game_result, load_game_record
from tne_ai.matches.ratings import sprt_llr
from tne_ai.matches.tournament import (ScheduledGame, TournamentError, game_task, make_tables, play_game,
                               replay, result_text, run_tournament, schedule)

TRIO = {"r": "random", "g": "greedy", "m": "mcts:iterations=10"}
PAIR = {"r": "random", "g": "greedy"}


def without_timings(records):
    """Records keyed by game id, with the wall-clock timings (the only non-reproducible
    field) removed."""
    out = {}
    for rec in records:
        rec = json.loads(json.dumps(rec))
        del rec["meta"]["seconds_per_move"]
        out[rec["meta"]["game_id"]] = rec
    return out


def read_lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# --- schedule -----------------------------------------------------------------------------

def seat_counts(plan):
    counts = Counter()
    for g in plan:
        for seat, agent in enumerate(g.seats):
            counts[agent, seat] += 1
    return counts


def test_default_tables_are_every_combination_of_distinct_agents():
    assert make_tables(TRIO) == [("r", "g"), ("r", "m"), ("g", "m")]
    assert make_tables(TRIO, players=3) == [("r", "g", "m")]
    four = dict(TRIO, x="random")
    assert len(make_tables(four, players=3)) == 4  # C(4, 3)


@pytest.mark.parametrize("agents, tables, players", [
    (TRIO, None, 2),  # 3 tables, each agent at 2 of them
    (dict(TRIO, x="random"), None, 3),  # 4 tables of 3 seats
    (PAIR, [("g", "r", "r", "r")], None),  # one greedy against three randoms
    (TRIO, [("m", "g"), ("g", "r", "m")], None),  # mixed table sizes
])
def test_schedules_are_balanced(agents, tables, players):
    tables = make_tables(agents, tables, players)
    games = 3
    plan = schedule(tables, games, seed=5)
    # every table plays every deal in each of its n rotations
    assert len(plan) == games * sum(len(t) for t in tables)
    assert len({g.game_id for g in plan}) == len(plan)
    for a in agents:
        # an agent sitting k times at a table holds each of its seats k times per deal
        for n in {len(t) for t in tables}:
            expected = games * sum(t.count(a) for t in tables if len(t) == n)
            per_seat = [sum(1 for g in plan if len(g.seats) == n and g.seats[s] == a)
                        for s in range(n)]
            assert per_seat == [expected] * n, (a, n, per_seat)
    if players == 2 and tables == make_tables(TRIO):
        # by hand: 3 tables, each agent at 2 of them, 3 deals, 2 rotations: 6 games per seat
        assert all(seat_counts(plan)[a, s] == 6 for a in agents for s in (0, 1))


def test_rotations_are_cyclic_and_share_the_deal():
    plan = schedule([("a", "b", "c")], 2, seed=0)
    assert [g.game_id for g in plan] == ["t0-d0-r0", "t0-d0-r1", "t0-d0-r2",
                                         "t0-d1-r0", "t0-d1-r1", "t0-d1-r2"]
    assert [g.seats for g in plan[:3]] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    # one bag per deal, the same in all its rotations; another bag for the next deal
    assert len({g.deal_seed for g in plan[:3]}) == 1 and plan[0].deal_seed != plan[3].deal_seed
    # agents get a seed per game and seat
    assert len({s for g in plan for s in g.agent_seeds}) == 3 * 6
    # the schedule depends on the seed, and only on it
    assert schedule([("a", "b", "c")], 2, seed=0) == plan
    assert schedule([("a", "b", "c")], 2, seed=1)[0].deal_seed != plan[0].deal_seed


def test_the_schedule_runs_deal_by_deal_across_tables():
    plan = schedule([("a", "b"), ("a", "c")], 2, seed=0)
    assert [g.game_id for g in plan] == ["t0-d0-r0", "t0-d0-r1", "t1-d0-r0", "t1-d0-r1",
                                         "t0-d1-r0", "t0-d1-r1", "t1-d1-r0", "t1-d1-r1"]


# --- records ------------------------------------------------------------------------------

def test_records_are_game_records_with_the_meta_fields(tmp_path):
    out = tmp_path / "games.jsonl"
    result = run_tournament(TRIO, players=3, games=1, seed=2, out=str(out))
    lines = read_lines(out)
    assert len(lines) == 3 == len(result.records)
    for rec, g in zip(lines, schedule([("r", "g", "m")], 1, 2)):
        load_game_record(rec)  # a valid tne-game/1 record
        meta = rec["meta"]
        assert meta["game_id"] == g.game_id
        assert [a["name"] for a in meta["agents"]] == list(g.seats)
        assert [a["spec"] for a in meta["agents"]] == [TRIO[a] for a in g.seats]
        assert meta["seed"] == 2 and meta["deal_seed"] == g.deal_seed
        assert meta["agent_seeds"] == list(g.agent_seeds)
        assert meta["truncated"] is False and meta["plies"] == len(rec["moves"])
        spm = meta["seconds_per_move"]
        assert len(spm) == 3 and sum(s["moves"] for s in spm) == len(rec["moves"])
        assert all(0 <= s["mean"] <= s["max"] for s in spm)
        assert isinstance(rec["start"]["bag"], str)


def test_the_same_seed_gives_the_same_records_and_another_seed_others(tmp_path):
    a = run_tournament(TRIO, games=1, seed=7, out=str(tmp_path / "a.jsonl"))
    b = run_tournament(TRIO, games=1, seed=7, jobs=2, out=str(tmp_path / "b.jsonl"))
    c = run_tournament(TRIO, games=1, seed=8)
    assert without_timings(a.records) == without_timings(b.records)
    # what was written is what was returned (file order may differ with two jobs)
    assert without_timings(read_lines(tmp_path / "b.jsonl")) == without_timings(a.records)
    assert without_timings(c.records).keys() == without_timings(a.records).keys()
    assert without_timings(c.records) != without_timings(a.records)
    assert [s.to_dict() for s in a.standings] == [s.to_dict() for s in b.standings]


def test_a_single_game_replays_alone():
    result = run_tournament(PAIR, games=1, seed=3)
    plan = schedule(make_tables(PAIR), 1, 3)
    alone = play_game(game_task(plan[1], PAIR, 3, 2000))
    assert without_timings([alone]) == without_timings([result.records[1]])


def test_an_interrupted_run_resumes_to_the_same_records(tmp_path):
    full = run_tournament(TRIO, games=1, seed=4)
    out = tmp_path / "games.jsonl"

    def stop_after_three(done, total):
        assert total == 6
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(TRIO, games=1, seed=4, out=str(out), progress=stop_after_three)
    assert len(read_lines(out)) == 3  # every finished game was written
    with pytest.raises(TournamentError, match="exists"):  # not overwritten without resume
        run_tournament(TRIO, games=1, seed=4, out=str(out))
    seen = []
    resumed = run_tournament(TRIO, games=1, seed=4, out=str(out), resume=True,
                             progress=lambda done, total: seen.append(done))
    assert resumed.resumed == 3 and resumed.played == 3 and seen == [3, 4, 5, 6]
    assert without_timings(read_lines(out)) == without_timings(full.records)
    assert without_timings(resumed.records) == without_timings(full.records)
    # resuming a finished file plays nothing
    again = run_tournament(TRIO, games=1, seed=4, out=str(out), resume=True)
    assert again.played == 0 and len(read_lines(out)) == 6


def test_resume_refuses_a_file_of_another_tournament(tmp_path):
    out = tmp_path / "games.jsonl"
    run_tournament(PAIR, games=1, seed=1, out=str(out))
    with pytest.raises(TournamentError, match="line 1: game t0-d0-r0 was played by"):
        run_tournament(PAIR, games=1, seed=2, out=str(out), resume=True)
    with pytest.raises(TournamentError, match="line 1"):
        run_tournament({"r": "random", "g": "greedy:seed=1"}, games=1, seed=1, out=str(out),
                       resume=True)


def test_replayed_records_reproduce_every_final_ranking(tmp_path):
    result = run_tournament(TRIO, players=3, games=1, seed=6)
    result2 = run_tournament(PAIR, tables=[("g", "r", "r", "r")], games=1, seed=6)
    for rec in result.records + result2.records:
        pos = replay(rec)
        assert pos.is_over()  # every game ran to its end under the default move limit
        assert pos.ranking() == rec["result"]["ranking"]
        assert [row[0] for row in pos.final_scores()] == [f[0] for f in rec["result"]["final"]]
        assert pos.scores == rec["result"]["scores"]
        assert sorted(pos.ranking())[0] == 1


def test_the_move_limit_cuts_games_and_scores_them_as_they_stand():
    result = run_tournament(PAIR, games=1, seed=1, max_moves=30)
    assert result.truncated == 2
    for rec in result.records:
        assert rec["meta"]["truncated"] is True and len(rec["moves"]) == 30
        pos = replay(rec)
        assert not pos.is_over()
        # the result is the ranking of the scores at the cut
        assert rec["result"] == game_result(pos.scores)
        assert pos.ranking() == rec["result"]["ranking"]
    assert [s.truncated for s in result.standings] == [2, 2]
    # the same position after 30 moves whatever the limit: cutting does not change the play
    longer = run_tournament(PAIR, games=1, seed=1, max_moves=40)
    for short, long_ in zip(result.records, longer.records):
        assert long_["moves"][:30] == short["moves"]


def test_standings_count_seats_wins_and_shared_places():
    result = run_tournament(PAIR, tables=[("g", "r", "r")], games=1, seed=3)
    by_name = {s.name: s for s in result.standings}
    # three games; greedy holds one seat, random two in each
    assert by_name["g"].games == 3 and by_name["r"].games == 6
    for name, s in by_name.items():
        places = [p for rec in result.records
                  for a, p in zip(rec["meta"]["agents"], rec["result"]["ranking"])
                  if a["name"] == name]
        shared = [p for rec in result.records
                  for a, p in zip(rec["meta"]["agents"], rec["result"]["ranking"])
                  if a["name"] == name and p == 1 and rec["result"]["ranking"].count(1) > 1]
        assert s.rank_sum == sum(places)
        assert s.wins + s.shared == places.count(1) and s.shared == len(shared)
    assert result.standings[1].multiplayer is not None  # a 3-seat table: Plackett-Luce too


def test_sprt_stops_at_the_first_deal_where_the_llr_crosses_a_bound(tmp_path):
    # elo0 = 0, elo1 = 200 (greedy, the second agent, against random).  Each deal is one
    # sample: greedy's score over its two rotations (win 1, shared place 1/2), halved.  The
    # LLR of the samples so far (sprt_llr, checked by hand in test_ratings) is compared with
    # the bounds +-ln 19 after each deal, in schedule order: the run stops at the first
    # crossing and reports only the deals up to it.
    out = tmp_path / "g.jsonl"
    result = run_tournament({"r": "random", "g": "greedy"}, games=30, seed=0, sprt=(0, 200),
                            out=str(out))
    records = {rec["meta"]["game_id"]: rec for rec in read_lines(out)}
    samples, stop, llr = [], None, None
    for d in range(30):
        score = 0.0
        for r in range(2):
            rec = records[f"t0-d{d}-r{r}"]
            names = [a["name"] for a in rec["meta"]["agents"]]
            places = rec["result"]["ranking"]
            mine, theirs = places[names.index("g")], places[names.index("r")]
            score += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
        samples.append(score / 2)
        llr = sprt_llr(samples, 0, 200)
        if abs(llr) >= math.log(19):
            stop = d + 1
            break
    assert stop is not None and stop < 30
    assert result.sprt.decision == ("H1" if llr > 0 else "H0")
    assert len(result.sprt.samples) == stop and result.sprt.llr == pytest.approx(llr)
    assert len(result.records) == 2 * stop and len(records) == 2 * stop  # one job: no extra
    assert result.sprt.decision == "H1"  # greedy is far stronger than random
    # the text names the agent the test is of (the second) and the one it is against
    last = result_text(result).splitlines()[-1]
    assert last.startswith("sprt elo0=0 elo1=200 (alpha=beta=0.05), g against r: LLR ")
    assert last.endswith(f"after {stop} deal(s): H1 accepted (elo >= 200)")


def test_sprt_needs_exactly_two_agents():
    with pytest.raises(TournamentError, match="two agents"):
        run_tournament(TRIO, games=1, sprt=(0, 5))


def test_ray_backend_gives_the_same_records_as_local():
    import ray  # without the ray extra this test fails here: it is never skipped
    assert not ray.is_initialized()  # run_tournament starts (and stops) a local Ray
    local = run_tournament(TRIO, games=1, seed=9)
    remote = run_tournament(TRIO, games=1, seed=9, jobs=2, backend="ray")
    assert without_timings(remote.records) == without_timings(local.records)
    assert [s.to_dict() for s in remote.standings] == [s.to_dict() for s in local.standings]


# --- CLI ----------------------------------------------------------------------------------

def test_cli_tournament_prints_the_standings_as_json(tmp_path):
    out = tmp_path / "g.jsonl"
    result = run("tournament", "--agent", "r=random", "--agent", "g=greedy", "--games", 1,
                 "--seed", 3, "--out", out, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 2 and len(read_lines(out)) == 2
    assert [s["agent"] for s in data["standings"]] == ["r", "g"]
    assert [s["games"] for s in data["standings"]] == [2, 2]
    assert data["standings"][0]["elo"] == {"elo": 0.0, "low": 0.0, "high": 0.0}
    text = run("tournament", "--agent", "r=random", "--agent", "g=greedy", "--games", 1,
               "--seed", 3)
    assert text.exit_code == 0 and "(reference)" in text.stdout


def test_cli_replay_prints_any_moment(tmp_path):
    out = tmp_path / "g.jsonl"
    assert run("tournament", "--agent", "r=random", "--agent", "g=greedy", "--games", 1,
               "--out", out).exit_code == 0
    second = read_lines(out)[1]
    gid = second["meta"]["game_id"]
    result = run("replay", out, "--game", gid, "--ply", 3, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == replay(second, 3).to_json()
    # the position after three moves of the record: replaying them by hand gives it too
    from tne_ai.position import Position
    pos = Position.from_json(second["start"])
    for m in second["moves"][:3]:
        pos.push(m)
    assert json.loads(result.stdout) == pos.to_json()
    text = run("replay", out)
    assert text.exit_code == 0 and "game t0-d0-r0" in text.stdout
    assert_user_error(run("replay", out, "--game", "t9-d9-r9"), "no game with id 't9-d9-r9'")
    assert_user_error(run("replay", out, "--ply", 10000), "ply 10000")


@pytest.mark.parametrize("args, fragments", [
    (["--agent", "r=random", "--agent", "x=alphazero"], ["unknown agent 'alphazero'"]),
    (["--agent", "r=random", "--agent", "g=mcts:depth=2"], ["unknown option 'depth'"]),
    (["--agent", "r=random", "--agent", "greedy"], ["--agent 'greedy'", "NAME=SPEC"]),
    (["--agent", "r=random", "--agent", "g=greedy", "--table", "r,zz"], ["unknown agent 'zz'"]),
    (["--agent", "r=random", "--agent", "g=greedy", "--table", "r,g,g", "--players", "2"],
     ["seats 3 players"]),
    (["--agent", "r=random", "--agent", "g=greedy", "--agent", "m=random", "--sprt", "0,5"],
     ["two agents"]),
    (["--agent", "r=random", "--agent", "g=greedy", "--sprt", "five"], ["--sprt 'five'"]),
    (["--agent", "r=random", "--agent", "g=greedy", "--players", "3"], ["3-player table"]),
])
def test_cli_errors_are_one_line_with_status_2(tmp_path, args, fragments):
    out = tmp_path / "never.jsonl"
    assert_user_error(run("tournament", *args, "--games", 1, "--out", out), *fragments)
    assert not out.exists()  # nothing written on failure


def test_cli_unknown_option_is_one_error_line():
    # click's usage errors are one line too (cli.py): status 2, the option named
    result = run("tournament", "--agent", "r=random", "--agent", "g=greedy", "--frobnicate")
    assert_user_error(result, "no such option '--frobnicate'")


def test_cli_refuses_an_existing_or_unwritable_records_file(tmp_path):
    out = tmp_path / "g.jsonl"
    out.write_text("")
    assert_user_error(run("tournament", "--agent", "r=random", "--agent", "g=greedy", "--out", out),
                      "exists", "--resume")
    missing = tmp_path / "no" / "such" / "g.jsonl"
    assert_user_error(run("tournament", "--agent", "r=random", "--agent", "g=greedy",
                          "--out", missing), "cannot write")
    assert not missing.parent.exists()


def test_cli_resume_needs_the_records_file():
    assert_user_error(run("tournament", "--agent", "r=random", "--agent", "g=greedy", "--resume"),
                      "--out")


def test_cli_resume_reports_a_corrupt_line_with_its_number(tmp_path):
    out = tmp_path / "g.jsonl"
    assert run("tournament", "--agent", "r=random", "--agent", "g=greedy", "--games", 2,
               "--out", out).exit_code == 0
    lines = out.read_text().splitlines()
    out.write_text("\n".join(lines[:2] + [lines[2][:50]]) + "\n")  # a game cut mid-write
    before = out.read_text()
    result = run("tournament", "--agent", "r=random", "--agent", "g=greedy", "--games", 2,
                 "--out", out, "--resume")
    assert_user_error(result, "line 3", "not valid JSON")
    assert out.read_text() == before
    # a line that is JSON but not a game record
    out.write_text("\n".join(lines[:1] + ['{"format": "tne-game/1"}']) + "\n")
    result = run("tournament", "--agent", "r=random", "--agent", "g=greedy", "--games", 2,
                 "--out", out, "--resume")
    assert_user_error(result, "line 2")
    # replay says the same
    assert_user_error(run("replay", out, "--game", "t0-d1-r1"), "line 2")


def test_cli_ray_backend_without_ray_gives_the_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    result = run("tournament", "--agent", "r=random", "--agent", "g=greedy", "--games", 1,
                 "--backend", "ray")
    assert_user_error(result, 'pip install "tne-ai[ray]"')


def test_scheduled_game_ids_are_unique_across_tables():
    plan = schedule(make_tables(dict(TRIO, x="greedy"), players=2), 2, seed=0)
    assert isinstance(plan[0], ScheduledGame)
    assert len({g.game_id for g in plan}) == len(plan) == 6 * 2 * 2


def test_visits_flag_keeps_each_searched_moves_root_visits_and_values(tmp_path):
    """--visits: the mcts seat's moves carry [move, visits] pairs summing to its budget of 30
    iterations when searched (reuse off: no inherited visits) and both seats' win chances
    at the root, None for both when forced; the greedy seat searches nothing (None
    everywhere).  Without the flag neither field is there."""
    out = tmp_path / "v.jsonl"
    args = ["tournament", "--agent", "m=mcts:iterations=30,reuse=0,endings=0", "--agent", "g=greedy",
            "--games", "1", "--seed", "3"]
    r = CliRunner().invoke(main, args + ["--visits", "--out", str(out)])
    assert r.exit_code == 0, r.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    from tne_ai.position import Position
    searched = 0
    for record in records:
        names = [a["name"] for a in record["meta"]["agents"]]
        pos = Position.from_json(record["start"])
        assert len(record["meta"]["visits"]) == len(record["moves"])
        assert len(record["meta"]["values"]) == len(record["moves"])
        for entry, value, move in zip(record["meta"]["visits"], record["meta"]["values"],
                                      record["moves"]):
            forced = len(pos.legal_moves()) == 1
            if names[pos.to_act] == "g" or forced:
                assert entry is None and value is None
            else:
                assert sum(v for _, v in entry) == 30
                # both seats' win chances at the root, to 4 decimals: they sum to 1
                assert len(value) == 2 and all(0 <= w <= 1 for w in value)
                assert sum(value) == pytest.approx(1.0, abs=2e-4)
                searched += 1
            pos.push(move)
    assert searched > 0
    plain = tmp_path / "p.jsonl"
    assert CliRunner().invoke(main, args + ["--out", str(plain)]).exit_code == 0
    assert all("visits" not in json.loads(line)["meta"] and "values" not in json.loads(line)["meta"]
               for line in plain.read_text().splitlines())
