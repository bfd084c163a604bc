"""The package behaves as Python code is expected to (issue 45, point 7), and reads its inputs
strictly (point 3): what it cannot read is an error naming the input and the fix, never ignored."""

import multiprocessing
import os
import pickle
import re
import signal
import threading

import pytest

import tarneeb


def test_exceptions_live_in_the_module_they_import_from_and_pickle():
    for cls in (tarneeb.TarneebError, tarneeb.IllegalMoveError):
        assert cls.__module__ == "tarneeb._core"
        e = pickle.loads(pickle.dumps(cls("seat 2 may not play 4C")))
        assert type(e) is cls and e.args == ("seat 2 may not play 4C",)


def _raise_in_worker(_):
    tarneeb.Game(rules="no such preset")


def test_a_workers_error_reaches_the_parent_as_itself():
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        with pytest.raises(tarneeb.TarneebError, match="no such preset"):
            pool.map(_raise_in_worker, [0], chunksize=1)


@pytest.mark.parametrize("rules", ["classic", "400", {"preset": "classic", "contract": {"trump": "first-lead"}}])
def test_a_game_pickles_at_every_point(rules):
    game = tarneeb.Game(rules=rules, seed=11, scores=[5, 7] if rules != "400" else [1, 2, 3, 4])
    for step in range(200):
        if step % 17 == 0:
            copy = pickle.loads(pickle.dumps(game))
            assert copy.view_json(0) == game.view_json(0)
            assert copy.hands() == game.hands() and copy.scores() == game.scores()
            assert copy.legal_moves() == game.legal_moves()
        if game.is_over():
            break
        legal = game.legal_moves()
        game.apply(legal[(step * 31) % len(legal)])
    # The copy goes on as the game does: the same deals follow from the seed.
    copy = pickle.loads(pickle.dumps(game))
    game.playout(3)
    copy.playout(3)
    assert copy.result() == game.result()


def test_games_from_a_view_and_given_deals_pickle():
    game = tarneeb.Game(seed=4)
    for _ in range(30):
        game.apply(game.legal_moves()[-1])
    seat = game.to_move()
    rebuilt = tarneeb.Game.from_view(game.view(seat), game.hands(), seed=9)
    copy = pickle.loads(pickle.dumps(rebuilt))
    assert copy.view_json(seat) == rebuilt.view_json(seat)
    hands = game.hands()
    dealt = tarneeb.Game(deals=[tarneeb.Game(seed=1).hands()])
    dealt.playout(1, hand_only=True)
    if dealt.needs_deal():
        dealt.deal(tarneeb.Game(seed=2).hands())
        copy = pickle.loads(pickle.dumps(dealt))
        assert copy.hands() == dealt.hands()
    assert hands


def test_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+", tarneeb.__version__)


def test_ctrl_c_stops_a_long_playout():
    # SIGINT arrives while playout runs in Rust; it must come out as KeyboardInterrupt.
    timer = threading.Timer(1.0, signal.raise_signal, (signal.SIGINT,))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            tarneeb.playout(10**9)
    finally:
        timer.cancel()


CTRL_C_DURING_DD_SOLVE = r"""
import os, signal, threading, time
import tarneeb

def solver_running():
    # The solve runs on a thread named tarneeb-dd-solve (Linux: "tarneeb-dd-solv").
    for t in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{t}/comm") as f:
                if f.read().startswith("tarneeb-dd"):
                    return True
        except OSError:
            pass
    return False

def ctrl_c_once_the_solve_runs():
    while not solver_running():
        time.sleep(0.001)
    os.kill(os.getpid(), signal.SIGINT)

threading.Thread(target=ctrl_c_once_the_solve_runs, daemon=True).start()
# About 1.5 to 4 s of DDS here: the first lead names trump, so each of the 13 leads is solved.
position = {"hands": tarneeb.Game(seed=8).hands(), "trump": "first-lead", "leader": 0, "table": []}
try:
    tarneeb.dd_solve(position)
    print("finished")
except KeyboardInterrupt:
    print("interrupted while the solve ran" if solver_running() else "interrupted after the solve")
"""


def test_ctrl_c_stops_a_long_dd_solve():
    """SIGINT during a dd_solve of seconds raises KeyboardInterrupt while DDS still searches
    (the solve's thread still runs when the exception arrives), not after it returns."""
    import subprocess
    import sys

    if not os.path.isdir("/proc/self/task"):
        pytest.skip("needs /proc/self/task (Linux) to see the solver's thread")
    p = subprocess.run([sys.executable, "-c", CTRL_C_DURING_DD_SOLVE], capture_output=True, text=True, timeout=600)
    assert p.stdout.strip() == "interrupted while the solve ran", (p.returncode, p.stdout, p.stderr)


