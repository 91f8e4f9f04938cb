r"""Incan Gold with a standard deck (docs/rules.md, "Incan Gold (standard deck)"; seed 004).

Explorers flip the cards of a shared temple deck: treasures are split among those inside,
artifacts wait on the path, and two neighbouring spades spring a trap that takes what everyone
inside carries.  After each flip the explorers inside decide at the same time to stay or leave.
The game's parts, each a module of this package:

* :mod:`~pushluck_teach.games.incan_gold.rules`: the cards, the constants of the rules, the
  variant's options (and the choices where the rules are silent), a round's deck;
* :mod:`~pushluck_teach.games.incan_gold.structures`: trap structures, the traps of a state;
* :mod:`~pushluck_teach.games.incan_gold.levels`: a state's integer code and the NumPy level
  graph (the solver's speed path, with the merged decisions in company), the size estimate;
* :mod:`~pushluck_teach.games.incan_gold.turn`: the turn models, solo and in company, with
  their state, pruning proofs and objective;
* :mod:`~pushluck_teach.games.incan_gold.position`: a position from flags and cards;
* :mod:`~pushluck_teach.games.incan_gold.engine`: the play engine;
* this module: the game's registration (:data:`SPEC`) and the names re-exported from the parts.
"""

from __future__ import annotations

from pushluck_teach.games.base import DRAWN, REMOVED, Flag, GameSpec, register, whole_number
from pushluck_teach.games.incan_gold.engine import IncanGoldEngine
from pushluck_teach.games.incan_gold.levels import (
    CARRIED_MAX,
    CODE_FIELDS,
    DECK_MAX,
    GROUP_LEVEL_MAX_STATES,
    GROUP_LEVEL_SHARE,
    GROUP_REFUSAL_FACTOR,
    IncanGoldLevelGraph,
    deck_states,
    estimate_states,
)
from pushluck_teach.games.incan_gold.position import (
    incan_gold_position,
    infer_round,
    parse_others,
    round_deck,
)
from pushluck_teach.games.incan_gold.rules import (
    ARTIFACT_RANKS,
    ARTIFACT_VALUES,
    FULL_RING,
    FULL_TREASURES,
    GAME,
    GEMS,
    JOKER_CLASS,
    OTHERS_MAX,
    POW3,
    RING,
    ROUNDS_MAX,
    TREASURE_RANKS,
    Flipped,
    IncanGoldVariant,
    RoundDeck,
    artifact_card,
    card_value,
    classify,
    full_deck,
    read_flips,
    ring_neighbours,
    springs,
    trap_card,
    treasure_cards,
)
from pushluck_teach.games.incan_gold.structures import (
    Segment,
    Struct,
    reachable_structs,
    struct_danger,
    struct_moves,
    struct_size,
    trap_structure,
)
from pushluck_teach.games.incan_gold.turn import IGState, IncanGoldGroupModel, IncanGoldTurnModel

SPEC = register(GameSpec(
    name=GAME,
    title="Incan Gold (standard deck)",
    variant_cls=IncanGoldVariant,
    engine_cls=IncanGoldEngine,
    position=incan_gold_position,
    deck=lambda variant: full_deck(),
    position_flags=(
        DRAWN, REMOVED,
        Flag("round", "the round, 1-5", whole_number),
        Flag("others", "other explorers' leave thresholds, e.g. 5,10"),
        Flag("carried", "gems you carry this round (with --path, --artifacts: the round as it "
             "is)", whole_number),
        Flag("path", "gems left on the path this round", whole_number),
        Flag("artifacts", "value of the artifacts on the path", whole_number),
    ),
    example={"drawn": "5s Kh", "round": "2"},
    min_players=1,
    max_players=8,
    presets={
        "standard": IncanGoldVariant(),
        "short": IncanGoldVariant(rounds=3),
        "traps-stay": IncanGoldVariant(remove_sprung_trap=False),
        "artifact-tiebreak": IncanGoldVariant(tie_break="artifacts"),
    },
    blurb="Explore a temple together; two neighbouring spades spring a trap. Stay or leave?",
))

__all__ = [
    "ARTIFACT_RANKS", "ARTIFACT_VALUES", "CARRIED_MAX", "CODE_FIELDS", "DECK_MAX", "FULL_RING",
    "FULL_TREASURES", "GAME", "GEMS", "GROUP_LEVEL_MAX_STATES", "GROUP_LEVEL_SHARE",
    "GROUP_REFUSAL_FACTOR", "JOKER_CLASS", "OTHERS_MAX", "POW3", "RING", "ROUNDS_MAX", "SPEC",
    "TREASURE_RANKS", "Flipped", "IGState", "IncanGoldEngine", "IncanGoldGroupModel",
    "IncanGoldLevelGraph", "IncanGoldTurnModel", "IncanGoldVariant", "RoundDeck", "Segment",
    "Struct", "artifact_card", "card_value", "classify", "deck_states", "estimate_states",
    "full_deck", "incan_gold_position", "infer_round", "parse_others", "reachable_structs",
    "read_flips", "ring_neighbours", "round_deck", "springs", "struct_danger", "struct_moves",
    "struct_size", "trap_card", "trap_structure", "treasure_cards",
]
