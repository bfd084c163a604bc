"""Type stubs of the Rust extension ``tarneeb._core`` (re-exported by ``tarneeb``)."""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

RulesArg = Union[str, Mapping[str, Any], None]
"""A preset name (classic, egyptian, 400, 41), a path to a rules file, or a rules dict."""
Hands = Sequence[Sequence[str]]
"""Four lists of card strings ("AS", "TD", "2C"), in seat order 0-3."""

PRESETS: List[str]
"""The preset names: classic, egyptian, 400, 41."""
ALL_MOVES: List[Tuple[str, str]]
"""Every move of every game as (decision, text), in a fixed order: the action space of tarneeb.env."""

class TarneebError(ValueError):
    """Bad input (rules, deals, views, positions); the message says what and how to fix it."""

class IllegalMoveError(TarneebError):
    """A move that is not legal now, with the referee's reason."""

def rules(preset: RulesArg = None) -> Dict[str, Any]:
    """The complete rules of a preset, a rules file or a rules dict, as `tarneeb rules` prints."""

class Game:
    """One game, by the referee's rules engine.

    Deals come from ``deals`` first (each four lists of 13 cards), then from ``seed`` (the
    same deals and first dealer as ``tarneeb simulate`` and ``tarneeb play --public-deals``
    with that seed); with neither, from a random seed. ``scores`` starts the game from given
    scores: ``[A, B]`` per partnership (classic, egyptian) or ``[A, B, C, D]`` per player (400,
    41). A hand is dealt as soon as one is due, so ``to_move()`` is None only when the game is
    over or the deals ran out (see :meth:`deal`).
    """

    def __init__(
        self,
        rules: RulesArg = None,
        seed: Optional[int] = None,
        deals: Optional[Sequence[Hands]] = None,
        scores: Optional[Sequence[int]] = None,
        first_dealer: Optional[int] = None,
    ) -> None: ...
    def to_move(self) -> Optional[int]:
        """The seat to move (0-3), or None when the game is over or waits for a deal."""
    def decision(self) -> Optional[str]:
        """The decision now: "throw-in", "call", "trump" or "play" (None if there is none)."""
    def legal_moves(self) -> List[str]:
        """The legal moves now, as the protocol's ``legal`` list writes them."""
    def apply(self, move: str) -> None:
        """Makes ``move`` for the seat to move; raises IllegalMoveError with the referee's reason."""
    def view(self, seat: int) -> Dict[str, Any]:
        """The protocol's request ``view`` for ``seat`` (protocol.md), as a dict."""
    def view_json(self, seat: int) -> str:
        """The same view as JSON text."""
    def clone(self) -> "Game":
        """An independent copy (also ``copy.copy`` and ``copy.deepcopy``)."""
    def is_over(self) -> bool:
        """Whether the game has ended."""
    def needs_deal(self) -> bool:
        """Whether a hand ended and no deal is left to start the next one."""
    def deal(self, hands: Hands) -> None:
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
    @staticmethod
    def from_view(
        view: Mapping[str, Any],
        hands: Hands,
        rules: RulesArg = None,
        seed: Optional[int] = None,
    ) -> "Game":
        """Rebuilds the full game a seat's ``view`` shows, with ``hands`` as every seat's cards
        held now (e.g. from :func:`sample_hidden`). Raises TarneebError naming the first field
        that disagrees when the hands and the view do not make one game. ``seed`` deals the
        hands after this one (without it the game stops at the end of the hand)."""

def playout(
    games: int,
    rules: RulesArg = None,
    seed: int = 1,
    players: Optional[Sequence[str]] = None,
) -> Dict[str, Any]:
    """Plays ``games`` whole games inside Rust exactly as ``tarneeb simulate --json`` (players
    "random" or "greedy", one or four), returning its summary (games_per_second, wins, ...)."""

def sample_hidden(
    view: Mapping[str, Any],
    rng_seed: int,
    constraints: Optional[Mapping[str, Any]] = None,
    rules: RulesArg = None,
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
    card play, or ``{"hands": held cards, "trump": "S" | "NT" | None, "leader": seat, "table":
    [cards on the table], "must_lead": suit or absent}``."""
