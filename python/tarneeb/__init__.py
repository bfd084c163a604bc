"""The tarneeb-referee rules engine for Python.

Simulate, sample, solve and train on classic Tarneeb, Egyptian Tarneeb, 400 and Forty-One by
exactly the referee's rules: the same Rust engine the referee runs, every house rule included.

- :class:`Game` plays one game move by move (``to_move``, ``legal_moves``, ``apply``, ``view``,
  ``clone``, ``is_over``, ``result``, ``hand_result``, ``scores``) and rebuilds a full state
  from a bot's view (:meth:`Game.from_view`).
- :func:`rules` prints the complete rules of a preset, like ``tarneeb rules``.
- :func:`sample_hidden` deals the cards a seat cannot see, consistently with its view.
- :func:`dd_solve` gives every legal card's double-dummy value (DDS).
- :func:`playout` plays whole random games inside Rust, like ``tarneeb simulate``.
- :mod:`tarneeb.bot` runs a protocol bot from a ``choose(request) -> move`` function.
- :mod:`tarneeb.env` is a PettingZoo AEC environment.
"""

from ._core import (
    ALL_MOVES,
    PRESETS,
    Game,
    IllegalMoveError,
    TarneebError,
    __version__,
    dd_solve,
    playout,
    rules,
    sample_hidden,
)

__all__ = [
    "ALL_MOVES",
    "PRESETS",
    "Game",
    "IllegalMoveError",
    "TarneebError",
    "__version__",
    "dd_solve",
    "playout",
    "rules",
    "sample_hidden",
]
