#!/usr/bin/env python3
"""A heuristic tarneeb bot for every preset (classic, Egyptian, 400, Forty-One). Standard library only.

It relies on protocol.md alone. Each request holds the full public history of the hand, so the
bot answers every request from that one line (plus the rules from `hello`):

- bidding: estimate the tricks the hand takes (high cards, suit length, trump length, short side
  suits to ruff); contract games bid the team estimate (own + ~3 for partner) when it reaches a
  legal bid, Egyptian picks the best strain and doubles only with a strong defence; 400 and
  Forty-One bid the own estimate, choosing the bid with the best expected score;
- trump: the suit (or No Trump) with the best estimate;
- play: count the cards played (so it knows which cards are masters and how many trumps are
  out), play low when the partner is winning, win as cheaply as possible, discard from the
  weakest suit without wasting trumps, lead masters, draw trumps when holding many.

Every move it sends is one of the request's `legal` moves; anything unexpected falls back to the
first legal move, so the bot never crashes the game.
"""

import json
import math
import sys

NAME = "python-heuristic"
VERSION = "1.0"

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def rank(card):
    return RANKS.index(card[0].upper())


def suit(card):
    return card[1].upper()


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def by_suit(cards):
    out = {s: [] for s in SUITS}
    for c in cards:
        out[suit(c)].append(rank(c))
    for s in SUITS:
        out[s].sort(reverse=True)
    return out


# ---------------------------------------------------------------- hand evaluation

def honor_tricks(ranks):
    """Tricks from the high cards of one suit (ranks sorted high to low)."""
    n = len(ranks)
    have = set(ranks)
    a, k, q, j = 12 in have, 11 in have, 10 in have, 9 in have
    t = 0.0
    if a:
        t += 1
    if k:
        t += 1 if a else (0.6 if n >= 2 else 0.15)
    if q:
        if a and k:
            t += 1
        elif (a or k) and n >= 3:
            t += 0.5
        elif n >= 3:
            t += 0.25
    if j and n >= 4 and a and k and q:
        t += 0.8
    return t


def estimate(hand, strain):
    """Tricks this hand should take with `strain` ('C'..'S' or 'NT') as trump."""
    s = by_suit(hand)
    total = 0.0
    if strain == "NT" or strain is None:
        for x in SUITS:
            h = honor_tricks(s[x])
            total += h
            n = len(s[x])
            if n >= 5:
                total += (n - 4) * (0.8 if h >= 1.5 else 0.4)
        return total
    nt = len(s[strain])
    # trumps: high cards, then length
    total += honor_tricks(s[strain])
    if nt > 3:
        total += (nt - 3) * 0.9
    for x in SUITS:
        if x == strain:
            continue
        n = len(s[x])
        total += honor_tricks(s[x]) * (0.9 if n >= 6 else 1.0)
        if n >= 5:
            total += (n - 4) * 0.3
        if nt >= 3:
            total += {0: 1.2, 1: 0.7, 2: 0.3}.get(n, 0.0)
    return total


def defence(hand, strain):
    """Tricks this hand should take against a contract in `strain`."""
    s = by_suit(hand)
    total = 0.0
    for x in SUITS:
        h = honor_tricks(s[x])
        if strain not in (None, "NT") and x != strain and len(s[x]) >= 6:
            h *= 0.7
        total += h
    if strain not in (None, "NT"):
        nt = len(s[strain])
        if nt >= 4:
            total += (nt - 3) * 0.6
    return total


def best_strain(hand, strains):
    return max(strains, key=lambda x: (estimate(hand, x), x != "NT"))


# ---------------------------------------------------------------- the auction

def parse_bid(call):
    """'8H' -> (8, 'H'); '9' -> (9, None); 'pass' -> None."""
    i = 0
    while i < len(call) and call[i].isdigit():
        i += 1
    if i == 0:
        return None
    return int(call[:i]), (call[i:].upper() or None)


def standing_bid(view):
    """(seat, call) of the highest bid so far, or None."""
    best = None
    for entry in view.get("auction") or []:
        if parse_bid(entry["call"]) is not None:
            best = (entry["seat"], entry["call"])
    return best


