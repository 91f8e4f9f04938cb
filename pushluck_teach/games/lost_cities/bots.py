"""Lost Cities bots, three strengths (part of the Lost Cities game,
:mod:`pushluck_teach.games.lost_cities`).

Each bot reads only what its seat may know: its own hand, the face-up cards, the deck count and
the cards the opponent was seen taking from a discard pile.  Each takes a seeded
``random.Random`` (or a seed) and answers ``choose(engine) -> action``.

* :class:`RuleOfThumbBot` (``simple``): plays onto an open expedition when the gap is small,
  opens a colour when the hand already holds 18 points of it, discards what it cannot use and
  the opponent cannot use either, draws a discard only when it fits an open expedition.
* :class:`OddsBot` (``odds``): values every colour with the exact expedition plan of
  :func:`~pushluck_teach.games.lost_cities.plan.plan_distribution` (in floating point): opens a
  colour, adds a handshake or discards by the change of expected final score, minus what a
  discard would give the opponent; takes a discard when it raises the expected total, clock
  included.
* :class:`SearchBot` (``search``): determinized sampling.  It deals the unseen cards at random
  consistently with what it knows (the opponent's known cards, the deck count) ``samples`` times;
  for every candidate move and every deal it evaluates the match's end with the future draws
  known (each colour's cards played in rising order within the turns left, a colour opened only
  if it pays, cards below the expedition's top dead) minus what its discards give the opponent,
  and picks the move with the best average.  Cost per move: ``samples x candidates`` evaluations
  of a few hundred operations (well under a second; see ``benchmarks/bench_lost_cities.py``).
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pushluck_teach.games.base import RulesError
from pushluck_teach.games.lost_cities.engine import LostCitiesEngine
from pushluck_teach.games.lost_cities.plan import PlanMeans, _playable, _schedule
from pushluck_teach.games.lost_cities.rules import (
    COLOURS,
    DECK,
    DISCARD,
    DRAW_FROM,
    EXPEDITION_COST,
    HANDSHAKE,
    PLAY,
    LCCard,
    full_deck,
    parse_card,
    score_from_counts,
)
from pushluck_teach.quoting import quoted

FULL_DECK = full_deck()


def _rng(seed: random.Random | int | None) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


@dataclass(frozen=True)
class Seat:
    """What one player may know of the table."""

    me: int
    hand: tuple[LCCard, ...]
    mine: tuple[tuple[LCCard, ...], ...]        # my expeditions by colour
    theirs: tuple[tuple[LCCard, ...], ...]      # the opponent's expeditions
    piles: tuple[tuple[LCCard, ...], ...]       # discard piles (top last)
    deck_left: int
    phase: str
    just_discarded: str | None
    their_known: tuple[LCCard, ...]             # seen going into the opponent's hand

    @classmethod
    def of(cls, engine: LostCitiesEngine) -> Seat:
        me = engine.current_player
        return cls(me, engine.hand(me),
                   tuple(engine.expedition(me, c) for c in COLOURS),
                   tuple(engine.expedition(1 - me, c) for c in COLOURS),
                   tuple(engine.discard_pile(c) for c in COLOURS),
                   engine.deck_left, engine.phase, engine.just_discarded,
                   engine.known_in_hand(1 - me))

    def top(self, colour: int, side: Sequence[tuple[LCCard, ...]] | None = None) -> int:
        pile = (side or self.mine)[colour]
        return pile[-1].rank if pile else -1

    def unseen(self) -> list[LCCard]:
        """The deck and the opponent's hand, as a list of cards (handshakes repeated)."""
        rest = list(FULL_DECK)
        for card in self.hand:
            rest.remove(card)
        for group in (self.mine, self.theirs, self.piles):
            for pile in group:
                for card in pile:
                    rest.remove(card)
        return rest


def _parse(action: str) -> tuple[str, str]:
    verb, _, what = action.partition(":")
    return verb, what


def _unseen_ranks(seat: Seat) -> list[list[int]]:
    """The ranks of the cards this seat has not seen, by colour."""
    ranks: list[list[int]] = [[] for _ in COLOURS]
    for card in seat.unseen():
        ranks[card.colour_index].append(card.rank)
    return ranks


def _opponent_gain(seat: Seat, card: LCCard) -> float:
    """What a discard may hand the opponent: the card's points on their open expedition."""
    pile = seat.theirs[card.colour_index]
    if not pile or not _playable(card.rank, pile[-1].rank):
        return 0.0
    handshakes = sum(c.is_handshake for c in pile)
    return float(max(card.rank, 1) * (1 + handshakes))


