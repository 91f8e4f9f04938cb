"""Lost Cities bots: legal, seeded, blind to hidden cards, and stronger than the simple bot."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pushluck_teach.games import get_game
from pushluck_teach.games import lost_cities as lc
from pushluck_teach.games.base import RulesError
from pushluck_teach.games.lost_cities import bots, plan
from pushluck_teach.sim.duel import duel, mirrored_pair


def _play_game(names: tuple[str, str], seed: int) -> list[str]:
    engine = lc.LostCitiesEngine(lc.LostCitiesVariant(matches=2), 2, seed)
    seats = [bots.make_bot(names[0], seed), bots.make_bot(names[1], seed + 1)]
    actions = []
    while not engine.is_over:
        action = seats[engine.current_player].choose(engine)
        assert action in engine.legal_actions()
        actions.append(action)
        engine.act(action)
        assert len(actions) < 2_000
    return actions


@pytest.mark.parametrize("names", [("simple", "odds"), ("search", "simple")])
def test_bots_play_whole_games_legally_and_reproducibly(names: tuple[str, str]) -> None:
    first = _play_game(names, 5)
    assert first == _play_game(names, 5)
    assert first[-1].startswith("draw:deck")


def test_unknown_bot() -> None:
    with pytest.raises(RulesError, match="unknown Lost Cities bot"):
        bots.make_bot("oracle")


@pytest.mark.parametrize("name", list(bots.BOTS))
def test_bots_do_not_read_hidden_cards(name: str) -> None:
    """Swap the opponent's hand with deck cards: what the bot may know is unchanged, so is its
    choice."""
    for seed in range(4):
        engine = lc.LostCitiesEngine(lc.LostCitiesVariant(), 2, seed)
        for _ in range(6):                       # a few turns in, with some cards face up
            engine.act(bots.make_bot("simple", 0).choose(engine))
        twin = lc.LostCitiesEngine(lc.LostCitiesVariant(), 2, seed)
        for _ in range(6):
            twin.act(bots.make_bot("simple", 0).choose(twin))
        other = 1 - twin.current_player
        hidden = twin._hands[other] + twin._deck
        random.Random(seed).shuffle(hidden)
        twin._hands[other] = sorted(hidden[:8])
        twin._deck = hidden[8:]
        assert twin.hand(other) != engine.hand(other)
        for phase in range(2):
            a = bots.make_bot(name, 9).choose(engine)
            assert a == bots.make_bot(name, 9).choose(twin)
            if phase == 0:
                engine.act(a)
                twin.act(a)


@settings(max_examples=25, deadline=None)
@given(st.integers(-1, 10), st.sets(st.integers(2, 10), max_size=4),
       st.integers(0, 2), st.integers(2, 22), st.sampled_from(["play", "draw"]))
def test_fast_plan_means_agree_with_the_exact_distribution(top: int, held: set[int],
                                                           handshakes_held: int, deck: int,
                                                           phase: str) -> None:
    """Two methods: the forward exact distribution (Fractions) and the backward moments."""
    if top == 1:
        top = -1
    pending = [0] * (handshakes_held if top <= 0 else 0) + sorted(r for r in held if r > top)
    unseen = [r for r in range(2, 11) if r not in held and r > top] + \
        [0] * ((3 - handshakes_held) if top <= 0 else 0)
    on_expedition = [r for r in range(2, 11) if r <= top][:3]
    state = dict(top=top if on_expedition or top <= 0 else -1,
                 handshakes=1 if top == 0 else 0,
                 numbers_sum=sum(on_expedition), count=len(on_expedition) + (top == 0))
    if state["top"] > 0:
        state["top"] = max(on_expedition)
    schedule = plan._schedule(deck, phase)
    exact, _ = lc.plan_distribution(pending=pending, available=unseen, pool=deck + 8,
                                    schedule=schedule, **state)
    mean = sum((Fraction(s) * p for s, p in exact.items()), Fraction(0))
    fast = lc.PlanMeans().mean(pending=pending, available=unseen, pool=deck + 8,
                               schedule=schedule, **state)
    assert abs(float(mean) - fast) < 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("strong", ["odds", "search"])
def test_stronger_bots_beat_the_simple_one_on_mirrored_deals(strong: str) -> None:
    result = duel(get_game("lost-cities"), lc.LostCitiesVariant(matches=1), bots.BOTS[strong],
                  bots.BOTS["simple"], pairs=40, first_seed=500)
    low, _ = result.interval
    assert low > 0, result
    assert result.win_rate > 0.5


def test_mirrored_pair_swaps_the_seats_on_the_same_deal() -> None:
    """Two copies of one deterministic bot: the second match is the first with the seats
    swapped, so the two differences cancel exactly."""
    spec, variant = get_game("lost-cities"), lc.LostCitiesVariant(matches=1)
    first, second = mirrored_pair(spec, variant, bots.BOTS["simple"], bots.BOTS["simple"], 3)
    assert first == -second
    result = duel(spec, variant, bots.BOTS["simple"], bots.BOTS["simple"], pairs=3)
    assert result.mean_difference == 0 and result.pairs == 3 and result.win_rate == 0.5
