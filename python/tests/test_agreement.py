"""Games through the package agree move by move and score by score with the referee.

The rules checked are every rule of the four games as the engine implements them, e.g.
docs/rules.md#follow-suit: a player must follow suit if able, otherwise may play any card. A
record the referee wrote (``tarneeb play``) must replay
through ``tarneeb.Game`` with every recorded move among ``legal_moves()`` and every hand's score
equal; a game the package played must pass ``tarneeb replay``, which recomputes every hand;
``tarneeb.playout`` must give ``tarneeb simulate``'s summary.
"""

import json
import random
import sys

import pytest

import tarneeb
from conftest import ROOT, bot_python, run

def random_bot():
    """The sample random bot's command (asked in the test: with the venv under /tmp only the
    tests that start bots fail, not the collection)."""
    return f"{bot_python()} {ROOT / 'sample-bots' / 'python' / 'random_bot.py'}"

# Every preset and a spread of house rules (the rules file format: docs/rules.md).
SPREAD = [
    "classic",
    "egyptian",
    "400",
    "41",
    {"preset": "classic", "contract": {"throw-in-weak-hand": True, "throw-in-long-suit": True}},
    {"preset": "classic", "contract": {"kaboot": "instant-win", "dealer-forced-7": True}},
    {"preset": "classic", "contract": {"trump": "first-lead"}},
    {"preset": "classic", "contract": {"dakak": True, "out-of-call": True}},
    {"preset": "egyptian", "contract": {"doubling": "redouble"}},
    {"preset": "400", "max-hands": 3},
]


def rules_arg(rules, tmp_path, i):
    """A preset name as is, a rules dict as a file `tarneeb` reads."""
    if isinstance(rules, str):
        return rules
    path = tmp_path / f"rules{i}.json"
    path.write_text(json.dumps(rules))
    return str(path)


def replay_record(lines):
    """Plays a record's moves through tarneeb.Game and checks each against the record."""
    header = lines[0]
    game = tarneeb.Game(rules=header["rules"], seed=header["seed"], first_dealer=header["first_dealer"])
    hands_checked = moves = 0
    for line in lines[1:]:
        kind = line["type"]
        if kind == "deal":
            assert game.hand_number == line["hand_number"]
            assert game.dealer == line["dealer"]
            assert [sorted(h) for h in game.hands()] == [sorted(h) for h in line["hands"]]
        elif kind == "move":
            assert game.to_move() == line["seat"], line
            assert game.decision() == line["decision"], line
            assert line["move"] in game.legal_moves(), line
            game.apply(line["move"])
            moves += 1
        elif kind == "hand_end":
            got = dict(game.hand_result())
            want = {k: v for k, v in line.items() if k != "type"}
            assert got == want
            hands_checked += 1
        elif kind == "result":
            assert game.is_over()
            want = {k: v for k, v in line.items() if k != "type"}
            assert game.result() == want
    assert game.is_over() and moves > 0 and hands_checked > 0
    return moves


@pytest.mark.parametrize("i", range(len(SPREAD)))
def test_referee_records_replay_through_the_package(cli, tmp_path, i):
    rules = SPREAD[i]
    record = tmp_path / "game.jsonl"
    args = [cli, "play", "--rules", rules_arg(rules, tmp_path, i), "--seed", str(40 + i),
            "--public-deals", "--record", str(record)]
    for _ in range(4):
        args += ["--bot", random_bot()]
    run(args, cwd=tmp_path)
    lines = [json.loads(l) for l in record.read_text().splitlines()]
    assert replay_record(lines) > 20


def package_record(rules, seed, move_seed):
    """A game played through the package with random moves, written as a referee record."""
    game = tarneeb.Game(rules=rules, seed=seed)
    rng = random.Random(move_seed)
    full_rules = game.rules
    lines = [{
        "type": "header", "format": 1, "referee": "tarneeb-referee 0.1.0", "rules": full_rules,
        "seed": seed, "first_dealer": game.dealer,
        "bots": [{"seat": s, "command": ["python-package"], "name": "py", "version": "1"} for s in range(4)],
        "time": {"handshake_ms": 10000, "move_ms": 30000, "bank_ms": None, "increment_ms": 0},
        "on_fault": "forfeit", "sandbox": "none",
    }]
    dealt = 0
    while not game.is_over():
        if game.hand_number != dealt:
            dealt = game.hand_number
            lines.append({"type": "deal", "hand_number": dealt, "dealer": game.dealer, "hands": game.hands()})
        seat, decision = game.to_move(), game.decision()
        mv = rng.choice(game.legal_moves())
        lines.append({"type": "move", "hand_number": dealt, "seat": seat, "decision": decision, "move": mv, "ms": 0})
        game.apply(mv)
        if game.hand_number != dealt or game.is_over():
            lines.append({"type": "hand_end", **game.hand_result()})
    lines.append({"type": "result", **game.result()})
    return lines


@pytest.mark.parametrize("i", range(len(SPREAD)))
def test_package_games_pass_replay(cli, tmp_path, i):
    for seed in (1, 2):
        path = tmp_path / f"py{seed}.jsonl"
        lines = package_record(SPREAD[i], seed, 100 * i + seed)
        path.write_text("".join(json.dumps(l) + "\n" for l in lines))
        out = json.loads(run([cli, "replay", str(path), "--json"]))
        assert len(out["hands"]) == sum(1 for l in lines if l["type"] == "hand_end")


def test_a_changed_score_fails_replay(cli, tmp_path):
    """The replay check above can fail: one hand_end with a wrong delta is refused."""
    lines = package_record("classic", 3, 3)
    he = next(l for l in lines if l["type"] == "hand_end")
    he["team_delta"] = [he["team_delta"][0] + 1, he["team_delta"][1]]
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(json.dumps(l) + "\n" for l in lines))
    import subprocess
    p = subprocess.run([cli, "replay", str(path)], capture_output=True, text=True)
    assert p.returncode != 0


@pytest.mark.parametrize("rules", ["classic", "egyptian", "400", "41"])
def test_playout_is_simulate(cli, rules):
    want = json.loads(run([cli, "simulate", "--rules", rules, "--games", "30", "--seed", "7", "--json"]))
    got = tarneeb.playout(30, rules=rules, seed=7)
    for k in ("seconds", "games_per_second", "decisions_per_second"):
        want.pop(k), got.pop(k)
    assert got == want


def test_rules_are_the_cli_rules(cli):
    for preset in tarneeb_presets():
        assert tarneeb.rules(preset) == json.loads(run([cli, "rules", preset]))


def tarneeb_presets():
    return tarneeb.PRESETS
