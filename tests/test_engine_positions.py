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


def documented_lands_gap(engine: Engine) -> bool:
    """Lands Uncharted's flags list other players' allies among ``removed``, and the command
    reshuffles every removed card when the draw pile runs out, so once the pile has run out
    (or will on the next draw) while another player holds an ally, the command differs from
    the table (stated in ``LandsUnchartedEngine.position_flags``; a flag for the allies held
    elsewhere is phase B)."""
    if engine.game != "lands-uncharted":
        return False
    others = any(area for p, area in enumerate(engine.allies) if p != engine.current_player)
    outside = len(engine._turn_start_outside) + engine._turn_start_allies
    seen = len(engine.turn_cards) + len(engine.draw_pile) + outside
    ran_out = not engine.draw_pile or seen < 52
    return others and ran_out


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
                        # (the totals are the issue-13 model question); the cards drawn, the
                        # outcomes and the bust chances must still agree.
                        totals = not (spec.name == "incan-gold" and players > 1)
                        if documented_lands_gap(engine):
                            continue
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
