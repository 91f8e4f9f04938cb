"""The engines and the position factories describe the same games, under every option.

Real seeded games are played with random legal actions for every preset of every game (plus
the options the presets leave out, with several players), and at every decision:

* the turn model offers exactly the engine's legal actions (a model/engine disagreement fails
  here, whatever a bot would do about it);
* the position the engine shows as `pushluck odds` flags is accepted by the game's position
  factory (no reachable position is refused as impossible) and has the engine's exact
  next-draw bust chance and turn total;
* Hit List conserves its deck: every card is in the draw pile, the job, a hit pile, a stolen
  pile or a botched job, exactly once, and a finished game has no job in progress.
"""

from __future__ import annotations

import contextlib
import random
import zlib
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from pushluck_teach.games import get_game, turn_games
from pushluck_teach.games.base import DRAW, STOP, Engine, GameSpec, Variant
from pushluck_teach.games.hit_list import HitListEngine, HitListVariant
from pushluck_teach.games.incan_gold import IncanGoldVariant, incan_gold_position, infer_round


def variants(spec: GameSpec) -> list[tuple[str, Variant]]:
    """Every preset, and each boolean option switched on alone (if the variant allows it)."""
    out = [(name, variant) for name, variant in sorted(spec.presets.items())]
    default = spec.variant_cls()
    for name, value in default.options().items():
        if isinstance(value, bool):
            try:
                out.append((f"{name}={not value}", default.replace(**{name: not value})))
            except Exception:  # noqa: BLE001 - an option that needs another one
                continue
    return out


CASES = [(spec, label, variant) for spec in turn_games() for label, variant in variants(spec)]


def players_for(spec: GameSpec, variant: Variant) -> list[int]:
    if getattr(variant, "solo", False):
        return [1]
    return sorted({spec.min_players, min(spec.max_players, 3)})


def draw_distribution(model: Any, state: Any, totals: bool = True) -> Counter:
    """One draw's outcomes as exact probabilities of (label, ends the turn, busts, total after);
    cheap (no solve), so it works on positions whose full solution would take minutes."""
    pairs = model.transitions(state, DRAW)
    total = sum(w for w, _ in pairs)
    dist: Counter = Counter()
    for weight, nxt in pairs:
        over = not model.actions(nxt)
        key = (model.outcome_label(state, nxt), over, over and model.is_bust(nxt),
               model.turn_total(nxt) if totals else None)
        dist[key] += Fraction(weight, total)
    return dist


def model_covers(engine: Engine) -> bool:
    """False in a decision the turn model leaves out by design: another player's king relic
    (Captain Seven; the model is the drawer's turn)."""
    return getattr(engine, "phase", None) != "king"


def engine_actions(engine: Engine) -> set[str]:
    """The engine's legal actions, with Captain Seven's "stash and keep a relic" (``keep:X``,
    which stashes exactly like ``stop`` as far as this turn goes) left out."""
    return {a for a in engine.legal_actions() if not a.startswith("keep:")}


@pytest.mark.parametrize(("spec", "label", "variant"), CASES,
                         ids=[f"{s.name}-{label}" for s, label, _ in CASES])
def test_engine_and_model_agree_at_every_decision(spec: GameSpec, label: str,
                                                  variant: Variant) -> None:
    rng = random.Random(zlib.crc32(f"{spec.name}-{label}".encode()))
    checked = 0
    for players in players_for(spec, variant):
        for seed in range(2):
            engine = spec.new_engine(variant, players=players, seed=seed)
            for _ in range(60):
                if engine.is_over:
                    break
                if model_covers(engine):
                    model, state = engine.turn_position()
                    assert set(model.actions(state)) == engine_actions(engine), (
                        label, model.describe(state), engine.legal_actions())
                    if DRAW in model.actions(state) and not model.is_forced(state):
                        flags = engine.position_flags()
                        rebuilt, start = spec.position_from_flags(variant, flags)
                        # Incan Gold with several explorers: the flags describe a solo explorer
                        # (totals of that model, not the group's); the cards drawn, the
                        # outcomes and the bust chances must still agree.
                        totals = not (spec.name == "incan-gold" and players > 1)
                        assert draw_distribution(rebuilt, start, totals) == \
                            draw_distribution(model, state, totals), flags
                        if totals:
                            assert rebuilt.turn_total(start) == model.turn_total(state), flags
                        checked += 1
                legal = engine.legal_actions()
                engine.act(DRAW if DRAW in legal and rng.random() < 0.75 else rng.choice(legal))
    assert checked >= 5, checked


