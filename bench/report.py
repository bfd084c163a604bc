"""Turns the raw measurements of bench/run.sh into the table it prints.

    python3 bench/report.py TMPDIR ROUNDS ITERS

Inputs in TMPDIR: pp.MODE.PEERS (one bench/pingpong.c output line per round), and per MODE
games/MODE/index ("round seed record"), games/MODE/times (bench/timeit.c lines, same order),
the records and the bots' stderr logs (bench/first_legal_bot.c's report line).
"""

import statistics
import sys

tmp, rounds, iters = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])


def pingpong(mode, peers):
    """One dict per round."""
    runs = []
    for line in open(f"{tmp}/pp.{mode}.{peers}"):
        kv = {k: float(v) for k, v in (x.split("=") for x in line.split())}
        kv["cpu"] = kv["parent_cpu_us_per_iter"] + kv["peers_cpu_us_per_iter"]
        runs.append(kv)
    if len(runs) != rounds:
        sys.exit(f"bench: {len(runs)} ping-pong results for {mode}/{peers}, expected {rounds}")
    return runs


def games(mode):
    """One dict per game: wall, CPU (referee + bots) and bots' CPU in us, context switches,
    decisions, and the span from the first request arriving to the last reply sent."""
    d = f"{tmp}/games/{mode}"
    rows = []
    for idx, t in zip(open(f"{d}/index"), open(f"{d}/times")):
        r, _seed, record = idx.split()
        wall, user, sys_, csw, code = map(int, t.split())
        if code != 0:
            sys.exit(f"bench: the game {record} exited with {code}")
        decisions = sum(1 for l in open(record) if '"type":"move"' in l)
        stem = record[: -len(".jsonl")]
        bots, requests, first, last = 0, 0, [], []
        for seat in range(4):
            log = open(f"{stem}.seat{seat}.stderr.log").read().strip().splitlines()
            if not log or "cpu_us=" not in log[-1]:
                sys.exit(f"bench: no report from the bot in {stem}.seat{seat}.stderr.log")
            kv = dict(x.split("=") for x in log[-1].split()[1:])
            bots += int(kv["cpu_us"])
            requests += int(kv["requests"])
            if int(kv["requests"]):
                first.append(int(kv["first_request_ns"]))
                last.append(int(kv["last_reply_ns"]))
        if requests != decisions:
            sys.exit(f"bench: {record}: {decisions} moves, but the bots answered {requests}")
        rows.append(
            dict(
                round=int(r),
                wall=wall,
                cpu=user + sys_,
                bots=bots,
                csw=csw,
                n=decisions,
                span=(max(last) - min(first)) / 1000,
            )
        )
    return rows


def summarize(mode):
    p1, pb, g = pingpong(mode, 1), pingpong(mode, "batch"), games(mode)
    pb4, p4 = pingpong(mode, "batch4"), pingpong(mode, 4)
    per_round = []
    for r in range(rounds):
        rg = [x for x in g if x["round"] == r]
        n = sum(x["n"] for x in rg)

        def tot(k):
            return sum(x[k] for x in rg)

        per_round.append(
            dict(
                pp=p1[r]["us_per_iter"],
                pp_cpu=p1[r]["cpu"],
                pp_csw=p1[r]["csw_per_iter"],
                pb=pb[r]["us_per_iter"],
                pb_cpu=pb[r]["cpu"],
                pb4=pb4[r]["us_per_iter"],
                pb4_cpu=pb4[r]["cpu"],
                p4=p4[r]["us_per_iter"],
                p4_cpu=p4[r]["cpu"],
                p4_csw=p4[r]["csw_per_iter"],
                wall=tot("wall") / n,
                # n - games intervals between the first request and the last reply
                steady=tot("span") / (n - len(rg)),
                ref_cpu=(tot("cpu") - tot("bots")) / n,
                bots_cpu=tot("bots") / n,
                cpu=tot("cpu") / n,
                csw=tot("csw") / n,
            )
        )

    def add_ratios(x):
        x["ratio"] = x["wall"] / x["pp"]
        x["ratio_steady"] = x["steady"] / x["pp"]
        x["ratio_batch"] = x["steady"] / x["pb"]
        x["ratio_wall_batch"] = x["wall"] / x["pb"]
        x["ratio4"] = x["steady"] / x["p4"]
        x["ratio_batch4"] = x["steady"] / x["pb4"]
        x["cpu_ratio"] = x["cpu"] / x["pp_cpu"]

    for x in per_round:
        add_ratios(x)
    med = {k: statistics.median(x[k] for x in per_round) for k in per_round[0]}
    # The best (lowest) value of each measure over the rounds: on a shared machine, the least
    # disturbed moment of each. Its ratios are ratios of the bests.
    best = {k: min(x[k] for x in per_round) for k in per_round[0]}
    add_ratios(best)
    fixed = [(x["wall"] - x["span"]) / 1000 for x in g]
    med["fixed"], best["fixed"] = statistics.median(fixed), min(fixed)
    return dict(med=med, best=best, games=len(g), decisions=sum(x["n"] for x in g))


