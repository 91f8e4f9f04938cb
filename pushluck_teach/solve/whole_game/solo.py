r"""Solo modes as whole games: the distribution of the final score under a turn policy.

Two solo modes (RULES.md):

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

**How good is the model?**  :func:`compare_with_engine` plays the real game with the engine
(:mod:`pushluck_teach.sim`, the same policy as a bot; ``optimal-turn`` then optimises each turn
for the *real* deck) and reports the difference of the means (with its standard error) and the
total variation distance between the two distributions.  :func:`model_monte_carlo` samples the
*model itself* (a fresh deck each turn, by walking the turn model's exact transitions), which
checks the chain, not the simplification.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from pushluck_teach.games.base import STOP, OptionError, RulesError, TurnModel, get_game
from pushluck_teach.games.hit_list import HitListVariant
from pushluck_teach.games.lands_uncharted import SOLO_TURNS, LandsUnchartedVariant
from pushluck_teach.sim import OptimalTurnBot, SimulationResult, ThresholdBot, simulate_games
from pushluck_teach.solve.turn import TurnSolver, policy_graph
from pushluck_teach.solve.whole_game import PolicyText

LANDS = "lands-uncharted"
HIT_LIST = "hit-list"
MAX_ALLIES = 4
HITS_TO_END = 5
BOTCHES_TO_DIE = 6
BOTCH = -10
GHOST_BONUS = 20
SILENT_RESULT = 36  # 21 + 15: a silent-assassin hit counts two hits
POLICY_HELP = "policies: threshold:T, optimal-turn"

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
    def parse(cls, text: str | SoloPolicy) -> SoloPolicy:
        if isinstance(text, SoloPolicy):
            return text
        spec = PolicyText.parse(text)
        name = {"hold": "threshold", "optimal": "optimal-turn", "optimal_turn": "optimal-turn"
                }.get(spec.name, spec.name)
        if name == "threshold":
            return cls("threshold", spec.int_arg(1))
        if name != "optimal-turn":
            raise RulesError(f"unknown solo policy {spec.text!r} ({POLICY_HELP})")
        if spec.arg is not None:
            raise RulesError("policy 'optimal-turn' takes no argument")
        return cls("optimal-turn")

    def chooser(self, solver: TurnSolver[Any]) -> Callable[[Any], str]:
        if self.kind == "threshold":
            return solver.threshold_policy(self.threshold or 1)
        return solver.best_action

    def bot(self) -> Any:
        if self.kind == "threshold":
            return ThresholdBot(self.threshold or 1)
        return OptimalTurnBot()


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


def _forward(model: TurnModel[Any], start: Any, choose: Callable[[Any], str],
             outcome: Callable[[Any, Any, str], Any]) -> dict[Any, float]:
    """One turn's outcome distribution under ``choose``: ``outcome(last decision state,
    terminal, action)`` labels each terminal (float forward pass in topological order)."""
    graph = policy_graph(model, start, choose)
    edges = graph.moves
    order = [node for node in graph.order if node in edges]
    mass: dict[Any, float] = {start: 1.0}
    result: dict[Any, float] = {}
    for node in order:
        p = mass.pop(node, None)
        if p is None:
            continue
        action, pairs = edges[node]
        total = sum(w for w, _ in pairs)
        for weight, nxt in pairs:
            share = p * weight / total
            if model.actions(nxt):
                mass[nxt] = mass.get(nxt, 0.0) + share
            else:
                key = outcome(node, nxt, action)
                result[key] = result.get(key, 0.0) + share
    return result


# --------------------------------------------------------------------------------------------
# Lands Uncharted


def _lands_variant(variant: LandsUnchartedVariant | None) -> LandsUnchartedVariant:
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
        held = int(last[3]) if action == STOP and keep else 0
        return banked, held

    return _forward(model, start, policy.chooser(solver), outcome)


def lands_uncharted_solo(variant: LandsUnchartedVariant | None = None,
                         policy: str | SoloPolicy = "threshold:20",
                         turns: int = SOLO_TURNS) -> SoloResult:
    """The exact final-score distribution of Lands Uncharted's solo game in the fresh-deck
    model: a Markov chain over (turn, allies, score)."""
    variant = _lands_variant(variant)
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


def _hit_variant(variant: HitListVariant | None) -> HitListVariant:
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

    return _forward(model, start, policy.chooser(solver), outcome)


def _hits_of(variant: HitListVariant, result: int) -> int:
    return 2 if variant.silent_assassin and result == SILENT_RESULT else 1


def lone_gunman(variant: HitListVariant | None = None,
                policy: str | SoloPolicy = "optimal-turn") -> SoloResult:
    """The exact final-score distribution of Hit List's Lone Gunman in the fresh-deck model: a
    Markov chain over (hits, botches, score)."""
    variant = _hit_variant(variant)
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
                    h2 = h + _hits_of(variant, result)
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


def _walk(model: TurnModel[Any], start: Any, choose: Callable[[Any], str],
          rng: random.Random) -> tuple[Any, Any, str]:
    """Sample one turn of the model: ``(last decision state, terminal, last action)``."""
    state = start
    while True:
        action = choose(state)
        pairs = model.transitions(state, action)
        pick = rng.random() * sum(w for w, _ in pairs)
        nxt = pairs[-1][1]
        for weight, candidate in pairs:
            pick -= weight
            if pick < 0:
                nxt = candidate
                break
        if not model.actions(nxt):
            return state, nxt, action
        state = nxt


def model_monte_carlo(game: str, variant: Any = None, policy: str | SoloPolicy = "threshold:20",
                      n: int = 2000, seed: int = 0) -> SimulationResult:
    """Final scores sampled from the *model* (a fresh deck each turn), walking the exact turn
    models' transitions: a check of the chain, not of the simplification."""
    rule = SoloPolicy.parse(policy)
    rng = random.Random(seed)
    spec = get_game(game)
    samples: list[float] = []
    if game == LANDS:
        variant = _lands_variant(variant)
        setups = []
        for a in range(MAX_ALLIES + 1):
            model, start = spec.position(variant, allies=a if variant.allies_persist else 0)
            setups.append((model, start, rule.chooser(TurnSolver(model))))
        for _ in range(n):
            allies = score = 0
            for _turn in range(SOLO_TURNS):
                model, start, choose = setups[allies]
                last, terminal, action = _walk(model, start, choose, rng)
                score += int(model.payoff(terminal))
                allies = int(last[3]) if action == STOP and variant.allies_persist else 0
            samples.append(float(score))
        return SimulationResult.of(samples)
    if game != HIT_LIST:
        raise RulesError(f"no solo model for {game!r} (solo models: {LANDS}, {HIT_LIST})")
    variant = _hit_variant(variant)
    setups = []
    for h in range(HITS_TO_END):
        model, start = spec.position(variant, hits=h)
        setups.append((model, start, rule.chooser(TurnSolver(model))))
    for _ in range(n):
        hits = botches = score = 0
        while hits < HITS_TO_END and botches < BOTCHES_TO_DIE:
            model, start, choose = setups[hits]
            _, terminal, _ = _walk(model, start, choose, rng)
            result = int(model.payoff(terminal))
            score += result
            if result == BOTCH:
                botches += 1
            else:
                hits += _hits_of(variant, result)
        if botches >= BOTCHES_TO_DIE:
            score = 0
        elif variant.ghost and botches == 0:
            score += GHOST_BONUS
        samples.append(float(score))
    return SimulationResult.of(samples)


