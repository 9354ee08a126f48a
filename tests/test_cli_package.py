"""The command line is the package tne_ai/cli: its modules only parse, call the library and
print, so no function in it is longer than MAX_LINES; `python -m tne_ai` runs it as `tne`."""
import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / "tne_ai" / "cli"
MAX_LINES = 40
COMMANDS = ["analyse", "apply", "bench", "bestmove", "engine", "legal", "new", "play", "replay",
            "serve", "show", "tournament", "train"]


def long_functions(folder, most=MAX_LINES):
    """Every function (nested ones and methods too) in the .py files under ``folder`` longer
    than ``most`` lines, counted from its ``def`` line (its decorators, the click options,
    apart) to its last line: [(file:name, lines)] by file, then line."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > most:
                    found.append((path.name, node.lineno, node.name, lines))
    return [(f"{file}:{name}", lines) for file, _, name, lines in sorted(found)]


def test_no_function_of_the_cli_is_longer_than_40_lines():
    assert sorted(p.name for p in CLI.glob("*.py")) == [
        "__init__.py", "base.py", "games.py", "matches.py", "position.py", "search.py"]
    assert long_functions(CLI) == []


def _body(name, lines, indent=""):
    """A function of exactly ``lines`` lines: its def line and lines - 1 statements."""
    return [f"{indent}def {name}():"] + [f"{indent}    x = {i}" for i in range(lines - 1)]


def test_a_planted_long_function_is_found(tmp_path):
    # 40 lines fit; 41 do not, a method's as a function's; a nested function counts on its
    # own (42 lines) and inside the function that holds it (1 + 42 + 2 = 45 lines)
    source = (["@decorated", "@twice"] + _body("fits", 40)
              + ["class Shell:"] + _body("method", 41, "    ")
              + ["def outer():"] + _body("inner", 42, "    ") + ["    y = 1", "    return y"])
    (tmp_path / "planted.py").write_text("\n".join(source) + "\n")
    assert long_functions(tmp_path) == [("planted.py:method", 41), ("planted.py:outer", 45),
                                        ("planted.py:inner", 42)]


def test_python_m_tne_ai_is_the_tne_command():
    run = subprocess.run([sys.executable, "-m", "tne_ai", "--help"], capture_output=True,
                         text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "Usage: tne [OPTIONS] COMMAND [ARGS]..."
    listed = lines[lines.index("Commands:") + 1:]
    assert [line.split()[0] for line in listed] == COMMANDS
    bad = subprocess.run([sys.executable, "-m", "tne_ai", "nosuch"], capture_output=True,
                         text=True, cwd=ROOT, timeout=300)
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr == "tne: error: no such command 'nosuch' (see 'tne --help')\n"