# --------------------------------------------------------------------------------------------
# Rule of thumb


@dataclass
class RuleOfThumbBot:
    """Simple rules a casual player uses (see the module docstring)."""

    seed: random.Random | int | None = 0
    name: str = "simple"
    #: what a table's seat menu says of the bot
    summary: ClassVar[str] = "rules of thumb, the weakest"
    open_points: int = 18
    max_gap: int = 3

    def __post_init__(self) -> None:
        self.rng = _rng(self.seed)

    def choose(self, engine: LostCitiesEngine) -> str:
        seat = Seat.of(engine)
        legal = engine.legal_actions()
        if seat.phase == DRAW_FROM:
            return self._draw(seat, legal)
        return self._play(seat, legal)

    def _play(self, seat: Seat, legal: tuple[str, ...]) -> str:
        best: tuple[float, str] | None = None
        for card in sorted(set(seat.hand)):
            if f"{PLAY}:{card.code}" not in legal:
                continue
            top = seat.top(card.colour_index)
            if top >= 0 or (top == HANDSHAKE and card.is_handshake):
                gap = 0 if card.is_handshake else card.rank - max(top, 1)
                if gap <= self.max_gap or seat.deck_left <= 6:
                    key = (gap, f"{PLAY}:{card.code}")
                    best = min(best, key) if best else key
        if best:
            return best[1]
        for colour in range(len(COLOURS)):
            if seat.mine[colour]:
                continue
            held = sorted(c for c in seat.hand if c.colour_index == colour)
            points = sum(c.rank for c in held)
            if held and points >= self.open_points and seat.deck_left >= 2 * len(held):
                lowest = held[0] if points >= self.open_points + 7 else \
                    min((c for c in held if not c.is_handshake), default=held[0])
                return f"{PLAY}:{lowest.code}"
        return f"{DISCARD}:{self._worst_card(seat).code}"

    def _usefulness(self, seat: Seat, card: LCCard) -> float:
        top = seat.top(card.colour_index)
        if seat.mine[card.colour_index] and not _playable(card.rank, top):
            return 0.0                                     # dead for me
        same = sum(c.rank + 2 for c in seat.hand if c.colour_index == card.colour_index)
        return 1.0 + same / 10 + (2.0 if seat.mine[card.colour_index] else 0.0)

    def _worst_card(self, seat: Seat) -> LCCard:
        return min(sorted(set(seat.hand)),
                   key=lambda c: (self._usefulness(seat, c) + _opponent_gain(seat, c), c.rank))

    def _draw(self, seat: Seat, legal: tuple[str, ...]) -> str:
        for action in legal:
            verb, what = _parse(action)
            if what == DECK:
                continue
            colour = COLOURS.index(what)
            card = seat.piles[colour][-1]
            top = seat.top(colour)
            if seat.mine[colour] and _playable(card.rank, top) and \
                    (card.is_handshake or card.rank - max(top, 1) <= 2):
                return action
        return f"{DRAW_FROM}:{DECK}"


# --------------------------------------------------------------------------------------------
# Exact odds


