"""tarneeb.env.TarneebEnv follows PettingZoo's AEC API (pettingzoo.test.api_test) for every
preset and a house rule with an extra decision (the throw-in question), and its rewards are
the score: a game's rewards add up to each partnership's final score
(docs/rules.md#contract-scoring: the points a team makes or loses in each hand are added to its
score)."""

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


# The observation (issue 45 point 5): built in Rust, it must say what the seat's view says.
# An independent encoder from the view dict (protocol.md's fields), block by block as the
# module docstring documents them.

_CALLS = [m for k, m in ACTIONS if k == "call"]
_DECISIONS = ["throw-in", "call", "trump", "play"]


def reference_observation(view, decision, to_move):
    from tarneeb.env import OBS_LAYOUT, SCORE_SCALE

    me = view["seat"]
    rel = lambda s: (s - me) % 4  # noqa: E731
    card = lambda c: "CDHS".index(c[1]) * 13 + "23456789TJQKA".index(c[0])  # noqa: E731
    blocks = {name: np.zeros(n, dtype=np.float32) for name, n in OBS_LAYOUT}
    for c in view["hand"]:
        blocks["hand"][card(c)] = 1
    for t in view["tricks"] + [view["current_trick"]]:
        for i, c in enumerate(t["cards"]):
            blocks["played_by_seat"][rel(t["leader"] + i) * 52 + card(c)] = 1
    t = view["current_trick"]
    for i, c in enumerate(t["cards"]):
        blocks["table_by_seat"][rel(t["leader"] + i) * 52 + card(c)] = 1
    trump = view.get("trump")
    blocks["trump"][["C", "D", "H", "S", "NT"].index(trump) if trump else 5] = 1
    if decision:
        blocks["decision"][_DECISIONS.index(decision)] = 1
    contract = view.get("contract")
    level = int("".join(ch for ch in contract["bid"] if ch.isdigit())) if contract else 0
    blocks["contract_level"][level] = 1
    if contract:
        blocks["declarer"][rel(contract["declarer"])] = 1
        blocks["multiplier"][{1: 0, 2: 1, 4: 2}[contract["multiplier"]]] = 1
    if to_move is not None:
        blocks["to_move"][rel(to_move)] = 1
    last = {s: len(_CALLS) for s in range(4)}
    for c in view["auction"]:
        last[rel(c["seat"])] = _CALLS.index(c["call"])
    for r, i in last.items():
        blocks["last_call_by_seat"][r * (len(_CALLS) + 1) + i] = 1
    for s in range(4):
        bid = (view.get("bids") or [None] * 4)[s]
        blocks["bid_by_seat"][rel(s) * 14 + (bid or 0)] = 1
        blocks["tricks_won_by_seat"][rel(s) * 14 + view["tricks_won"][s]] = 1
    ts = view["team_scores"]
    blocks["scores"][0] = ts[me % 2] / SCORE_SCALE
    blocks["scores"][1] = ts[1 - me % 2] / SCORE_SCALE
    for s, score in enumerate(view.get("seat_scores") or []):
        blocks["scores"][2 + rel(s)] = score / SCORE_SCALE
    for a in view["announcements"]:
        blocks["announced_by_seat"][rel(a["seat"]) * 2 + (a["kind"] != "dakak")] = 1
    return np.concatenate([blocks[name] for name, _ in OBS_LAYOUT])


@pytest.mark.parametrize("rules", RULES + [{"preset": "egyptian", "contract": {"doubling": "redouble", "dakak": True, "out-of-call": True}}])
def test_observations_say_what_the_view_says(rules):
    rng = np.random.default_rng(7)
    env = TarneebEnv(rules=rules)
    env.reset(seed=5)
    checked = 0
    for agent in env.agent_iter(3000):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        for other in env.possible_agents:
            seat = env.possible_agents.index(other)
            want = reference_observation(env.game.view(seat), env.game.decision(), env.game.to_move())
            got = env.observe(other)["observation"]
            assert np.array_equal(got, want), (other, np.flatnonzero(got != want))
            checked += 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked >= 4 * 50


def test_a_bid_changes_what_the_next_seat_sees():
    # The case: after a bid of 9 the next seat saw the same as after a pass.
    seen = {}
    for call in ("pass", "9"):
        game = tarneeb.Game(seed=2)
        assert call in game.legal_moves()
        game.apply(call)
        obs, _ = game.observe(game.to_move())
        seen[call] = np.frombuffer(obs, dtype="<f4")
    assert not np.array_equal(seen["pass"], seen["9"])


def test_render_follows_pettingzoo():
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: TarneebEnv(render_mode=render_mode))


def test_no_parallel_env_turn_order_is_not_a_cycle():
    """Why there is no PettingZoo parallel env (python/README.md): a parallel step takes one
    action from every live agent at once, and PettingZoo's aec_to_parallel wrapper needs the
    agents to act in the fixed cycle player_0..player_3. Tarneeb's seats do not: only one seat
    has a decision at a time, the declarer names trump right after its own bid may have closed
    the auction, and the winner of a trick leads the next
    (docs/rules.md#trick-winner), so the seat after player_3 is often not player_0 and
    the same seat can act twice in a row."""
    from pettingzoo.utils.conversions import aec_to_parallel_wrapper

    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel_wrapper(TarneebEnv(rules="classic"))

    env = TarneebEnv(rules="classic")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    order = []
    for agent in env.agent_iter(max_iter=2000):
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.step(None)
            continue
        order.append(env.possible_agents.index(agent))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    breaks = [i for i in range(1, len(order)) if order[i] != (order[i - 1] + 1) % 4]
    assert breaks, "every step followed the cycle: a parallel wrapper would fit"
    assert any(order[i] == order[i - 1] for i in breaks), "no seat acted twice in a row"

    # Forced, the wrapper refuses the first step that breaks its cycle.
    forced = TarneebEnv(rules="classic")
    forced.metadata = {**forced.metadata, "is_parallelizable": True}
    par = aec_to_parallel_wrapper(forced)
    par.reset(seed=1)
    with pytest.raises(AssertionError, match="cycle"):
        for _ in range(500):
            actions = {}
            for a in par.agents:
                mask = forced.observe(a)["action_mask"]
                legal = np.flatnonzero(mask)
                actions[a] = int(legal[0]) if len(legal) else 0
            par.step(actions)
