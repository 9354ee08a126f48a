#!/usr/bin/env bash
# The frozen reference engine: the search of one commit of this repository, installed from git
# into a virtual environment of its own, so that it stays what it was while the code here
# changes.  Strength claims (bench/README.md) play it through the engine protocol:
#
#   bench/reference.sh            # installs 2a81d3c (the default), prints the agent spec
#   bench/reference.sh COMMIT     # another commit
#
# The engine of 2a81d3c cuts a search into slices of slice_iterations (20,000) or
# info_interval (0.5 s) and starts a fresh tree for each; the spec printed sets both above any
# budget a match gives, so it searches one tree per move, as its in-process agent does.
# The virtual environment goes to bench/reference/COMMIT (not in git).
set -euo pipefail
commit=${1:-2a81d3c}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
full=$(git -C "$repo" rev-parse --verify --quiet "$commit^{commit}") || {
  echo "reference.sh: $commit is not a commit of $repo" >&2; exit 2; }
short=${full:0:7}
dest="$here/reference/$short"
if [ ! -x "$dest/bin/tne" ]; then
  rm -rf "$dest"
  python3 -m venv "$dest"
  "$dest/bin/python" -m pip install --quiet --upgrade pip
  "$dest/bin/python" -m pip install --quiet "git+file://$repo@$full"
  # compile its numba kernels once (into the installed package's cache): the engine's start,
  # then one untimed game each of 2, 3 and 4 players in process, which reaches the kernels an
  # older commit's start does not compile (2a81d3c's engine otherwise compiles them on its
  # first timed move, forfeits, is killed before the cache is written, and forfeits again)
  echo '{"type":"quit"}' | "$dest/bin/tne" engine >/dev/null
  for table in a,b a,b,b a,b,b,b; do
    (cd "$dest" && "$dest/bin/tne" tournament --agent a=mcts:iterations=300 \
      --agent b=mcts:iterations=300 --table "$table" --games 1 --seed 5 >/dev/null)
  done
fi
echo "engine[set.slice_iterations=10000000,set.info_interval=60]:$dest/bin/tne engine"
