"""Reads a `tarneeb play --trace` file (lines {"dir", "seat", "line", ...}) and writes LINES_OUT
for bench/pingpong.c: line 1 the request closest to the mean request size, line 2 a move event,
line 3 a trick event. Prints what one decision costs in messages.

    python3 bench/capture.py TRACE LINES_OUT
"""

import json
import sys

trace, lines_out = sys.argv[1:]
out = {}  # message type -> lines sent, one entry per receiving seat
replies = []
for raw in open(trace):
    e = json.loads(raw)
    line = e["line"]
    kind = json.loads(line).get("type")
    if e["dir"] == "in":
        if kind == "move":
            replies.append(line)
        continue
    out.setdefault(kind, []).append(line)

reqs = out["request"]
mean = sum(map(len, reqs)) / len(reqs)
request = min(reqs, key=lambda l: abs(len(l) - mean))
with open(lines_out, "w") as f:
    f.write(request + "\n" + out["move"][0] + "\n" + out["trick"][0] + "\n")

n = len(reqs)
events = {k: v for k, v in out.items() if k not in ("request", "hello")}
ev_lines = sum(len(v) for v in events.values())
ev_bytes = sum(sum(map(len, v)) for v in events.values())
detail = ", ".join(
    f"{k} {len(v) / n:.2f}" for k, v in sorted(events.items(), key=lambda kv: -len(kv[1]))
)
reply_mean = sum(map(len, replies)) / len(replies)
print(
    f"one decision = 1 request line (mean {mean:.0f} B, max {max(map(len, reqs))} B)"
    f" + 1 reply line (mean {reply_mean:.0f} B)\n"
    f"  + {ev_lines / n:.2f} event lines to the bots (mean {ev_bytes / ev_lines:.0f} B;"
    f" per decision: {detail})\n"
    f"  = {1 + ev_lines / n:.2f} lines written and 1 read per decision"
    f" (traced game: {n} decisions)\n"
    f"ping-pong request line: {len(request)} B (the request closest to the mean size)"
)
