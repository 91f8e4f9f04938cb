"""The play engines' draw and stop, checked against the rules' words at the table (a roll adds
its face or, on a 1, ends the turn with nothing; a hold banks the turn total and passes the
die): a swapped action or a wrong bank shows here, without the slow simulations."""

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
