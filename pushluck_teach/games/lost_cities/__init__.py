"""Lost Cities: the two-player expedition card game, with exact expedition odds.

Where each part lives:

* :mod:`~pushluck_teach.games.lost_cities.rules`: the rules as implemented, the cards and their
  notation, an expedition's score, the variant (the number of matches);
* :mod:`~pushluck_teach.games.lost_cities.plan`: the model of one colour's future (the plan
  "play every card of that colour you get in rising order") with its mathematics, solved
  exactly (:func:`plan_distribution`) and fast for the bots (:class:`PlanMeans`);
* :mod:`~pushluck_teach.games.lost_cities.odds`: the odds report of one colour read from a
  position (:func:`expedition_odds`) and the command-line answers;
* :mod:`~pushluck_teach.games.lost_cities.engine`: the play engine and the table's view;
* :mod:`~pushluck_teach.games.lost_cities.bots`: the three bots;
* here: the re-exports and the game's :class:`~pushluck_teach.games.base.GameSpec`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pushluck_teach.games.base import (
    Engine,
    Flag,
    GameCommand,
    GameSpec,
    PositionError,
    Variant,
    register,
)
from pushluck_teach.games.lost_cities import bots
from pushluck_teach.games.lost_cities.engine import LostCitiesEngine, MatchResult, card_face
from pushluck_teach.games.lost_cities.odds import (
    ODDS_FLAGS,
    CardOdds,
    ChartBars,
    ExpeditionOdds,
    ScoreDistribution,
    expedition_odds,
    odds_from_flags,
    score_from_flags,
)
from pushluck_teach.games.lost_cities.plan import (
    Moments,
    PlanMeans,
    PlanState,
    plan_distribution,
    turns_left,
)
from pushluck_teach.games.lost_cities.rules import (
    BONUS,
    BONUS_CARDS,
    COLOUR_NAMES,
    COLOURS,
    DECK,
    DECK_SIZE,
    DISCARD,
    DRAW_FROM,
    EXPEDITION_COST,
    GAME,
    HAND_SIZE,
    HANDSHAKE,
    HANDSHAKES_PER_COLOUR,
    MAX_MATCHES,
    NUMBERS,
    PLAY,
    ExpeditionScore,
    LCCard,
    LostCitiesVariant,
    cards_text,
    check_card_counts,
    expedition_problem,
    full_deck,
    parse_card,
    parse_cards,
    parse_colour,
    parse_expedition,
    score_expedition,
    score_from_counts,
)


def _no_turn_model(variant: Variant, **flags: Any) -> Any:
    raise PositionError("lost-cities has no draw/stop turn: its odds are per expedition")


def _plan_values(engine: Engine) -> Mapping[str, float]:
    return bots.plan_values(engine)  # type: ignore[arg-type]


def _bot_factory(name: str) -> Any:
    def make() -> Any:
        return bots.make_bot(name, 0)
    return make


SPEC = register(GameSpec(
    name=GAME,
    title="Lost Cities",
    variant_cls=LostCitiesVariant,
    engine_cls=LostCitiesEngine,
    position=_no_turn_model,
    min_players=2,
    max_players=2,
    presets={"standard": LostCitiesVariant(), "one match": LostCitiesVariant(matches=1)},
    blurb="Two players open expeditions: each is a bet of 20 points against the deck's clock.",
    position_flags=ODDS_FLAGS,
    odds=odds_from_flags,
    commands=(GameCommand(
        "score", "score an expedition (Lost Cities): cards in the order played",
        (Flag("expedition", "the expedition's cards, e.g. \"H H 4 5 6 7 8 10\"", str,
              "EXPEDITION", positional=True),),
        score_from_flags),),
    bots={name: _bot_factory(name) for name in ("simple", "odds", "search")},
    example={"colour": "R", "hand": "RH R3 R5 R8 B2 G4 W7 Y9", "deck_left": "30"},
    decision_values=_plan_values,
    decision_model="the odds bot's stated plan model: each colour played in rising order from "
                   "the cards you may still draw, the opponent's plays not modelled",
))


__all__ = ["BONUS", "BONUS_CARDS", "COLOUR_NAMES", "COLOURS", "DECK", "DECK_SIZE", "DISCARD",
           "DRAW_FROM", "EXPEDITION_COST", "GAME", "HAND_SIZE", "HANDSHAKE",
           "HANDSHAKES_PER_COLOUR", "MAX_MATCHES", "NUMBERS", "ODDS_FLAGS", "PLAY", "SPEC",
           "CardOdds", "ChartBars", "ExpeditionOdds", "ExpeditionScore", "LCCard",
           "LostCitiesEngine", "LostCitiesVariant", "MatchResult", "Moments", "PlanMeans",
           "PlanState", "ScoreDistribution", "card_face", "cards_text", "check_card_counts",
           "expedition_odds", "expedition_problem", "full_deck", "odds_from_flags", "parse_card",
           "parse_cards", "parse_colour", "parse_expedition", "plan_distribution",
           "score_expedition", "score_from_counts", "score_from_flags", "turns_left"]
