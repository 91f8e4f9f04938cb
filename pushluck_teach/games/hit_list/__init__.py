r"""High-Stakes Hit List (seed 001; docs/rules.md, "High-Stakes Hit List"): blackjack with a
body count.

The game lives in one module per kind of code, each importing only the ones before it:

* :mod:`~pushluck_teach.games.hit_list.rules`: the rules as played here (*table readings*
  included), their constants, the turn model's card classes and :class:`HitListVariant`;
* :mod:`~pushluck_teach.games.hit_list.turn`: one job as an exact finite MDP
  (:class:`HitListTurnModel`: its states, objective and size);
* :mod:`~pushluck_teach.games.hit_list.position`: a job read from position flags
  (:func:`hit_list_position`);
* :mod:`~pushluck_teach.games.hit_list.engine`: the play engine (:class:`HitListEngine`);
* here: the presets, the Lone Gunman solo mode and the game's registration (``SPEC``).
"""

from __future__ import annotations

from pushluck_teach.games.base import (
    DRAWN,
    REMOVED,
    Flag,
    GameSpec,
    OptionError,
    RulesError,
    SoloMode,
    register,
    whole_number,
)
from pushluck_teach.games.hit_list.engine import HitListEngine
from pushluck_teach.games.hit_list.position import (
    PENDING_ACE,
    hit_list_position,
    parse_ace_values,
)
from pushluck_teach.games.hit_list.rules import (
    ACE,
    ACE_ACTIONS,
    ACE_ELEVEN,
    ACE_ONE,
    ACE_VALUE,
    BOTCH_PENALTY,
    BOTCHES_TO_DIE,
    CLASS_LABELS,
    CLASS_VALUES,
    FACE,
    GAME,
    GHOST_BONUS,
    HITS_TO_WIN,
    LAST_JOB_CARDS,
    LIMIT,
    MIN_TO_EXECUTE,
    SILENT_BONUS,
    HitListVariant,
    card_class,
    card_value,
    deck_counts,
    execute_result,
    hit_gain,
    may_execute,
    soft_value,
)
from pushluck_teach.games.hit_list.turn import HitListTurnModel, HitState

__all__ = [
    "ACE",
    "ACE_ACTIONS",
    "ACE_ELEVEN",
    "ACE_ONE",
    "ACE_VALUE",
    "BOTCHES_TO_DIE",
    "BOTCH_PENALTY",
    "CLASS_LABELS",
    "CLASS_VALUES",
    "FACE",
    "GAME",
    "GHOST_BONUS",
    "HITS_TO_WIN",
    "LAST_JOB_CARDS",
    "LIMIT",
    "MIN_TO_EXECUTE",
    "PENDING_ACE",
    "SILENT_BONUS",
    "SOLO_MODE",
    "SPEC",
    "HitListEngine",
    "HitListTurnModel",
    "HitListVariant",
    "HitState",
    "card_class",
    "card_value",
    "deck_counts",
    "execute_result",
    "hit_gain",
    "hit_list_position",
    "may_execute",
    "parse_ace_values",
    "soft_value",
]


def _presets() -> dict[str, HitListVariant]:
    return {
        "standard": HitListVariant(),
        "recommended": HitListVariant(ghost=True),
        "high-stakes": HitListVariant(silent_assassin=True, ghost=True, rival_interference=True,
                                      one_last_job=True, bad_life=True),
        "soft-aces": HitListVariant(soft_aces=True),
        "lone-gunman": HitListVariant(solo=True),
        "long-haul": HitListVariant(long_haul=True),
    }


# --------------------------------------------------------------------------------------------
# Lone Gunman as a chain of jobs from a fresh deck (solved by solve/whole_game/solo.py)


def _solo_variant(variant: HitListVariant | None) -> HitListVariant:
    variant = variant or HitListVariant(solo=True)
    if not isinstance(variant, HitListVariant):
        raise OptionError(f"not a Hit List variant: {type(variant).__name__}")
    if variant.long_haul:
        raise RulesError("the Lone Gunman model covers Hit List without long_haul (with it the "
                         "game ends only when the deck runs out)")
    return variant if variant.solo else variant.replace(solo=True)


def _solo_advance(variant: HitListVariant, carry: tuple[int, int], result: int
                  ) -> tuple[int, tuple[int, int]]:
    """A job's result moves (hits, botches): a botch costs 10 points, a silent-assassin 21
    (21 + 15) counts two hits."""
    hits, botches = carry
    if result == BOTCH_PENALTY:
        return result, (hits, botches + 1)
    silent = variant.silent_assassin and result == LIMIT + SILENT_BONUS
    return result, (hits + (2 if silent else 1), botches)


def _solo_end_bonus(variant: HitListVariant, carry: tuple[int, int]) -> int | None:
    """Executed at the sixth botch (score 0); ``ghost``: +20 for five hits without a botch."""
    _hits, botches = carry
    if botches >= BOTCHES_TO_DIE:
        return None
    return GHOST_BONUS if variant.ghost and botches == 0 else 0


#: The carry between jobs is (hits, botches); every job raises one of them, so at most ten
#: jobs are chained.
SOLO_MODE = SoloMode(
    title="Lone Gunman",
    model=("fresh 52-card deck each job (the deck never runs out); Markov chain over "
           "(hits, botches, score)"),
    start=(0, 0),
    prepare=_solo_variant,
    turn_position=lambda variant, carry: {"hits": carry[0]},
    turn_outcome=lambda variant, model, last, terminal, action: int(model.payoff(terminal)),
    advance=_solo_advance,
    finished=lambda variant, carry: carry[0] >= HITS_TO_WIN or carry[1] >= BOTCHES_TO_DIE,
    end_bonus=_solo_end_bonus,
    can_lose=True,
)


SPEC = register(GameSpec(
    name=GAME,
    title="High-Stakes Hit List",
    variant_cls=HitListVariant,
    engine_cls=HitListEngine,
    position=hit_list_position,
    deck=lambda variant: variant.full_deck().cards(),
    position_flags=(
        DRAWN, REMOVED,
        Flag("ace_values", "value chosen for each ace drawn (11,1; ? for the last ace while its "
             "value is still to be chosen)"),
        Flag("hits", "hits completed before this job (for one_last_job)", whole_number),
    ),
    example={"drawn": "9h 6c"},
    min_players=1,
    max_players=3,
    presets=_presets(),
    blurb="Draw to a job total of 15-21 and execute; over 21 or a second face card botches it.",
    solo=SOLO_MODE,
))
