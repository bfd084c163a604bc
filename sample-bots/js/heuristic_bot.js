#!/usr/bin/env node
// A heuristic tarneeb bot for every preset (classic, Egyptian, 400, Forty-One).
// Node.js 20, no npm dependencies. It relies on protocol.md alone.
//
// Each request holds the full public history of the hand, so the bot answers every request from
// that one line (plus the rules from `hello`):
// - bidding: estimate the tricks the hand takes (high cards, suit length, trump length, short
//   side suits to ruff); contract games bid the team estimate (own + ~3 for partner) when it
//   reaches a legal bid, Egyptian picks the best strain and doubles only with a strong defence;
//   400 and Forty-One bid the own estimate, choosing the bid with the best expected score;
// - trump: the suit (or No Trump) with the best estimate;
// - play: count the cards played (masters, trumps still out), play low when the partner is
//   winning, win as cheaply as possible, discard from the weakest suit without wasting trumps,
//   lead masters, draw trumps when holding many.
// Every move it sends is one of the request's `legal` moves; anything unexpected falls back to
// the first legal move, so the bot never crashes the game.
'use strict';

const readline = require('readline');

const NAME = 'js-heuristic';
const VERSION = '1.0';
const RANKS = '23456789TJQKA';
const SUITS = ['C', 'D', 'H', 'S'];

