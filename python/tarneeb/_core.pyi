"""Type stubs of the Rust extension ``tarneeb._core`` (re-exported by ``tarneeb``)."""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from typing_extensions import final

__all__ = [
    "ALL_MOVES",
    "Game",
    "IllegalMoveError",
    "OBS_LAYOUT",
    "OBS_SIZE",
    "PRESETS",
    "SCORE_SCALE",
    "TarneebError",
    "__version__",
    "dd_solve",
    "playout",
    "rules",
    "sample_hidden",
]

_RulesArg = Union[str, Mapping[str, Any], None]
"""A preset name (classic, egyptian, 400, 41), a path to a rules file, or a rules dict."""
_Hands = Sequence[Sequence[str]]
"""Four lists of card strings ("AS", "TD", "2C"), in seat order 0-3."""

__version__: str
"""The package's version (python/Cargo.toml's)."""
OBS_SIZE: int
"""The length of tarneeb.env's observation vector."""
OBS_LAYOUT: List[Tuple[str, int]]
"""tarneeb.env's observation blocks in order, as (name, length)."""
SCORE_SCALE: float
"""tarneeb.env's observation gives scores divided by this."""
PRESETS: List[str]
"""The preset names: classic, egyptian, 400, 41."""
ALL_MOVES: List[Tuple[str, str]]
"""Every move of every game as (decision, text), in a fixed order: the action space of tarneeb.env."""

class TarneebError(ValueError):
    """Bad input (rules, deals, views, positions); the message says what and how to fix it."""

class IllegalMoveError(TarneebError):
    """A move that is not legal now, with the referee's reason."""

def rules(preset: _RulesArg = None) -> Dict[str, Any]:
    """The complete rules of a preset, a rules file or a rules dict, as `tarneeb rules` prints."""

@final
class Game:
    """One game, by the referee's rules engine.

    Deals come from ``deals`` first (each four lists of 13 cards), then from ``seed`` (the
    same deals and first dealer as ``tarneeb simulate`` and ``tarneeb play --public-deals``
    with that seed); with neither, from a random seed. ``scores`` starts the game from given
    scores: ``[A, B]`` per partnership (classic, egyptian) or ``[A, B, C, D]`` per player (400,
    41). A hand is dealt as soon as one is due, so ``to_move()`` is None only when the game is
    over or the deals ran out (see :meth:`deal`).
    """

    def __new__(
        cls,
        rules: _RulesArg = None,
        seed: Optional[int] = None,
        deals: Optional[Sequence[_Hands]] = None,
        scores: Optional[Sequence[int]] = None,
        first_dealer: Optional[int] = None,
    ) -> "Game": ...
    def to_move(self) -> Optional[int]:
        """The seat to move (0-3), or None when the game is over or waits for a deal."""
    def decision(self) -> Optional[str]:
        """The decision now: "throw-in", "call", "trump" or "play" (None if there is none)."""
    def legal_moves(self) -> List[str]:
        """The legal moves now, as the protocol's ``legal`` list writes them."""
    def apply(self, mv: str) -> None:
        """Makes ``move`` for the seat to move; raises IllegalMoveError with the referee's reason."""
    def view(self, seat: int) -> Dict[str, Any]:
        """The protocol's request ``view`` for ``seat`` (protocol.md), as a dict."""
    def view_json(self, seat: int) -> str:
        """The same view as JSON text."""
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: Any) -> "Game": ...
    def __reduce__(self) -> Tuple[Any, Tuple[str]]:
        """Pickling: the game is made again from how it began and the moves and deals since."""
    @staticmethod
    def _restore(state: str) -> "Game": ...
    def clone(self) -> "Game":
        """An independent copy (also ``copy.copy`` and ``copy.deepcopy``)."""
    def is_over(self) -> bool:
        """Whether the game has ended."""
    def needs_deal(self) -> bool:
        """Whether a hand ended and no deal is left to start the next one."""
    def deal(self, hands: _Hands) -> None:
        """Starts the next hand with ``hands`` (when :meth:`needs_deal`)."""
    def result(self) -> Optional[Dict[str, Any]]:
        """The protocol's ``game_end`` fields (winner, reason, hands, team_scores, ...), or None."""
    def hand_result(self) -> Optional[Dict[str, Any]]:
        """The last hand's ``hand_end`` fields (end, team_delta, team_scores, ...), or None."""
    def scores(self) -> List[int]:
        """Partnership totals [team 0 (seats 0+2), team 1 (seats 1+3)]."""
    def seat_scores(self) -> List[int]:
        """Each player's score (400 and Forty-One)."""
    @property
    def hand_number(self) -> int:
        """The hand under way (1, 2, ...; redeals count)."""
    @property
    def dealer(self) -> int:
        """The dealer of the hand under way (or of the next hand)."""
    @property
    def rules(self) -> Dict[str, Any]:
        """The complete rules of this game."""
    def hands(self) -> List[List[str]]:
        """The cards each seat holds now: the full, secret state (for search)."""
    def playout(self, seed: int, hand_only: bool = False) -> int:
        """Plays random legal moves to the end of the game (or hand); returns the moves made."""
    def observe(self, seat: int) -> Tuple[bytes, bytes]:
        """tarneeb.env's observation of ``seat`` (float32 little-endian bytes, OBS_LAYOUT) and
        action mask (a byte per action of ALL_MOVES), built from the seat's view only."""
    def apply_action(self, action: int) -> None:
        """Makes the move with index ``action`` in ALL_MOVES (IllegalMoveError if not legal)."""
    @staticmethod
    def from_view(
        view: Mapping[str, Any],
        hands: _Hands,
        rules: _RulesArg = None,
        seed: Optional[int] = None,
    ) -> "Game":
        """Rebuilds the full game a seat's ``view`` shows, with ``hands`` as every seat's cards
        held now (e.g. from :func:`sample_hidden`). Raises TarneebError naming the first field
        that disagrees when the hands and the view do not make one game. ``seed`` deals the
        hands after this one (without it the game stops at the end of the hand)."""