# ---- Hit List: the deck is conserved ------------------------------------------------------------


def hit_list_cards(engine: HitListEngine) -> Counter:
    cards: Counter = Counter(engine._deck)
    cards.update(engine.job_cards)
    cards.update(engine.unfinished_job)
    for player in range(engine.players):
        for pile in engine.piles[player]:
            cards.update(card for card, _ in pile)
        cards.update(card for card, _ in engine.stolen[player])
        for job in engine.botched[player]:
            cards.update(job)
    return cards


@pytest.mark.parametrize("options", [
    {"solo": True}, {"bad_life": True}, {"solo": True, "silent_assassin": True},
    {"rival_interference": True}, {"long_haul": True, "one_last_job": True},
    {"soft_aces": True, "ghost": True},
], ids=lambda o: ",".join(o))
def test_hit_list_conserves_its_deck_and_ends_with_no_job(options: dict[str, bool]) -> None:
    variant = HitListVariant(**options)
    full = Counter(variant.full_deck().cards())
    rng = random.Random(11)
    endings: Counter = Counter()
    for seed in range(60):
        players = 1 if variant.solo else 1 + seed % 3
        engine = HitListEngine(variant, players, seed)
        while not engine.is_over:
            legal = engine.legal_actions()
            # Draw often, so jobs botch and games end every way they can.
            engine.act(DRAW if DRAW in legal and rng.random() < 0.6 else rng.choice(legal))
            assert hit_list_cards(engine) == full
        assert engine.job_cards == () and not engine.pending_ace
        assert not any(line.startswith("Job total") for line in engine.view().turn_lines)
        endings[engine.end_reason] += 1
    # The games ended in more than one way (the long haul ends only when the deck runs out).
    assert len(endings) >= (1 if variant.long_haul else 2), endings


# ---- Incan Gold: the assumed round ------------------------------------------------------------


@pytest.mark.parametrize(("drawn", "removed", "expected"), [
    ("", "", 1), ("4h", "", 1), ("6h", "", 2), ("Qh 5s", "", 5), ("", "4h", 2),
    ("", "As Ks", 3), ("8h", "4h 6h As", 3), ("", "4h 6h 8h As 5s 9s", 4),
])
def test_incan_gold_reports_the_round_it_assumed(drawn: str, removed: str, expected: int) -> None:
    variant = IncanGoldVariant()
    model, _ = incan_gold_position(variant, drawn=drawn or None, removed=removed or None)
    assert model.assumed() == {"round": expected}
    assert infer_round(model.drawn, ()) <= expected
    given, _ = incan_gold_position(variant, drawn=drawn or None, removed=removed or None,
                                   round=5)
    assert given.assumed() == {}
    group, _ = incan_gold_position(variant, drawn=drawn or None, removed=removed or None,
                                   others="5")
    assert group.assumed() == {"round": expected}


def test_other_games_assume_nothing() -> None:
    for spec in turn_games():
        if spec.name != "incan-gold":
            model, _ = spec.position(spec.variant_cls())
            assert model.assumed() == {}


def test_stop_is_never_offered_before_the_first_draw() -> None:
    for spec in turn_games():
        model, state = spec.position(spec.variant_cls())
        assert STOP not in model.actions(state), spec.name
        assert get_game(spec.name) is spec


# ---- the full analysis at engine-walked decisions, against the engine itself ------------------

