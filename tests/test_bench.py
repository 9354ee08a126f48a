"""`tne bench --quick --json` as a smoke test: the structure of the report, no speed asserted."""
import json

from click.testing import CliRunner

from tne_ai.cli import main

FIGURES = ["random_games_per_s", "actions_per_s", "movegen_start_per_s", "movegen_mid_per_s",
           "movegen_late_per_s", "flood_fills_per_s", "ismcts_start_1t_per_s", "ismcts_start_2t_per_s",
           "ismcts_mid_1t_per_s", "ismcts_mid_2t_per_s", "ismcts_full_rollout_start_1t_per_s",
           "memory_per_node", "bestmove_first_answer_s",
           # the learning environments (tne_ai.matches.bench.measure_env_steps; open_spiel is installed
           # with the test extras, so the OpenSpiel figure is there too)
           "env_vec_steps_per_cpu_s", "env_single_steps_per_cpu_s",
           "env_openspiel_steps_per_cpu_s"]


def test_bench_quick_json(tmp_path):
    saved = tmp_path / "run.json"
    result = CliRunner().invoke(main, ["bench", "--quick", "--json", "--save", str(saved)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["quick"] is True
    assert {"python", "numba", "numpy", "commit", "cpus"} <= set(report["machine"])
    for name in FIGURES:
        figure = report["figures"][name]
        assert figure["min"] <= figure["median"] <= figure["max"], name
        assert figure["median"] > 0 and figure["unit"], name
    for name in FIGURES[-3:]:
        assert report["figures"][name]["unit"] == "steps/s", name
    assert "compile_cold_s" not in report["figures"]  # the full run only
    assert json.loads(saved.read_text()) == report
    # --compare reads the saved run back and prints a ratio column
    compared = CliRunner().invoke(main, ["bench", "--quick", "--compare", str(saved)])
    assert compared.exit_code == 0 and "ratio" in compared.stdout


def test_bench_compare_with_a_bad_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    result = CliRunner().invoke(main, ["bench", "--quick", "--compare", str(bad)])
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("tne: error:") and "figures" in result.stderr
