"""Agents: the protocol every player follows (base), the built-in agents made from spec strings
(builtin) and an engine in another process (external)."""
