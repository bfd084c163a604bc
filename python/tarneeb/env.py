"""A PettingZoo AEC environment for the four games: ``tarneeb.env.TarneebEnv(rules=...)``.

- Agents ``player_0`` .. ``player_3`` (seat order; partners 0+2 and 1+3).
- Actions: ``Discrete(len(tarneeb.ALL_MOVES))``, one per (decision, move text) of every game;
  ``observation["action_mask"]`` marks the legal ones.
- Observations: a 0/1 vector built from the seat's protocol view only (its hand, the cards each
  seat played this hand, the trick on the table, the trump, the contract, whose turn and the
  decision), seats relative to the observer; ``env.view(agent)`` gives the view itself.
- Rewards: at the end of each hand, each agent gets its partnership's score change (400 and
  Forty-One: its own), divided by ``reward_scale``; the episode ends with the game.

Needs ``pip install pettingzoo gymnasium numpy`` (``pip install tarneeb[env]``).
"""

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import ALL_MOVES, Game

__all__ = ["TarneebEnv", "env", "ACTIONS", "OBS_SIZE"]

ACTIONS = list(ALL_MOVES)
_INDEX = {m: i for i, m in enumerate(ACTIONS)}
_RANKS = "23456789TJQKA"
_SUITS = "CDHS"
_DECISIONS = ["throw-in", "call", "trump", "play"]
_STRAINS = ["C", "D", "H", "S", "NT"]
# hand 52, played by relative seat 4x52, table by relative seat 4x52, trump 5 + unknown 1,
# decision 4, contract level 14 (0 = none), declarer relative seat 4, to-move relative seat 4
OBS_SIZE = 52 + 4 * 52 + 4 * 52 + 6 + 4 + 14 + 4 + 4


def _card(c: str) -> int:
    return _SUITS.index(c[1]) * 13 + _RANKS.index(c[0])


def encode(view: Dict[str, Any], decision: Optional[str], to_move: Optional[int]) -> np.ndarray:
    """The observation vector of a protocol view (seats relative to the view's seat)."""
    me = view["seat"]
    obs = np.zeros(OBS_SIZE, dtype=np.int8)
    for c in view["hand"]:
        obs[_card(c)] = 1
    base = 52
    for t in view["tricks"]:
        for i, c in enumerate(t["cards"]):
            obs[base + ((t["leader"] + i - me) % 4) * 52 + _card(c)] = 1
    base += 4 * 52
    t = view["current_trick"]
    for i, c in enumerate(t["cards"]):
        rel = (t["leader"] + i - me) % 4
        obs[base + rel * 52 + _card(c)] = 1
        obs[52 + rel * 52 + _card(c)] = 1
    base += 4 * 52
    trump = view.get("trump")
    obs[base + (_STRAINS.index(trump) if trump in _STRAINS else 5)] = 1
    base += 6
    if decision in _DECISIONS:
        obs[base + _DECISIONS.index(decision)] = 1
    base += 4
    contract = view.get("contract")
    level = 0
    if contract:
        digits = "".join(ch for ch in contract["bid"] if ch.isdigit())
        level = int(digits) if digits else 0
    obs[base + min(level, 13)] = 1
    base += 14
    if contract:
        obs[base + (contract["declarer"] - me) % 4] = 1
    base += 4
    if to_move is not None:
        obs[base + (to_move - me) % 4] = 1
    return obs


class TarneebEnv(AECEnv):
    """One game per episode, four agents, masked discrete actions (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "tarneeb_v0", "is_parallelizable": False}

    def __init__(self, rules: Any = "classic", render_mode: Optional[str] = None, reward_scale: float = 1.0):
        super().__init__()
        self.rules = rules
        self.render_mode = render_mode
        self.reward_scale = reward_scale
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self.agents = self.possible_agents[:]
        self._individual = "individual" in Game(rules=rules, seed=0).rules
        n = len(ACTIONS)
        space = spaces.Dict({
            "observation": spaces.Box(0, 1, (OBS_SIZE,), dtype=np.int8),
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
        seat = self.possible_agents.index(agent)
        mask = np.zeros(len(ACTIONS), dtype=np.int8)
        decision = self.game.decision()
        if self.game.to_move() == seat and decision is not None:
            for m in self.game.legal_moves():
                mask[_INDEX[(decision, m)]] = 1
        obs = encode(self.game.view(seat), decision, self.game.to_move())
        return {"observation": obs, "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not isinstance(action, (int, np.integer)) or isinstance(action, bool) or not 0 <= action < len(ACTIONS):
            raise ValueError(f"action {action!r} is not an action: give an int from 0 to {len(ACTIONS) - 1} that the action_mask allows")
        decision, text = ACTIONS[int(action)]
        if decision != self.game.decision():
            raise ValueError(f"action {action} ({decision} {text}) is not a {self.game.decision()} move: use the action_mask")
        hand = self.game.hand_number
        self.game.apply(text)
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
        if self.render_mode is None:
            return None
        text = repr(self.game)
        if self.render_mode == "human":
            print(text)
        return text

    def close(self) -> None:
        pass


def env(**kwargs) -> TarneebEnv:
    """A TarneebEnv (PettingZoo's module-level constructor convention)."""
    return TarneebEnv(**kwargs)
