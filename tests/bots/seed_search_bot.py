#!/usr/bin/env python3
"""A cheating bot for tests/slow/secret_deals.rs: it knows the referee's public deal generator
(SplitMix64 -> PCG-64 -> Fisher-Yates, src/rules/deal.rs) and, at its first request, searches
the seeds a referee could have used for a deal that gives it the hand it holds:

- every small seed 0..SMALL (a `play --seed N` with a memorable N);
- the deal sets 0..SMALL of a tournament seeded with 1, 2 or 3 (the default is 1);
- the seeds named on its command line (the test may name the true one);
- and every file and /proc entry it can read for a number that works as a seed.

It says `FOUND seed S: ...` on stderr when a seed gives its hand (it would then know all 52
cards) and `NOTFOUND: searched N seeds` otherwise, then plays like a random bot.

    seed_search_bot.py [SEED...]
"""

import json
import os
import random
import re
import sys

SMALL = 1024
MASK64 = (1 << 64) - 1
MASK128 = (1 << 128) - 1
MULT = 0x2360ED051FC65DA44385DF649FCCF645


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def splitmix(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


def mix(z):
    return splitmix(z)[1]


def deal_set_seed(seed, index):
    return mix(seed ^ mix(index))


class Pcg64:
    def __init__(self, state, stream):
        self.inc = ((stream << 1) | 1) & MASK128
        self.state = (state + self.inc) & MASK128
        self.step()

    def step(self):
        self.state = (self.state * MULT + self.inc) & MASK128

    def next_u64(self):
        self.step()
        s = self.state
        rot = s >> 122
        xsl = ((s >> 64) ^ s) & MASK64
        return ((xsl >> rot) | (xsl << (64 - rot))) & MASK64 if rot else xsl


def source(seed):
    x = seed
    parts = []
    for _ in range(4):
        x, v = splitmix(x)
        parts.append(v)
    return Pcg64((parts[0] << 64) | parts[1], (parts[2] << 64) | parts[3])


def below(rng, n):
    m = rng.next_u64() * n
    if (m & MASK64) < n:
        threshold = ((1 << 64) - n) % n
        while (m & MASK64) < threshold:
            m = rng.next_u64() * n
    return m >> 64


def first_deal(seed):
    rng = source(seed)
    dealer = below(rng, 4)
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return dealer, [frozenset(deck[13 * s: 13 * s + 13]) for s in range(4)]


def card_index(text):
    rank = "23456789TJQKA".index(text[0])
    suit = "CDHS".index(text[1])
    return suit * 13 + rank


def readable_numbers():
    """Every number a bot can read that could be a seed: argv of every process, the mounts,
    the environment, and small readable files under the usual places."""
    found = set()
    texts = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            for name in ("cmdline", "environ", "mountinfo"):
                try:
                    with open(f"/proc/{pid}/{name}", "rb") as f:
                        texts.append(f.read().replace(b"\0", b" ").decode("utf-8", "replace"))
                except OSError:
                    pass
    budget = 32 << 20  # bytes read from files at most: the search must stay in its time
    for top in (os.getcwd(), "/tmp", "/run", os.path.dirname(os.path.abspath(__file__))):
        for root, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if d not in ("target", ".git", "node_modules")]
            for name in files[:200]:
                path = os.path.join(root, name)
                try:
                    size = os.path.getsize(path)
                    if size < 1 << 20 and size <= budget:
                        with open(path, "rb") as f:
                            texts.append(f.read().decode("utf-8", "replace"))
                        budget -= size
                except OSError:
                    pass
    for text in texts:
        for n in re.findall(r"\d{1,20}", text):
            v = int(n)
            if v <= MASK64:
                found.add(v)
    return found


def search(hand, seat):
    mine = frozenset(card_index(c) for c in hand)
    seeds = set(range(SMALL))
    for t in (1, 2, 3):
        seeds.update(deal_set_seed(t, i) for i in range(SMALL))
    seeds.update(int(a) for a in sys.argv[1:])
    named = len(seeds)
    numbers = readable_numbers()
    seeds.update(sorted(numbers)[:4000])
    for s in seeds:
        _dealer, hands = first_deal(s)
        if hands[seat] == mine:
            log(f"FOUND seed {s}: all 52 cards known")
            return
    log(f"NOTFOUND: searched {len(seeds)} seeds ({named} named or small)")


def main():
    rng = random.Random(0)
    searched = False
    seat = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind in ("hello", "new_game"):
            seat = message["seat"]
            send({"type": "hello", "name": "seed-search", "version": "1", "multi_game": False})
        elif kind == "request":
            view = message["view"]
            if not searched and view["hand_number"] == 1 and len(view["hand"]) == 13:
                searched = True
                search(view["hand"], seat)
            send({"type": "move", "id": message["id"], "move": rng.choice(message["legal"])})


if __name__ == "__main__":
    main()