const rank = (c) => RANKS.indexOf(c[0].toUpperCase());
const suit = (c) => c[1].toUpperCase();
const minBy = (xs, key) => {
  let best = null;
  let bestKey = null;
  for (const x of xs) {
    const k = key(x);
    if (best === null || cmp(k, bestKey) < 0) {
      best = x;
      bestKey = k;
    }
  }
  return best;
};
const maxBy = (xs, key) => {
  let best = null;
  let bestKey = null;
  for (const x of xs) {
    const k = key(x);
    if (best === null || cmp(k, bestKey) > 0) {
      best = x;
      bestKey = k;
    }
  }
  return best;
};
// compares numbers, booleans, or arrays of them lexicographically
function cmp(a, b) {
  if (Array.isArray(a)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = cmp(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  const x = Number(a);
  const y = Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function bySuit(cards) {
  const out = { C: [], D: [], H: [], S: [] };
  for (const c of cards) out[suit(c)].push(rank(c));
  for (const s of SUITS) out[s].sort((a, b) => b - a);
  return out;
}

// ---------------------------------------------------------------- hand evaluation

function honorTricks(ranks) {
  const n = ranks.length;
  const a = ranks.includes(12);
  const k = ranks.includes(11);
  const q = ranks.includes(10);
  const j = ranks.includes(9);
  let t = 0;
  if (a) t += 1;
  if (k) t += a ? 1 : n >= 2 ? 0.6 : 0.15;
  if (q) {
    if (a && k) t += 1;
    else if ((a || k) && n >= 3) t += 0.5;
    else if (n >= 3) t += 0.25;
  }
  if (j && n >= 4 && a && k && q) t += 0.8;
  return t;
}

function estimate(hand, strain) {
  const s = bySuit(hand);
  let total = 0;
  if (strain === 'NT' || strain == null) {
    for (const x of SUITS) {
      const h = honorTricks(s[x]);
      total += h;
      const n = s[x].length;
      if (n >= 5) total += (n - 4) * (h >= 1.5 ? 0.8 : 0.4);
    }
    return total;
  }
  const nt = s[strain].length;
  total += honorTricks(s[strain]);
  if (nt > 3) total += (nt - 3) * 0.9;
  for (const x of SUITS) {
    if (x === strain) continue;
    const n = s[x].length;
    total += honorTricks(s[x]) * (n >= 6 ? 0.9 : 1.0);
    if (n >= 5) total += (n - 4) * 0.3;
    if (nt >= 3) total += n === 0 ? 1.2 : n === 1 ? 0.7 : n === 2 ? 0.3 : 0;
  }
  return total;
}

function defence(hand, strain) {
  const s = bySuit(hand);
  let total = 0;
  const suited = strain != null && strain !== 'NT';
  for (const x of SUITS) {
    let h = honorTricks(s[x]);
    if (suited && x !== strain && s[x].length >= 6) h *= 0.7;
    total += h;
  }
  if (suited && s[strain].length >= 4) total += (s[strain].length - 3) * 0.6;
  return total;
}

const bestStrain = (hand, strains) => maxBy(strains, (x) => [estimate(hand, x), x !== 'NT']);

// ---------------------------------------------------------------- the auction

// '8H' -> [8, 'H']; '9' -> [9, null]; 'pass' -> null
function parseBid(call) {
  const m = /^(\d+)(.*)$/.exec(call);
  if (!m) return null;
  return [parseInt(m[1], 10), m[2] ? m[2].toUpperCase() : null];
}

function standingBid(view) {
  let best = null;
  for (const e of view.auction || []) if (parseBid(e.call)) best = [e.seat, e.call];
  return best;
}

function chooseCall(req, rules) {
  const legal = req.legal;
  const view = req.view;
  const hand = view.hand;
  const me = view.seat;
  const partner = (me + 2) % 4;
  if (rules.individual != null || view.bids != null) return individualBid(req, rules);

  const bids = legal.filter((c) => parseBid(c)).map((c) => [c, parseBid(c)]);
  const contract = rules.contract || {};
  const standing = standingBid(view);
  const partnerHolds = standing && standing[0] === partner;
  const iHold = standing && standing[0] === me;
  const options = contract.bids === 'strains' ? null : SUITS.concat(contract['no-trump'] ? ['NT'] : []);
  const strainsOf = (b) => (options ? options : [b[1] || 'NT']);
  const team = (strain, level) => estimate(hand, strain) + (level <= 10 ? 3.0 : 2.5);

  if (legal.includes('double') && standing) {
    const [level, strain] = parseBid(standing[1]);
    if (defence(hand, strain) + 2.5 >= 14 - level + 1.5) return 'double';
  }
  if (legal.includes('redouble') && standing) {
    const [level, strain] = parseBid(standing[1]);
    const st = strain || view.trump || bestStrain(hand, SUITS);
    if (team(st, level) >= level + 1.5) return 'redouble';
  }
  if ((partnerHolds || iHold) && legal.includes('pass')) return 'pass';

  const sorted = bids.slice().sort((a, b) => a[1][0] - b[1][0]);
  let choice = null;
  for (const [call, [level, strain]] of sorted) {
    const margin = level < 13 ? 0 : 1;
    for (const st of strainsOf([level, strain])) {
      const value = team(st, level) - level - margin;
      if (value >= 0 && (choice === null || cmp([level, -value], [choice[1], -choice[2]]) < 0)) {
        choice = [call, level, value];
      }
    }
    if (choice) break;
  }
  if (choice) return choice[0];
  if (legal.includes('pass')) return 'pass';
  if (sorted.length) {
    // forced to bid: the cheapest bid in the best strain
    return maxBy(sorted.slice(0, 6), (b) => [-b[1][0], Math.max(...strainsOf(b[1]).map((st) => estimate(hand, st)))])[0];
  }
  return legal[0];
}

function erf(x) {
  // Abramowitz-Stegun 7.1.26
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return x >= 0 ? y : -y;
}

function individualBid(req, rules) {
  const legal = req.legal;
  const view = req.view;
  const ind = rules.individual || {};
  const trump = view.trump || ind.trump || 'H';
  const est = estimate(view.hand, trump);
  const points = {};
  for (const [k, v] of Object.entries(ind.points || {})) points[parseInt(k, 10)] = v;
  const instant13 = (ind.thirteen || 'instant') === 'instant';
  const sd = 1.1;
  const pMake = (b) => 1 - 0.5 * (1 + erf((b - 0.5 - est) / sd / Math.SQRT2));
  let best = null;
  let bestEv = null;
  let bestB = null;
  for (const call of legal) {
    const pb = parseBid(call);
    if (!pb) continue;
    const b = pb[0];
    let ev;
    if (b === 13 && (instant13 || !(13 in points))) {
      ev = est >= 12.5 ? 1000 : -1000;
    } else {
      const pts = b in points ? points[b] : b;
      const p = pMake(b);
      ev = p * pts - (1 - p) * pts * 1.1; // a little risk-averse: failing costs
    }
    if (bestEv === null || ev > bestEv || (ev === bestEv && b < bestB)) {
      best = call;
      bestEv = ev;
      bestB = b;
    }
  }
  // the last bidder: rather than let the hand be thrown in for a bid total that is too low,
  // raise to the total when that costs at most about one trick over the estimate
  const bids = view.bids || [];
  if (best !== null && bids.length === 4 && bids.filter((b) => b == null).length === 1) {
    const scores = view.seat_scores || [0, 0, 0, 0];
    const others = bids.reduce((a, b) => a + (b == null ? 0 : b), 0);
    const need = steps(ind['bid-sum'] || {}, Math.max(...scores)) - others;
    if (bestB < need && need <= est + 1.0 && need < 13 && legal.includes(String(need))) return String(need);
  }
  return best !== null ? best : legal[0];
}

function steps(spec, score) {
  let value = spec.base || 0;
  for (const [threshold, v] of spec.from || []) if (score >= threshold) value = v;
  return value;
}

function chooseTrump(req) {
  const hand = req.view.hand;
  return maxBy(req.legal, (x) => [estimate(hand, x), x !== 'NT']);
}

function chooseThrowIn(req) {
  const hand = req.view.hand;
  const s = bySuit(hand);
  const longest = maxBy(SUITS, (x) => s[x].length);
  if (s[longest].length >= 10) return estimate(hand, longest) >= 11.5 ? 'keep' : 'throw-in';
  return 'throw-in'; // a hand too weak to count on: let it go
}

// ---------------------------------------------------------------- the play

function trickWinner(cards, trump) {
  const hasTrump = trump != null && trump !== 'NT';
  let best = 0;
  for (let i = 1; i < cards.length; i++) {
    const c = cards[i];
    const b = cards[best];
    if (hasTrump && suit(c) === trump && suit(b) !== trump) best = i;
    else if (suit(c) === suit(b) && rank(c) > rank(b)) best = i;
  }
  return best;
}

function choosePlay(req) {
  const legal = req.legal;
  const view = req.view;
  const me = view.seat;
  const partner = (me + 2) % 4;
  const hand = view.hand;
  const trump = view.trump;
  const hasTrump = SUITS.includes(trump);
  const tricks = view.tricks || [];
  const current = view.current_trick || { leader: me, cards: [] };
  const curCards = current.cards || [];
  const leader = current.leader != null ? current.leader : me;

  const played = new Set();
  const voids = [new Set(), new Set(), new Set(), new Set()];
  const note = (lead, cards) => {
    if (!cards.length) return;
    const led = suit(cards[0]);
    cards.forEach((c, i) => {
      played.add(c);
      if (suit(c) !== led) voids[(lead + i) % 4].add(led);
    });
  };
  for (const t of tricks) note(t.leader, t.cards);
  note(leader, curCards);
  const inHand = new Set(hand);
  const unseen = [];
  for (const s of SUITS) for (const r of RANKS) if (!played.has(r + s) && !inHand.has(r + s)) unseen.push(r + s);
  const unseenBy = bySuit(unseen);
  const isMaster = (c) => unseenBy[suit(c)].every((r) => r < rank(c));
  const trumpsOut = hasTrump ? unseenBy[trump].length : 0;
  const isTrump = (c) => hasTrump && suit(c) === trump;
  const keyLow = (c) => [isTrump(c), isMaster(c), rank(c)];

  const contract = view.contract;
  const individual = view.bids != null;
  const declaring = contract != null && (contract.declarer === me || contract.declarer === partner);

  // ------------------------------------------------------------ leading
  if (!curCards.length) {
    if (!hasTrump && trump == null && contract != null && contract.declarer === me) {
      // trump is set by this lead (first-lead rule): lead the top of the best suit
      const st = bestStrain(hand, SUITS.filter((x) => legal.some((c) => suit(c) === x)));
      return maxBy(legal.filter((c) => suit(c) === st), rank);
    }
    return lead(legal, trump, hasTrump, trumpsOut, isMaster, voids, me, declaring || individual);
  }

  // ------------------------------------------------------------ following
  const winIdx = trickWinner(curCards, trump);
  const winnerSeat = (leader + winIdx) % 4;
  const position = curCards.length;
  const last = position === 3;
  const led = suit(curCards[0]);
  const wins = (c) => trickWinner(curCards.concat([c]), trump) === curCards.length;
  const winners = legal.filter(wins);
  const following = legal.some((c) => suit(c) === led);

  let partnerWinning = winnerSeat === partner;
  if (partnerWinning && individual) {
    // in 400 / Forty-One my own tricks count: take it when I still need tricks and the partner
    // has already made their bid
    const bids = view.bids || [null, null, null, null];
    const won = view.tricks_won || [0, 0, 0, 0];
    if (bids[me] != null && bids[partner] != null && won[me] < bids[me] && won[partner] >= bids[partner]) {
      partnerWinning = false;
    }
  }

  if (partnerWinning) {
    const pcard = curCards[winIdx];
    let safe = last;
    if (!safe) {
      if (suit(pcard) === trump) {
        safe = unseenBy[trump].every((r) => r < rank(pcard));
      } else {
        const higher = unseenBy[suit(pcard)].some((r) => r > rank(pcard));
        const nxt = (me + 1) % 4;
        const ruffRisk = hasTrump && voids[nxt].has(led) && !voids[nxt].has(trump) && trumpsOut > 0;
        safe = !higher && !ruffRisk;
      }
    }
    if (safe || !winners.length) return minBy(legal, keyLow);
    const masters = winners.filter((c) => isMaster(c) && suit(c) === led);
    if (masters.length) return minBy(masters, rank);
    return minBy(legal, keyLow);
  }

  if (winners.length) {
    const cheapest = (cs) => minBy(cs, (c) => [isTrump(c), rank(c)]);
    if (last) return cheapest(winners);
    const oppAfter = [];
    for (let k = 1; k < 4 - position; k++) {
      const p = (me + k) % 4;
      if (p !== partner) oppAfter.push(p);
    }
    const holds = (c) => {
      if (isTrump(c)) {
        return (
          unseenBy[trump].every((r) => r < rank(c)) ||
          oppAfter.every((p) => voids[p].has(led) && voids[p].has(trump)) ||
          !oppAfter.some((p) => voids[p].has(led))
        );
      }
      if (!isMaster(c)) return false;
      if (hasTrump && trumpsOut > 0) return !oppAfter.some((p) => voids[p].has(led) && !voids[p].has(trump));
      return true;
    };
    const good = winners.filter(holds);
    if (good.length) return cheapest(good);
    if (following) {
      if (position === 1) return minBy(legal, keyLow); // second hand low
      return minBy(winners, rank); // third hand: make them pay
    }
    return minBy(winners, rank); // void: ruff cheaply
  }

  // cannot win: throw the cheapest card
  if (following) return minBy(legal, rank);
  return discard(legal, isTrump, isMaster);
}

function discard(legal, isTrump, isMaster) {
  const side = legal.filter((c) => !isTrump(c));
  const pool = side.length ? side : legal;
  const counts = {};
  for (const c of pool) counts[suit(c)] = (counts[suit(c)] || 0) + 1;
  // keep masters; prefer short suits (to make voids) with low cards
  return minBy(pool, (c) => [isMaster(c), rank(c) >= 9, counts[suit(c)], rank(c)]);
}

function lead(legal, trump, hasTrump, trumpsOut, isMaster, voids, me, attacking) {
  const partner = (me + 2) % 4;
  const opps = [(me + 1) % 4, (me + 3) % 4];
  const isTrump = (c) => hasTrump && suit(c) === trump;
  const myTrumps = legal.filter(isTrump);
  const side = legal.filter((c) => !isTrump(c));
  const ruffable = (s) => hasTrump && trumpsOut > 0 && opps.some((o) => voids[o].has(s) && !voids[o].has(trump));

  // draw trumps when holding many
  if (attacking && myTrumps.length && trumpsOut > 0 && myTrumps.length >= Math.max(3, trumpsOut)) {
    const top = maxBy(myTrumps, rank);
    if (isMaster(top)) return top;
    if (myTrumps.length >= trumpsOut + 2) return minBy(myTrumps, rank);
  }

  // cash masters of side suits (from the longest suit first)
  const counts = {};
  for (const c of legal) counts[suit(c)] = (counts[suit(c)] || 0) + 1;
  const masters = side.filter((c) => isMaster(c) && !ruffable(suit(c)));
  if (masters.length) return maxBy(masters, (c) => [counts[suit(c)], rank(c)]);

  if (myTrumps.length && trumpsOut === 0 && !side.length) return maxBy(myTrumps, rank);

  // a suit the partner can ruff
  if (hasTrump && side.length) {
    for (const c of side.slice().sort((a, b) => rank(a) - rank(b))) {
      const s = suit(c);
      if (voids[partner].has(s) && !voids[partner].has(trump) && !ruffable(s)) return c;
    }
  }

  if (side.length) {
    // low from the longest side suit not ruffable by the opponents; avoid leading from an
    // unguarded king/queen
    const key = (c) => {
      const s = suit(c);
      const cards = legal.filter((x) => suit(x) === s);
      const top = Math.max(...cards.map(rank));
      const tenace = (top === 11 || top === 10) && cards.length <= 3;
      return [ruffable(s), tenace, -counts[s], rank(c)];
    };
    const s = suit(minBy(side, key));
    return minBy(side.filter((c) => suit(c) === s), rank);
  }
  if (myTrumps.length) {
    const top = maxBy(myTrumps, rank);
    return isMaster(top) ? top : minBy(myTrumps, rank);
  }
  return minBy(legal, rank);
}

// ---------------------------------------------------------------- main loop

function decide(req, rules) {
  switch (req.decision) {
    case 'play':
      return choosePlay(req, rules);
    case 'call':
      return chooseCall(req, rules);
    case 'trump':
      return chooseTrump(req, rules);
    case 'throw-in':
      return chooseThrowIn(req, rules);
    default:
      return req.legal[0];
  }
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

let rules = {};
const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  line = line.trim();
  if (!line) return;
  let message;
  try {
    message = JSON.parse(line);
  } catch (e) {
    return;
  }
  if (message.type === 'hello' || message.type === 'new_game') {
    rules = message.rules || {};
    send({ type: 'hello', name: NAME, version: VERSION, multi_game: true });
  } else if (message.type === 'request') {
    const legal = message.legal;
    let move = null;
    try {
      move = decide(message, rules);
    } catch (e) {
      // never let a bug forfeit the game
      process.stderr.write('heuristic_bot: ' + (e && e.stack ? e.stack : e) + '\n');
    }
    if (!legal.includes(move)) move = legal[0];
    send({ type: 'move', id: message.id, move });
  }
  // game_end: wait for new_game or the end of input (multi_game)
});
rl.on('close', () => process.exit(0));