ROWS = [
    ("ping-pong, C parent <-> C bot: us per round trip", "pp"),
    ("  CPU us per round trip (both processes)", "pp_cpu"),
    ("  context switches per round trip", "pp_csw"),
    ("batch ping-pong (a decision's bytes, one write): us", "pb"),
    ("  CPU us per round trip (both processes)", "pb_cpu"),
    ("batched pattern in C (4 bots in turn, same bytes): us", "pb4"),
    ("  CPU us per decision (all processes)", "pb4_cpu"),
    ("decision pattern in C (4 bots, events): us per decision", "p4"),
    ("  CPU us per decision (all processes)", "p4_cpu"),
    ("  context switches per decision", "p4_csw"),
    ("tarneeb play: us per decision (game wall / decisions)", "wall"),
    ("  steady state: us per decision (1st request..last reply)", "steady"),
    ("  fixed ms per game (start, handshake, stop)", "fixed"),
    ("  referee CPU us per decision (all its threads)", "ref_cpu"),
    ("  bots' CPU us per decision (all four)", "bots_cpu"),
    ("  context switches per decision (referee + bots)", "csw"),
    ("RATIO steady state per decision / batch ping-pong", "ratio_batch"),
    ("ratio game wall per decision / batch ping-pong", "ratio_wall_batch"),
    ("ratio steady state per decision / request ping-pong", "ratio_steady"),
    ("ratio game wall per decision / request ping-pong", "ratio"),
    ("ratio steady state per decision / batched pattern in C", "ratio_batch4"),
    ("ratio steady state per decision / C decision pattern", "ratio4"),
    ("ratio CPU per decision (referee + bots) / ping-pong CPU", "cpu_ratio"),
]

P, U = summarize("pinned"), summarize("unpinned")
print()
print(
    f"{P['games']} games ({P['decisions']} decisions) per column in {rounds} rounds; ping-pong"
    f" {iters} round trips per round. Each cell: median of the rounds (best round)."
)
print()
w = max(len(label) for label, _ in ROWS)
print(f"| {'measure':<{w}} | {'pinned (1 CPU)':>16} | {'unpinned':>16} |")
print(f"| {'-' * w} | {'-' * 15}: | {'-' * 15}: |")


def cell(r, k):
    return f"{r['med'][k]:.1f} ({r['best'][k]:.1f})"


for label, key in ROWS:
    print(f"| {label:<{w}} | {cell(P, key):>16} | {cell(U, key):>16} |")
print()
print("Target (issue): a round trip through the referee costs at most 1.5 x a ping-pong of the")
print("same message size: the batch ping-pong sends the bytes the referee writes per decision.")
print("'batched pattern in C' is the same with four bots in turn (the processes of a game, no")
print("referee); 'decision pattern in C' is the messages of --events immediate, between C processes.")
