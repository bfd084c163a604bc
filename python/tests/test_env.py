"""tarneeb.env.TarneebEnv follows PettingZoo's AEC API (pettingzoo.test.api_test) for every
preset and a house rule with an extra decision (the throw-in question), and its rewards are
the score: a game's rewards add up to each partnership's final score (002: the points a team
makes or loses in each hand are added to its score)."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import tarneeb
from tarneeb.env import ACTIONS, TarneebEnv

RULES = ["classic", "egyptian", "400", "41", {"preset": "classic", "contract": {"throw-in-weak-hand": True}}]


@pytest.mark.parametrize("rules", RULES)
def test_api(rules):
    api_test(TarneebEnv(rules=rules), num_cycles=2000)


@pytest.mark.parametrize("rules", ["classic", "400"])
def test_rewards_add_up_to_the_final_scores(rules):
    env = TarneebEnv(rules=rules)
    env.reset(seed=3)
    totals = {a: 0.0 for a in env.possible_agents}
    rng = np.random.default_rng(3)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        env.step(int(rng.choice(legal)))
    result = env.game.result()
    if "seat_scores" in result:
        assert [totals[f"player_{i}"] for i in range(4)] == result["seat_scores"]
    else:
        assert totals["player_0"] == totals["player_2"] == result["team_scores"][0]
        assert totals["player_1"] == totals["player_3"] == result["team_scores"][1]


def test_a_masked_out_action_is_refused():
    env = TarneebEnv()
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[-1])
    with pytest.raises((ValueError, tarneeb.TarneebError)):
        env.step(bad)
    assert len(ACTIONS) == len(set(ACTIONS))
