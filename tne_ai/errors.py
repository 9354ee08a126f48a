"""Errors raised at the edges (files, moves, API arguments): messages a user can act on.

The classes form one tree under TneError::

    TneError
      InputError          any bad input a user gave: a file, a JSON text, a number, an option
        PositionError     an inconsistent or malformed position or game record
          JsonError       a text that is not acceptable JSON (tne_ai.core.io.json_reader)
        NotationError     a move text that does not parse
        IllegalMoveError  a well-formed move that is not legal in the position

tne_ai.core.io.json_reader raises JsonError for a text it will not parse, so a caller that
catches PositionError (as callers of the position loader always have) still catches it, and
InputError for a file it cannot read or a number out of range; ``except InputError`` catches
every one of them.
"""


class TneError(Exception):
    """Base class of every error tne_ai reports to a user."""


class InputError(TneError, ValueError):
    """Bad input (a file, a JSON text, a number, an option); the message starts with what."""


class PositionError(InputError):
    """An inconsistent or malformed position or game file; the message names the field."""


class JsonError(PositionError):
    """A text that is not acceptable JSON: malformed, too large, too deep, a number too long,
    NaN or Infinity, not UTF-8.  A PositionError, so the loaders' callers catch it too."""


class NotationError(InputError):
    """A move text that does not parse."""


class IllegalMoveError(InputError):
    """A well-formed move that is not legal in the position."""
