"""tarneeb.Game's surface: errors carry the referee's messages, clone is independent, given
deals and scores are used (docs/rules.md#individual-min-bid: in 400 the minimum
bid rises with the player's score)."""

import copy

import pytest

import tarneeb


def test_an_illegal_card_raises_the_referees_reason():
    """docs/rules.md#follow-suit: a player must follow suit if able."""
    for seed in range(1, 200):
        game = tarneeb.Game("classic", seed=seed)
        while game.decision() != "play" or not game.view(game.to_move())["current_trick"]["cards"]:
            legal = game.legal_moves()
            game.apply(legal[1] if game.decision() == "call" and len(legal) > 1 else legal[0])
        seat = game.to_move()
        hand = game.view(seat)["hand"]
        led = game.view(seat)["current_trick"]["cards"][0][1]
        off = [c for c in hand if c[1] != led]
        if off and any(c[1] == led for c in hand):
            with pytest.raises(tarneeb.IllegalMoveError) as e:
                game.apply(off[0])
            assert str(e.value) == f"seat {seat} may not play {off[0]}: a card of the suit led ({led}) must be played"
            return
    pytest.fail("no position to test found")


def test_bad_input_raises_with_the_fix():
    with pytest.raises(tarneeb.TarneebError, match="classic"):
        tarneeb.Game(rules="clasic")
    with pytest.raises(tarneeb.TarneebError, match="kaboot"):
        tarneeb.Game(rules={"preset": "classic", "contract": {"kaboot": "sometimes"}})
    with pytest.raises(tarneeb.TarneebError, match="not a card|card"):
        tarneeb.Game(deals=[[["ZZ"] * 13] * 4])
    with pytest.raises(tarneeb.TarneebError, match="13"):
        tarneeb.Game(deals=[[["AS"], [], [], []]])
    with pytest.raises(tarneeb.IllegalMoveError):
        tarneeb.Game(seed=1).apply("banana")
    with pytest.raises(tarneeb.TarneebError, match="seat"):
        tarneeb.Game(seed=1).view(4)


def test_clone_is_independent():
    game = tarneeb.Game(seed=2)
    twin = game.clone()
    deep = copy.deepcopy(game)
    twin.playout(1)
    assert twin.is_over() and not game.is_over() and not deep.is_over()
    assert game.view(0) == deep.view(0)


def test_given_deals_and_scores():
    ranks = "AKQJT98765432"
    deal = [[r + s for r in ranks] for s in "SHDC"]
    game = tarneeb.Game("400", deals=[deal], scores=[35, 0, 0, 0], first_dealer=3)
    assert game.hands()[0] == deal[0] and game.dealer == 3
    # 400: "30 - 39 | 3": seat 0 at 35 may not bid 2; seat 1 at 0 may.
    while game.to_move() != 0:
        game.apply(game.legal_moves()[0])
    assert "2" not in game.legal_moves() and "3" in game.legal_moves()
    while not game.needs_deal() and not game.is_over():
        game.apply(game.legal_moves()[0])  # the lowest bids: no instant win ends the game
    assert game.needs_deal() and game.to_move() is None and not game.is_over()
    with pytest.raises(tarneeb.IllegalMoveError, match="not been dealt"):
        game.apply("AS")
    game.deal(deal)
    assert game.to_move() is not None


def test_start_scores_out_of_range_or_of_a_decided_game_are_refused():
    """Issue 45: scores wrapped (-2**31 'won' after one hand). In 400
    (docs/rules.md#individual-partner) a player at the target whose partner is not positive has
    not won yet, so that start is allowed."""
    with pytest.raises(tarneeb.TarneebError, match="out of range"):
        tarneeb.Game("classic", scores=[-(2**31), 0])
    with pytest.raises(tarneeb.TarneebError, match="already won"):
        tarneeb.Game("400", scores=[41, 0, 5, 0])
    game = tarneeb.Game("400", scores=[41, 0, 0, 0])
    assert not game.is_over()
