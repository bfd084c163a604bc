"""A PettingZoo AEC environment for the four games: ``tarneeb.env.TarneebEnv(rules=...)``.

- Agents ``player_0`` .. ``player_3`` (seat order; partners 0+2 and 1+3).
- Actions: ``Discrete(len(tarneeb.ALL_MOVES))``, one per (decision, move text) of every game;
  ``observation["action_mask"]`` marks the legal ones (int8).
- Observations: a float32 vector built in Rust from the seat's protocol view only (no other
  seat's unplayed card), seats relative to the observer (0 = the observer, 1 = the next seat
  to play, 2 = the partner, 3 = the seat before), in these blocks (``OBS_LAYOUT``):

  ================== ======= =========================================================
  block              length  values
  ================== ======= =========================================================
  hand               52      1 for each card held (index suit*13 + rank, C D H S, 2..A)
  played_by_seat     4 x 52  the cards each seat played this hand (the table's too)
  table_by_seat      4 x 52  the cards on the table, by who played them
  trump              6       one-hot C, D, H, S, NT, not known yet
  decision           4       one-hot throw-in, call, trump, play (none: all 0)
  contract_level     14      one-hot the contract's level (0: no contract)
  declarer           4       one-hot the declarer
  to_move            4       one-hot the seat to move
  multiplier         3       one-hot undoubled, doubled, redoubled (no contract: all 0)
  last_call_by_seat  4 x 82  one-hot each seat's last call this hand: the 81 calls of
                             ALL_MOVES in order (pass, double, redouble, bids), or none
  bid_by_seat        4 x 14  400 / Forty-One: one-hot each seat's bid (0: none yet)
  tricks_won_by_seat 4 x 14  one-hot the tricks each seat won this hand (0-13)
  scores             6       the observer's team's score, the other team's, then each
                             seat's (400 / 41; else 0), all divided by SCORE_SCALE (100)
  announced_by_seat  4 x 2   dakak, out-of-call announced by each seat
  ================== ======= =========================================================

  ``env.view(agent)`` gives the view itself.
- Rewards: at the end of each hand, each agent gets its partnership's score change (400 and
  Forty-One: its own), divided by ``reward_scale``; the episode ends with the game.
- ``render()``: ``render_mode="human"`` prints the table and returns None, ``"ansi"`` returns
  the text.

Needs ``pip install pettingzoo gymnasium numpy`` (``pip install tarneeb[env]``).
"""

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import ALL_MOVES, Game
from ._core import OBS_LAYOUT, OBS_SIZE, SCORE_SCALE

__all__ = ["TarneebEnv", "env", "ACTIONS", "OBS_SIZE", "OBS_LAYOUT", "SCORE_SCALE"]

ACTIONS = list(ALL_MOVES)


def _bounds():
    low = np.zeros(OBS_SIZE, dtype=np.float32)
    high = np.ones(OBS_SIZE, dtype=np.float32)
    at = 0
    for name, n in OBS_LAYOUT:
        if name == "scores":
            low[at : at + n] = -np.inf
            high[at : at + n] = np.inf
        at += n
    return low, high


class TarneebEnv(AECEnv):
    """One game per episode, four agents, masked discrete actions (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "tarneeb_v0", "is_parallelizable": False}

    def __init__(self, rules: Any = "classic", render_mode: Optional[str] = None, reward_scale: float = 1.0):
        super().__init__()
        self.rules = rules
        self.render_mode = render_mode
        self.reward_scale = reward_scale
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        self._individual = "individual" in Game(rules=rules, seed=0).rules
        n = len(ACTIONS)
        space = spaces.Dict({
            "observation": spaces.Box(*_bounds(), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
        })
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._np_random_seed = None
        self.game: Optional[Game] = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is None:
            seed = int(np.random.randint(0, 2**62))
        self.game = Game(rules=self.rules, seed=seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_move()

    def _agent_to_move(self) -> str:
        seat = self.game.to_move()
        return self.possible_agents[seat if seat is not None else 0]

    def view(self, agent: str) -> Dict[str, Any]:
        """The protocol view of ``agent``'s seat."""
        return self.game.view(self.possible_agents.index(agent))

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        obs, mask = self.game.observe(self._seat[agent])
        return {
            "observation": np.frombuffer(obs, dtype="<f4").copy(),
            "action_mask": np.frombuffer(mask, dtype=np.int8).copy(),
        }

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not isinstance(action, (int, np.integer)) or isinstance(action, bool) or not 0 <= action < len(ACTIONS):
            raise ValueError(f"action {action!r} is not an action: give an int from 0 to {len(ACTIONS) - 1} that the action_mask allows")
        hand = self.game.hand_number
        self.game.apply_action(int(action))
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        if self.game.hand_number != hand or self.game.is_over():
            r = self.game.hand_result()
            for i, a in enumerate(self.possible_agents):
                delta = r["seat_delta"][i] if self._individual else r["team_delta"][i % 2]
                self.rewards[a] = delta / self.reward_scale
        if self.game.is_over():
            self.terminations = {a: True for a in self.agents}
            self.infos = {a: {"result": self.game.result()} for a in self.agents}
        self.agent_selection = self._agent_to_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """Per PettingZoo: "human" prints and returns None, "ansi" returns the text."""
        if self.render_mode is None:
            return None
        g = self.game
        lines = [repr(g)]
        hands = g.hands()
        seat = g.to_move()
        view = g.view(seat if seat is not None else 0)
        trick = view["current_trick"]
        lines.append(f"trump {view.get('trump')}  contract {view.get('contract')}  tricks won {view['tricks_won']}")
        lines.append(f"table (led by seat {trick['leader']}): {' '.join(trick['cards']) or '-'}")
        for i, h in enumerate(hands):
            lines.append(f"  seat {i}: {' '.join(h)}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(**kwargs) -> TarneebEnv:
    """A TarneebEnv (PettingZoo's module-level constructor convention)."""
    return TarneebEnv(**kwargs)
