#!/usr/bin/env python3
"""Agent steps per second of tarneeb's environment against OpenSpiel's bridge and RLCard's
bridge environments, with the same loop, one core. The command and its table:
docs/performance.md.

    python python/bench/env_steps.py [--seconds 5] [--runs 3] [--rules classic]
    python python/bench/env_steps.py --smoke

The same loop for every engine: at each agent step the observation of the agent to act is
taken (a float vector) and a legal action is drawn with `random.Random.choice` over the legal
list (tarneeb: `numpy.flatnonzero` of the action mask); chance nodes (OpenSpiel's deal, whose
outcomes are uniform) are drawn the same way and are not agent steps. Episodes reset with the
next seed. Each peer runs through its fastest documented loop with an observation:

- tarneeb `TarneebEnv` (PettingZoo AEC): `env.last()` (observation + mask, built in Rust)
  then `env.step(action)`; an episode is a whole game (hand after hand to the target).
- tarneeb `Game.observe(seat)` + `Game.apply_action(i)` of the mask: the environment's own
  calls without PettingZoo's bookkeeping.
- tarneeb `Game.observe(seat)` (read by `numpy.frombuffer`) + `Game.apply(choice(
  legal_moves()))`: the fastest loop with an observation, the legal list as a Python list
  like OpenSpiel's `legal_actions()` (no mask through numpy).
- OpenSpiel `bridge(use_double_dummy_result=false)` (auction and card play; an episode is one
  deal): the pyspiel state with `open_spiel.python.observation.make_observation` and
  `set_from(state, player)` each step (the tensor is a numpy view, no copy), `legal_actions()`,
  `apply_action()`.
- OpenSpiel's RL environment, `rl_environment.Environment("bridge",
  use_double_dummy_result=False)`: `env.step([action])` returns every player's
  information-state tensor and legal actions at each step (its design); its chance sampler is
  given the same `random.choice` draw (its default weights the deal's uniform outcomes with
  `numpy.random.choice(p=...)`).
- RLCard `rlcard.make("bridge")`: `env.reset()` / `env.step(action)` (each returns the next
  player's encoded state with its `obs` array and `legal_actions`).
- Reference: the raw `Game` loop, `apply(random.choice(legal_moves()))`, no observation.

Steps are counted per second of the process's CPU time (`time.process_time`), not of the
wall clock, so that other processes on a shared machine slow every row without changing its
figure much; every loop here runs on one thread. The runs are interleaved (run 1 of every row, then run 2, ...) so that load on a shared
machine falls on all rows alike. OpenSpiel and RLCard are optional: a row whose package is
missing says "not installed".

--smoke: every row for 0.05 s, one run, to check the script still runs against the installed
package (CI); the tarneeb rows must succeed, the peers may be missing. Its figures mean nothing.
"""

import argparse
import random
import time

import numpy as np


def _timed(step_episode, seconds):
    """Runs episodes (each returns its agent steps) until `seconds` of this process's CPU time
    passed; steps per CPU second (time.process_time: on a shared machine the wall clock also
    counts the time other processes had the core)."""
    seed, steps = 1, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += step_episode(seed)
        seed += 1
    return steps / (time.process_time() - start)


def tarneeb_env(seconds, rules):
    from tarneeb.env import TarneebEnv

    env = TarneebEnv(rules=rules)
    rng = random.Random(1)

    def episode(seed):
        env.reset(seed=seed)
        n = 0
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            n += 1
        return n

    return _timed(episode, seconds)


def tarneeb_observe(seconds, rules):
    import tarneeb

    rng = random.Random(1)

    def episode(seed):
        game = tarneeb.Game(rules=rules, seed=seed)
        n = 0
        while not game.is_over():
            obs, mask = game.observe(game.to_move())
            _vector = np.frombuffer(obs, dtype="<f4")
            game.apply_action(rng.choice(np.flatnonzero(np.frombuffer(mask, dtype=np.int8)).tolist()))
            n += 1
        return n

    return _timed(episode, seconds)


