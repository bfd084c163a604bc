#!/usr/bin/env python3
"""`tarneeb.dd_solve` calls per second on positions of random classic games, by tricks left
(13: the first card of the hand, 11, 7, 3; from 11 up the solve runs on a thread of its own
that the caller watches for Ctrl-C), one core. Figures: docs/performance.md.

    python python/bench/dd_solve.py [--positions 40] [--runs 3]
    python python/bench/dd_solve.py --smoke

The positions are made first (random moves from seeds 1, 2, ... up to the first card played
with that many tricks left); then each run solves every position once, in the same order.
--smoke: 2 positions a depth, one run, to check the script still runs (CI).
"""

import argparse
import random
import time

import tarneeb


def positions(tricks_left, count):
    out, seed = [], 1
    while len(out) < count:
        rng = random.Random(seed)
        game = tarneeb.Game(rules="classic", seed=seed)
        seed += 1
        hand = game.hand_number
        while not game.is_over() and game.hand_number == hand:
            if game.decision() == "play":
                left = len(game.hands()[game.to_move()])
                view = game.view(game.to_move())
                if left == tricks_left and not view["current_trick"]["cards"]:
                    out.append(game.clone())
                    break
            game.apply(rng.choice(game.legal_moves()))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40, help="positions a depth")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, to check it still runs")
    a = ap.parse_args()
    count, runs = (2, 1) if a.smoke else (a.positions, a.runs)
    print(f"| dd_solve calls per second ({count} positions a depth, {runs} runs) | |")
    print("| --- | ---: |")
    for left in (13, 11, 7, 3):
        ps = positions(left, count)
        figures = []
        for _ in range(runs):
            start = time.perf_counter()
            for p in ps:
                tarneeb.dd_solve(p)
            figures.append(len(ps) / (time.perf_counter() - start))
        print(f"| {left} tricks left, a trick's first card | {' / '.join(f'{f:,.1f}' for f in figures)} |")
    if a.smoke:
        print("smoke run: sizes too small for figures")


if __name__ == "__main__":
    main()