def test_the_readme_first_example_plays_real_cards():
    import random

    rng = random.Random(5)
    game = tarneeb.Game(rules="classic", seed=5)
    while not game.is_over():
        game.apply(rng.choice(game.legal_moves()))
    assert game.result()["winner"] is not None or max(game.scores()) != 0


# Strict parsing (issue 45 point 3).


def a_view_in_play(seed=3):
    game = tarneeb.Game(seed=seed)
    while game.decision() != "play":
        game.apply(game.legal_moves()[-1])
    for _ in range(5):
        game.apply(game.legal_moves()[0])
    return game, game.view(game.to_move())


@pytest.mark.parametrize(
    "constraints,message",
    [
        ({"void": {"1": ["H"]}}, "give a string of suit letters"),
        ({"void": "H"}, "give a dict of seat to suits"),
        ({"holds": {"1": "QS"}}, "give a list of cards"),
        ({"holds": ["QS"]}, "give a dict of seat to a list of cards"),
        ({"use_auction": "yes"}, "give true or false"),
        ({"void": {"5": "H"}}, "not a seat"),
        ({"spam": 1}, "unknown key 'spam'"),
    ],
)
def test_constraints_are_read_strictly(constraints, message):
    _, view = a_view_in_play()
    with pytest.raises(tarneeb.TarneebError, match=re.escape(message)):
        tarneeb.sample_hidden(view, 1, constraints)


def test_contradictory_constraints_are_refused():
    game, view = a_view_in_play()
    me = view["seat"]
    other = (me + 1) % 4
    unseen = [c for h in game.hands() for c in h if c not in view["hand"]]
    card = next(c for c in unseen if c in game.hands()[other])
    with pytest.raises(tarneeb.TarneebError, match="void in"):
        tarneeb.sample_hidden(view, 1, {"void": {str(other): card[1]}, "holds": {str(other): [card]}})
    mine = view["hand"][0]
    with pytest.raises(tarneeb.TarneebError, match="is yours and holds"):
        tarneeb.sample_hidden(view, 1, {"void": {str(me): mine[1]}})


def test_a_huge_hand_number_is_named_as_such():
    game, view = a_view_in_play()
    view["hand_number"] = 2**40
    with pytest.raises(tarneeb.TarneebError, match=r"hand_number is 1099511627776: give the hand's number, from 1"):
        tarneeb.Game.from_view(view, game.hands())


def test_out_of_range_ints_are_tarneeb_errors_not_overflow():
    with pytest.raises(tarneeb.TarneebError, match="seed is -1, out of range"):
        tarneeb.Game(seed=-1)
    with pytest.raises(tarneeb.TarneebError, match="first_dealer is 4, out of range: give an int from 0 to 3"):
        tarneeb.Game(first_dealer=4)
    with pytest.raises(tarneeb.TarneebError, match="seat is 2147483648"):
        tarneeb.Game(seed=1).view(2**31)
    with pytest.raises(TypeError, match="seed must be an int, not str"):
        tarneeb.Game(seed="1")


HANDS = [["AS", "KS"], ["AH", "KH"], ["AD", "KD"], ["AC", "KC"]]


def test_dd_solve_trump_is_spelled_out():
    # "first-lead": no trump yet, the first card led names it (contract.trump: first-lead).
    first = tarneeb.dd_solve({"hands": HANDS, "trump": "first-lead", "leader": 0})
    nt = tarneeb.dd_solve({"hands": HANDS, "trump": "NT", "leader": 0})
    # Leading spades at No Trump takes both tricks; naming spades trump by the lead too.
    assert first["tricks"] == 2 and nt["tricks"] == 2
    for trump in (None, "X"):
        with pytest.raises(tarneeb.TarneebError, match='"first-lead"'):
            tarneeb.dd_solve({"hands": HANDS, "trump": trump, "leader": 0})
    with pytest.raises(tarneeb.TarneebError, match="has no 'trump'"):
        tarneeb.dd_solve({"hands": HANDS, "leader": 0})
    with pytest.raises(tarneeb.TarneebError, match="the position's table is"):
        tarneeb.dd_solve({"hands": HANDS, "trump": "S", "leader": 0, "table": "AS"})
    with pytest.raises(tarneeb.TarneebError, match="at most 3"):
        tarneeb.dd_solve({"hands": HANDS, "trump": "S", "leader": 0, "table": ["2C", "3C", "4C", "5C"]})


def test_env_step_refuses_an_action_out_of_range():
    pytest.importorskip("pettingzoo")
    from tarneeb.env import TarneebEnv

    env = TarneebEnv()
    env.reset(seed=1)
    for bad in (-1, 10**6, 1.5, True):
        with pytest.raises(ValueError, match="is not an action"):
            env.step(bad)
