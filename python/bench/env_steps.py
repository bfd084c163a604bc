#!/usr/bin/env python3
"""Agent steps per second of tarneeb.env.TarneebEnv (PettingZoo AEC) with random masked
actions, against the raw Game loop, one core. Figures: docs/performance.md.

    python python/bench/env_steps.py [--seconds 5] [--rules classic]

A step is one `env.step(action)` after `env.last()` (which builds the observation and mask
of the agent to act, in Rust), the action drawn uniformly from the mask with `random.choice`
over `numpy.flatnonzero(mask)`; episodes reset with the next seed. The raw row is
`game.apply(random.choice(game.legal_moves()))` on `tarneeb.Game` with no observation.
"""

import argparse
import random
import time

import numpy as np


def env_steps(seconds, rules):
    from tarneeb.env import TarneebEnv

    env = TarneebEnv(rules=rules)
    rng = random.Random(1)
    seed, steps = 1, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
    return steps / (time.perf_counter() - start)


def raw_steps(seconds, rules):
    import tarneeb

    rng = random.Random(1)
    seed, steps = 1, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = tarneeb.Game(rules=rules, seed=seed)
        seed += 1
        while not game.is_over():
            game.apply(rng.choice(game.legal_moves()))
            steps += 1
    return steps / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--rules", default="classic")
    a = ap.parse_args()
    for name, fn in (("env (AEC, observation + mask each step)", env_steps), ("raw Game loop", raw_steps)):
        print(f"{name:42} {fn(a.seconds, a.rules):>10,.0f} steps/s")


if __name__ == "__main__":
    main()
