"""Positions of a built game: the turn-start state, a position read from this turn's draws
(:func:`custom_position`), and the size estimate that refuses a game too large to solve.

Size.  :func:`estimate_states` bounds the reachable states before anything is solved (haul
multisets up to the largest total an unpruned state can hold, times the ally and dead-card
variations); :func:`check_size` raises :class:`PositionError` naming the estimate when it is
above :data:`MAX_STATES`, so a page never freezes on a game too big to solve.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Any

from pushluck_teach.cards import Deck, parse_cards
from pushluck_teach.games.base import PositionError
from pushluck_teach.games.custom.rules import MAX_STATES, RuleSet, compile_rules
from pushluck_teach.games.custom.turn import CustomState, CustomTurnModel
from pushluck_teach.quoting import quoted

# --------------------------------------------------------------------------------------------
# Positions


def start_state(rules: RuleSet, pile: Sequence[int] | None = None, allies: int = 0) -> CustomState:
    """The turn-start state with ``pile`` counts per class (default: the full deck)."""
    layout = compile_rules(rules)
    deck: tuple[int, ...] = () if rules.dice else tuple(layout.weights if pile is None else pile)
    shell = CustomTurnModel(rules, 0)
    return shell.normalise(shell.pack(0, False, allies, 0, (0,) * len(layout.limits), deck))


def custom_position(rules: RuleSet, *, drawn: Any = None, removed: Any = None,
                    allies: int | None = None, check: bool = True
                    ) -> tuple[CustomTurnModel, CustomState]:
    """The turn after ``drawn`` (this turn's cards, or die faces, in order).

    ``removed``: cards out of the draw pile before the turn (only when the deck is not
    reshuffled each turn); ``allies``: allies held from earlier turns (ally cards out of the
    pile).  A card the deck does not hold is a :class:`CardError`; a position that has already
    busted is a :class:`PositionError`; with ``check`` a game too large to solve from here is a
    :class:`PositionError` naming the estimate (:func:`check_size`)."""
    layout = compile_rules(rules)
    held = 0 if allies is None else allies
    if isinstance(held, bool) or not isinstance(held, int) or held < 0:
        raise PositionError(f"allies must be a whole number of at least 0, not {quoted(allies)}")
    if held and rules.allies is None:
        raise PositionError("allies: this game has no ally cards")
    if held and not rules.allies_persist:
        raise PositionError(f"allies {held}: allies held from earlier turns need allies_persist "
                            "(without it unused allies are discarded when a turn ends)")
    if rules.dice:
        if removed:
            raise PositionError("removed: a die has no cards to remove")
        tokens = drawn.replace(",", " ").split() if isinstance(drawn, str) else list(drawn or ())
        faces = []
        for token in tokens:
            text = str(token).strip()
            if text not in rules.faces:
                raise PositionError(f"bad roll {quoted(text)}: a roll is a face 1-{rules.dice}")
            faces.append(layout.class_of[text])
        pile: list[int] = []
        drawn_classes = faces
        names = [str(t) for t in tokens]
    else:
        removed_cards = parse_cards(removed)
        drawn_cards = parse_cards(drawn)
        if removed_cards and rules.reshuffle_each_turn:
            raise PositionError("removed: every turn starts from the full deck in this game "
                                "(reshuffle_each_turn)")
        Deck(rules.deck_cards()).remove((*removed_cards, *drawn_cards), what="deck")
        pile = list(layout.weights)
        for card in (*removed_cards, *drawn_cards):
            pile[layout.class_of_card(card.code)] -= 1
        for card in drawn_cards:
            pile[layout.class_of[card.code]] += 1  # back: replayed below
        if held:
            ally_classes = [i for i, c in enumerate(layout.classes) if c.ally]
            left = held
            for cls in ally_classes:
                take = min(left, pile[cls] - sum(1 for c in drawn_cards
                                                 if layout.class_of[c.code] == cls))
                pile[cls] -= max(take, 0)
                left -= max(take, 0)
            if left:
                raise PositionError(f"allies {held}: not that many ally cards are left")
        drawn_classes = [layout.class_of[c.code] for c in drawn_cards]
        names = [c.code for c in drawn_cards]
    state = start_state(rules, pile, held)
    model = CustomTurnModel(rules, state)
    for i, cls in enumerate(drawn_classes):
        state = _replay(model, state, cls, names[i], names[:i])
    model = CustomTurnModel(rules, state)
    if not model.actions(state):
        raise PositionError("the pile is empty and the turn may not bank: the turn is over")
    if check:
        check_size(model)
    return model, state


def _replay(model: CustomTurnModel, state: CustomState, cls: int, name: str,
            before: Sequence[str]) -> CustomState:
    _, _, _, dead, _, deck = model.unpack(state)
    if deck and not deck[cls]:
        if not dead:
            raise PositionError(f"card {name} is not left in the draw pile")
        outcomes = [(w, s) for w, s in model._draw(state)
                    if type(s) is tuple or model.unpack(s)[3] < dead]
    else:
        outcomes = model._draw(state, only=cls)
    if not outcomes or type(outcomes[0][1]) is tuple:
        shown = " ".join(before) or "nothing"
        raise PositionError(f"{name} busts the turn after {shown}: the position is already over")
    return outcomes[0][1]


# --------------------------------------------------------------------------------------------
# Size estimate


def estimate_states(model: CustomTurnModel, state: CustomState | None = None) -> int:
    """An upper bound on the states the solver can visit from ``state`` (module docstring)."""
    state = model.start if state is None else state
    rules = model.rules
    layout = compile_rules(rules)
    total0, _, allies0, dead0, progress, deck = model.unpack(state)
    values = [c.value for c in layout.classes]
    vmax = max(values, default=0)
    weights = layout.weights if rules.dice else deck
    ally_cards = 0 if rules.dice else sum(k for k, c in zip(deck, layout.classes, strict=True)
                                          if c.ally)
    live_pool = sum(k * c.value for k, c in zip(weights, layout.classes, strict=True)
                    if not c.unconditional and not c.ally)
    catchers = dead0 + sum(k for k, c in zip(weights, layout.classes, strict=True)
                           if c.unconditional)
    caps = [rules.bust_over] if rules.bust_over is not None else []
    if catchers and not (allies0 or ally_cards):
        prune = max(live_pool // catchers - rules.bust_penalty + 1, rules.bank_minimum,
                    (rules.bonus_total or 0) + 1 if rules.bonus else 0)
        caps.append(max(prune, total0) + vmax)
    if rules.dice:
        top = sum((lim - 1) * vmax for lim in layout.limits) + total0 if not caps else min(caps)
        combos = 1
        for lim in layout.limits:
            combos *= lim
        return (max(top - total0, 0) + 2) * combos
    top = min(caps) if caps else total0 + live_pool
    budget = max(top - total0, 0)
    # multisets of the pile's non-ally classes drawn with value sum <= budget
    counts = [0] * (budget + 1)
    counts[0] = 1
    for cls, k in enumerate(deck):
        c = layout.classes[cls]
        if c.ally or c.unconditional or not k:
            continue
        cap = k
        for counter in c.counters:
            cap = min(cap, layout.limits[counter] - 1 - progress[counter])
        new = [0] * (budget + 1)
        for s, ways in enumerate(counts):
            if not ways:
                continue
            for j in range(cap + 1):
                t = s + j * c.value
                if t > budget:
                    break
                new[t] += ways
        counts = new
    hauls = sum(counts)
    if allies0 or ally_cards:
        classes = len(deck) + 1
        spare = allies0 + ally_cards
        if rules.bust_ending is None:  # every bust is a dead card: only the dead count moves
            hauls *= (ally_cards + 1) * (spare + 1)
        else:  # a cancelled card may be of any class
            hauls *= (ally_cards + 1) * sum(comb(classes + j - 1, j) for j in range(spare + 1))
    return 2 * hauls + 2


def check_size(model: CustomTurnModel, state: CustomState | None = None,
               limit: int = MAX_STATES) -> int:
    """The estimate of :func:`estimate_states`; a :class:`PositionError` naming it when above
    ``limit``."""
    estimate = estimate_states(model, state)
    if estimate > limit:
        raise PositionError(
            f"this game is too large to solve on the page: about {estimate:,} states from here "
            f"(the limit is {limit:,}); draw some cards first, or make busts likelier"
        )
    return estimate
