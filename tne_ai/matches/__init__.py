"""Games between agents and what is learnt from them: tournaments, ratings, provenance, the
evaluation's and the value network's training, game review, the terminal game and the benchmarks."""
