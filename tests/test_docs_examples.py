"""Every example in README.md and the documentation pages (docs/*.md) runs and prints what the
page shows.

The fenced blocks of a page are read by their language tag:

- ```console: each line starting with ``$ `` is a shell command (a line ending in ``\\``
  goes on to the next), run by bash from a copy of the repository root (a fresh folder whose
  examples/, tests/, bench/, docs/ and seeds/ are the repository's own, so the files a command
  writes land in that folder), with the virtual environment's ``tne`` first on PATH.  The
  lines after it, up to the next command, are what it prints, standard output and standard
  error together, followed by ``exit status N`` when it exits with a status other than 0.
- ```python: a doctest session (``>>>`` lines and what they print), run in the same folder;
  the sessions of one page share their names, as a reader's interpreter would.
- ``text``, ``sh`` and ``json`` blocks are not run: file layouts, install commands,
  transcripts of interactive sessions, commands that take long.  A block without a tag, or
  with another one, is an error, so every block says whether it is run.

The blocks of one page run in order, in one folder.  In shown output ``...`` stands for any
text (doctest's ELLIPSIS): figures that depend on the clock, such as seconds taken, and long
listings cut short; trailing spaces are not compared.  Every other character is compared.

docs/DESIGN.md and docs/SPEC.md are read too; their untagged blocks are layouts and tables,
which are not run.
"""
import doctest
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["README.md"] + sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))
# pages whose untagged blocks are allowed (not the docs helper's to edit): never run
UNTAGGED_OK = {"docs/DESIGN.md", "docs/SPEC.md"}
RUN_TAGS = {"console", "python"}
# blocks shown and not run; a tag outside both sets (a misspelt "consle") is an error
SHOWN_TAGS = {"text", "sh", "json"}
# The number of examples run (console commands and doctest examples) is at least this, so a
# change to the parser that stops reading blocks cannot pass by checking nothing.
MIN_EXAMPLES = 150
LINKED = ["examples", "tests", "bench", "docs", "seeds"]

FENCE = re.compile(r"^(\s*)(`{3,})(.*)$")


def blocks(page):
    """(line number, tag, text) of each fenced block of a page, its indentation removed."""
    out = []
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, ticks, tag = len(m.group(1)), m.group(2), m.group(3).strip()
        start = i + 1
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(ticks):
            # a block indented under a list item: its lines lose that indentation
            line = lines[i]
            body.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
            i += 1
        out.append((start, tag, "\n".join(body)))
        i += 1
    return out


def commands(text):
    """(command, expected output) pairs of a console block."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise AssertionError(f"console block: line {lines[i]!r} is neither a command nor "
                                 "the output of one")
        cmd = lines[i][2:]
        while cmd.endswith("\\"):
            i += 1
            cmd = cmd + "\n" + lines[i]
        i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i])
            i += 1
        out.append((cmd, "\n".join(expected)))
    return out


def doctests(page, line, text):
    return doctest.DocTestParser().get_examples(text, f"{page}:{line}")


def count_examples(page):
    n = 0
    for line, tag, text in blocks(page):
        if tag == "console":
            n += len(commands(text))
        elif tag == "python":
            n += len(doctests(page, line, text))
    return n


def matches(expected, actual):
    """Whether actual output is the expected one, ``...`` standing for any text."""
    norm = lambda s: "\n".join(l.rstrip() for l in s.strip("\n").split("\n"))
    expected, actual = norm(expected), norm(actual)
    pattern = ".*?".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual, re.DOTALL) is not None


def workdir(tmp_path):
    for name in LINKED:
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    return tmp_path


def shell_env():
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.pop("TNE_FUZZ_EXAMPLES", None)
    env["COLUMNS"] = "80"  # click wraps --help to the terminal's width
    return env


def test_every_block_is_tagged_and_examples_are_many():
    untagged = [f"{page}:{line} {tag!r}" for page in PAGES if page not in UNTAGGED_OK
                for line, tag, _ in blocks(page) if tag not in RUN_TAGS | SHOWN_TAGS]
    assert untagged == []
    # a python block is a doctest session: one without an example would check nothing
    empty = [f"{page}:{line}" for page in PAGES for line, tag, text in blocks(page)
             if tag == "python" and not doctests(page, line, text)]
    assert empty == []
    assert sum(count_examples(p) for p in PAGES) >= MIN_EXAMPLES
    # the console examples run `tne` from the virtual environment that runs the tests
    assert (Path(sys.executable).parent / "tne").exists()


@pytest.fixture(scope="module")
def compiled():
    """The first run of `tne` in a fresh checkout compiles the kernels and says so on stderr;
    the pages show later runs, so the kernels are compiled (or found cached) first."""
    tne = str(Path(sys.executable).parent / "tne")
    subprocess.run([tne, "legal", "examples/start.json"], cwd=ROOT, env=shell_env(),
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=600, check=True)


@pytest.mark.parametrize("page", [p for p in PAGES if count_examples(p)])
def test_page_examples(page, tmp_path, monkeypatch, compiled):
    cwd = workdir(tmp_path)
    monkeypatch.chdir(cwd)
    env = shell_env()
    for name in ("PATH", "COLUMNS"):  # the doctests' subprocesses find the same `tne`
        monkeypatch.setenv(name, env[name])
    failures = []
    globs = {"__name__": "__docs__"}
    ran = 0
    for line, tag, text in blocks(page):
        if tag == "console":
            for cmd, expected in commands(text):
                proc = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env,
                                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, timeout=300)
                actual = proc.stdout.decode("utf-8", "replace")
                if proc.returncode:
                    actual = actual.rstrip("\n") + f"\nexit status {proc.returncode}"
                ran += 1
                if not matches(expected, actual):
                    failures.append(f"{page}:{line}: $ {cmd}\n--- shown\n{expected}\n"
                                    f"--- printed\n{actual}")
        elif tag == "python":
            test = doctest.DocTest(doctests(page, line, text), globs, page, page, line, None)
            report = []
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            runner.run(test, out=report.append, clear_globs=False)
            globs = test.globs  # DocTest works on a copy: the next block sees these names
            ran += runner.tries
            if runner.failures:
                failures.append("".join(report))
    assert ran == count_examples(page)
    assert not failures, "\n\n".join(failures)
