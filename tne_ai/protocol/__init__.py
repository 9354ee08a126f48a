"""The engine line protocol (docs/PROTOCOL.md): its messages and options (messages) and the
server behind `tne engine` (server)."""