@dataclass
class OddsBot:
    """Decides by the exact expected final score of each colour (module docstring)."""

    seed: random.Random | int | None = 0
    name: str = "odds"
    #: what a table's seat menu says of the bot
    summary: ClassVar[str] = "exact odds, the strongest"
    _cache: dict[tuple[Any, ...], float] = field(default_factory=dict, repr=False)
    _means: PlanMeans = field(default_factory=PlanMeans, repr=False)

    def __post_init__(self) -> None:
        self.rng = _rng(self.seed)

    def colour_value(self, colour: int, expedition: Sequence[LCCard], held: Sequence[LCCard],
                     unseen_ranks: Sequence[int], pool: int, schedule: str,
                     committed: bool) -> float:
        """Expected final score of a colour under the plan; an unopened colour may stay at 0."""
        top = expedition[-1].rank if expedition else -1
        pending = tuple(sorted(c.rank for c in held if _playable(c.rank, top)))
        if not expedition and not pending:
            return 0.0
        avail = tuple(sorted(r for r in unseen_ranks if _playable(r, top)))
        key = (top, sum(c.is_handshake for c in expedition), sum(c.rank for c in expedition),
               len(expedition), pending, avail, pool, schedule)
        if key not in self._cache:
            self._cache[key] = self._means.mean(
                top=top, handshakes=key[1], numbers_sum=key[2], count=key[3], pending=pending,
                available=avail, pool=pool, schedule=schedule)
        value = self._cache[key]
        return value if committed or expedition else max(0.0, value)

    def _values(self, seat: Seat, hand: Sequence[LCCard], mine: Sequence[Sequence[LCCard]],
                unseen_by_colour: list[list[int]], pool: int, schedule: str) -> list[float]:
        return [self.colour_value(c, mine[c], [x for x in hand if x.colour_index == c],
                                  unseen_by_colour[c], pool, schedule, False)
                for c in range(len(COLOURS))]

    def choose(self, engine: LostCitiesEngine) -> str:
        self._cache.clear()       # the deck count changes every turn (the plan states stay)
        seat = Seat.of(engine)
        unseen_by_colour = _unseen_ranks(seat)
        legal = engine.legal_actions()
        if seat.phase == PLAY:
            return self._play(seat, legal, unseen_by_colour)
        return self._draw(seat, legal, unseen_by_colour)

    def _play(self, seat: Seat, legal: tuple[str, ...], unseen: list[list[int]]) -> str:
        for card in sorted(set(seat.hand)):       # the next card of an open expedition
            pile = seat.mine[card.colour_index]
            if pile and not card.is_handshake and card.rank == max(pile[-1].rank, 1) + 1:
                return f"{PLAY}:{card.code}"
        pool = seat.deck_left + 8
        after = _schedule(seat.deck_left, DRAW_FROM)
        base = self._values(seat, seat.hand, seat.mine, unseen, pool, after)
        best: tuple[float, str] | None = None
        lowest = {c: min(x for x in seat.hand if x.colour_index == c and
                         _playable(x.rank, seat.top(c)))
                  for c in {x.colour_index for x in seat.hand
                            if _playable(x.rank, seat.top(x.colour_index))}}
        for action in legal:
            verb, what = _parse(action)
            card = parse_card(what)
            if verb == PLAY and card != lowest.get(card.colour_index):
                continue          # skipping cards you hold kills them: only the lowest
            gain = self._play_gain(seat, verb, card, base, unseen, pool, after)
            key = (gain, action)
            if best is None or key[0] > best[0] + 1e-9:
                best = key
        assert best is not None
        return best[1]

    def _play_gain(self, seat: Seat, verb: str, card: LCCard, base: list[float],
                   unseen: list[list[int]], pool: int, after: str) -> float:
        """What playing (``verb`` PLAY) or discarding ``card`` changes its colour's expected
        final score by, a discard less what it gives the opponent."""
        c = card.colour_index
        hand = list(seat.hand)
        hand.remove(card)
        held = [x for x in hand if x.colour_index == c]
        if verb == PLAY:
            value = self.colour_value(c, seat.mine[c] + (card,), held, unseen[c], pool, after,
                                      True)
        elif not seat.mine[c] and base[c] == 0 and not card.is_handshake:
            value = -_opponent_gain(seat, card)   # a colour not worth opening stays shut
        else:
            value = self.colour_value(c, seat.mine[c], held, unseen[c], pool, after,
                                      False) - _opponent_gain(seat, card)
        return value - base[c]

    def _draw(self, seat: Seat, legal: tuple[str, ...], unseen: list[list[int]]) -> str:
        takeable = [a for a in legal if _parse(a)[1] != DECK and _playable(
            seat.piles[COLOURS.index(_parse(a)[1])][-1].rank,
            seat.top(COLOURS.index(_parse(a)[1])))]
        if seat.deck_left <= 1 or not takeable:
            return f"{DRAW_FROM}:{DECK}"
        deck_total = sum(self._values(seat, seat.hand, seat.mine, unseen, seat.deck_left + 8,
                                      _schedule(seat.deck_left, DRAW_FROM)))
        # Taking a discard leaves the deck as it is: the opponent draws next, then you play.
        later = _schedule(seat.deck_left - 1, PLAY)
        best_action, best_total = f"{DRAW_FROM}:{DECK}", deck_total + 0.5
        for action in takeable:
            card = seat.piles[COLOURS.index(_parse(action)[1])][-1]
            hand = seat.hand + (card,)
            total = sum(self._values(seat, hand, seat.mine, unseen, seat.deck_left - 1 + 8,
                                     later))
            if total > best_total:
                best_action, best_total = action, total
        return best_action

    def action_values(self, engine: LostCitiesEngine) -> dict[str, float]:
        """Every legal action's value under the bot's stated plan model (a review's numbers):
        before the play, the change of the expected final score of the colour played or
        discarded (minus what a discard gives the opponent); before the draw, the expected
        final total of all colours after taking that card (a card the plan cannot use counts
        nothing).  Only differences between actions of one decision mean anything."""
        self._cache.clear()
        seat = Seat.of(engine)
        unseen = _unseen_ranks(seat)
        legal = engine.legal_actions()
        values: dict[str, float] = {}
        if seat.phase == PLAY:
            pool = seat.deck_left + 8
            after = _schedule(seat.deck_left, DRAW_FROM)
            base = self._values(seat, seat.hand, seat.mine, unseen, pool, after)
            for action in legal:
                verb, what = _parse(action)
                values[action] = self._play_gain(seat, verb, parse_card(what), base, unseen,
                                                 pool, after)
            return values
        for action in legal:
            source = _parse(action)[1]
            if source == DECK:
                values[action] = sum(self._values(seat, seat.hand, seat.mine, unseen,
                                                  seat.deck_left + 8,
                                                  _schedule(seat.deck_left, DRAW_FROM)))
                continue
            card = seat.piles[COLOURS.index(source)][-1]
            # the deck's last card ends the match; before it, a discard leaves the clock as is
            left = seat.deck_left - 1 if seat.deck_left > 1 else seat.deck_left
            phase = PLAY if seat.deck_left > 1 else DRAW_FROM
            values[action] = sum(self._values(seat, seat.hand + (card,), seat.mine, unseen,
                                              left + 8, _schedule(left, phase)))
        return values