#: Where each card engine keeps its draw pile, and which end is the top.
DRAW_PILES = {"captain-seven": ("pile", -1), "hit-list": ("_deck", -1), "custom": ("pile", -1),
              "incan-gold": ("deck", 0), "lands-uncharted": ("draw_pile", -1)}
#: A position is solved in full only up to this many states (the walk's budget); Incan Gold's
#: rounds are larger, and only its positions late in a round fit a smaller budget.
WALK_STATE_LIMIT = 5_000
WALK_STATE_LIMITS = {"incan-gold": 150_000}


class _FixedDie(random.Random):
    """A die that rolls ``face`` (Pig's engine rolls with ``rng.randint``)."""

    def __init__(self, face: int) -> None:
        super().__init__(0)
        self.face = face

    def randint(self, a: int, b: int) -> int:  # noqa: D102 - the forced roll
        return self.face


def next_draws(engine: Engine) -> list[tuple[int, Engine]] | None:
    """Every way the next draw can go, as (weight, a copy of the engine made to draw it): one
    per distinct card of the engine's own draw pile (weight: its copies), or per die face.
    ``None`` when the pile is empty (the reshuffle is the model's business)."""
    import copy

    sides = (engine.variant.die_sides if engine.game == "pig"
             else getattr(getattr(engine, "rules", None), "dice", 0))
    if sides:
        out = []
        for face in range(1, sides + 1):
            twin = copy.deepcopy(engine)
            twin.rng = _FixedDie(face)
            out.append((1, twin))
        return out
    name, top = DRAW_PILES[engine.game]
    pile = getattr(engine, name)
    if not pile:
        return None
    out = []
    for card, copies in Counter(pile).items():
        twin = copy.deepcopy(engine)
        twin_pile = getattr(twin, name)
        here, there = twin_pile.index(card), top % len(twin_pile)
        twin_pile[here], twin_pile[there] = twin_pile[there], twin_pile[here]
        if twin.game == "custom":  # it reads this turn's cards off the turn's starting pile
            start = list(twin.turn_pile)
            start[here], start[there] = start[there], start[here]
            twin.turn_pile = tuple(start)
        out.append((copies, twin))
    return out


def engine_bust_chance(engine: Engine, depth: int = 0) -> Fraction | None:
    """The chance that drawing now ends the turn in a bust, counted by playing the engine on
    every card of its draw pile (through one forced draw); ``None`` where a choice other than
    draw/stop comes up, or forced draws run deep."""
    player, records = engine.current_player, len(engine.turn_records)
    draws = next_draws(engine)
    if draws is None or depth > 1:
        return None
    busts = Fraction(0)
    total = sum(weight for weight, _ in draws)
    for weight, twin in draws:
        twin.act(DRAW)
        after = _bust_after(twin, player, records, depth)
        if after is None:
            return None
        busts += Fraction(weight, total) * after
    return busts


def _bust_after(engine: Engine, player: int, records: int, depth: int) -> Fraction | None:
    """Whether the draw just made busted (1) or not (0), following forced draws, and choices
    (a Captain Seven jack to play or not) that end the draw the same way whatever is chosen."""
    import copy

    if len(engine.turn_records) > records:
        record = engine.turn_records[records]
        assert record.player == player
        return Fraction(int(record.busted))
    legal = set(engine.legal_actions())
    if engine.current_player != player:
        return None
    if legal <= {DRAW, STOP}:
        model, state = engine.turn_position()
        if model.is_forced(state):  # a rule forces the next draw (part of this one)
            return engine_bust_chance(engine, depth + 1)
        return Fraction(0)
    if depth > 1:
        return None
    outcomes = set()
    for action in legal:
        twin = copy.deepcopy(engine)
        twin.act(action)
        outcomes.add(_bust_after(twin, player, records, depth + 1))
    return outcomes.pop() if len(outcomes) == 1 else None


def engine_stop_result(engine: Engine) -> Fraction:
    """What stopping now banks, by stopping a copy of the engine (its turn record)."""
    import copy

    twin = copy.deepcopy(engine)
    records = len(twin.turn_records)
    twin.act(STOP)
    return Fraction(twin.turn_records[records].result)


