#!/usr/bin/env bash
# The strength runs reported in bench/README.md.  Resumable: run it again after a stop and each
# tournament continues its record file.  Output: bench/results/*.txt (tables), *.jsonl (records).
set -euo pipefail
cd "$(dirname "$0")/results"
jobs=${JOBS:-2}
run() {  # name, then tne tournament arguments
  local name=$1; shift
  local resume=()
  [ -f "$name.jsonl" ] && resume=(--resume)
  local t0=$(date +%s)
  tne tournament "$@" --jobs "$jobs" --out "$name.jsonl" "${resume[@]}" > "$name.txt"
  echo "wall time: $(( $(date +%s) - t0 )) s with --jobs $jobs" >> "$name.txt"
  cat "$name.txt"
}
# truncated rollouts (evaluate at once) against full random rollouts, equal time, SPRT
run rollout --agent full=mcts:time=0.1,rollout=-1 --agent eval=mcts:time=0.1 --games 40 --sprt 0,100 --seed 1
# 2 players: random, greedy, mcts at two budgets (20,000 iterations is about 0.2 s a move here)
run round_robin_2p --agent random=random --agent greedy=greedy --agent mcts2500=mcts:iterations=2500 \
    --agent mcts20k=mcts:iterations=20000 --games 15 --seed 2
# 4 players: one mcts against three greedy, every rotation of the seats
run mcts_vs_3greedy_4p --agent greedy=greedy --agent mcts20k=mcts:iterations=20000 \
    --table mcts20k,greedy,greedy,greedy --players 4 --games 10 --seed 3
# strength against the budget: each doubling against a fixed mcts:iterations=2000
run budget --agent fixed=mcts:iterations=2000 --agent i1000=mcts:iterations=1000 --agent i2000=mcts:iterations=2000,seed=7 \
    --agent i4000=mcts:iterations=4000 --agent i8000=mcts:iterations=8000 --agent i16000=mcts:iterations=16000 \
    --table i1000,fixed --table i2000,fixed --table i4000,fixed --table i8000,fixed --table i16000,fixed --games 30 --seed 4
# more games of the 0.2 s-class budget against random (the 98% target)
run mcts_vs_random_2p --agent random=random --agent mcts20k=mcts:iterations=20000 --games 35 --seed 5
# the evaluation's leader value: 0.5 a leader on the board against the default 0, SPRT
run leader_value --agent base=mcts:iterations=4000 --agent lead=mcts:iterations=4000,leader=0.5 --games 60 --seed 11 --sprt 0,50