def tarneeb_observe_legal(seconds, rules):
    import tarneeb

    rng = random.Random(1)

    def episode(seed):
        game = tarneeb.Game(rules=rules, seed=seed)
        n = 0
        while not game.is_over():
            obs, _mask = game.observe(game.to_move())
            _vector = np.frombuffer(obs, dtype="<f4")
            game.apply(rng.choice(game.legal_moves()))
            n += 1
        return n

    return _timed(episode, seconds)


def tarneeb_raw(seconds, rules):
    import tarneeb

    rng = random.Random(1)

    def episode(seed):
        game = tarneeb.Game(rules=rules, seed=seed)
        n = 0
        while not game.is_over():
            game.apply(rng.choice(game.legal_moves()))
            n += 1
        return n

    return _timed(episode, seconds)


def openspiel_state(seconds, _rules):
    import pyspiel
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("bridge(use_double_dummy_result=false)")
    observation = make_observation(game)
    rng = random.Random(1)

    def episode(_seed):
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            observation.set_from(state, state.current_player())
            _vector = observation.tensor
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n

    return _timed(episode, seconds)


def openspiel_rl_env(seconds, _rules):
    from open_spiel.python import rl_environment

    rng = random.Random(1)

    class UniformDraw:
        """The deal's outcomes are uniform: draw among them like every other loop here."""

        def seed(self, seed=None):
            pass

        def __call__(self, state):
            return rng.choice(state.legal_actions())

    env = rl_environment.Environment("bridge", use_double_dummy_result=False, chance_event_sampler=UniformDraw())

    def episode(_seed):
        time_step = env.reset()
        n = 0
        while not time_step.last():
            player = time_step.observations["current_player"]
            _vector = time_step.observations["info_state"][player]
            time_step = env.step([rng.choice(time_step.observations["legal_actions"][player])])
            n += 1
        return n

    return _timed(episode, seconds)


def rlcard_env(seconds, _rules):
    import rlcard

    env = rlcard.make("bridge", config={"seed": 1})
    rng = random.Random(1)

    def episode(_seed):
        state, _player = env.reset()
        n = 0
        while not env.is_over():
            _vector = state["obs"]
            state, _player = env.step(rng.choice(list(state["legal_actions"])))
            n += 1
        return n

    return _timed(episode, seconds)


ROWS = [
    ("tarneeb TarneebEnv (PettingZoo AEC: env.last() + env.step)", tarneeb_env, True),
    ("tarneeb Game.observe + apply_action of the mask (the env's calls, no PettingZoo)", tarneeb_observe, True),
    ("tarneeb Game.observe + apply(choice(legal_moves()))", tarneeb_observe_legal, True),
    ("OpenSpiel bridge, pyspiel state + make_observation().set_from", openspiel_state, False),
    ("OpenSpiel bridge, rl_environment.Environment (all 4 info states)", openspiel_rl_env, False),
    ("RLCard bridge, env.reset / env.step", rlcard_env, False),
    ("reference: tarneeb raw Game loop, no observation", tarneeb_raw, True),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="CPU seconds a row, each run")
    ap.add_argument("--runs", type=int, default=3, help="runs of every row, interleaved")
    ap.add_argument("--rules", default="classic", help="tarneeb's rules (the peers play bridge)")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, to check it still runs")
    a = ap.parse_args()
    seconds, runs = (0.05, 1) if a.smoke else (a.seconds, a.runs)
    if runs < 1 or seconds <= 0:
        ap.error("--runs must be 1 or more and --seconds more than 0")
    figures = {name: [] for name, _, _ in ROWS}
    missing = {}
    for _ in range(runs):
        for name, fn, ours in ROWS:
            if name in missing:
                continue
            try:
                figures[name].append(fn(seconds, a.rules))
            except ImportError as e:
                if ours:
                    raise
                missing[name] = e.name
    print(f"| agent steps per CPU second ({runs} runs, {seconds:g} s each, tarneeb rules {a.rules}) | |")
    print("| --- | ---: |")
    for name, _, _ in ROWS:
        if name in missing:
            value = f"not installed ({missing[name]})"
        else:
            value = " / ".join(f"{v:,.0f}" for v in figures[name])
        print(f"| {name} | {value} |")
    if a.smoke:
        print("smoke run: sizes too small for figures")


if __name__ == "__main__":
    main()