def plan_values(engine: LostCitiesEngine) -> dict[str, float]:
    """The legal actions' values under the stated plan model (:meth:`OddsBot.action_values`)."""
    return OddsBot().action_values(engine)


# --------------------------------------------------------------------------------------------
# Determinized sampling


def _colour_outcome(expedition: Sequence[LCCard], cards: Sequence[LCCard]) -> tuple[int, int]:
    """Best final score of a colour when ``cards`` (held or drawn in time) are all known: the
    playable ones in rising order.  Returns (score, cards played)."""
    top = expedition[-1].rank if expedition else -1
    handshakes = sum(c.is_handshake for c in expedition)
    total = sum(c.rank for c in expedition)
    count = len(expedition)
    for card in sorted(cards):
        if _playable(card.rank, top):
            handshakes += card.is_handshake
            total += card.rank
            count += 1
            top = card.rank
    return score_from_counts(handshakes, total, count), count - len(expedition)


def evaluate_end(mine: Sequence[Sequence[LCCard]], hand: Sequence[LCCard],
                 draws: Sequence[LCCard], plays_left: int, committed: Sequence[bool],
                 draw_first: bool) -> int:
    """My match score at the end of one sampled deal, playing my remaining turns by a fixed
    policy: each turn, of the open or ``committed`` colours, play the held card closest above
    its expedition's top (handshakes first); cards below a top are dead; ``draws`` arrive one a
    turn (before the turn's play when ``draw_first``, after it otherwise).

    Whether to open a colour is decided before the deal is known (``committed``), so a sample
    cannot open only the colours that happen to pay in it.
    """
    active = [bool(mine[c]) or committed[c] for c in range(len(COLOURS))]
    tops = [pile[-1].rank if pile else -1 for pile in mine]
    handshakes = [sum(c.is_handshake for c in pile) for pile in mine]
    sums = [sum(c.rank for c in pile) for pile in mine]
    counts = [len(pile) for pile in mine]
    held: list[list[int]] = [[] for _ in COLOURS]
    for card in hand:
        if active[card.colour_index]:
            held[card.colour_index].append(card.rank)
    for ranks in held:
        ranks.sort()
    upcoming = iter(draws)

    def take() -> None:
        card = next(upcoming, None)
        if card is not None and active[card.colour_index]:
            bisect.insort(held[card.colour_index], card.rank)

    for _ in range(plays_left):
        if draw_first:
            take()
        best, best_gap = -1, 99
        for colour in range(len(COLOURS)):
            ranks = held[colour]
            top = tops[colour]
            while ranks and not _playable(ranks[0], top):
                ranks.pop(0)
            if ranks:
                gap = 0 if ranks[0] == HANDSHAKE else ranks[0] - max(top, 1)
                if gap < best_gap:
                    best, best_gap = colour, gap
        if best >= 0:
            rank = held[best].pop(0)
            tops[best] = rank
            handshakes[best] += rank == HANDSHAKE
            sums[best] += rank
            counts[best] += 1
        if not draw_first:
            take()
    return sum(score_from_counts(handshakes[c], sums[c], counts[c]) for c in range(len(COLOURS)))


