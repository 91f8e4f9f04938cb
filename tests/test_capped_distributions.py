"""The capped optimal policies' distributions from one walk (``TurnSolver.capped_distributions``)
against a separate walk of the turn per cap under the capped policy written out here."""

from __future__ import annotations

import pytest

from pushluck_teach.games import get_game
from pushluck_teach.games.base import STOP
from pushluck_teach.solve.turn import TurnSolver


@pytest.mark.parametrize(("game", "drawn"), [("pig", ""), ("hit-list", ""),
                                             ("hit-list", "5h 4c"),
                                             ("lands-uncharted", "5h 9s")])
def test_each_cap_equals_a_walk_of_the_capped_policy(game: str, drawn: str) -> None:
    spec = get_game(game)
    model, state = spec.position(spec.variant_cls(), **({"drawn": drawn} if drawn else {}))
    solver = TurnSolver(model, exact=game != "lands-uncharted")
    caps = [1, 2, 5, 9, 14, 15, 20, 33, 10_000]
    got = solver.capped_distributions(state, caps)
    for cap in caps:
        def capped(s: object, cap: int = cap) -> str:
            if STOP in model.actions(s) and model.turn_total(s) >= cap:
                return STOP
            return solver.best_action(s)

        expected = solver.distribution(state, capped)
        if solver.exact:
            assert got[cap] == expected, cap
        else:
            assert got[cap].keys() == expected.keys(), cap
            assert all(got[cap][k] == pytest.approx(v, abs=1e-12) for k, v in expected.items())
    assert sum(got[10_000].values()) == pytest.approx(1)
    assert got[10_000] == pytest.approx(solver.distribution(state))  # no cap: optimal play
