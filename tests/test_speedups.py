"""The solver's optional speed-ups (solve/speedups.py): a turn model states its turn alone, and
what it offers for speed is read by the solver through the protocols, with a plain answer for a
model that offers nothing."""

from __future__ import annotations

from pushluck_teach.games import get_game
from pushluck_teach.games.base import TurnModel
from pushluck_teach.solve import speedups
from pushluck_teach.solve.turn import TurnSolver

SPEED_UPS = ("estimated_states", "level_graph", "shared_table_key", "shipped_values_model",
             "start_values_key", "start_value_models", "start_values_draws",
             "start_value_families", "start_values_check")


def test_the_turn_model_contract_holds_no_speed_up() -> None:
    assert [name for name in SPEED_UPS if hasattr(TurnModel, name)] == []


def test_a_model_that_offers_nothing_is_answered_plainly_and_solved() -> None:
    spec = get_game("hit-list")
    model, state = spec.position(spec.variant_cls())
    assert not isinstance(model, speedups.OffersLevelGraph | speedups.ShipsTurnTable
                          | speedups.ShipsStartValues)
    assert speedups.estimated_states(model, state) is None
    assert speedups.offered_level_graph(model) is None
    assert speedups.shared_table_key(model) is None
    assert speedups.shipped_values_model(model) is model
    assert speedups.start_values_key(model) is None
    assert speedups.start_value_models(model) == ()
    assert speedups.start_values_draws(model) == 1
    assert speedups.start_value_families(model) == ()
    assert speedups.start_values_check(model) is None
    assert 0 < TurnSolver(model).value(state) < 30


def test_what_the_games_offer() -> None:
    """Captain Seven ships its plain turn and its relic turns' starts; Pig estimates its size;
    Incan Gold and Lands Uncharted describe their turns on arrays."""
    captain = get_game("captain-seven")
    plain, start = captain.position(captain.variant_cls())
    assert speedups.shared_table_key(plain) is not None
    assert speedups.estimated_states(plain, start) > 100_000
    jack, _ = captain.position(captain.variant_cls(relics=True), relic="J")
    assert isinstance(jack, speedups.ShipsStartValues)
    assert speedups.start_values_key(jack) is not None and speedups.start_values_draws(jack) == 2
    pig = get_game("pig")
    pig_model, pig_start = pig.position(pig.variant_cls())
    assert isinstance(pig_model, speedups.EstimatesStates)
    assert speedups.estimated_states(pig_model, pig_start) > 0
    for name in ("incan-gold", "lands-uncharted"):
        spec = get_game(name)
        model, _ = spec.position(spec.variant_cls())
        assert isinstance(model, speedups.OffersLevelGraph)
        assert speedups.offered_level_graph(model) is not None
