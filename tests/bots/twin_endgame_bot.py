#!/usr/bin/env python3
"""A bot that cheats in the second game of a duplicate pair: the attack the twin-order check of
`--analyze` exists to catch (tests/slow/twins.rs).

Not run by the test suite (a match of 12 pairs takes one to two minutes): the measurement of
docs/competitions.md, "The duplicate twin", that a cheat this small is not flagged over 12 pairs.

Usage: twin_endgame_bot.py DIR [TRICKS]. DIR is a directory the test made, written and read outside
any sandbox (the test runs with --sandbox none): it stands for the channel one machine leaves
between the two games of a pair (the page cache of issue 38). At every deal each of the
entrant's seats leaves its hand there, with its seat. In the second game of a pair the
opponents hold, seat for seat, the hands the entrant held in the first: two hands left
earlier that are disjoint from each other and from the bot's own hand are those (two hands of
other deals almost never are: about 2e-7 a try), and the partner holds the rest. With every
hand known the bot plays the last TRICKS tricks (default 5) double-dummy perfect, by its own
search; everything else is the heuristic sample bot's, in both games.
"""

import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location(
    "heuristic_bot", os.path.join(HERE, "..", "..", "sample-bots", "python", "heuristic_bot.py")
)
heuristic = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(heuristic)

CARDS = [r + s for s in "CDHS" for r in "23456789TJQKA"]
INDEX = {c: i for i, c in enumerate(CARDS)}
FULL = (1 << 52) - 1


def norm(card):
    return card[0].upper() + card[1].upper()


def mask(cards):
    m = 0
    for c in cards:
        m |= 1 << INDEX[norm(c)]
    return m


def cards_of(m):
    return [i for i in range(52) if m >> i & 1]


def leave(store, hand, seat):
    """Leaves `hand` in the store, the file named by its cards and seat."""
    name = "%d.%d.hand" % (mask(hand), seat)
    tmp = os.path.join(store, "%s.%d.tmp" % (name, os.getpid()))
    with open(tmp, "w") as f:
        f.write("")
    os.replace(tmp, os.path.join(store, name))


def leaked_deal(store, hand, seat):
    """The four hands by seat when the store holds the opponents' (a second twin), else None."""
    mine = mask(hand)
    left = []
    for name in os.listdir(store):
        parts = name.split(".")
        if len(parts) == 3 and parts[2] == "hand":
            left.append((int(parts[0]), int(parts[1])))
    opponents = {(seat + 1) % 4, (seat + 3) % 4}
    for i, (a, sa) in enumerate(left):
        if a & mine or sa not in opponents:
            continue
        for b, sb in left[i + 1:]:
            if a & b == 0 and b & mine == 0 and {sa, sb} == opponents:
                deal = [0, 0, 0, 0]
                deal[seat], deal[sa], deal[sb] = mine, a, b
                deal[(seat + 2) % 4] = FULL & ~(mine | a | b)
                return deal
    return None


def suit(i):
    return i // 13


def solve(rem, leader, trick, trump, memo):
    """The tricks seats 0 and 2 win from here, best play by all with every hand known
    (`trick`: the cards of the trick in progress, from `leader` on)."""
    to_play = (leader + len(trick)) % 4
    if not trick:
        if rem[0] == 0:
            return 0
        key = (tuple(rem), leader)
        if key in memo:
            return memo[key]
    hand = rem[to_play]
    options = cards_of(hand)
    if trick:
        led = suit(trick[0])
        follow = [c for c in options if suit(c) == led]
        if follow:
            options = follow
    maximize = to_play % 2 == 0
    best = None
    for c in options:
        rem[to_play] &= ~(1 << c)
        t = trick + [c]
        if len(t) == 4:
            winner_i = 0
            for j in range(1, 4):
                w, x = t[winner_i], t[j]
                if suit(x) == suit(w):
                    if x > w:
                        winner_i = j
                elif trump is not None and suit(x) == trump:
                    winner_i = j
            winner = (leader + winner_i) % 4
            v = (1 if winner % 2 == 0 else 0) + solve(rem, winner, [], trump, memo)
        else:
            v = solve(rem, leader, t, trump, memo)
        rem[to_play] |= 1 << c
        if best is None or (v > best if maximize else v < best):
            best = v
    if not trick:
        memo[key] = best
    return best


def perfect_card(view, deal, legal):
    """The legal card with the most tricks for the bot's side, every hand known."""
    rem = list(deal)
    for trick in view.get("tricks", []):
        for k, c in enumerate(trick["cards"]):
            rem[(trick["leader"] + k) % 4] &= ~(1 << INDEX[norm(c)])
    cur = view["current_trick"]
    played = [INDEX[norm(c)] for c in cur["cards"]]
    for k, c in enumerate(played):
        rem[(cur["leader"] + k) % 4] &= ~(1 << c)
    trump = view.get("trump")
    trump = "CDHS".index(trump) if trump in ("C", "D", "H", "S") else None
    seat = view["seat"]
    memo = {}
    scores = {}
    for card in legal:
        c = INDEX[norm(card)]
        rem[seat] &= ~(1 << c)
        t = played + [c]
        if len(t) == 4:
            winner_i = 0
            for j in range(1, 4):
                w, x = t[winner_i], t[j]
                if suit(x) == suit(w):
                    if x > w:
                        winner_i = j
                elif trump is not None and suit(x) == trump:
                    winner_i = j
            winner = (cur["leader"] + winner_i) % 4
            v = (1 if winner % 2 == 0 else 0) + solve(rem, winner, [], trump, memo)
        else:
            v = solve(rem, cur["leader"], t, trump, memo)
        rem[seat] |= 1 << c
        scores[card] = v if seat % 2 == 0 else -v
    return scores


def main():
    store = sys.argv[1]
    tricks = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    rules, deal, seat = {}, None, 0
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        kind = message.get("type")
        if kind in ("hello", "new_game"):
            rules = message.get("rules") or {}
            seat = message.get("seat", 0)
            deal = None
            heuristic.send({"type": "hello", "name": "twin", "version": "1.0", "multi_game": True})
        elif kind == "deal":
            hand = message["hand"]
            deal = leaked_deal(store, hand, seat)
            leave(store, hand, seat)
        elif kind == "request":
            legal = message["legal"]
            try:
                move = heuristic.decide(message, rules)
            except Exception:  # never let a bug forfeit the game
                move = None
            view = message.get("view", {})
            if (
                message.get("decision") == "play"
                and deal is not None
                and len(view.get("hand", [])) <= tricks
            ):
                scores = perfect_card(view, deal, legal)
                best = max(scores.values())
                if scores.get(move) != best:
                    move = next(c for c in legal if scores[c] == best)
            if move not in legal:
                move = legal[0]
            heuristic.send({"type": "move", "id": message["id"], "move": move})


if __name__ == "__main__":
    main()
