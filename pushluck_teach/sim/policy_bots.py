"""Bots that play the whole-game solvers' policies in the real engines (simulation checks of
the exact whole-game answers).  A bot reads the live engine; the policy's numbers come from the
solver in :mod:`pushluck_teach.solve.whole_game`."""

from __future__ import annotations

from dataclasses import dataclass

from pushluck_teach.games.base import DRAW, STOP, Engine
from pushluck_teach.sim.bots import checked
from pushluck_teach.solve.turn import cached_solver
from pushluck_teach.solve.whole_game.captain_seven import (
    MAX_TOTAL,
    C7Policy,
    final_turn_table,
    optimal_solution,
)
from pushluck_teach.solve.whole_game.pig import PigModel, PigPolicy

#: Captain Seven's turn totals 0 .. MAX_TOTAL.
TOTALS = MAX_TOTAL + 1


class _StopOrDrawBot:
    """A whole-game policy's bot: draws while stopping is not legal, else asks ``_decide``."""

    policy: PigPolicy | C7Policy
    name: str

    def __post_init__(self) -> None:
        self.name = self.name or self.policy.name

    def choose(self, engine: Engine) -> str:
        return self._decide(engine) if STOP in engine.legal_actions() else DRAW

    def _decide(self, engine: Engine) -> str:
        raise NotImplementedError


@dataclass
class PigPolicyBot(_StopOrDrawBot):
    """Plays a :class:`PigPolicy` in a Pig engine (two players, or one with opponent score 0)."""

    policy: PigPolicy
    name: str = ""

    def _decide(self, engine: Engine) -> str:
        model = PigModel.from_variant(engine.variant)  # type: ignore[arg-type]
        scores = engine.scores()
        me = engine.current_player
        i = int(scores[me])
        j = int(max((s for p, s in enumerate(scores) if p != me), default=0))
        k = int(engine.view().turn_total)
        if i + k >= model.target:
            return STOP
        return STOP if self.policy.hold_mask(model)[k, i, j] else DRAW


@dataclass
class CaptainSevenPolicyBot(_StopOrDrawBot):
    """Plays a :class:`C7Policy` in a two-player Captain Seven engine (no relics)."""

    policy: C7Policy
    name: str = ""

    def _decide(self, engine: Engine) -> str:
        variant = engine.variant
        me = engine.current_player
        stashes = engine.scores()
        a, b = int(stashes[me]), int(stashes[1 - me])
        g = variant.target
        final = b >= g
        policy = self.policy
        if policy.kind == "optimal-turn":
            model, state = engine.turn_position()
            return checked(engine, model, state, cached_solver(model).best_action(state))
        if policy.kind == "optimal":
            t = optimal_solution(variant).threshold(a, b)
        elif final and policy.kind == "chase":
            t = int(final_turn_table()[1][min(b - a, 2 * TOTALS)])
        else:
            t = int(policy.threshold or 1)
        return STOP if engine.view().turn_total >= t else DRAW


__all__ = ["CaptainSevenPolicyBot", "PigPolicyBot"]
