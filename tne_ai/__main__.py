"""``python -m tne_ai``: the `tne` command line (tne_ai/cli)."""
from tne_ai.cli import main

if __name__ == "__main__":
    main(prog_name="tne")
