"""dd_solve agrees with `tarneeb replay --analyze` on recorded positions.

The card play of all four games is bridge's (docs/rules.md#follow-suit: follow suit if able;
docs/rules.md#trick-winner: the highest trump in a trick wins it, if any), so the
double-dummy values come from DDS for both; each card's cost (tricks given away) and the best
cards at every card of a recorded hand must match what replay's analysis says.
"""

import json
import sys

import pytest

import tarneeb
from conftest import ROOT, bot_python, run

def random_bot():
    """The sample random bot's command (asked in the test: with the venv under /tmp only the
    tests that start bots fail, not the collection)."""
    return f"{bot_python()} {ROOT / 'sample-bots' / 'python' / 'random_bot.py'}"


@pytest.mark.parametrize("preset,seed", [("classic", 21), ("egyptian", 22)])
def test_dd_solve_agrees_with_replay_analyze(cli, tmp_path, preset, seed):
    record = tmp_path / "game.jsonl"
    args = [cli, "play", "--rules", preset, "--seed", str(seed), "--public-deals", "--record", str(record)]
    for _ in range(4):
        args += ["--bot", random_bot()]
    run(args, cwd=tmp_path)
    lines = [json.loads(l) for l in record.read_text().splitlines()]
    analysis = json.loads(run([cli, "replay", str(record), "--analyze", "--json", "--hand", "1"]))
    cards = analysis["analysis"]["cards"]
    assert len(cards) == 52, "hand 1 should be played out"

    header = lines[0]
    game = tarneeb.Game(rules=header["rules"], seed=header["seed"], first_dealer=header["first_dealer"])
    plays = costly = 0
    for line in lines[1:]:
        if line["type"] != "move" or line["hand_number"] != 1:
            continue
        if line["decision"] == "play":
            solved = tarneeb.dd_solve(game)
            want = cards[plays]
            assert want["card"] == line["move"] and solved["seat"] == want["seat"]
            assert solved["tricks"] - solved["values"][line["move"]] == want["cost"]
            if want["cost"] == 0:
                # replay lists only the card played when it was a best card (docs: analysis).
                assert want["best"] == [line["move"]] and line["move"] in solved["best"]
            else:
                assert sorted(solved["best"]) == sorted(want["best"]), (plays, solved, want)
                costly += 1
            plays += 1
        game.apply(line["move"])
    assert plays == 52 and costly > 0


def test_dd_solve_of_a_dict_position():
    """Thirteen top spades each: with spades trump the leader's side takes every trick."""
    ranks = "AKQJT98765432"
    hands = [[r + s for r in ranks] for s in "SHDC"]
    solved = tarneeb.dd_solve({"hands": hands, "trump": "S", "leader": 0, "table": []})
    assert solved["seat"] == 0 and solved["tricks"] == 13
    solved = tarneeb.dd_solve({"hands": hands, "trump": "H", "leader": 0, "table": []})
    assert solved["tricks"] == 0
    with pytest.raises(tarneeb.TarneebError):
        tarneeb.dd_solve({"hands": hands[:3], "trump": "S", "leader": 0})
