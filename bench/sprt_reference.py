#!/usr/bin/env python3
"""Reference values for src/standings/{stats,sprt_normalized}.rs, written from the formulas
(fastchess's LOS; Van den Bergh's normalized-Elo MLE, section 4.1 of "Comments on Normalized
Elo"), in plain Python with math.erf and bisection, to check the Rust code on fixed counts.

    python3 bench/sprt_reference.py

SMOKE=1 (bench/smoke.sh, CI): the same run (it takes a fraction of a second), then each value
is checked against the one the Rust tests assert (src/standings/stats.rs,
sprt_normalized.rs): exit 1 when they part.
"""
import math
import os
import sys


def los(counts):
    """fastchess: (1 - erf(-(x - 1/2) / sqrt(2 var / N))) / 2, population variance."""
    k = len(counts) - 1
    n = sum(counts)
    mean = sum(c * i / k for i, c in enumerate(counts)) / n
    var = sum(c * (i / k - mean) ** 2 for i, c in enumerate(counts)) / n
    return (1 - math.erf(-(mean - 0.5) / math.sqrt(2 * var / n))) / 2


def mle(scores, obs, t):
    p = [1 / len(scores)] * len(scores)
    for _ in range(100000):
        mu = sum(a * q for a, q in zip(scores, p))
        sd = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(scores, p)))
        phi = [a - 0.5 - 0.5 * t * sd * (1 + ((a - mu) / sd) ** 2) for a in scores]
        lo, hi = -1 / max(phi), -1 / min(phi)
        f = lambda th: sum(o * ph / (1 + th * ph) for o, ph in zip(obs, phi))
        for _ in range(300):
            mid = (lo + hi) / 2
            if f(mid) > 0:
                lo = mid
            else:
                hi = mid
        th = (lo + hi) / 2
        new = [o / (1 + th * ph) for o, ph in zip(obs, phi)]
        done = max(abs(a - b) for a, b in zip(new, p)) < 1e-14
        p = new
        if done:
            break
    return p


def llr_normalized(counts, nelo0, nelo1):
    k = len(counts) - 1
    n = sum(counts)
    scores = [i / k for i in range(k + 1)]
    obs = [c / n for c in counts]
    unit = (math.sqrt(2) if k == 4 else 1) / (800 / math.log(10))
    p0, p1 = mle(scores, obs, nelo0 * unit), mle(scores, obs, nelo1 * unit)
    return n * sum(o * (math.log(b) - math.log(a)) for o, a, b in zip(obs, p0, p1))


# What the Rust tests assert for the lines below (SMOKE=1 checks them).
RUST_TESTS = {
    "LOS [5, 20, 40, 25, 10]": "0.930535",
    "LOS [1, 1, 4, 3, 1]": "0.721472",
    "LOS [0, 1, 5, 3, 1]": "0.943077",
    "normalized [5,20,40,25,10] 0..5": "0.27831",
    "normalized [30,40,30] 0..5": "-0.01035",
    "normalized [20,30,50] 0..5": "0.50580",
}

if __name__ == "__main__":
    values = {}
    for c in ([5, 20, 40, 25, 10], [1, 1, 4, 3, 1], [0, 1, 5, 3, 1]):
        values[f"LOS {c}"] = f"{los(c):.6f}"
    values["normalized [5,20,40,25,10] 0..5"] = f"{llr_normalized([5, 20, 40, 25, 10], 0, 5):.5f}"
    values["normalized [30,40,30] 0..5"] = f"{llr_normalized([30, 40, 30], 0, 5):.5f}"
    values["normalized [20,30,50] 0..5"] = f"{llr_normalized([20, 30, 50], 0, 5):.5f}"
    for name, v in values.items():
        print(name, v)
    if os.environ.get("SMOKE") == "1":
        bad = [f"{k}: {values.get(k)} here, {v} in the Rust tests" for k, v in RUST_TESTS.items()
               if values.get(k) != v]
        if bad:
            sys.exit("sprt_reference: " + "; ".join(bad))
        print("smoke run: the full computation; its values match the Rust tests'")