@dataclass(frozen=True, eq=False)
class SoloComparison:
    """The exact model against simulating the real game (deck carried over) with the engine.

    ``simulated`` holds the engine's final scores; ``mean_difference`` = simulated mean - model
    mean (``stderr`` its standard error); ``total_variation`` and ``max_cdf_difference`` compare
    the model's distribution with the simulated frequencies.
    """

    model: SoloResult
    simulated: SimulationResult
    sim_scores: np.ndarray
    sim_probabilities: np.ndarray

    @property
    def mean_difference(self) -> float:
        return self.simulated.mean - self.model.mean

    @property
    def stderr(self) -> float:
        return self.simulated.stderr

    def _aligned(self) -> tuple[np.ndarray, np.ndarray]:
        support = np.union1d(self.model.scores, self.sim_scores)
        model = np.zeros(support.size)
        sim = np.zeros(support.size)
        model[np.searchsorted(support, self.model.scores)] = self.model.probabilities
        sim[np.searchsorted(support, self.sim_scores)] = self.sim_probabilities
        return model, sim

    @property
    def total_variation(self) -> float:
        """Half the L1 distance (includes sampling noise: many scores, few games each)."""
        model, sim = self._aligned()
        return float(0.5 * np.abs(model - sim).sum())

    @property
    def max_cdf_difference(self) -> float:
        """The Kolmogorov distance max |F_model - F_sim| (less noisy than ``total_variation``;
        about ``1.36 / sqrt(n)`` is the 95% noise level for ``n`` games)."""
        model, sim = self._aligned()
        return float(np.max(np.abs(np.cumsum(model) - np.cumsum(sim))))


def simulate_real_game(game: str, variant: Any = None,
                       policy: str | SoloPolicy = "threshold:20", n: int = 2000,
                       seed: int = 0) -> SimulationResult:
    """Final scores of ``n`` real solo games (the engine, deck carried over) with the policy's
    bot."""
    rule = SoloPolicy.parse(policy)
    variant = _lands_variant(variant) if game == LANDS else _hit_variant(variant)
    games = simulate_games(get_game(game), [rule.bot()], n, seed, variant=variant)
    return SimulationResult.of([scores[0] for _, scores in games])


def compare_with_engine(game: str, variant: Any = None,
                        policy: str | SoloPolicy = "threshold:20", n: int = 2000,
                        seed: int = 0) -> SoloComparison:
    """The model's exact distribution next to ``n`` simulated real games."""
    model = solo_result(game, variant, policy)
    sim = simulate_real_game(game, model.variant, policy, n, seed)
    values, counts = np.unique(np.array(sim.samples), return_counts=True)
    return SoloComparison(model, sim, values.astype(np.int64), counts / counts.sum())


__all__ = [
    "HIT_LIST_MODEL", "LANDS_MODEL", "SoloComparison", "SoloPolicy", "SoloResult",
    "compare_with_engine", "hit_list_job_outcomes", "lands_turn_outcomes",
    "lands_uncharted_solo", "lone_gunman", "model_monte_carlo", "simulate_real_game",
    "solo_result",
]
