#!/usr/bin/env python3
"""A bot that plays better in the second game of a duplicate pair: the attack the twin-order
check of `--analyze` exists to catch (tests/slow/twins.rs).

Usage: twin_bot.py DIR [RANDOM_SHARE]. DIR is a directory the test made, written and read
outside any sandbox (the test runs with --sandbox none): it stands for the channel a machine
leaves between the two games of a pair (the page cache of issue 38, or a record the bot can
read). At the first deal of every game each of the entrant's seats leaves its hand there. A
game whose first hand together with two hands left earlier (disjoint from each other and
from it: two hands of other deals almost never are, about 2e-7 a try) makes three quarters of
a deal is the second game of a pair: those two hands are the ones the opponents now hold, so
the bot knows every hand. This stand-in does not use them (tests/bots/twin_endgame_bot.py
does, and is much harder to catch: docs/competitions.md, "The duplicate twin"): it plays the heuristic sample bot's cards in second games, and in first games a random
legal card with probability RANDOM_SHARE (default 1), the heuristic's card otherwise. Calls
and trump choices are the heuristic's in both, so contracts stay alike.
"""

import importlib.util
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location(
    "heuristic_bot", os.path.join(HERE, "..", "..", "sample-bots", "python", "heuristic_bot.py")
)
heuristic = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(heuristic)

CARDS = [r + s for s in "CDHS" for r in "23456789TJQKA"]


def mask(cards):
    m = 0
    for c in cards:
        m |= 1 << CARDS.index(c[0].upper() + c[1].upper())
    return m


def is_second_twin(store, hand):
    """Whether two hands left earlier complete, with `hand`, three quarters of a deal (two
    disjoint hands of other deals almost never do: about 2e-7 a try)."""
    mine = mask(hand)
    hands = []
    for name in os.listdir(store):
        if name.endswith(".hand"):
            hands.append(int(name[: -len(".hand")]))
    for i, a in enumerate(hands):
        if a & mine:
            continue
        for b in hands[i + 1:]:
            if a & b == 0 and b & mine == 0:
                return True
    return False


def leave(store, hand):
    """Leaves `hand` in the store, the file named by its cards."""
    name = "%d.hand" % mask(hand)
    tmp = os.path.join(store, "%d.%d.tmp" % (mask(hand), os.getpid()))
    with open(tmp, "w") as f:
        f.write("")
    os.replace(tmp, os.path.join(store, name))


def main():
    store = sys.argv[1]
    share = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    rules, second, rng = {}, False, random.Random(0)
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        kind = message.get("type")
        if kind in ("hello", "new_game"):
            rules = message.get("rules") or {}
            rng = random.Random(message.get("seed", 0))
            second = False
            heuristic.send({"type": "hello", "name": "twin", "version": "1.0", "multi_game": True})
        elif kind == "deal" and message.get("hand_number") == 1:
            hand = message["hand"]
            second = is_second_twin(store, hand)
            leave(store, hand)
        elif kind == "request":
            legal = message["legal"]
            try:
                move = heuristic.decide(message, rules)
            except Exception:  # never let a bug forfeit the game
                move = None
            if message.get("decision") == "play" and not second and rng.random() < share:
                move = rng.choice(legal)
            if move not in legal:
                move = legal[0]
            heuristic.send({"type": "move", "id": message["id"], "move": move})


if __name__ == "__main__":
    main()
