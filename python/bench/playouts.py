#!/usr/bin/env python3
"""Random playouts per second: tarneeb (Python loop and Rust playout) against pyspiel's bridge
and RLCard's bridge, when installed. The command and its table: docs/performance.md.

    python python/bench/playouts.py [--seconds 5] [--simulate target/dist/tarneeb]
    python python/bench/playouts.py --smoke [--simulate TARNEEB]

Like with like (issue 45): every Python loop draws each decision the same way,
`random.Random.choice` over the legal list (OpenSpiel's chance nodes too: the deal's outcomes
are uniform, so drawing among them is exact; weighting by their probabilities with
`numpy.random.choice(p=...)` took 92% of the old loop's time). A one-hand playout is one deal
played out at random to its end (tarneeb classic: one hand, auction and 13 tricks; pyspiel
bridge: the deal, auction and play; RLCard bridge: one episode of `env.run` with its random
agents, RLCard's documented loop). Whole-game rows are named as such: tarneeb's games run
hand after hand to the target score. `tarneeb.playout` plays whole games inside Rust
(simulate's loop).

--smoke: every row at tiny sizes (0.05 s a row, batches of 20 games, simulate --games 20), to
check the benchmark still runs against the installed package (CI); the tarneeb rows must
succeed (an ImportError is a failure then, not "not installed"), pyspiel and RLCard may be
missing. Its figures mean nothing.
"""

import argparse
import json
import random
import time


def timed(fn, seconds):
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        n += fn()
    return n / (time.perf_counter() - start)


def tarneeb_python(seconds):
    import tarneeb

    rng = random.Random(1)
    seeds = iter(range(1, 10**9))

    def one():
        root = tarneeb.Game("classic", seed=next(seeds))
        game = root.clone()
        hand = game.hand_number
        while game.hand_number == hand and not game.is_over():
            game.apply(rng.choice(game.legal_moves()))
        return 1

    return timed(one, seconds)


def tarneeb_python_games(seconds):
    import tarneeb

    rng = random.Random(1)
    seeds = iter(range(1, 10**9))

    def one():
        game = tarneeb.Game("classic", seed=next(seeds))
        while not game.is_over():
            game.apply(rng.choice(game.legal_moves()))
        return 1

    return timed(one, seconds)


def tarneeb_rust(seconds, games=200):
    import tarneeb

    s = tarneeb.playout(games, rules="classic", seed=1)
    total_hands = s["hands"]
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = tarneeb.playout(games, rules="classic", seed=int(start))
        total_hands += s["hands"]
    # hands per second of the last batches (the first batch is warm-up)
    return s["hands"] / s["seconds"], s["games_per_second"]


def tarneeb_hand_playout(seconds):
    import tarneeb

    seeds = iter(range(1, 10**9))

    def one():
        game = tarneeb.Game("classic", seed=next(seeds))
        game.playout(next(seeds), hand_only=True)
        return 1

    return timed(one, seconds)


def pyspiel_bridge(seconds):
    import pyspiel

    game = pyspiel.load_game("bridge(use_double_dummy_result=false)")
    rng = random.Random(1)

    def one():
        state = game.new_initial_state().clone()
        while not state.is_terminal():
            # Chance nodes (the deal) have uniform outcomes: legal_actions() lists them.
            state.apply_action(rng.choice(state.legal_actions()))
        return 1

    return timed(one, seconds)


def rlcard_bridge(seconds):
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("bridge", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def one():
        env.run(is_training=False)
        return 1

    return timed(one, seconds)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--simulate", metavar="TARNEEB", help="also time `TARNEEB simulate` (a dist build)")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, to check it still runs")
    a = ap.parse_args()
    seconds = 0.05 if a.smoke else a.seconds
    rows = []
    for name, fn in [
        ("one-hand playouts/s: tarneeb classic, Python loop (clone + legal_moves + apply)", tarneeb_python),
        ("one-hand playouts/s: OpenSpiel bridge (pyspiel), the same Python loop", pyspiel_bridge),
        ("one-hand playouts/s: RLCard bridge, env.run with random agents", rlcard_bridge),
        ("one-hand playouts/s: tarneeb classic, Game.playout(hand_only=True) (in Rust)", tarneeb_hand_playout),
        ("whole games/s: tarneeb classic, the same Python loop", tarneeb_python_games),
    ]:
        try:
            rows.append((name, f"{fn(seconds):,.0f}"))
        except ImportError as e:
            if a.smoke and fn in (tarneeb_python, tarneeb_hand_playout, tarneeb_python_games):
                raise
            rows.append((name, f"not installed ({e.name})"))
    hands, games = tarneeb_rust(seconds, 20 if a.smoke else 200)
    rows.append(("hands/s (whole games/s): tarneeb.playout(n), whole games in Rust (= simulate)", f"{hands:,.0f} ({games:,.0f})"))
    if a.simulate:
        import subprocess

        n = "20" if a.smoke else "20000"
        s = json.loads(subprocess.run([a.simulate, "simulate", "--games", n, "--seed", "1", "--json"],
                                      capture_output=True, text=True, check=True).stdout)
        rows.append((f"hands/s (whole games/s): `tarneeb simulate --games {n}` (the binary, same run)",
                     f"{s['hands'] / s['seconds']:,.0f} ({s['games_per_second']:,.0f})"))
    print("| per second | |\n| --- | ---: |")
    for name, v in rows:
        print(f"| {name} | {v} |")
    if a.smoke:
        print("smoke run: sizes too small for figures")


if __name__ == "__main__":
    main()
