"""Errors raised at the edges (files, moves, API arguments): messages a user can act on."""


class TneError(Exception):
    """Base class of every error tne_ai reports to a user."""


class NotationError(TneError, ValueError):
    """A move text that does not parse."""


class IllegalMoveError(TneError, ValueError):
    """A well-formed move that is not legal in the position."""


class PositionError(TneError, ValueError):
    """An inconsistent or malformed position or game file; the message names the field."""
