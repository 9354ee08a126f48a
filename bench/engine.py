"""The benchmark suite (the same as `tne bench`): engine, search and start-up figures.

    python bench/engine.py [--quick] [--json]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tne_ai.cli import main  # noqa: E402

if __name__ == "__main__":
    main(["bench"] + sys.argv[1:], prog_name="tne")
