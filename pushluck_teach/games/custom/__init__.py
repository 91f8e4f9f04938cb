r"""Build your own push-your-luck game: a :class:`RuleSet` defines a game from parts.

Where each part lives:

* :mod:`~pushluck_teach.games.custom.rules`: the parts (:class:`CardSet`, :class:`CountRule`), the
  frozen :class:`RuleSet` with its checks, its card classes (:func:`compile_rules`) and
  :func:`with_changes`;
* :mod:`~pushluck_teach.games.custom.turn`: the turn model (:class:`CustomTurnModel`), its states,
  dead cards and the stop proof;
* :mod:`~pushluck_teach.games.custom.levels`: the NumPy level graph of a card turn
  (:class:`CustomLevelGraph`);
* :mod:`~pushluck_teach.games.custom.position`: turn-start states, positions
  (:func:`custom_position`) and the state estimate (:func:`estimate_states`,
  :func:`check_size`);
* :mod:`~pushluck_teach.games.custom.engine`: the play engine (:class:`CustomEngine`);
* here: the four games of the repository built from parts (:data:`BUILT_GAMES`), rule files
  (:func:`rule_set_from_text`) and the registration (``SPEC``).
"""

from __future__ import annotations

from collections.abc import Mapping

from pushluck_teach.cards import Card
from pushluck_teach.games.base import (
    CARDS,
    DICE,
    DRAWN,
    REMOVED,
    Flag,
    GameSpec,
    RulesError,
    register,
    whole_number,
)
from pushluck_teach.games.custom.engine import CustomEngine
from pushluck_teach.games.custom.levels import CustomLevelGraph
from pushluck_teach.games.custom.position import (
    check_size,
    custom_position,
    estimate_states,
    start_state,
)
from pushluck_teach.games.custom.rules import (
    DEFAULT_CARD_VALUES,
    GAME,
    JOKER,
    MAX_DECKS,
    MAX_DICE_FACES,
    MAX_STATES,
    MAX_VALUE,
    CardClass,
    CardSet,
    CountRule,
    Layout,
    RuleSet,
    compile_rules,
    with_changes,
)
from pushluck_teach.games.custom.turn import CustomState, CustomTurnModel

#: ``--allies N`` of a built game: N ally cards from earlier turns, out of the draw pile.
BUILT_ALLIES = Flag("allies", "allies held from earlier turns: that many ally cards sit in your "
                    "ally area, out of the draw pile (built games with ally cards)",
                    whole_number)


# --------------------------------------------------------------------------------------------
# The four games of the repository, built from parts (their turn rules)

FACES = CardSet(ranks=("J", "Q", "K"))

CAPTAIN_SEVEN_RULES = RuleSet(
    name="Captain Seven (built)", jokers=2, bust_over=None,
    bust_counts=(CountRule(kind=CardSet(ranks=("7", JOKER)), n=1),),
    bust_ending=7, first_draw_safe=True, reshuffle_each_turn=True,
)
LANDS_UNCHARTED_RULES = RuleSet(
    name="Lands Uncharted (built)", bust_over=None,
    values=(("A", 0), ("J", 0), ("Q", 0), ("K", 0)),
    bust_counts=(CountRule(kind=FACES, n=2),
                 CountRule(kind=CardSet(ranks=("2", "3", "4", "5", "6", "7", "8", "9", "T")),
                           n=2, per_rank=True)),
    allies=CardSet(ranks=("A",)), allies_persist=True, reshuffle_each_turn=False,
)
HIT_LIST_RULES = RuleSet(
    name="Hit List, aces 1 (built)",
    values=(("J", 0), ("Q", 0), ("K", 0)),
    bust_counts=(CountRule(kind=FACES, n=2),), bust_over=21, bank_minimum=15,
    bust_penalty=10, reshuffle_each_turn=False,
)
PIG_RULES = RuleSet(
    name="Pig (built)", dice=6, bust_over=None,
    bust_counts=(CountRule(kind=CardSet(ranks=("1",)), n=1),),
)
BUILT_GAMES: Mapping[str, RuleSet] = {
    "captain-seven": CAPTAIN_SEVEN_RULES,
    "lands-uncharted": LANDS_UNCHARTED_RULES,
    "hit-list": HIT_LIST_RULES,
    "pig": PIG_RULES,
}


def _deck(rules: RuleSet) -> tuple[Card, ...] | None:
    return None if rules.dice else rules.deck_cards()


def _draws(rules: RuleSet) -> str:
    return DICE if rules.dice else CARDS


def rule_set_from_text(text: str) -> RuleSet:
    """A built game's rule set from a rule file's JSON text (``pushluck ... --rules FILE``)."""
    from pushluck_teach.games.rules_format import rules_from_json  # it imports this module

    rules = rules_from_json(text)
    if not isinstance(rules, RuleSet):
        game = type(rules).game
        raise RulesError(f"this rule file is a variant of {game}: use it with the game {game}")
    return rules


SPEC = register(GameSpec(
    name=GAME,
    title="Build your own",
    variant_cls=RuleSet,
    engine_cls=CustomEngine,
    position=custom_position,
    min_players=1,
    max_players=6,
    presets=dict(BUILT_GAMES),
    blurb="A push-your-luck game built from parts: deck or die, values, bust rules, allies.",
    deck=_deck,
    draws=_draws,
    position_flags=(DRAWN, REMOVED, BUILT_ALLIES),
    example={"drawn": "Kh 5d"},
    variant_from_text=rule_set_from_text,
    sweep="bank_minimum",
    lab=("build",),
))


__all__ = [
    "BUILT_ALLIES", "BUILT_GAMES", "CAPTAIN_SEVEN_RULES", "DEFAULT_CARD_VALUES", "FACES", "GAME",
    "HIT_LIST_RULES", "JOKER", "LANDS_UNCHARTED_RULES", "MAX_DECKS", "MAX_DICE_FACES",
    "MAX_STATES", "MAX_VALUE", "PIG_RULES", "SPEC", "CardClass", "CardSet", "CountRule",
    "CustomEngine", "CustomLevelGraph", "CustomState", "CustomTurnModel", "Layout", "RuleSet",
    "check_size", "compile_rules", "custom_position", "estimate_states", "rule_set_from_text",
    "start_state", "with_changes",
]