def check_analysis(a: Any, engine: Engine) -> None:
    """The full analysis is consistent: optimal at least stop and draw-once, the best action
    legal in the engine and worth the optimal value, the bust chance a probability."""
    tol = 1e-9 * max(1.0, abs(a.ev_optimal))
    assert a.best_action in engine.legal_actions()
    assert a.action_values[a.best_action] == pytest.approx(a.ev_optimal, abs=tol)
    if a.ev_stop is not None:
        assert a.ev_optimal >= a.ev_stop - tol
    if a.ev_draw_once is not None:
        assert a.ev_optimal >= a.ev_draw_once - tol
    if a.p_bust_next is not None:
        assert 0 <= a.p_bust_next <= 1


WALK_CASES = [(spec, label, variant) for spec, label, variant in CASES]


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "label", "variant"), WALK_CASES,
                         ids=[f"{s.name}-{label}" for s, label, _ in WALK_CASES])
def test_full_analysis_at_engine_walked_decisions(spec: GameSpec, label: str,
                                                  variant: Variant) -> None:
    """Seeded random play of the real engine; at each decision of the turn model: the full
    analysis is defined and consistent (probabilities in [0, 1], optimal at least stop and at
    least draw-once, the best action legal and worth the optimal value), its next-draw bust
    chance equals the engine's own count over the cards of its draw pile (or the die's faces),
    and its stop value is what the engine banks on a stop."""
    from pushluck_teach.solve.turn import TooManyStates, TurnSolver

    rng = random.Random(zlib.crc32(f"walk-{spec.name}-{label}".encode()))
    analysed = counted = stops = 0
    solvers: dict[Any, Any] = {}
    # Captain Seven's relics put choices inside a draw (a queen to double, a jack to redraw,
    # another player's king) that the model resolves by its own policy: the engine count
    # cannot follow them without the model, so those variants check the analysis and the stop
    # value only (the relic rules themselves: test_captain_seven.py's relic tests).
    relics = bool(getattr(variant, "relics", False))
    for players in players_for(spec, variant):
        for seed in range(2):
            engine = spec.new_engine(variant, players=players, seed=100 + seed)
            before = counted
            for _ in range(60):
                if engine.is_over or ((relics or counted - before >= 4) and analysed >= 3
                                      and stops):
                    break
                if model_covers(engine):
                    model, state = engine.turn_position()
                    actions = model.actions(state)
                    if actions and not model.is_forced(state):
                        a = None
                        if analysed < 10:
                            if model not in solvers:  # one solver per turn model
                                solvers[model] = TurnSolver(
                                    model, max_states=WALK_STATE_LIMITS.get(spec.name,
                                                                            WALK_STATE_LIMIT))
                            with contextlib.suppress(TooManyStates):
                                a = solvers[model].analyse(state)
                        if a is not None:
                            analysed += 1
                            check_analysis(a, engine)
                        alone = spec.name != "incan-gold" or players == 1
                        if DRAW in actions and alone and not relics:
                            p = TurnSolver(model, exact=True).p_bust_next(state)
                            assert 0 <= p <= 1
                            by_engine = engine_bust_chance(engine)
                            if by_engine is not None:
                                assert p == by_engine, (label, engine.position_flags())
                                counted += 1
                        if STOP in actions and alone:
                            stopped = model.transitions(state, STOP)
                            if all(not model.actions(s) for _, s in stopped):
                                stop = sum(Fraction(w * model.payoff(s)) for w, s in stopped
                                           ) / sum(w for w, _ in stopped)
                                assert a is None or a.ev_stop == pytest.approx(float(stop))
                                assert engine_stop_result(engine) == stop, (
                                    label, engine.position_flags())
                                stops += 1
                legal = engine.legal_actions()
                engine.act(DRAW if DRAW in legal and rng.random() < 0.7 else rng.choice(legal))
    assert analysed >= 3 and (relics or counted >= 3) and stops >= 1, (analysed, counted,
                                                                       stops)
