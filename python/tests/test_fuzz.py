"""No input crosses into the engine unchecked: whatever a caller passes, a Python error comes out.

issue 45: panics reached Python as ``pyo3_runtime.PanicException``, which ``except Exception``
does not catch. The package's promise (python/README.md) is that bad rules, deals, views and
positions raise ``tarneeb.TarneebError`` with a message; a value of the wrong Python type may
raise ``TypeError``. These tests throw real inputs with one part broken, and arbitrary JSON-like
values, at every function that takes a dict or a list, and accept only those errors.
"""

import copy

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import tarneeb

ALLOWED = (tarneeb.TarneebError, TypeError, ValueError)

# Arbitrary JSON-like values, with the numbers at the edges of the engine's integer types.
EDGE_INTS = st.sampled_from([-1, 0, 1, 3, 4, 5, 13, 52, 2**31 - 1, -(2**31), 2**32, 2**40, 2**63, 2**64, -(2**63)])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    EDGE_INTS,
    st.integers(-10, 60),
    st.floats(allow_nan=True),
    st.sampled_from(["AS", "2C", "TD", "KH", "QS", "S", "H", "NT", "first-lead", "pass", "9", "", "ZZ", "0", "1"]),
    st.text(max_size=5),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.dictionaries(st.sampled_from(["0", "1", "2", "3", "seat", "cards", "leader", "call", "x"]) | st.text(max_size=3), inner, max_size=4),
    ),
    max_leaves=12,
)


def expect_python_error(fn, *args, **kw):
    """Calls fn; any outcome but a panic or an unexpected exception type passes."""
    try:
        fn(*args, **kw)
    except ALLOWED:
        pass
    except BaseException as e:  # PanicException derives from BaseException
        pytest.fail(f"{fn.__name__} raised {type(e).__module__}.{type(e).__name__}: {e}")


def mutate(value, path, new):
    """A deep copy of value with the element at path (keys / indexes) replaced or removed."""
    out = copy.deepcopy(value)
    node = out
    for key in path[:-1]:
        node = node[key]
    if new is _DROP:
        if isinstance(node, dict):
            node.pop(path[-1], None)
        else:
            del node[path[-1]]
    else:
        node[path[-1]] = new
    return out


_DROP = object()


def paths(value, prefix=()):
    """Every path into a nested dict/list value."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, prefix + (i,))


def a_view(seed, steps, preset="classic"):
    game = tarneeb.Game(rules=preset, seed=seed)
    for i in range(steps):
        legal = game.legal_moves()
        if not legal or game.hand_number != 1:
            break
        game.apply(legal[(seed + i * 7) % len(legal)])
    return game


# Some positions the issue names and their neighbours.
POSITIONS = [
    {"hands": [["AS"], ["AH", "KH"], ["AD", "KD"], ["AC", "KC"]], "trump": None, "leader": 0, "table": ["2C"]},
    {"hands": [["AS"], ["AH"], ["AD"], ["AC"]], "trump": "S", "leader": 0, "table": ["2C", "3C", "4C", "5C", "6C"]},
    {"hands": [["AS", "KS"], ["AH", "KH"], ["AD", "KD"], ["AC", "KC"]], "trump": "H", "leader": 1, "table": []},
]


@pytest.mark.parametrize("position", POSITIONS[:2])
def test_dd_solve_of_the_issues_positions_raises_tarneeb_error(position):
    with pytest.raises(tarneeb.TarneebError):
        tarneeb.dd_solve(position)


def test_the_valid_position_solves():
    assert tarneeb.dd_solve(POSITIONS[2])["seat"] == 1


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), base=st.sampled_from(range(len(POSITIONS))), junk=JSON)
def test_dd_solve_never_panics(data, base, junk):
    pos = POSITIONS[base]
    all_paths = list(paths(pos))[1:]
    path = data.draw(st.sampled_from(all_paths))
    new = data.draw(st.sampled_from([junk, _DROP]))
    expect_python_error(tarneeb.dd_solve, mutate(pos, path, new))
    expect_python_error(tarneeb.dd_solve, junk)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.integers(0, 50), steps=st.integers(0, 60), junk=JSON)
def test_views_and_constraints_never_panic(data, seed, steps, junk):
    game = a_view(seed, steps)
    seat = game.to_move() if game.to_move() is not None else 0
    view = game.view(seat)
    hands = game.hands()
    path = data.draw(st.sampled_from(list(paths(view))[1:]))
    new = data.draw(st.sampled_from([junk, _DROP]))
    bad_view = mutate(view, path, new)
    expect_python_error(tarneeb.sample_hidden, bad_view, 1)
    expect_python_error(tarneeb.Game.from_view, bad_view, hands)
    hpath = data.draw(st.sampled_from(list(paths(hands))[1:]))
    expect_python_error(tarneeb.Game.from_view, view, mutate(hands, hpath, junk))
    constraints = data.draw(
        st.one_of(
            JSON,
            st.fixed_dictionaries({}, optional={"void": JSON, "holds": JSON, "use_auction": JSON}),
        )
    )
    expect_python_error(tarneeb.sample_hidden, view, 1, constraints)
    expect_python_error(tarneeb.sample_hidden, view, 1, constraints, "41")


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(rules=JSON, seed=JSON, deals=JSON, scores=JSON, dealer=JSON, move=JSON)
def test_game_arguments_never_panic(rules, seed, deals, scores, dealer, move):
    expect_python_error(tarneeb.Game, rules=rules)
    expect_python_error(tarneeb.Game, seed=seed)
    expect_python_error(tarneeb.Game, deals=deals)
    expect_python_error(tarneeb.Game, scores=scores)
    expect_python_error(tarneeb.Game, first_dealer=dealer)
    expect_python_error(tarneeb.rules, rules)
    g = tarneeb.Game(seed=1)
    expect_python_error(g.apply, move)
    expect_python_error(g.view, move)
    expect_python_error(g.deal, deals)
    expect_python_error(g.playout, seed)
    expect_python_error(tarneeb.playout, 1, seed=seed)
    expect_python_error(tarneeb.playout, 1, players=move)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(action=JSON, seat=JSON)
def test_env_and_observe_arguments_never_panic(action, seat):
    pytest.importorskip("pettingzoo")
    from tarneeb.env import TarneebEnv

    env = TarneebEnv()
    env.reset(seed=1)
    expect_python_error(env.step, action)
    g = tarneeb.Game(seed=1)
    expect_python_error(g.observe, seat)
    expect_python_error(g.apply_action, action)
