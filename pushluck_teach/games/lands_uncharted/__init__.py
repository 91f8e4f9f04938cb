"""Lands Uncharted (seed 000, first half; docs/rules.md, "Lands Uncharted"): one 52-card deck,
1-4 players; draw treasure 2-10 until you bank, while a second threat or a repeated rank busts
the turn unless an ace ally steps in.

Where each part lives:

* :mod:`.rules`: the rules and options in full, the constants of the rules, the card classes
  and the variant (:class:`LandsUnchartedVariant`);
* :mod:`.state`: decision states packed in ints and the look-up tables of the draw;
* :mod:`.turn`: one turn as an exact MDP (:class:`LandsUnchartedTurnModel`), with the
  mathematics of its objective, states, merging, pruning and speed;
* :mod:`.levels`: the turn as int64 codes for the level-by-level NumPy solver
  (:class:`LandsUnchartedLevelGraph`);
* :mod:`.position`: a position from what the player knows (:func:`lands_uncharted_position`);
* :mod:`.engine`: a whole game with a real shuffled deck (:class:`LandsUnchartedEngine`);
* here: the solo mode and the game's registration (``SPEC``).
"""

from __future__ import annotations

from pushluck_teach.cards import standard_cards
from pushluck_teach.games.base import (
    ALLIES,
    DRAWN,
    REMOVED,
    STOP,
    Flag,
    GameSpec,
    OptionError,
    RulesError,
    SoloMode,
    register,
    whole_number,
)
from pushluck_teach.games.lands_uncharted.engine import LandsUnchartedEngine
from pushluck_teach.games.lands_uncharted.levels import LandsUnchartedLevelGraph
from pushluck_teach.games.lands_uncharted.position import lands_uncharted_position
from pushluck_teach.games.lands_uncharted.rules import (
    ACE,
    BURIED_BONUS,
    BURIED_TOTAL,
    CLASS_LABEL,
    CURSED_CLUBS,
    CURSED_DIAMONDS,
    CURSED_HEARTS,
    CURSED_NAMES,
    CURSED_SPADES,
    DECLARE,
    DIAMOND,
    FORCED_PHASES,
    FREE,
    GAME,
    HEART1,
    HEART2,
    MAX_TARGET,
    N_CLASSES,
    NUMBER_CLASSES,
    QUEEN_CLASS,
    SOLO_TURNS,
    START,
    THREAT,
    LandsUnchartedVariant,
    card_class,
)
from pushluck_teach.games.lands_uncharted.state import (
    DEAD,
    DEAD_SHIFT,
    HAUL_BITS,
    NINE_TEN,
    THREAT_CLASSES,
    THREAT_FIELDS,
    TOTAL,
    LUState,
    pack_counts,
)
from pushluck_teach.games.lands_uncharted.turn import LandsUnchartedTurnModel

# --------------------------------------------------------------------------------------------
# Solo: ten turns as a chain of turns from a fresh deck (solved by solve/whole_game/solo.py)


def _solo_variant(variant: LandsUnchartedVariant | None) -> LandsUnchartedVariant:
    variant = variant or LandsUnchartedVariant(solo=True)
    if not isinstance(variant, LandsUnchartedVariant):
        raise OptionError(f"not a Lands Uncharted variant: {type(variant).__name__}")
    if variant.double_or_nothing:
        raise RulesError("the solo model covers Lands Uncharted without double_or_nothing")
    return variant if variant.solo else variant.replace(solo=True)


def _solo_turn_outcome(variant: LandsUnchartedVariant, model: LandsUnchartedTurnModel,
                       last: LUState, terminal: LUState, action: str) -> tuple[int, int]:
    """(treasure banked, allies kept for the next turn): a bust leaves no ally (an ally would
    have stopped it); without ``allies_persist`` allies leave at the turn's end."""
    held = model.allies_held(last) if action == STOP and variant.allies_persist else 0
    return int(model.payoff(terminal)), held


#: The carry between turns is (turns played, allies held).  Without allies_persist no ally is
#: ever held at a turn start (the position factory refuses it).
SOLO_MODE = SoloMode(
    title=f"{SOLO_TURNS}-turn solo",
    model=("fresh 52-card deck each turn (minus the aces held as allies); allies carried over "
           "exactly; Markov chain over (turn, allies, score)"),
    start=(0, 0),
    prepare=_solo_variant,
    turn_position=lambda variant, carry: {
        "allies": carry[1] if variant.allies_persist else 0},
    turn_outcome=_solo_turn_outcome,
    advance=lambda variant, carry, outcome: (outcome[0], (carry[0] + 1, outcome[1])),
    finished=lambda variant, carry: carry[0] >= SOLO_TURNS,
)


# --------------------------------------------------------------------------------------------
# Registration

SPEC = register(GameSpec(
    name=GAME,
    title="Lands Uncharted",
    variant_cls=LandsUnchartedVariant,
    engine_cls=LandsUnchartedEngine,
    position=lands_uncharted_position,
    deck=lambda variant: standard_cards(),
    position_flags=(
        DRAWN, REMOVED,
        ALLIES,
        Flag("score", "the score on a declared double-or-nothing turn", whole_number),
        Flag("allies_elsewhere", "how many of the removed aces other players hold as allies",
             whole_number),
    ),
    example={"drawn": "5h 9s"},
    min_players=1,
    max_players=4,
    presets={
        "standard": LandsUnchartedVariant(),
        "buried-treasure": LandsUnchartedVariant(buried_treasure=True),
        "double-or-nothing": LandsUnchartedVariant(double_or_nothing=True),
        "cursed-idol": LandsUnchartedVariant(cursed_idol=CURSED_NAMES),
        "allies-leave": LandsUnchartedVariant(allies_persist=False),
        "solo": LandsUnchartedVariant(solo=True),
        "all-options": LandsUnchartedVariant(
            buried_treasure=True, double_or_nothing=True, cursed_idol=CURSED_NAMES
        ),
    },
    blurb="Draw treasure 2-10; a second threat or a repeated rank busts, unless an ace ally "
          "steps in.",
    solo=SOLO_MODE,
))

__all__ = [
    "DECLARE", "LandsUnchartedEngine", "LandsUnchartedTurnModel", "LandsUnchartedVariant",
    "card_class", "lands_uncharted_position",
    # the rest of the game's public names, importable from here as before the split
    "ACE", "BURIED_BONUS", "BURIED_TOTAL", "CLASS_LABEL", "CURSED_CLUBS", "CURSED_DIAMONDS",
    "CURSED_HEARTS", "CURSED_NAMES", "CURSED_SPADES", "DEAD", "DEAD_SHIFT", "DIAMOND",
    "FORCED_PHASES", "FREE", "GAME", "HAUL_BITS", "HEART1", "HEART2", "MAX_TARGET", "N_CLASSES",
    "NINE_TEN", "NUMBER_CLASSES", "QUEEN_CLASS", "SOLO_MODE", "SOLO_TURNS", "SPEC", "START",
    "THREAT", "THREAT_CLASSES", "THREAT_FIELDS", "TOTAL", "LUState", "LandsUnchartedLevelGraph",
    "pack_counts",
]
