"""Reads the `tarneeb play --trace DIR` directory of a game played with the default `--events
batched` and writes, for bench/pingpong.c:
  LINES_OUT: line 1 the request closest to the mean request size, line 2 a move event, line 3
    a trick event;
  BATCH_OUT: the batch closest to the mean batch size: what the referee writes to a bot in one
    write() when it asks it to move (the events held for that seat since its last request,
    then the request).
Prints what one decision costs in messages.

    python3 bench/capture.py TRACE_DIR LINES_OUT BATCH_OUT

TRACE_DIR holds one file per seat, STEM.seatN.trace (src/referee/trace.rs), each line
`SECONDS seatN to-bot|from-bot LINE`, LINE exactly as it went over the pipe. A seat's file is
in the order its lines were written and read, which is all the batches need: what is held for
a seat depends on that seat's lines only.
"""

import glob
import json
import os
import sys

trace_dir, lines_out, batch_out = sys.argv[1:]
paths = sorted(glob.glob(os.path.join(trace_dir, "*.seat[0-3].trace")))
if len(paths) != 4:
    sys.exit(f"capture: expected 4 files STEM.seatN.trace in {trace_dir}, found {len(paths)}")
out = {}  # message type -> lines sent, one entry per receiving seat
replies = []
batches = []  # what each request was written with
for path in paths:
    held = []  # lines queued for this seat since its last request
    for n, raw in enumerate(open(path), 1):
        # `SECONDS seatN DIRECTION LINE`
        parts = raw.rstrip("\n").split(" ", 3)
        if len(parts) != 4 or parts[2] not in ("to-bot", "from-bot"):
            sys.exit(f"capture: {path}:{n}: not `SECONDS seatN to-bot|from-bot LINE`: {raw!r}")
        direction, line = parts[2], parts[3]
        kind = json.loads(line).get("type")
        if direction == "from-bot":
            if kind == "move":
                replies.append(line)
            continue
        out.setdefault(kind, []).append(line)
        if kind == "hello":
            continue
        held.append(line)
        if kind == "request":
            batches.append("".join(l + "\n" for l in held))
            held = []

for kind in ("request", "move", "trick"):
    if kind not in out:
        sys.exit(f"capture: no {kind!r} line to the bots in {trace_dir}")
if not replies:
    sys.exit(f"capture: no move reply from the bots in {trace_dir}")
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
