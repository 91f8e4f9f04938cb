"""Captain Seven's Doubloons: draw cards, stash the total, and never let it end in 7.

The game's parts, each module building on the ones listed before it:

* :mod:`.rules`: the rules and options (docs/rules.md), the cards and their value classes, the
  variant (:class:`CaptainSevenVariant`);
* :mod:`.levels`: the int state codes (:func:`encode_state`) and the turn's level graph for the
  level solver's NumPy path (:class:`CaptainSevenLevels`);
* :mod:`.turn`: the turn model (:class:`CaptainSevenTurnModel`) and the proofs of where
  stopping is optimal;
* :mod:`.position`: a turn read from the cards drawn and the relics
  (:func:`captain_seven_position`);
* :mod:`.engine`: playing a game (:class:`CaptainSevenEngine`).

This module re-exports their public names and registers the game (``SPEC``); its whole-game
solver is :mod:`pushluck_teach.solve.whole_game.captain_seven`.
"""

from __future__ import annotations

from pushluck_teach.games.base import DRAWN, REMOVED, Flag, GameSpec, register, whole_number
from pushluck_teach.games.captain_seven.engine import CaptainSevenEngine
from pushluck_teach.games.captain_seven.levels import (
    HAS_LAST,
    LAST_FIRST,
    PENDING,
    RELIC_ACE,
    RELIC_JACK,
    RELIC_NONE,
    RELIC_QUEEN,
    STARTED,
    CaptainSevenLevels,
    caught,
    caught_codes,
    encode_state,
    stopped,
)
from pushluck_teach.games.captain_seven.position import OTHER_RELICS_MAX, captain_seven_position
from pushluck_teach.games.captain_seven.rules import (
    _ALL_CARDS,
    CAUGHT,
    CLASS_CAPS,
    CLASS_LABELS,
    CLASS_VALUES,
    DECK_SIZE,
    FULL_POOL,
    GAME,
    JACK,
    JOKER_CLASS,
    KEEP,
    KING,
    MAX_TARGET,
    NO_QUEEN,
    PASS,
    QUEEN,
    RELIC_RANKS,
    SEVEN,
    SHEET_TARGETS,
    TEN,
    CaptainSevenVariant,
    card_class,
    card_value,
    full_deck,
)
from pushluck_teach.games.captain_seven.turn import CaptainSevenTurnModel

__all__ = [
    "CAUGHT",
    "CLASS_CAPS",
    "CLASS_LABELS",
    "CLASS_VALUES",
    "DECK_SIZE",
    "FULL_POOL",
    "GAME",
    "HAS_LAST",
    "JACK",
    "JOKER_CLASS",
    "KEEP",
    "KING",
    "LAST_FIRST",
    "MAX_TARGET",
    "NO_QUEEN",
    "OTHER_RELICS_MAX",
    "PASS",
    "PENDING",
    "QUEEN",
    "RELIC_ACE",
    "RELIC_JACK",
    "RELIC_NONE",
    "RELIC_QUEEN",
    "RELIC_RANKS",
    "SEVEN",
    "SHEET_TARGETS",
    "SPEC",
    "STARTED",
    "TEN",
    "CaptainSevenEngine",
    "CaptainSevenLevels",
    "CaptainSevenTurnModel",
    "CaptainSevenVariant",
    "captain_seven_position",
    "card_class",
    "card_value",
    "caught",
    "caught_codes",
    "encode_state",
    "full_deck",
    "stopped",
]


SPEC = register(GameSpec(
    name=GAME,
    title="Captain Seven's Doubloons",
    variant_cls=CaptainSevenVariant,
    engine_cls=CaptainSevenEngine,
    position=captain_seven_position,
    deck=lambda variant: _ALL_CARDS,
    position_flags=(DRAWN, REMOVED, Flag("relic", "the relic held (A, J, Q or K), with relics"),
                    Flag("doubled", "the card your queen relic doubled this turn, with relics"),
                    Flag("score", "your stash (for --objective win)", whole_number),
                    Flag("opponent", "the other player's stash (for --objective win)",
                         whole_number)),
    whole_game="pushluck_teach.solve.whole_game.captain_seven",
    example={"drawn": "Kh Tc 5d"},
    lab=("compare",),
    min_players=1,
    max_players=4,
    presets={
        "standard": CaptainSevenVariant(),
        "short": CaptainSevenVariant(target=75),
        "long": CaptainSevenVariant(target=150),
        "marathon": CaptainSevenVariant(target=200),
        "atlantic": CaptainSevenVariant(target=1000),
        "relics": CaptainSevenVariant(relics=True),
        "secret-stash": CaptainSevenVariant(secret_stash=True),
    },
    blurb="Draw cards for doubloons; a 7, a joker or a total ending in 7 loses the turn.",
))
