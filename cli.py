"""The `tne` command line run from a checkout (``python cli.py ...``); the code is tne_ai/cli."""
from tne_ai.cli import main

if __name__ == "__main__":
    main(prog_name="tne")
