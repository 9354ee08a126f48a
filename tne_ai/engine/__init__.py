"""numba kernels on the flat state buffer of tne_ai.state; no Python objects inside."""
