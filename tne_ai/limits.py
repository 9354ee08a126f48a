"""Every count and budget a user can give, with its bounds, in one place.

The library checks its arguments against these and the CLI's options use the same numbers
(docs/cli.md, "Limits").  Each bound is far above any sensible use and low enough that a value at
the bound still fits the engine's integers and this machine's memory.
"""

MAX_SEED = 2 ** 63 - 1          # seeds: 0 .. 2^63-1 (numpy's generators and ours take them)
MAX_ITERATIONS = 10_000_000     # search iterations per move (the tree counts visits in int32)
MAX_SECONDS = 3600.0            # seconds of search per move
MAX_THREADS = 64                # root-parallel search trees per move
MAX_MULTIPV = 256               # lines (root moves) one analysis reports
# Worker processes of a --jobs command (tournament, train, analyse).  Memory ceiling: a worker
# holds about 165 MB (tne tournament --jobs 64 with greedy agents peaked at 10.5 GB in 66
# processes) plus its search trees, 33 bytes a node: at most the iteration budget
# (MAX_ITERATIONS: 330 MB), or for a time budget 200,000 nodes a second up to 4M per thread.
# At 32 jobs of the largest iteration budget that is 32 x (165 + 330) MB, about 16 GB: within
# a 24 GiB machine (docs/cli.md, "Limits").  Workers start as work arrives: never more than tasks.
MAX_JOBS = 32
MAX_DEALS = 100_000             # tournament deals per table (--games)
MAX_TOURNAMENT_GAMES = 1_000_000  # games in one tournament schedule, all tables and rotations
MAX_PLIES = 50_000              # moves (actions and decisions) in a game record / --max-moves
MAX_SIMULATIONS = 10_000_000    # OpenSpiel MCTS simulations per move
MAX_NODES = 1 << 25             # search tree nodes per thread (33 bytes each: 1.1 GB at the bound)
MAX_BATCH = 1 << 20             # search iterations between checks of the clock and of stop
MAX_EXPLORATION = 1e6           # the UCB exploration constant c (above 0)
MAX_WIDEN = 100.0               # progressive widening's constant
MAX_WIDEN_EXP = 4.0             # progressive widening's exponent
MAX_LEADER_VALUE = 1e6          # magnitude of the basic evaluation's value of a leader
MAX_SPRT_ELO = 2000.0           # |ELO0|, |ELO1| of --sprt (2,000 Elo: a 99.999% expected score)
MAX_TRAIN_GAMES = 100_000       # tne train --games (self-play deals)
MAX_EVERY = 1000                # tne train --every (keep every k-th position)
# A colour score: every tile gives at most one point when placed and one when it wins a
# conflict (2 x 153), and each of the 6 monuments at most 2 points a turn, so a game of
# MAX_PLIES plies scores below 306 + 12 x MAX_PLIES = 600,306 in any colour.
MAX_SCORE = 1_000_000
# Every JSON text the project accepts (position and record files, records-file lines,
# protocol lines, HTTP bodies) goes through tne_ai.core.io.json_reader with these bounds.
MAX_JSON_DEPTH = 32             # nesting of arrays and objects in one JSON text
MAX_INT_DIGITS = 30             # digits of an integer literal (JSON or option text)
MAX_NUMBER_CHARS = 40           # characters of a number literal with a fraction or exponent
MAX_JSON_BYTES = 4 << 20        # bytes of one JSON text: a file, a line, a body (4 MiB)
MAX_INPUT_BYTES = MAX_JSON_BYTES  # bytes read from one file or stdin given to a command
# A records file (JSON lines, as `tne tournament --out` writes; also .gz) is read a line at
# a time: each line at most MAX_JSON_BYTES, the whole file (decompressed) at most this.
MAX_RECORDS_BYTES = 4 << 30     # 4 GiB
MAX_COMMAND_BYTES = 1 << 16     # one line typed to tne play on a piped stdin (64 KiB)
MAX_PATH_BYTES = 4096           # bytes of a file name a user gives (Linux PATH_MAX, with its NUL)
MAX_NAME_BYTES = 255            # bytes of one part of it (Linux NAME_MAX)
MAX_ECHO = 200                  # characters of a bad value repeated in an error message


def clip(text: object, limit: int = MAX_ECHO) -> str:
    """``text`` cut to about ``limit`` characters for an error message."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"