def choose_call(req, rules):
    legal = req["legal"]
    view = req["view"]
    hand = view["hand"]
    me = view["seat"]
    partner = (me + 2) % 4
    if rules.get("individual") is not None or view.get("bids") is not None:
        return individual_bid(req, rules)

    bids = [(c, parse_bid(c)) for c in legal if parse_bid(c) is not None]
    contract = rules.get("contract") or {}
    standing = standing_bid(view)
    partner_holds = standing is not None and standing[0] == partner
    i_hold = standing is not None and standing[0] == me

    # strains I could end up playing in
    if contract.get("bids") == "strains":
        strains_of = lambda b: [b[1] or "NT"]
    else:
        options = list(SUITS) + (["NT"] if contract.get("no-trump") else [])
        strains_of = lambda b: options

    def team(strain, level):
        own = estimate(hand, strain)
        # partner's help is less reliable for the high contracts
        return own + (3.0 if level <= 10 else 2.5)

    # double / redouble
    if "double" in legal and standing is not None:
        level, strain = parse_bid(standing[1])
        need = 14 - level  # tricks that defeat the contract
        if defence(hand, strain) + 2.5 >= need + 1.5:
            return "double"
    if "redouble" in legal and standing is not None:
        level, strain = parse_bid(standing[1])
        st = strain or view.get("trump") or best_strain(hand, list(SUITS))
        if team(st, level) >= level + 1.5:
            return "redouble"

    if partner_holds or i_hold:
        # do not outbid the partner (or myself) unless this hand is far better in its own strain
        if "pass" in legal:
            return "pass"

    choice = None
    for call, (level, strain) in sorted(bids, key=lambda b: b[1][0]):
        margin = 0.0 if level < 13 else 1.0
        for st in strains_of((level, strain)):
            value = team(st, level) - level - margin
            if value >= 0 and (choice is None or (level, -value) < (choice[1], -choice[2])):
                choice = (call, level, value)
        if choice is not None:
            break
    if choice is not None:
        return choice[0]
    if "pass" in legal:
        return "pass"
    if bids:  # forced to bid: the cheapest bid in the best strain
        return max(sorted(bids, key=lambda b: b[1][0])[:6],
                   key=lambda b: (-b[1][0], max(estimate(hand, st) for st in strains_of(b[1]))))[0]
    return legal[0]


def steps(spec, score):
    value = spec.get("base", 0)
    for threshold, v in spec.get("from") or []:
        if score >= threshold:
            value = v
    return value


def individual_bid(req, rules):
    legal = req["legal"]
    view = req["view"]
    ind = rules.get("individual") or {}
    trump = view.get("trump") or ind.get("trump") or "H"
    est = estimate(view["hand"], trump)
    points = {int(k): v for k, v in (ind.get("points") or {}).items()}
    instant13 = ind.get("thirteen", "instant") == "instant"
    sd = 1.1

    def p_make(b):
        z = (b - 0.5 - est) / sd
        return 1 - 0.5 * (1 + math.erf(z / math.sqrt(2)))

    best, best_ev = None, None
    for call in legal:
        pb = parse_bid(call)
        if pb is None:
            continue
        b = pb[0]
        if b == 13 and (instant13 or 13 not in points):
            ev = 1000 if est >= 12.5 else -1000
        else:
            pts = points.get(b, b)
            p = p_make(b)
            ev = p * pts - (1 - p) * pts * 1.1  # a little risk-averse: failing costs
        if best_ev is None or ev > best_ev or (ev == best_ev and b < parse_bid(best)[0]):
            best, best_ev = call, ev
    # the last bidder: rather than let the hand be thrown in for a bid total that is too low,
    # raise to the total when that costs at most about one trick over the estimate
    bids = view.get("bids") or []
    if best is not None and len(bids) == 4 and sum(b is None for b in bids) == 1:
        scores = view.get("seat_scores") or [0, 0, 0, 0]
        others = sum(b for b in bids if b is not None)
        need = steps(ind.get("bid-sum") or {}, max(scores)) - others
        b = parse_bid(best)[0]
        if b < need <= est + 1.0 and need < 13 and str(need) in legal:
            return str(need)
    return best if best is not None else legal[0]


def choose_trump(req, rules):
    legal = req["legal"]
    hand = req["view"]["hand"]
    return max(legal, key=lambda x: (estimate(hand, x), x != "NT"))


def choose_throw_in(req, rules):
    hand = req["view"]["hand"]
    s = by_suit(hand)
    longest = max(SUITS, key=lambda x: len(s[x]))
    if len(s[longest]) >= 10:
        # kept, this hand may only pass or bid 13
        return "keep" if estimate(hand, longest) >= 11.5 else "throw-in"
    return "throw-in"  # a hand too weak to count on: let it go


# ---------------------------------------------------------------- the play

