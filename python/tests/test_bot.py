"""tarneeb.bot speaks the protocol (protocol.md section 4), and the example bot passes check-bot."""

import io
import json
import os
import subprocess
import sys

import tarneeb
import tarneeb.bot
from conftest import ROOT, bot_python

HELLO = {"type": "hello", "protocol": 1, "seat": 2, "rules": tarneeb.rules("classic"),
         "time": {"handshake_ms": 10000, "move_ms": 30000, "bank_ms": None, "increment_ms": 0}, "seed": 9}


def test_run_answers_hello_requests_and_new_game():
    """4.1: hello is answered with a name; 4.2: each request with one legal move echoing its id;
    4.4: a multi_game bot answers new_game like hello."""
    game = tarneeb.Game(seed=4)
    seat = game.to_move()
    request = {"type": "request", "id": 7, "decision": game.decision(), "legal": game.legal_moves(),
               "view": game.view(seat), "time": {"limit_ms": 30000, "bank_ms": None}}
    lines = [HELLO, {"type": "deal"}, request, {"type": "game_end"}, dict(HELLO, type="new_game"),
             dict(request, id=1, legal=["nonsense-only-here"])]
    seen, events = [], []

    def choose(req):
        seen.append(req)
        return req["legal"][-1] if req["id"] == 7 else "not legal"

    out = io.StringIO()
    tarneeb.bot.run(choose, name="t", stdin=io.StringIO("".join(json.dumps(l) + "\n" for l in lines)),
                    stdout=out, on_event=events.append)
    replies = [json.loads(l) for l in out.getvalue().splitlines()]
    assert replies[0] == {"type": "hello", "name": "t", "version": "1.0", "multi_game": True}
    assert replies[1] == {"type": "move", "id": 7, "move": request["legal"][-1]}
    assert replies[2]["type"] == "hello"
    # An answer not among the legal moves is replaced by the first legal one.
    assert replies[3] == {"type": "move", "id": 1, "move": "nonsense-only-here"}
    assert seen[0]["rules"] == HELLO["rules"] and seen[0]["seat"] == 2
    assert [e["type"] for e in events] == ["deal", "game_end"]


def test_the_example_pimc_bot_passes_check_bot(cli, tmp_path):
    bot = f"{bot_python()} {ROOT / 'python' / 'examples' / 'pimc_bot.py'}"
    env = dict(os.environ, PIMC_SAMPLES="2")
    p = subprocess.run([cli, "check-bot", bot, "--games", "1"], capture_output=True, text=True,
                       cwd=tmp_path, env=env, timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "all" in p.stdout and "checks passed" in p.stdout
