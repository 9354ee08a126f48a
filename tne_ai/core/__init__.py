"""The rules: board geometry, bitboards, the state buffer, the rules kernels (rules/), notation,
the position and game formats, the input readers (io/) and the pictures."""
