"""What every GameSpec tells the other layers (deck, draws, position flags, example, whole-game
solver), and the one policy vocabulary."""

from __future__ import annotations

import inspect
import random
from collections import Counter

import pytest

from pushluck_teach.games import get_game
from pushluck_teach.games.base import CARDS, DICE, RulesError, turn_games
from pushluck_teach.games.policies import (
    THRESHOLD,
    TURN_OPTIMAL,
    WIN_OPTIMAL,
    Policy,
    parse_policy,
)
from pushluck_teach.sim.bots import OptimalTurnBot, ThresholdBot, make_bot

GAMES = turn_games()

# The decks as the rules state them: a standard deck with two jokers (Captain Seven), a
# standard deck (Lands Uncharted, Hit List; two with long_haul), Incan Gold's 34 cards (13
# spades as traps, 7 treasure ranks in two red suits + 2 jokers, 5 heart artifacts).
DECK_SIZES = {"captain-seven": 54, "lands-uncharted": 52, "hit-list": 52, "incan-gold": 34,
              "custom": 52}


@pytest.mark.parametrize("spec", GAMES, ids=[s.name for s in GAMES])
def test_a_spec_describes_its_game(spec) -> None:
    variant = spec.variant_cls()
    assert spec.draws_for(variant) in (CARDS, DICE)
    if spec.draws_for(variant) == DICE:
        assert spec.deck is None
    else:
        assert len(spec.deck(variant)) == DECK_SIZES[spec.name]
    takes = inspect.signature(spec.position).parameters
    for flag in spec.position_flags:
        assert flag.name in takes, f"{spec.name}'s position does not take {flag.name}"
    model, state = spec.position_from_flags(variant, spec.example)
    assert len(model.actions(state)) >= 2, "the example leaves a decision"


def test_two_decks_with_long_haul() -> None:
    spec = get_game("hit-list")
    assert len(spec.deck(spec.variant(["long_haul=true"]))) == 104


def test_whole_game_solvers_are_named_by_their_specs() -> None:
    named = {spec.name for spec in GAMES if spec.whole_game}
    assert named == {"pig", "captain-seven"}


def test_position_from_flags_refuses_a_flag_the_game_does_not_take() -> None:
    spec = get_game("pig")
    with pytest.raises(RulesError, match="--allies does not apply to pig"):
        spec.position_from_flags(spec.variant_cls(), {"allies": "1"})


@pytest.mark.parametrize(("text", "optimal", "kind", "number"), [
    ("optimal", TURN_OPTIMAL, TURN_OPTIMAL, None),
    ("optimal", WIN_OPTIMAL, WIN_OPTIMAL, None),
    ("turn-optimal", WIN_OPTIMAL, TURN_OPTIMAL, None),
    ("optimal-turn", TURN_OPTIMAL, TURN_OPTIMAL, None),
    ("win-optimal", TURN_OPTIMAL, WIN_OPTIMAL, None),
    (" Hold:20 ", TURN_OPTIMAL, THRESHOLD, 20),
    ("threshold:7", TURN_OPTIMAL, THRESHOLD, 7),
    ("cautious", TURN_OPTIMAL, THRESHOLD, 10),
    ("greedy", TURN_OPTIMAL, THRESHOLD, 30),
    ("keep-pace", WIN_OPTIMAL, "keep-pace", None),
])
def test_one_policy_vocabulary(text: str, optimal: str, kind: str, number: int | None) -> None:
    policy = parse_policy(text, optimal=optimal)
    assert policy == Policy(kind, number)


@pytest.mark.parametrize("text", ["", "bogus", "hold", "hold:0", "hold:x", "optimal:3", ":3",
                                  "keep-pace:2"])
def test_bad_policies_are_one_line_rules_errors(text: str) -> None:
    with pytest.raises(RulesError) as info:
        parse_policy(text)
    assert "\n" not in str(info.value)


def test_a_table_seat_reads_the_same_words() -> None:
    assert isinstance(make_bot("optimal"), OptimalTurnBot)
    assert isinstance(make_bot("turn-optimal"), OptimalTurnBot)
    bot = make_bot("hold:15")
    assert isinstance(bot, ThresholdBot) and bot.threshold == 15
    assert make_bot("cautious").name == "cautious"
    with pytest.raises(RulesError, match="needs a whole-game solution"):
        make_bot("win-optimal")


@pytest.mark.parametrize("spec", GAMES, ids=[s.name for s in GAMES])
def test_every_card_is_somewhere_all_game_long(spec) -> None:
    """``Engine.card_locations`` partitions the deck at every step of random games, whatever
    the preset (relics, cursed idols, long haul, later rounds...)."""
    for preset_name, variant in sorted(spec.presets.items()):
        players = 1 if getattr(variant, "solo", False) else min(3, spec.max_players)
        for seed in range(3):
            engine = spec.new_engine(variant, players=players, seed=seed)
            rng = random.Random(seed)
            if spec.deck is None or engine.card_locations() is None:
                break  # no deck, or a game that does not say where its cards are
            deck = Counter(spec.deck(variant))
            for _step in range(300):
                held = Counter(c for cards in engine.card_locations().values() for c in cards)
                assert held == deck, (preset_name, seed, engine.log[-3:])
                if engine.is_over:
                    break
                engine.act(rng.choice(engine.legal_actions()))
