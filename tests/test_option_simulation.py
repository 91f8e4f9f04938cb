"""Exact against the engine under every option, not only the defaults.

For every preset and every yes/no option switched on alone, the solver's optimal turn value
from the turn start must lie within 4 standard errors of the mean result of turns the real
engine deals (fixed seeds), played by the solver's policy; likewise from positions only later
turns reach (Lands Uncharted's double or nothing from a score of 92).  The solver and the
engine are independent implementations of the rules, so a disagreement in any option shows.

A bot must never hide a disagreement: when the model's best action is not legal in the engine,
``OptimalTurnBot`` must fail loudly (that bot change is in ``sim/``; the test is written now).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from pushluck_teach.games import get_game, turn_games
from pushluck_teach.games.base import Engine, GameSpec, Variant
from pushluck_teach.sim import OptimalTurnBot
from pushluck_teach.sim.run import SimulationResult
from pushluck_teach.solve.turn import TurnSolver

TURNS = 2000
Setup = Callable[[Engine], None]


def option_variants() -> list[tuple[GameSpec, str, Variant]]:
    out = []
    for spec in turn_games():
        for name, variant in sorted(spec.presets.items()):
            out.append((spec, name, variant))
        default = spec.variant_cls()
        for key, value in default.options().items():
            if value is False:
                out.append((spec, f"{key}", default.replace(**{key: True})))
    return out


CASES = option_variants()


def exact_and_simulated(spec: GameSpec, variant: Variant, seed: int, n: int = TURNS,
                        setup: Setup | None = None) -> tuple[float, SimulationResult]:
    """The solver's optimal value of the first turn (after ``setup``) and the engine's mean."""
    first = spec.new_engine(variant, players=1, seed=0)
    if setup:
        setup(first)
    model, state = first.turn_position()
    exact = float(TurnSolver(model).value(state))
    bot = OptimalTurnBot()
    rng = random.Random(seed)
    results = []
    for _ in range(n):
        engine = spec.new_engine(variant, players=1, seed=rng.getrandbits(64))
        if setup:
            setup(engine)
        while not engine.turn_records and not engine.is_over:
            engine.act(bot.choose(engine))
        results.append(float(engine.turn_records[0].result))
    return exact, SimulationResult.of(results)


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "label", "variant"), CASES,
                         ids=[f"{s.name}-{label}" for s, label, _ in CASES])
def test_first_turn_value_matches_the_engine_under_each_option(spec: GameSpec, label: str,
                                                               variant: Variant) -> None:
    exact, sim = exact_and_simulated(spec, variant, seed=20261201)
    assert sim.n == TURNS
    assert sim.within(exact, sigmas=4), (label, exact, sim.mean, sim.stderr)


def _score(points: int) -> Setup:
    def setup(engine: Engine) -> None:
        engine._scores[0] = points  # a score reached in earlier turns (test set-up)

    return setup


@pytest.mark.slow
@pytest.mark.parametrize("score", [90, 92, 97])
def test_double_or_nothing_from_the_declare_window_matches_the_engine(score: int) -> None:
    spec = get_game("lands-uncharted")
    variant = spec.variant_cls(double_or_nothing=True)
    exact, sim = exact_and_simulated(spec, variant, seed=score, setup=_score(score))
    assert sim.within(exact, sigmas=4), (score, exact, sim.mean, sim.stderr)
    # The declare choice is really offered and really matters here.
    engine = spec.new_engine(variant, players=1, seed=0)
    _score(score)(engine)
    assert "declare" in engine.legal_actions()


class _MismatchedEngine:
    """An engine whose turn model recommends an action the engine does not allow."""

    game = "pig"

    def __init__(self) -> None:
        spec = get_game("pig")
        self._engine = spec.new_engine(players=1, seed=0)
        self._engine.act("draw")  # now the model says: roll (draw) or hold (stop)

    def turn_position(self):  # noqa: ANN201 - mirrors Engine
        return self._engine.turn_position()

    def legal_actions(self) -> tuple[str, ...]:
        return ("pass",)  # neither of the model's actions

    def decision_in_turn_model(self) -> bool:
        return True  # the decision is a turn decision: the model covers it


def test_optimal_bot_fails_loudly_on_a_model_engine_disagreement() -> None:
    with pytest.raises(Exception, match="not legal|disagree"):
        OptimalTurnBot().choose(_MismatchedEngine())  # type: ignore[arg-type]


def _hits(count: int) -> Setup:
    def setup(engine: Engine) -> None:
        engine.hits[0] = count  # hits completed in earlier jobs (test set-up)

    return setup


@pytest.mark.slow
@pytest.mark.parametrize("hits", [3, 4])
def test_one_last_job_with_earlier_hits_matches_the_engine(hits: int) -> None:
    spec = get_game("hit-list")
    variant = spec.variant_cls(one_last_job=True, silent_assassin=True)
    exact, sim = exact_and_simulated(spec, variant, seed=hits, setup=_hits(hits))
    assert sim.within(exact, sigmas=4), (hits, exact, sim.mean, sim.stderr)


def _relic(code: str) -> Setup:
    def setup(engine: Engine) -> None:
        from pushluck_teach.cards import parse_card

        engine.relics[0] = parse_card(code)  # kept in an earlier turn (test set-up)
        engine.log.clear()
        engine._begin_turn()  # the turn starts again with the relic out of the deck

    return setup


@pytest.mark.slow
@pytest.mark.parametrize("relic", ["Ks", "As"])
def test_captain_seven_turn_with_a_relic_held_matches_the_engine(relic: str) -> None:
    spec = get_game("captain-seven")
    variant = spec.variant_cls(relics=True)
    exact, sim = exact_and_simulated(spec, variant, seed=7, setup=_relic(relic))
    assert sim.within(exact, sigmas=4), (relic, exact, sim.mean, sim.stderr)


# ---- Incan Gold: later rounds, and other explorers in the temple (``--others``) --------------


def _incan_round(rnd: int, explorers: int, cards: int, seed: int) -> tuple[Engine, list]:
    """A game played at random (seeded) to the start of round ``rnd``, and the first ``cards``
    cards of that round's shuffled deck that do not spring a trap (the position's flips)."""
    from pushluck_teach.games.base import DRAW, STOP
    from pushluck_teach.games.incan_gold import classify, springs

    engine = get_game("incan-gold").new_engine(players=explorers, seed=seed)
    rng = random.Random(seed)
    while engine.round_no < rnd:
        engine.act(DRAW if engine.phase == "enter" else rng.choice([DRAW, STOP]))
    assert engine.phase == "enter" and engine.round_no == rnd
    drawn, traps = [], []
    for card in engine.deck:
        kind, index = classify(card)
        if kind == "trap":
            if springs(index, traps):
                continue
            traps.append(index)
        drawn.append(card)
        if len(drawn) == cards:
            break
    return engine, drawn


def _incan_exact_and_simulated(rnd: int, others: tuple[int, ...], cards: int, seed: int,
                               n: int) -> tuple[float, SimulationResult]:
    """Explorer 0's optimal value from the position (round ``rnd``, ``cards`` flips, other
    explorers leaving at ``others`` gems) by the solver, and by ``n`` rounds the engine deals
    from it (the rest of the deck shuffled), explorer 0 playing the solver's policy and the
    others their thresholds."""
    import copy

    from pushluck_teach.games.base import DRAW, STOP
    from pushluck_teach.games.incan_gold import incan_gold_position

    spec = get_game("incan-gold")
    variant = spec.variant_cls()
    start, drawn = _incan_round(rnd, 1 + len(others), cards, seed)
    removed = start.position_flags().get("removed")
    model, state = incan_gold_position(variant, drawn=drawn, removed=removed, round=rnd,
                                       others=others or None)
    solver = TurnSolver(model)
    exact = float(solver.value(state))
    rng = random.Random(seed)
    results = []
    for _ in range(n):
        engine = copy.deepcopy(start)
        rest = list(engine.deck)
        for card in drawn:  # one copy each (the deck holds two jokers)
            rest.remove(card)
        rng.shuffle(rest)
        engine.deck = [*drawn, *rest]
        records = len(engine.turn_records)
        while not any(r.player == 0 for r in engine.turn_records[records:]):
            assert engine.round_no == rnd
            player = engine.current_player
            if engine.phase == "enter" or (player == 0 and len(engine.flipped) < len(drawn)):
                engine.act(DRAW)
            elif player == 0:  # the solver's policy at the engine's position (same model)
                _, now = incan_gold_position(variant, drawn=engine.flipped, removed=removed,
                                             round=rnd, others=others or None)
                engine.act(solver.best_action(now))
            else:
                engine.act(STOP if engine.carried[player] >= others[player - 1] else DRAW)
        (mine,) = [r for r in engine.turn_records[records:] if r.player == 0]
        results.append(float(mine.result))
    return exact, SimulationResult.of(results)


@pytest.mark.slow
@pytest.mark.parametrize(("rnd", "others", "cards", "seed"), [
    (3, (), 3, 31), (5, (), 4, 51),              # later rounds, alone
    (3, (4,), 5, 3), (4, (3, 8), 5, 11), (5, (2, 6, 9), 5, 7),  # with 1-3 other explorers
])
def test_incan_gold_later_rounds_and_other_explorers_match_the_engine(
        rnd: int, others: tuple[int, ...], cards: int, seed: int) -> None:
    exact, sim = _incan_exact_and_simulated(rnd, others, cards, seed, n=1500)
    assert sim.within(exact, sigmas=4), (rnd, others, exact, sim.mean, sim.stderr)
    assert sim.stderr > 0
