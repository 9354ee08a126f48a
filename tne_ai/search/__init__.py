"""Information-set MCTS over the engine's kernels: determinization and the search tree."""
