"""numba kernels on the flat state buffer of tne_ai.core.state; no Python objects inside."""
