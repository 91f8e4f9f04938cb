r"""Solo modes as whole games: the distribution of the final score under a turn policy.

Two solo modes (docs/rules.md):

* **Lands Uncharted, 10-turn solo** (``solo``): ten turns, the total banked is the score;
* **Hit List, Lone Gunman** (``solo``): jobs until 5 hits, the end of the deck, or the 6th
  botched job (then the score is 0); the score is the hit cards' values (+15 per silent-assassin
  21), -10 per botched job, +20 with ``ghost`` and no botch.

**The model (a simplification, stated).**  In the real games the deck carries over from turn to
turn (Lands Uncharted reshuffles its discard pile only when the draw pile runs out; Hit List
never reshuffles), so the exact state of a whole solo game includes the whole deck: far too large.
The model used here gives **every turn a fresh, full deck**:

* *Lands Uncharted*: every turn starts from the 52-card deck minus the aces held as allies, and
  the allies carried over are tracked exactly (``allies_persist``: unused allies stay; with
  ``allies_persist=false`` they leave at the end of the turn).  The turn's outcome is the pair
  (treasure banked, allies at the end of the turn); a bust leaves no ally (an ally would have
  stopped it).
* *Hit List*: every job starts from the 52-card deck, so the game never ends by running out of
  cards (in the real game a Lone Gunman uses about 5 cards a job, and the deck can run out
  before the 5th hit).  ``hits`` is tracked for ``one_last_job``.

Within the model everything is exact (no sampling): one turn's outcome distribution comes from
the exact turn model (:mod:`pushluck_teach.solve.turn` states, forward pass of probability mass
under the policy), and the game is a Markov chain over

* Lands Uncharted: ``(turn, allies, score)``, ten steps of
  :math:`P_{t+1}(a', s + x) \mathrel{+}= P_t(a, s)\,P(x, a' \mid a)`;
* Hit List: ``(hits, botches, score)``, absorbing at 5 hits (``ghost``: +20 with no botch) or 6
  botches (score 0); every job raises hits or botches, so at most 10 jobs are chained.

Arithmetic is float64 (exact up to rounding).  Policies: ``threshold:T`` (stop once the turn
total reaches ``T``; Hit List executes only from 15; other choices, such as an ace's value,
optimal) and ``optimal-turn`` (each turn maximises its own expected result, the turn solver's
policy; it is blind to the game's state, like the simulation bots).

**How good is the model?**  That is simulation's job (:mod:`pushluck_teach.sim.solo_checks`):
``compare_with_engine`` plays the real game with the engine (the same policy as a bot;
``optimal-turn`` then optimises each turn for the *real* deck) and reports the difference of
the means (with its standard error) and the total variation distance between the two
distributions; ``model_monte_carlo`` samples the *model itself* (a fresh deck each turn, by
walking the turn model's exact transitions), which checks the chain, not the simplification.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from pushluck_teach.games.base import STOP, OptionError, RulesError, get_game
from pushluck_teach.games.hit_list import (
    BOTCH_PENALTY,
    BOTCHES_TO_DIE,
    GHOST_BONUS,
    HITS_TO_WIN,
    LIMIT,
    SILENT_BONUS,
    HitListVariant,
)
from pushluck_teach.games.hit_list import GAME as HIT_LIST
from pushluck_teach.games.lands_uncharted import GAME as LANDS
from pushluck_teach.games.lands_uncharted import SOLO_TURNS, LandsUnchartedVariant
from pushluck_teach.games.policies import (
    THRESHOLD,
    TURN_OPTIMAL,
    Policy,
    parse_policy,
    unknown_policy,
)
from pushluck_teach.solve.turn import TurnSolver

#: The four aces of one deck: the most allies a player can hold.
MAX_ALLIES = 4
#: Lone Gunman ends at the fifth hit (the game's rule constants, named for the chain).
HITS_TO_END = HITS_TO_WIN
BOTCH = BOTCH_PENALTY
#: A silent-assassin 21 scores 21 + 15 and counts two hits.
SILENT_RESULT = LIMIT + SILENT_BONUS
POLICY_HELP = "policies: threshold:T, turn-optimal (or optimal)"

LANDS_MODEL = ("fresh 52-card deck each turn (minus the aces held as allies); allies carried "
               "over exactly; Markov chain over (turn, allies, score)")
HIT_LIST_MODEL = ("fresh 52-card deck each job (the deck never runs out); Markov chain over "
                  "(hits, botches, score)")


@dataclass(frozen=True)
class SoloPolicy:
    """``threshold`` (with ``threshold``) or ``optimal-turn``."""

    kind: str
    threshold: int | None = None

    @property
    def name(self) -> str:
        return f"threshold:{self.threshold}" if self.kind == "threshold" else self.kind

    @classmethod
    def parse(cls, text: str | SoloPolicy | Policy) -> SoloPolicy:
        """From the shared vocabulary (``optimal`` is ``turn-optimal`` here)."""
        if isinstance(text, SoloPolicy):
            return text
        policy = parse_policy(text, optimal=TURN_OPTIMAL, who="solo", names=POLICY_HELP)
        if policy.kind == THRESHOLD:
            return cls("threshold", policy.number)
        if policy.kind != TURN_OPTIMAL:
            raise unknown_policy(policy.name, "solo", POLICY_HELP)
        return cls("optimal-turn")

    def chooser(self, solver: TurnSolver[Any]) -> Callable[[Any], str]:
        if self.kind == "threshold":
            return solver.threshold_policy(self.threshold or 1)
        return solver.best_action



@dataclass(frozen=True, eq=False)
class SoloResult:
    """The exact distribution of the final score within the stated model.

    ``scores[i]`` has probability ``probabilities[i]`` (only scores with positive probability).
    ``p_out``: Hit List, the chance of being executed at 6 botched jobs (score 0); None for
    Lands Uncharted.
    """

    game: str
    variant: Any
    policy: str
    model: str
    scores: np.ndarray
    probabilities: np.ndarray
    p_out: float | None = None

    @property
    def mean(self) -> float:
        return float(np.dot(self.scores, self.probabilities))

    @property
    def sd(self) -> float:
        second = float(np.dot(self.scores.astype(float) ** 2, self.probabilities))
        return math.sqrt(max(second - self.mean ** 2, 0.0))

    def distribution(self) -> dict[int, float]:
        return {int(s): float(p) for s, p in zip(self.scores, self.probabilities, strict=True)}

    def probability(self, score: int) -> float:
        hit = np.nonzero(self.scores == score)[0]
        return float(self.probabilities[hit[0]]) if hit.size else 0.0

    def cdf_at_least(self, score: int) -> float:
        """P(final score >= ``score``)."""
        return float(self.probabilities[self.scores >= score].sum())


def _pack(values: np.ndarray, offset: int, game: str, variant: Any, policy: SoloPolicy,
          model: str, p_out: float | None = None) -> SoloResult:
    keep = values > 0
    scores = np.nonzero(keep)[0] - offset
    return SoloResult(game, variant, policy.name, model, scores.astype(np.int64),
                      values[keep].copy(), p_out)


# --------------------------------------------------------------------------------------------
# Lands Uncharted


def lands_variant(variant: LandsUnchartedVariant | None) -> LandsUnchartedVariant:
    variant = variant or LandsUnchartedVariant(solo=True)
    if not isinstance(variant, LandsUnchartedVariant):
        raise OptionError(f"not a Lands Uncharted variant: {type(variant).__name__}")
    if variant.double_or_nothing:
        raise RulesError("the solo model covers Lands Uncharted without double_or_nothing")
    if not variant.solo:
        variant = variant.replace(solo=True)  # type: ignore[assignment]
    return variant


@lru_cache(maxsize=32)
def lands_turn_outcomes(variant: LandsUnchartedVariant, policy: SoloPolicy, allies: int
                        ) -> dict[tuple[int, int], float]:
    """``{(banked, allies after the turn): probability}`` for one turn from a fresh deck with
    ``allies`` held (the model of the module docstring)."""
    spec = get_game(LANDS)
    # Without allies_persist no ally is ever held at a turn start (the position factory refuses
    # it); the chain still asks for every count, and those rows are never reached.
    model, start = spec.position(variant, allies=allies if variant.allies_persist else 0)
    solver = TurnSolver(model)
    keep = variant.allies_persist

    def outcome(last: Any, terminal: Any, action: str) -> tuple[int, int]:
        banked = int(model.payoff(terminal))
        held = model.allies_held(last) if action == STOP and keep else 0
        return banked, held

    return solver.distribution(start, policy.chooser(solver), outcome=outcome)


def lands_uncharted_solo(variant: LandsUnchartedVariant | None = None,
                         policy: str | SoloPolicy = "threshold:20",
                         turns: int = SOLO_TURNS) -> SoloResult:
    """The exact final-score distribution of Lands Uncharted's solo game in the fresh-deck
    model: a Markov chain over (turn, allies, score)."""
    variant = lands_variant(variant)
    rule = SoloPolicy.parse(policy)
    outcomes = [lands_turn_outcomes(variant, rule, a) for a in range(MAX_ALLIES + 1)]
    top = max(x for table in outcomes for x, _ in table) or 1
    size = turns * top + 1
    mass = np.zeros((MAX_ALLIES + 1, size))
    mass[0, 0] = 1.0
    for _ in range(turns):
        new = np.zeros_like(mass)
        for a in range(MAX_ALLIES + 1):
            row = mass[a]
            if not row.any():
                continue
            for (x, a2), p in outcomes[a].items():
                new[a2, x:] += p * row[:size - x]
        mass = new
    return _pack(mass.sum(axis=0), 0, LANDS, variant, rule, LANDS_MODEL)


# --------------------------------------------------------------------------------------------
# Hit List: Lone Gunman


def hit_list_variant(variant: HitListVariant | None) -> HitListVariant:
    variant = variant or HitListVariant(solo=True)
    if not isinstance(variant, HitListVariant):
        raise OptionError(f"not a Hit List variant: {type(variant).__name__}")
    if variant.long_haul:
        raise RulesError("the Lone Gunman model covers Hit List without long_haul (with it the "
                         "game ends only when the deck runs out)")
    if not variant.solo:
        variant = variant.replace(solo=True)  # type: ignore[assignment]
    return variant


@lru_cache(maxsize=32)
def hit_list_job_outcomes(variant: HitListVariant, policy: SoloPolicy, hits: int
                          ) -> dict[int, float]:
    """``{job result: probability}`` for one job from a fresh deck (-10: botched)."""
    spec = get_game(HIT_LIST)
    model, start = spec.position(variant, hits=hits)
    solver = TurnSolver(model)

    def outcome(last: Any, terminal: Any, action: str) -> int:
        return int(model.payoff(terminal))

    return solver.distribution(start, policy.chooser(solver), outcome=outcome)


def hits_of(variant: HitListVariant, result: int) -> int:
    return 2 if variant.silent_assassin and result == SILENT_RESULT else 1


def lone_gunman(variant: HitListVariant | None = None,
                policy: str | SoloPolicy = "optimal-turn") -> SoloResult:
    """The exact final-score distribution of Hit List's Lone Gunman in the fresh-deck model: a
    Markov chain over (hits, botches, score)."""
    variant = hit_list_variant(variant)
    rule = SoloPolicy.parse(policy)
    jobs = [hit_list_job_outcomes(variant, rule, h) for h in range(HITS_TO_END)]
    best = max(max(j) for j in jobs)
    offset = -BOTCH * (BOTCHES_TO_DIE - 1)
    size = offset + HITS_TO_END * max(best, 0) + GHOST_BONUS + 1
    live = np.zeros((HITS_TO_END, BOTCHES_TO_DIE, size))
    live[0, 0, offset] = 1.0
    final = np.zeros(size)
    p_out = 0.0
    for _step in range(HITS_TO_END + BOTCHES_TO_DIE):
        new = np.zeros_like(live)
        for h in range(HITS_TO_END):
            for b in range(BOTCHES_TO_DIE):
                row = live[h, b]
                if not row.any():
                    continue
                for result, p in jobs[h].items():
                    if result == BOTCH:
                        if b + 1 >= BOTCHES_TO_DIE:
                            final[offset] += p * row.sum()  # executed: score 0
                            p_out += p * row.sum()
                        else:
                            new[h, b + 1, :BOTCH] += p * row[-BOTCH:]
                        continue
                    if result < 0 or result == 0:  # pragma: no cover - a full deck never runs out
                        continue
                    shifted = np.zeros(size)
                    shifted[result:] = row[:size - result]
                    h2 = h + hits_of(variant, result)
                    if h2 >= HITS_TO_END:
                        if variant.ghost and b == 0:
                            shifted[GHOST_BONUS:] = shifted[:-GHOST_BONUS].copy()
                            shifted[:GHOST_BONUS] = 0.0
                        final += p * shifted
                    else:
                        new[h2, b] += p * shifted
        live = new
        if not live.any():
            break
    return _pack(final, offset, HIT_LIST, variant, rule, HIT_LIST_MODEL, float(p_out))


# --------------------------------------------------------------------------------------------
# Checks: Monte Carlo of the model, and the real game


def solo_result(game: str, variant: Any = None, policy: str | SoloPolicy = "threshold:20"
                ) -> SoloResult:
    """:func:`lands_uncharted_solo` or :func:`lone_gunman` by game name."""
    if game == LANDS:
        return lands_uncharted_solo(variant, policy)
    if game == HIT_LIST:
        return lone_gunman(variant, policy)
    raise RulesError(f"no solo model for {game!r} (solo models: {LANDS}, {HIT_LIST})")


__all__ = [
    "BOTCH", "BOTCHES_TO_DIE", "GHOST_BONUS", "HITS_TO_END", "HIT_LIST", "HIT_LIST_MODEL",
    "LANDS", "LANDS_MODEL", "MAX_ALLIES", "SoloPolicy", "SoloResult", "hit_list_job_outcomes",
    "hit_list_variant", "hits_of", "lands_turn_outcomes", "lands_uncharted_solo",
    "lands_variant", "lone_gunman", "solo_result",
]
