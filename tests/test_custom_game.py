"""The variant lab's built games: rule sets from parts reproduce the hand-written
games exactly, the engine agrees with the model, sizes are estimated before solving."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from pushluck_teach.games import get_game
from pushluck_teach.games.base import DRAW, STOP, PositionError, RulesError
from pushluck_teach.games.custom import (
    BUILT_GAMES,
    CAPTAIN_SEVEN_RULES,
    HIT_LIST_RULES,
    LANDS_UNCHARTED_RULES,
    PIG_RULES,
    CardSet,
    CountRule,
    CustomEngine,
    RuleSet,
    compile_rules,
    custom_position,
    estimate_states,
)
from pushluck_teach.solve.turn import TurnSolver

NO_ACES = "As Ah Ad Ac"

# (game, built rules, drawn, other position flags): the hand-written game gets the same flags.
POSITIONS = [
    ("pig", PIG_RULES, "", {}),
    ("pig", PIG_RULES, "3 5", {}),
    ("pig", PIG_RULES, "6 6 6 4", {}),
    ("pig", PIG_RULES, "2 2 2 2 2 2 2", {}),
    ("captain-seven", CAPTAIN_SEVEN_RULES, "Kh Tc 5d", {}),
    ("captain-seven", CAPTAIN_SEVEN_RULES, "9s 6d Qh", {}),
    ("captain-seven", CAPTAIN_SEVEN_RULES, "JK 8c 6d Ks", {}),
    ("captain-seven", CAPTAIN_SEVEN_RULES, "7h 2d Kc 4s", {}),
    ("lands-uncharted", LANDS_UNCHARTED_RULES, "5h 9s", {}),
    ("lands-uncharted", LANDS_UNCHARTED_RULES, "5h Ah Kd 9s", {"removed": "2c 3c"}),
    ("lands-uncharted", LANDS_UNCHARTED_RULES, "Qh 3d", {"allies": 1}),
    ("lands-uncharted", LANDS_UNCHARTED_RULES, "Kh 7d Ac Jd 2s", {"removed": "8s 8h"}),
    ("hit-list", HIT_LIST_RULES, "", {"removed": NO_ACES}),
    ("hit-list", HIT_LIST_RULES, "9h 6c", {"removed": NO_ACES}),
    ("hit-list", HIT_LIST_RULES, "Kh 5c", {"removed": NO_ACES + " 2s 3h"}),
    ("hit-list", HIT_LIST_RULES, "5h 5d 2c", {"removed": NO_ACES + " Qs"}),
]


@pytest.mark.parametrize(("game", "rules", "drawn", "flags"), POSITIONS,
                         ids=[f"{g}:{d or 'start'}" for g, _, d, _ in POSITIONS])
def test_built_game_reproduces_the_hand_written_game(game, rules, drawn, flags) -> None:
    """Exact fractions from the hand-written model (its own code, states and proofs) and from
    the model built from parts: the same bust chance, optimal value and best action."""
    spec = get_game(game)
    model, state = spec.position(spec.variant_cls(), drawn=drawn, **flags)
    expected = TurnSolver(model, exact=True).analyse(state)
    built, built_state = custom_position(rules, drawn=drawn, **flags)
    got = TurnSolver(built, exact=True).analyse(built_state)
    assert isinstance(got.ev_optimal, Fraction)
    assert got.p_bust_next == expected.p_bust_next
    assert got.ev_optimal == expected.ev_optimal
    assert got.best_action == expected.best_action
    assert got.action_values == expected.action_values


def test_pig_by_hand() -> None:
    """A hand count: from a Pig total of 18 rolling once and holding gives
    (1/6)(0) + (1/6)(20 + 21 + 22 + 23 + 24) = 55/3 > 18, so drawing once beats holding."""
    model, state = custom_position(PIG_RULES, drawn="6 6 6")
    analysis = TurnSolver(model, exact=True).analyse(state)
    assert analysis.ev_stop == 18
    assert analysis.ev_draw_once == Fraction(55, 3)
    assert analysis.p_bust_next == Fraction(1, 6)


def test_merged_classes_are_as_few_as_the_rules_allow() -> None:
    # Captain Seven: A 2 3 4 5 6 8 9, the tens (10 J Q K), 7s and jokers: 11 classes
    layout = compile_rules(CAPTAIN_SEVEN_RULES)
    assert len(layout.classes) == 11
    ten = next(c for c in layout.classes if c.value == 10)
    assert sorted(ten.ranks) == ["J", "K", "Q", "T"]
    assert layout.weights[layout.classes.index(ten)] == 16
    # Hit List (aces 1): A..9, 10, faces
    assert len(compile_rules(HIT_LIST_RULES).classes) == 11


def test_estimate_bounds_the_states_visited() -> None:
    for rules, drawn, flags in [(CAPTAIN_SEVEN_RULES, "Kh Tc 5d", {}),
                                (LANDS_UNCHARTED_RULES, "", {}),
                                (HIT_LIST_RULES, "", {"removed": NO_ACES}),
                                (PIG_RULES, "", {})]:
        model, state = custom_position(rules, drawn=drawn, **flags)
        solver = TurnSolver(model)
        solver.value(state)
        assert solver.states_solved() <= estimate_states(model)


def test_a_game_too_large_is_refused_with_its_estimate() -> None:
    huge = RuleSet(name="Endless", decks=4, bust_ending=7, first_draw_safe=True, bust_over=None)
    with pytest.raises(PositionError, match=r"too large to solve on the page: about [\d,]+ "
                                            r"states"):
        custom_position(huge)


def test_a_dice_game_that_might_never_end_is_a_rules_error() -> None:
    with pytest.raises(RulesError, match="bust_counts"):
        RuleSet(dice=6, bust_over=None)
    with pytest.raises(RulesError, match="face 1 is worth 0"):
        RuleSet(dice=6, values=(("1", 0),), bust_over=30)


def test_bad_positions_name_the_card() -> None:
    with pytest.raises(PositionError, match="7d busts"):
        custom_position(CAPTAIN_SEVEN_RULES, drawn="Kh 7d")
    with pytest.raises(PositionError, match="removed"):
        custom_position(CAPTAIN_SEVEN_RULES, removed="Kh")
    with pytest.raises(RulesError, match="bad roll"):
        custom_position(PIG_RULES, drawn="7")


def test_first_draw_safety_and_allies_by_hand() -> None:
    # A tiny deck: 2 3 and two kings of hearts; a second king busts; first draw safe.
    rules = RuleSet(name="Tiny", remove_suits=("s", "d", "c"),
                    remove_ranks=("A", "4", "5", "6", "7", "8", "9", "T", "J", "Q"),
                    bust_counts=(CountRule(kind=CardSet(ranks=("K",)), n=2),), decks=2,
                    bust_over=None)
    # deck: 2h 2h 3h 3h Kh Kh; after Kh the chance the next card busts is 1/5
    model, state = custom_position(rules, drawn="Kh")
    assert TurnSolver(model, exact=True).p_bust_next(state) == Fraction(1, 5)
    # with an ally (the 2s are allies) a second king is cancelled instead
    allied = rules.replace(allies=CardSet(ranks=("2",)))
    model, state = custom_position(allied, drawn="2h Kh")
    assert TurnSolver(model, exact=True).p_bust_next(state) == 0
    model, state = custom_position(allied, drawn="2h Kh Kh")  # the ally cancelled the king
    assert model.turn_total(state) == 10 and model.unpack(state)[2] == 0


# --------------------------------------------------------------------------------------------
# Engine


def _play(rules: RuleSet, threshold: int, turns: int, seed: int) -> list[int]:
    engine = CustomEngine(rules, 1, random.Random(seed))
    results = []
    while len(results) < turns:
        actions = engine.legal_actions()
        if STOP in actions and engine.total >= threshold:
            engine.act(STOP)
        elif DRAW in actions:
            engine.act(DRAW)
        else:
            engine.act(actions[0])
        if len(engine.turn_records) > len(results):
            results.append(engine.turn_records[-1].result)
        if engine.is_over:
            engine = CustomEngine(rules, 1, random.Random(seed + len(results)))
    return results


@pytest.mark.parametrize("rules", [CAPTAIN_SEVEN_RULES, PIG_RULES], ids=["sevens", "pig"])
def test_engine_agrees_with_the_model(rules: RuleSet) -> None:
    """Simulated turns of the engine (card by card, its own rule checks) against the exact
    threshold-policy mean of the model, within 4 standard errors (fixed seed)."""
    model, state = custom_position(rules)
    solver = TurnSolver(model, exact=True)
    dist = solver.distribution(state, solver.threshold_policy(20))
    mean = sum(k * p for k, p in dist.items())
    var = sum((k - mean) ** 2 * p for k, p in dist.items())
    results = _play(rules.replace(target=10**5), 20, 4000, seed=11)
    sample = sum(results) / len(results)
    assert abs(sample - float(mean)) <= 4 * (float(var) / len(results)) ** 0.5


TINY = RuleSet(name="Tiny", decks=2, remove_suits=("s", "d", "c"),
               remove_ranks=("4", "5", "6", "7", "8", "9", "T", "J", "Q"),
               bust_counts=(CountRule(kind=CardSet(ranks=("K",)), n=2),),
               allies=CardSet(ranks=("A",)), reshuffle_each_turn=False, bank_minimum=6,
               bust_over=None)


@pytest.mark.parametrize("name", [*BUILT_GAMES, "tiny"])
def test_engine_turn_position_matches_the_engine(name: str) -> None:
    """At every decision of seeded games the model's legal actions are the engine's, and the
    model's turn total is the engine's (built games of all four kinds, and a tiny deck whose
    pile runs out in mid-turn, with allies and a bank minimum)."""
    rules = TINY if name == "tiny" else BUILT_GAMES[name]
    pile_outs = 0
    for seed in range(4):
        engine = CustomEngine(rules.replace(target=40), 2, random.Random(seed))
        rng = random.Random(seed + 100)
        steps = 0
        while not engine.is_over and steps < 300:
            model, state = engine.turn_position()
            assert model.actions(state) == engine.legal_actions(), name
            assert model.turn_total(state) == engine.total, name
            engine.act(rng.choice(engine.legal_actions()))
            steps += 1
        assert engine.is_over or steps == 300
        pile_outs += sum("pile ran out" in line for line in engine.log)
    if name == "tiny":
        assert pile_outs > 0  # the case the test is for did happen
