"""``tne bench --signature`` is a pinned regression fixture: the number below is the
signature of the default search (tne_ai.matches.bench.signature) as recorded when it was made.  A
change meant to be non-functional (a refactor, a faster kernel) must leave it unchanged; a
change of the search's behaviour changes it, and then the new value is pinned here with the
reason in the commit message."""
import json
import subprocess
import sys
from pathlib import Path

from tne_ai.matches.bench import signature, signature_positions
from tne_ai.core import state as S

PINNED = 245381164247565
CLI = str(Path(__file__).resolve().parent.parent / "cli.py")


def test_the_signature_of_the_default_search_is_pinned():
    value, details = signature()
    assert value == PINNED
    # the number is the nodes over all searches times 2^32 plus a 32-bit hash
    assert value >> 32 == sum(d["nodes"] for d in details)


def test_the_signature_positions_cover_every_table_size_and_a_conflict():
    positions = signature_positions()
    assert sorted({int(st[S.PLAYERS]) for st in positions}) == [2, 3, 4]
    assert int(positions[-1][S.PHASE]) in (S.PH_REVOLT, S.PH_WAR)
    assert all(int(st[S.PHASE]) != S.PH_OVER for st in positions)


def test_tne_bench_signature_prints_the_one_number():
    done = subprocess.run([sys.executable, CLI, "bench", "--signature"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(PINNED)
    as_json = subprocess.run([sys.executable, CLI, "bench", "--signature", "--json"],
                             capture_output=True, text=True)
    assert json.loads(as_json.stdout)["signature"] == PINNED
