#!/usr/bin/env python3
"""A Python bot that searches: perfect-information Monte Carlo with the tarneeb package.

For each card it deals the unseen cards a few times consistently with its view
(`tarneeb.sample_hidden`), rebuilds each deal as a full game (`tarneeb.Game.from_view`), solves
it double-dummy (`tarneeb.dd_solve`) and plays the card with the most tricks on average. Calls
are rules of thumb (high cards and length); the trump it names is the suit with the most
double-dummy tricks over the samples.

    tarneeb check-bot "python3 python/examples/pimc_bot.py"
    tarneeb play --bot "python3 python/examples/pimc_bot.py" --bot ... (four bots)

Options (environment): PIMC_SAMPLES (default 6), PIMC_SEED (default 1).
"""

import os
import random
from collections import defaultdict

import tarneeb
import tarneeb.bot

SAMPLES = int(os.environ.get("PIMC_SAMPLES", "6"))
SEED = int(os.environ.get("PIMC_SEED", "1"))
rng = random.Random(SEED)


def samples(request):
    view = request["view"]
    for _ in range(SAMPLES):
        yield tarneeb.sample_hidden(view, rng.getrandbits(63), rules=request["rules"])


def play(request):
    """The card with the most double-dummy tricks over the sampled deals."""
    view, legal = request["view"], request["legal"]
    if len(legal) == 1:
        return legal[0]
    total = defaultdict(int)
    for hands in samples(request):
        game = tarneeb.Game.from_view(view, hands, rules=request["rules"])
        for card, tricks in tarneeb.dd_solve(game)["values"].items():
            total[card] += tricks
    return max(legal, key=lambda c: (total[c], c))


POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}


def estimate(request):
    """Rules of thumb for calls (solving whole deals for every call is too slow in check-bot's
    time): my tricks from high cards and length, and my longest suit."""
    hand = request["view"]["hand"]
    hcp = sum(POINTS.get(c[0], 0) for c in hand)
    suits = {s: sum(1 for c in hand if c[1] == s) for s in "CDHS"}
    longest = max(suits, key=lambda s: (suits[s], s))
    return hcp / 4 + max(0, suits[longest] - 4), longest


def call(request):
    legal = request["legal"]
    mine, longest = estimate(request)
    individual = "seat_scores" in request["view"]
    # 400 / 41 bid one's own tricks; classic and Egyptian the side's (a partner adds ~3).
    expect = int(mine) if individual else int(mine + 3)
    bids = [m for m in legal if m not in ("pass", "double", "redouble")]
    fitting = [m for m in bids if int(m.rstrip("CDHSNT")) <= expect and (m[-1].isdigit() or m.endswith(longest))]
    if fitting:
        return fitting[-1]
    if "pass" in legal:
        return "pass"
    return bids[0] if bids else legal[0]


def trump(request):
    """The trump with the most double-dummy tricks for my side over sampled deals, me leading."""
    me = request["view"]["seat"]
    options = [m for m in request["legal"] if m in ("C", "D", "H", "S")]
    tricks = defaultdict(int)
    for hands in samples(request):
        for s in options:
            tricks[s] += tarneeb.dd_solve({"hands": hands, "trump": s, "leader": me, "table": []})["tricks"]
    return max(options, key=lambda s: tricks[s]) if options else request["legal"][0]


def choose(request):
    decision = request["decision"]
    if decision == "play":
        return play(request)
    if decision == "call":
        return call(request)
    if decision == "trump":
        return trump(request)
    return "keep" if "keep" in request["legal"] else request["legal"][0]


if __name__ == "__main__":
    tarneeb.bot.run(choose, name="python-pimc", version="1.0")
