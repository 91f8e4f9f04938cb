"""The play engines and turn models against the rules' words at the table (a Pig roll adds
its face or, on a 1, ends the turn with nothing; a hold banks the turn total and passes the
die; Captain Seven's next draw catches with the 7s, the jokers and the cards ending the total
in 7): a swapped action, a wrong bank or a lost catch shows here, without the slow
simulations."""

from __future__ import annotations

import random

from pushluck_teach.games.base import DRAW, STOP, get_game


def test_pig_rolls_add_their_face_and_a_hold_banks_the_total() -> None:
    spec = get_game("pig")
    rng = random.Random(11)
    holds = rolls = ones = 0
    for _ in range(40):
        engine = spec.new_engine(spec.variant_cls(), players=2, seed=rng.getrandbits(32))
        for _ in range(30):
            if engine.is_over:
                break
            player, scores = engine.current_player, engine.scores()
            total = engine.turn_total
            if DRAW in engine.legal_actions() and (total < 12 or STOP not in
                                                     engine.legal_actions()):
                engine.act(DRAW)
                rolls += 1
                assert engine.scores() == scores  # a roll never banks
                if engine.current_player == player:
                    face = engine.turn_total - total
                    assert 2 <= face <= 6 and engine.rolls[-1] == face
                else:  # a 1: the turn total is lost and the die passes
                    ones += 1
                    assert engine.turn_total == 0 and engine.rolls == []
            else:
                engine.act(STOP)
                holds += 1
                assert engine.scores()[player] == scores[player] + total
                assert engine.turn_total == 0
                if not engine.is_over:
                    assert engine.current_player == 1 - player
    assert holds > 20 and rolls > 100 and ones > 10


def test_captain_seven_chance_to_be_caught_by_counting_cards() -> None:
    """The next draw's chance to catch you, counted from the rules: 7s, jokers and the cards
    that make the total end in 7 (a first 7 or joker is out of the deck but caught no one)."""
    from fractions import Fraction

    from pushluck_teach.solve.turn import TurnSolver

    spec = get_game("captain-seven")
    cases = {
        "Kh Tc 5d": Fraction(4 + 2 + 4, 51),  # total 25: the four 2s make 27
        "7h": Fraction(3 + 2 + 16, 53),  # a first 7, total 7: every ten makes 17
        "JK": Fraction(4 + 1, 53),  # a first joker, total 0: only a 7 or the other joker
        "9s 9h": Fraction(4 + 2 + 2, 52),  # total 18: the two 9s left make 27
    }
    for drawn, expected in cases.items():
        model, state = spec.position(spec.variant_cls(), drawn=drawn)
        assert TurnSolver(model, exact=True).p_bust_next(state) == expected, drawn
    # with a jack relic (out of the deck) the catching card is thrown away and one more drawn:
    # after 5 and 9 (total 14), 10 catchers of 51 (7s, jokers, 3s), then 9 of the 50 left
    model, state = spec.position(spec.variant_cls(relics=True), relic="J", drawn="5h 9h")
    assert TurnSolver(model, exact=True).p_bust_next(state) == Fraction(10, 51) * Fraction(9, 50)