def worth_opening(held: Sequence[LCCard], unseen: Sequence[LCCard], plays_left: int,
                  pool: int) -> bool:
    """A quick, deal-independent judgement: the points held plus the expected points of the
    unseen cards above the lowest held number (each drawn in time with chance D/u) beat 20."""
    numbers = [c.rank for c in held if not c.is_handshake]
    if not held or not numbers or pool <= 0:
        return False
    low = min(numbers)
    chance = max(plays_left - 1, 0) / pool
    expected = sum(numbers) + chance * sum(c.rank for c in unseen if c.rank > low)
    return expected > EXPEDITION_COST


@dataclass
class SearchBot:
    """Determinized sampling over the unseen cards (module docstring)."""

    seed: random.Random | int | None = 0
    name: str = "search"
    #: what a table's seat menu says of the bot
    summary: ClassVar[str] = "samples the hidden cards"
    samples: int = 16

    def __post_init__(self) -> None:
        self.rng = _rng(self.seed)

    def _deals(self, seat: Seat) -> list[tuple[list[LCCard], list[LCCard]]]:
        """``samples`` deals of the unseen cards: (the opponent's hand, the deck top first)."""
        unseen = seat.unseen()
        for card in seat.their_known:
            unseen.remove(card)
        free = 8 - len(seat.their_known)
        deals = []
        for _ in range(self.samples):
            self.rng.shuffle(unseen)
            deals.append((list(seat.their_known) + unseen[:free], unseen[free:]))
        return deals

    def choose(self, engine: LostCitiesEngine) -> str:
        seat = Seat.of(engine)
        legal = engine.legal_actions()
        if len(legal) == 1:
            return legal[0]
        unseen = seat.unseen()
        plans = {action: self._plan(seat, action, unseen) for action in legal}
        totals = dict.fromkeys(legal, 0.0)
        for opponent, deck in self._deals(seat):
            for action, (mine, hand, positions, plays, committed, card, first) in plans.items():
                draws = [deck[i] for i in positions]
                value = float(evaluate_end(mine, hand, draws, plays, committed, first))
                if card is not None:
                    value -= self._gift(seat, card, opponent)
                totals[action] += value
        return max(legal, key=lambda a: (round(totals[a], 9), a.startswith(PLAY)))

    def _plan(self, seat: Seat, action: str, unseen: list[LCCard]) -> tuple[Any, ...]:
        """What a move leaves: expeditions, hand, the deck places of my draws in time, my plays
        left, the colours committed to, and the card discarded (if any)."""
        verb, what = _parse(action)
        n = seat.deck_left
        mine = list(seat.mine)
        discarded = None
        draw_first = True
        if verb == DRAW_FROM:
            if what == DECK:      # I take deck[0]; the opponent deck[1]; my next deck[2]...
                hand = seat.hand
                plays = (n - 1) // 2
                positions = [0] + list(range(2, n, 2))[:max(plays - 1, 0)]
            else:                 # the deck stays: the opponent takes deck[0]
                hand = seat.hand + (seat.piles[COLOURS.index(what)][-1],)
                plays = n // 2
                positions = list(range(1, n, 2))[:max(plays - 1, 0)]
                draw_first = False
        else:
            card = parse_card(what)
            rest = list(seat.hand)
            rest.remove(card)
            hand = tuple(rest)
            if verb == PLAY:
                mine[card.colour_index] = mine[card.colour_index] + (card,)
            else:
                discarded = card
            plays = (n - 1) // 2  # my draw now (deck[0]), then floor((n - 1) / 2) turns
            positions = list(range(0, n, 2))[:plays]
        pool = n + 8
        committed = tuple(
            bool(mine[c]) or worth_opening([x for x in hand if x.colour_index == c],
                                           [x for x in unseen if x.colour_index == c],
                                           plays, pool)
            for c in range(len(COLOURS)))
        return mine, hand, positions, plays, committed, discarded, draw_first

    @staticmethod
    def _gift(seat: Seat, card: LCCard, opponent: Sequence[LCCard]) -> float:
        """What a discard may give the opponent in this deal: its points on their open
        expedition, or half of them if they hold lower cards of that colour."""
        gain = _opponent_gain(seat, card)
        if not gain and any(c.colour_index == card.colour_index and c.rank < card.rank
                            for c in opponent):
            gain = 0.5 * card.rank
        return gain


BOTS = {"simple": RuleOfThumbBot, "odds": OddsBot, "search": SearchBot}


def make_bot(name: str, seed: random.Random | int | None = 0) -> Any:
    """A Lost Cities bot by name: ``simple``, ``odds`` or ``search``."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise RulesError(f"unknown Lost Cities bot {quoted(name)} "
                         f"(bots: {', '.join(BOTS)})") from None


__all__ = ["BOTS", "OddsBot", "RuleOfThumbBot", "SearchBot", "Seat", "evaluate_end",
           "make_bot"]
