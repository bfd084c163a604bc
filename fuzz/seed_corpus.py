#!/usr/bin/env python3
"""Writes the seeds of fuzz/corpus/ (docs/reliability.md, "Fuzzing"): real lines, records, rules,
configs, rows and seals, taken from a small tournament run by the caller and from the formats'
own examples, plus random bytes for the targets that read their input as a game's choices.

    python3 fuzz/seed_corpus.py RUN_DIR...   (tournament directories, e.g. one per preset)

Seeds are only a start: what the fuzzer finds interesting is added beside them
(`cargo fuzz run TARGET` writes to the same directories), and a crash found is saved there too,
so the quick test tier replays it for ever.
"""
import hashlib
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    name = "seed-" + hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# docs/competitions.md's example config.
CLUB_TOML = """format = "round-robin"
games = 4
seed = 7
rules = "egyptian"          # a preset, a rules file, or a table of complete rules
move_timeout = "2s"         # every flag of `tarneeb tournament` by its name
no_duplicate = false
sprt = "elo0=0,elo1=10"     # (gauntlet of two)

[[bot]]
name = "rnd"
command = "python3 sample-bots/python/random_bot.py"

[[bot]]
name = "heu"
command = ["python3", "sample-bots/python/heuristic_bot.py"]
"""


def main(runs):
    rng = random.Random(20261128)
    # A bot's reply: the plain shape in every spelling, and what only serde reads.
    for line in [
        '{"type":"move","id":3,"move":"AS"}',
        ' {\t"move" : "10H", "id" : 17 , "type" : "move" }\r ',
        '{"id":0,"move":"pass","type":"move"}',
        '{"type":"move","id":18446744073709551615,"move":"7♠"}',
        '{"type":"move","id":3,"move":"A\\u0053"}',
        '{"type":"move","id":03,"move":"AS"}',
        '{"type":"move","id":3.0,"move":"AS"}',
        '{"type":"move","id":3,"move":"AS","x":1}',
        '{"type":"move","id":3,"move":"AS","id":4}',
        '{"type":"hello","name":"x","multi_game":true}',
        '{"type":"move","id":12,"move":"double"}',
        '{"type":"move","id":5,"move":"7NT"}',
        '["move",3,"AS"]',
        'debug: thinking...',
        '{"type":"move","id":1,"move":null}',
    ]:
        put("reply", line)
    # The transport's control lines.
    for line in [
        '{"type":"auth","protocol":1,"token":"' + "ab" * 32 + '"}\n',
        '{"type":"welcome","entrant":"alice"}\n',
        '{"type":"refused","reason":"bad token"}\n',
        '{"type":"over"}\n',
        '{"protocol":1,"type":"auth","token":"x"}',
        '{"type":"request","id":1,"decision":"play"}',
    ]:
        put("control", line)
    # Games steered by bytes: a byte for the rules, eight for the seed, then moves.
    for target in ["hot_json", "record_round_trip"]:
        for i in range(48):
            n = rng.choice([16, 64, 256, 1024, 4096])
            put(target, bytes([i]) + bytes(rng.randrange(256) for _ in range(n)))
    tarneeb = os.environ.get("TARNEEB_BIN", os.path.join(ROOT, "target", "release", "tarneeb"))
    for preset in ["classic", "egyptian", "400", "41"]:
        full = subprocess.run([tarneeb, "rules", preset], check=True, capture_output=True).stdout
        put("rules_json", full)
        put("rules_json", json.dumps({"preset": preset}))
        put("rules_json", json.dumps({"preset": preset, "target": 11, "max-hands": 3}))
    put("rules_json", json.dumps({"preset": "classic", "contract": {"dakak": True, "out-of-call": True}}))
    put("rules_json", json.dumps({"preset": "egyptian", "contract": {"doubling": "none"}}))
    put("config", CLUB_TOML)
    put("config", 'games = 2\nrules = { preset = "400", target = 31 }\n[[bot]]\nname = "a"\ncommand = "x"\n')
    for run in runs:
        tj = open(os.path.join(run, "tournament.json")).read()
        put("config", tj)
        rows = open(os.path.join(run, "results.jsonl")).read()
        put("results_rows", rows)
        for line in rows.splitlines()[:3]:
            put("results_rows", line + "\n")
        put("seal", open(os.path.join(run, "results.seal")).read())
        put("seal", open(os.path.join(run, ".seal-key")).read())
        games = sorted(os.listdir(os.path.join(run, "games")))
        for g in games[:2]:
            text = open(os.path.join(run, "games", g)).read()
            put("record_text", text)
            lines = text.splitlines(True)
            put("record_text", "".join(lines[: len(lines) // 2]))
    put("seal", '{"rows":1,"bytes":10,"mac":"' + "+f" * 32 + '"}')
    put("seal", '{"rows":0,"bytes":0,"mac":""}')
    put("seal", "0" * 64 + "\n")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
