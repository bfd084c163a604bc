"""Reads a `tarneeb play --trace` file (lines {"dir", "seat", "line", ...}) of a game played with
the default `--events batched` and writes, for bench/pingpong.c:
  LINES_OUT: line 1 the request closest to the mean request size, line 2 a move event, line 3
    a trick event;
  BATCH_OUT: the batch closest to the mean batch size: what the referee writes to a bot in one
    write() when it asks it to move (the events held for that seat since its last request,
    then the request).
Prints what one decision costs in messages.

    python3 bench/capture.py TRACE LINES_OUT BATCH_OUT
"""

import json
import sys

trace, lines_out, batch_out = sys.argv[1:]
out = {}  # message type -> lines sent, one entry per receiving seat
replies = []
held = {}  # seat -> lines queued since its last request
batches = []  # what each request was written with
for raw in open(trace):
    e = json.loads(raw)
    line = e["line"]
    kind = json.loads(line).get("type")
    if e["dir"] == "in":
        if kind == "move":
            replies.append(line)
        continue
    out.setdefault(kind, []).append(line)
    if kind == "hello":
        continue
    held.setdefault(e["seat"], []).append(line)
    if kind == "request":
        batches.append("".join(l + "\n" for l in held.pop(e["seat"])))

reqs = out["request"]
mean = sum(map(len, reqs)) / len(reqs)
request = min(reqs, key=lambda l: abs(len(l) - mean))
with open(lines_out, "w") as f:
    f.write(request + "\n" + out["move"][0] + "\n" + out["trick"][0] + "\n")

batch_mean = sum(map(len, batches)) / len(batches)
batch = min(batches, key=lambda b: abs(len(b) - batch_mean))
with open(batch_out, "w") as f:
    f.write(batch)

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
    f"ping-pong request line: {len(request)} B (the request closest to the mean size)\n"
    f"batched, one write per request: mean {batch_mean:.0f} B;"
    f" ping-pong batch: {len(batch)} B in {batch.count(chr(10))} lines (the closest to the mean)"
)
