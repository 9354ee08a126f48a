"""The public API is typed: mypy, with pyproject.toml's [tool.mypy] settings, finds no error in
the public modules it names, finds the errors of a user's file that misuses them, and the
package ships py.typed (PEP 561) so that a user's checker reads the annotations."""
import subprocess
import sys
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _mypy(tmp_path, *args):
    """python -m mypy from the project's root (pyproject.toml's settings), its cache in
    tmp_path; (exit status, what it printed)."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
                           "--no-color-output", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    return done.returncode, done.stdout + done.stderr


def test_the_public_modules_type_check(tmp_path):
    status, out = _mypy(tmp_path)
    assert status == 0, out
    assert "Success: no issues found in 11 source files" in out


# A user's file with two type errors against the public annotations: Agent.choose returns an
# action code (int), and PlayResult.code is an int, which has no upper().
PLANTED = '''\
from tne_ai import Position, make_agent
from tne_ai.api import Limit, play

p = Position.new(players=2, seed=1)
code: int = make_agent("random").choose(p)
text: str = make_agent("greedy").choose(p)
print(play(p, Limit(iterations=10)).code.upper())
'''


def test_a_users_type_errors_are_found(tmp_path):
    user = tmp_path / "user.py"
    user.write_text(PLANTED, encoding="utf-8")
    status, out = _mypy(tmp_path, str(user))
    assert status == 1, out
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert [line.split(":")[1] for line in errors] == ["6", "7"], out
    assert 'Incompatible types in assignment (expression has type "int", variable has type ' \
           '"str")' in errors[0]
    assert '"int" has no attribute "upper"' in errors[1]
    assert "Found 2 errors in 1 file" in out


def test_the_package_says_it_is_typed():
    assert resources.files("tne_ai").joinpath("py.typed").is_file()