def playout(
    games: int,
    rules: _RulesArg = None,
    seed: Optional[int] = None,
    players: Optional[Sequence[str]] = None,
) -> Dict[str, Any]:
    """Plays ``games`` whole games inside Rust exactly as ``tarneeb simulate --json`` (players
    "random" or "greedy", one or four; ``seed`` 1 if None), returning its summary (games_per_second,
    wins, ...). Ctrl-C stops it (KeyboardInterrupt)."""

def sample_hidden(
    view: Mapping[str, Any],
    rng_seed: int,
    constraints: Optional[Mapping[str, Any]] = None,
    rules: _RulesArg = None,
) -> List[List[str]]:
    """One deal of the cards ``view``'s seat cannot see, as four hands of cards held now (the
    seat's own hand included): the cards played are out, each seat holds ``cards_left``, and a
    seat that did not follow suit holds none of it. ``constraints``: ``{"void": {"1": "HS"},
    "holds": {"2": ["AS"]}, "use_auction": True}`` (extra voids, known cards, and weighting the
    deals by what the auction said, which needs the game's ``rules``)."""

def dd_solve(position: Union[Game, Mapping[str, Any]]) -> Dict[str, Any]:
    """Double-dummy values (DDS) of each legal card for the player on turn: ``{"seat", "tricks",
    "values": {card: tricks}, "best": [cards]}``, where a card's value is the tricks its side
    takes of the tricks left (the one on the table included). ``position`` is a Game in its
    card play, or ``{"hands": held cards, "trump": "C" | "D" | "H" | "S" | "NT" | "first-lead",
    "leader": seat, "table": [at most 3 cards on the table], "must_lead": suit or absent}``;
    ``"first-lead"`` (the trump is not named yet: the first card led names it) needs an empty
    table. Ctrl-C stops a solve of more than 10 tricks left (KeyboardInterrupt)."""