def trick_winner(cards, trump):
    """Index (from the leader) of the card winning these cards."""
    led = suit(cards[0])
    best = 0
    for i, c in enumerate(cards[1:], 1):
        b = cards[best]
        if trump not in (None, "NT") and suit(c) == trump and suit(b) != trump:
            best = i
        elif suit(c) == suit(b) and rank(c) > rank(b):
            best = i
    return best


def choose_play(req, rules):
    legal = req["legal"]
    view = req["view"]
    me = view["seat"]
    partner = (me + 2) % 4
    hand = view["hand"]
    trump = view.get("trump")
    has_trump = trump is not None and trump in SUITS
    tricks = view.get("tricks") or []
    current = view.get("current_trick") or {"leader": me, "cards": []}
    cur_cards = current.get("cards") or []
    leader = current.get("leader", me)

    played = set()
    voids = {p: set() for p in range(4)}
    for t in tricks:
        led = suit(t["cards"][0])
        for i, c in enumerate(t["cards"]):
            played.add(c)
            if suit(c) != led:
                voids[(t["leader"] + i) % 4].add(led)
    if cur_cards:
        led = suit(cur_cards[0])
        for i, c in enumerate(cur_cards):
            played.add(c)
            if suit(c) != led:
                voids[(leader + i) % 4].add(led)
    unseen = [r + s for s in SUITS for r in RANKS if (r + s) not in played and (r + s) not in hand]
    unseen_by = by_suit(unseen)

    def is_master(c):
        return all(r < rank(c) for r in unseen_by[suit(c)])

    trumps_out = len(unseen_by[trump]) if has_trump else 0

    def key_low(c):
        # lower is cheaper to give away: trumps and masters last
        return ((has_trump and suit(c) == trump), is_master(c), rank(c))

    # declaring side (contract games); in 400 / 41 everyone plays for their own tricks
    contract = view.get("contract")
    individual = view.get("bids") is not None
    declaring = contract is not None and contract.get("declarer") in (me, partner)

    # ------------------------------------------------------------ leading
    if not cur_cards:
        if not has_trump and trump is None and contract is not None and contract.get("declarer") == me:
            # trump is set by this lead (first-lead rule): lead the top of the best suit
            st = best_strain(hand, [x for x in SUITS if any(suit(c) == x for c in legal)])
            cands = [c for c in legal if suit(c) == st]
            return max(cands, key=rank)
        return lead(legal, hand, trump, has_trump, trumps_out, is_master, voids, me,
                    declaring or individual, unseen_by)

    # ------------------------------------------------------------ following
    win_idx = trick_winner(cur_cards, trump)
    winner_seat = (leader + win_idx) % 4
    position = len(cur_cards)  # 1: second hand, 2: third, 3: last
    last = position == 3
    led = suit(cur_cards[0])

    def wins(c):
        return trick_winner(cur_cards + [c], trump) == len(cur_cards)

    winners = [c for c in legal if wins(c)]
    following = any(suit(c) == led for c in legal)

    partner_winning = winner_seat == partner
    if partner_winning and individual:
        # in 400 / Forty-One my own tricks count: take it when I still need tricks and the
        # partner has already made their bid
        bids = view.get("bids") or [None] * 4
        won = view.get("tricks_won") or [0] * 4
        if bids[me] is not None and bids[partner] is not None:
            if won[me] < bids[me] and won[partner] >= bids[partner]:
                partner_winning = False

    if partner_winning:
        pcard = cur_cards[win_idx]
        safe = last
        if not safe:
            # the last player is an opponent: is the partner's card going to hold?
            if suit(pcard) == trump:
                safe = all(r < rank(pcard) for r in unseen_by[trump])
            else:
                higher = [r for r in unseen_by[suit(pcard)] if r > rank(pcard)]
                nxt = (me + 1) % 4
                ruff_risk = has_trump and led in voids[nxt] and trump not in voids[nxt] and trumps_out > 0
                safe = not higher and not ruff_risk
        if safe or not winners:
            return min(legal, key=key_low)
        # partner may be beaten: win with a master if I have one, else play low
        masters = [c for c in winners if is_master(c) and suit(c) == led]
        if masters:
            return min(masters, key=rank)
        return min(legal, key=key_low)

    if winners:
        if last:
            return min(winners, key=lambda c: ((has_trump and suit(c) == trump), rank(c)))
        # not last: a winner the remaining players are unlikely to beat
        followers = [(me + k) % 4 for k in range(1, 4 - position)]
        opp_after = [p for p in followers if p != partner]

        def holds(c):
            if suit(c) == trump and has_trump:
                return all(r < rank(c) for r in unseen_by[trump]) or all(
                    led in voids[p] and trump in voids[p] for p in opp_after) or not any(
                    led in voids[p] for p in opp_after)
            if not is_master(c):
                return False
            if has_trump and trumps_out > 0:
                return not any(led in voids[p] and trump not in voids[p] for p in opp_after)
            return True

        good = [c for c in winners if holds(c)]
        if good:
            return min(good, key=lambda c: ((has_trump and suit(c) == trump), rank(c)))
        if following:
            if position == 1:
                return min(legal, key=key_low)  # second hand low
            return min(winners, key=rank)  # third hand: make them pay
        # void: ruff cheaply
        return min(winners, key=rank)

    # cannot win: throw the cheapest card
    if following:
        return min(legal, key=rank)
    return discard(legal, trump, has_trump, is_master)


