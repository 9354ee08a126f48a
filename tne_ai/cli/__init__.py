"""The `tne` command line: a thin shell over tne_ai (parse, call the library, print).

``main`` is the click group (base.py); each module adds a family of commands: position.py
(new, show, legal, apply), search.py (bestmove, engine, bench), games.py (play, serve,
replay), matches.py (tournament, analyse, train).  `tne` is the console script,
``python -m tne_ai`` and ``python cli.py`` in a checkout run the same.
"""
from tne_ai.cli.base import main
from tne_ai.cli import games, matches, position, search  # noqa: F401  (the commands)

__all__ = ["main"]