def discard(legal, trump, has_trump, is_master):
    side = [c for c in legal if not (has_trump and suit(c) == trump)]
    pool = side or legal
    counts = {}
    for c in pool:
        counts[suit(c)] = counts.get(suit(c), 0) + 1

    def key(c):
        # keep masters; prefer short suits (to make voids) with low cards
        return (is_master(c), rank(c) >= 9, counts[suit(c)], rank(c))

    return min(pool, key=key)


def lead(legal, hand, trump, has_trump, trumps_out, is_master, voids, me, attacking, unseen_by):
    partner = (me + 2) % 4
    opps = [(me + 1) % 4, (me + 3) % 4]
    my_trumps = [c for c in legal if has_trump and suit(c) == trump]
    side = [c for c in legal if not (has_trump and suit(c) == trump)]

    def ruffable(s):
        return has_trump and trumps_out > 0 and any(s in voids[o] and trump not in voids[o] for o in opps)

    # draw trumps when holding many
    if attacking and my_trumps and trumps_out > 0 and len(my_trumps) >= max(3, trumps_out):
        top = max(my_trumps, key=rank)
        if is_master(top):
            return top
        if len(my_trumps) >= trumps_out + 2:
            return min(my_trumps, key=rank)

    # cash masters of side suits (from the longest suit first)
    counts = {}
    for c in legal:
        counts[suit(c)] = counts.get(suit(c), 0) + 1
    masters = [c for c in side if is_master(c) and not ruffable(suit(c))]
    if masters:
        return max(masters, key=lambda c: (counts[suit(c)], rank(c)))

    # the opponents have no trumps left: my top trumps are winners too
    if my_trumps and trumps_out == 0 and side == []:
        return max(my_trumps, key=rank)

    # a suit the partner can ruff (partner void, trumps left with them)
    if has_trump and side:
        for c in sorted(side, key=rank):
            s = suit(c)
            if s in voids[partner] and trump not in voids[partner] and not ruffable(s):
                return c

    if side:
        # low from the longest side suit not ruffable by the opponents; avoid leading from
        # an unguarded king/queen
        def key(c):
            s = suit(c)
            cards = sorted((x for x in legal if suit(x) == s), key=rank, reverse=True)
            top_r = rank(cards[0])
            tenace = top_r in (11, 10) and len(cards) <= 3
            return (ruffable(s), tenace, -counts[s], rank(c))
        best = min(side, key=key)
        s = suit(best)
        return min((c for c in side if suit(c) == s), key=rank)
    if my_trumps:
        top = max(my_trumps, key=rank)
        return top if is_master(top) else min(my_trumps, key=rank)
    return min(legal, key=rank)


# ---------------------------------------------------------------- main loop

def decide(req, rules):
    decision = req.get("decision")
    if decision == "play":
        return choose_play(req, rules)
    if decision == "call":
        return choose_call(req, rules)
    if decision == "trump":
        return choose_trump(req, rules)
    if decision == "throw-in":
        return choose_throw_in(req, rules)
    return req["legal"][0]


def main():
    rules = {}
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError:
            continue
        kind = message.get("type")
        if kind in ("hello", "new_game"):
            rules = message.get("rules") or {}
            send({"type": "hello", "name": NAME, "version": VERSION, "multi_game": True})
        elif kind == "request":
            legal = message["legal"]
            try:
                move = decide(message, rules)
            except Exception as error:  # never let a bug forfeit the game
                print("heuristic_bot: %r" % (error,), file=sys.stderr)
                move = None
            if move not in legal:
                move = legal[0]
            send({"type": "move", "id": message["id"], "move": move})
        # game_end: wait for new_game or the end of input (multi_game)


if __name__ == "__main__":
    main()
