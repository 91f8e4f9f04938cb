"""Lost Cities' odds report: one colour's exact expedition odds read from a position (hand,
expedition, face-up cards, deck count) and the command-line answers built on it (part of the
Lost Cities game, :mod:`pushluck_teach.games.lost_cities`; the model and its mathematics are in
:mod:`~pushluck_teach.games.lost_cities.plan`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pushluck_teach.games.base import Flag, PositionError, Variant, parse_whole_number
from pushluck_teach.games.lost_cities.plan import (
    _playable,
    _schedule,
    plan_distribution,
    turns_left,
)
from pushluck_teach.games.lost_cities.rules import (
    COLOUR_NAMES,
    DECK_SIZE,
    DRAW_FROM,
    EXPEDITION_COST,
    GAME,
    HAND_SIZE,
    HANDSHAKE,
    HANDSHAKES_PER_COLOUR,
    PLAY,
    ExpeditionScore,
    LCCard,
    cards_text,
    check_card_counts,
    expedition_problem,
    full_deck,
    parse_cards,
    parse_colour,
    parse_expedition,
    score_expedition,
)


@dataclass(frozen=True)
class ScoreDistribution:
    """The distribution of an expedition's final score under the plan."""

    probabilities: tuple[tuple[int, Fraction], ...]

    @property
    def mean(self) -> Fraction:
        return sum((Fraction(s) * p for s, p in self.probabilities), Fraction(0))

    @property
    def p_positive(self) -> Fraction:
        return sum((p for s, p in self.probabilities if s > 0), Fraction(0))

    def as_json(self, exact: bool = False) -> dict[str, Any]:
        def num(x: Fraction) -> Any:
            return str(x) if exact else float(x)
        return {"mean": num(self.mean), "p_positive": num(self.p_positive),
                "distribution": [[s, num(p)] for s, p in self.probabilities]}


@dataclass(frozen=True)
class ChartBars:
    """One bar chart of a report, for a table's analysis panel (exact values, text on bars).

    ``numeric_labels``: the labels are numbers (scores), to be set on a number axis at their
    values (evenly spaced ticks), not side by side as names; ``probability``: the values are
    chances, to be drawn on an axis from 0 to 1."""

    title: str
    x_title: str
    y_title: str
    labels: tuple[str, ...]
    values: tuple[Fraction, ...]
    texts: tuple[str, ...]
    numeric_labels: bool = False
    probability: bool = True


@dataclass(frozen=True)
class CardOdds:
    """One card of the colour you do not hold: where it may be and whether it will be yours."""

    card: LCCard
    p_drawn_in_time: Fraction      # you draw it while you can still play a card
    p_opponent_holds: Fraction     # it is in the opponent's hand now
    p_played: Fraction             # it ends on your expedition under the plan


@dataclass(frozen=True)
class ExpeditionOdds:
    """The exact odds of one colour's expedition (the model: :mod:`.plan`)."""

    colour: str
    deck_left: int
    phase: str
    my_turns: int
    draws_in_time: int
    opponent_turns: int
    unseen: int
    expedition: tuple[LCCard, ...]
    playable_in_hand: tuple[LCCard, ...]
    missing: tuple[CardOdds, ...]
    plan: ScoreDistribution
    extra_handshake: ScoreDistribution | None
    extra_handshake_note: str
    points_so_far: int
    points_in_hand: int

    @property
    def points_needed(self) -> int:
        """Points of numbers still needed to reach the break-even of 20."""
        return max(0, EXPEDITION_COST - self.points_so_far - self.points_in_hand)

    @property
    def opened(self) -> bool:
        return bool(self.expedition)

    @property
    def verdict(self) -> str:
        mean = self.plan.mean
        name = COLOUR_NAMES[self.colour]
        if self.opened:
            return (f"your {name} expedition is open: the plan expects {_fmt(mean)} points "
                    f"from it")
        if not self.playable_in_hand:
            return f"you hold no {name} card to open with"
        if mean > 0:
            return f"open {name}: the plan expects {_fmt(mean)} points, more than 0 for waiting"
        return f"do not open {name} yet: the plan expects {_fmt(mean)} points, below 0"

    @property
    def headline(self) -> str:
        """The panel's first line: the verdict and the clock."""
        return (f"{self.verdict[0].upper()}{self.verdict[1:]}. Deck {self.deck_left}: you have "
                f"{self.my_turns} turns left, the opponent {self.opponent_turns}.")

    def chart_bars(self) -> tuple[ChartBars, ...]:
        """The final score's distribution under the plan, and each missing card's chances."""
        name = COLOUR_NAMES[self.colour]
        scores = ChartBars(
            f"Final {name} score under the plan (mean {_fmt(self.plan.mean)})", "final score",
            "probability",
            tuple(str(s) for s, _ in self.plan.probabilities),
            tuple(p for _, p in self.plan.probabilities),
            tuple(f"{float(p):.1%}" for _, p in self.plan.probabilities), numeric_labels=True)
        cards = ChartBars(
            f"Chance each missing {name} card ends on your expedition", "card", "probability",
            tuple(m.card.code for m in self.missing), tuple(m.p_played for m in self.missing),
            tuple(f"{float(m.p_played):.1%}" for m in self.missing))
        if self.extra_handshake is None:
            return scores, cards
        extra = self.extra_handshake
        handshake = ChartBars(
            f"The same with one more handshake (mean {_fmt(extra.mean)})", "final score",
            "probability", tuple(str(s) for s, _ in extra.probabilities),
            tuple(p for _, p in extra.probabilities),
            tuple(f"{float(p):.1%}" for _, p in extra.probabilities), numeric_labels=True)
        return scores, cards, handshake

    def as_json(self, exact: bool = False) -> dict[str, Any]:
        def num(x: Fraction) -> Any:
            return str(x) if exact else float(x)
        return {
            "game": GAME,
            "colour": self.colour,
            "deck_left": self.deck_left,
            "phase": self.phase,
            "turns": {"yours": self.my_turns, "your_draws_in_time": self.draws_in_time,
                      "opponent": self.opponent_turns},
            "unseen": self.unseen,
            "expedition": [c.code for c in self.expedition],
            "playable_in_hand": [c.code for c in self.playable_in_hand],
            "missing": [{"card": m.card.code, "p_drawn_in_time": num(m.p_drawn_in_time),
                         "p_opponent_holds": num(m.p_opponent_holds),
                         "p_played": num(m.p_played)} for m in self.missing],
            "plan": self.plan.as_json(exact),
            "extra_handshake": None if self.extra_handshake is None
            else self.extra_handshake.as_json(exact),
            "extra_handshake_note": self.extra_handshake_note,
            "break_even": {"points_so_far": self.points_so_far,
                           "points_in_hand": self.points_in_hand,
                           "points_needed": self.points_needed},
            "verdict": self.verdict,
        }

    def text_lines(self) -> list[str]:
        name = COLOUR_NAMES[self.colour]
        lines = [
            f"{name} expedition, deck {self.deck_left}: you have {self.my_turns} turns left "
            f"({self.draws_in_time} draws in time), the opponent {self.opponent_turns}",
            f"on your expedition: {cards_text(self.expedition) or 'nothing'}; playable in hand: "
            f"{cards_text(self.playable_in_hand) or 'nothing'}",
            f"break-even: {self.points_so_far} + {self.points_in_hand} points, "
            f"{self.points_needed} more needed to reach {EXPEDITION_COST}",
            f"plan (play every {name} card you get, lowest first): mean {_fmt(self.plan.mean)}, "
            f"P(score > 0) = {_fmt(self.plan.p_positive)}",
        ]
        if self.extra_handshake is not None:
            gain = self.extra_handshake.mean - self.plan.mean
            lines.append(f"with one more handshake: mean {_fmt(self.extra_handshake.mean)} "
                         f"({'+' if gain >= 0 else ''}{_fmt(gain)})")
        else:
            lines.append(f"with one more handshake: {self.extra_handshake_note}")
        for m in self.missing:
            lines.append(f"  {m.card.code}: you draw it in time {_fmt(m.p_drawn_in_time)}, "
                         f"opponent holds it {_fmt(m.p_opponent_holds)}, "
                         f"on your expedition {_fmt(m.p_played)}")
        lines.append(self.verdict)
        return lines


def _fmt(value: Fraction) -> str:
    return f"{float(value):.4g}" if value.denominator != 1 else str(value.numerator)


def expedition_odds(colour: str, *, hand: str | Iterable[str | LCCard] = (),
                    expedition: str | Iterable[str | LCCard] = (),
                    seen: str | Iterable[str | LCCard] = (), deck_left: int,
                    phase: str = PLAY, opponent_hand: int = HAND_SIZE) -> ExpeditionOdds:
    """The exact odds of the ``colour`` expedition (the model: :mod:`.plan`).

    ``hand``: your cards; ``expedition``: your expedition of ``colour`` in the order played (a
    bare rank is read in ``colour``); ``seen``: every other face-up card of that colour (other
    colours may be listed or not: they change nothing); ``deck_left``: cards in the deck.
    """
    colour = parse_colour(colour)
    hand_cards = parse_cards(hand)
    exp_cards = parse_expedition(expedition, colour) if isinstance(expedition, str) \
        else parse_cards(expedition)
    seen_cards = parse_cards(seen)
    if not isinstance(deck_left, int) or isinstance(deck_left, bool) or deck_left < 1 \
            or deck_left > DECK_SIZE - 2 * HAND_SIZE:
        raise PositionError(f"bad deck count {deck_left!r}: 1-{DECK_SIZE - 2 * HAND_SIZE}")
    if len(hand_cards) > HAND_SIZE:
        raise PositionError(f"a hand holds at most {HAND_SIZE} cards, not {len(hand_cards)}")
    problem = expedition_problem(exp_cards)
    if problem:
        raise PositionError(f"bad expedition: {problem}")
    if any(card.colour != colour for card in exp_cards):
        raise PositionError(f"the expedition must be {COLOUR_NAMES[colour]}")
    check_card_counts({"hand": hand_cards, "expedition": exp_cards, "seen": seen_cards})
    pool = deck_left + opponent_hand
    # Cards leave the deck only into hands (8 each) and, once played, onto the table; after
    # your play (phase draw) your hand is one short until you draw.
    on_table = DECK_SIZE - 2 * HAND_SIZE - deck_left + (1 if phase == DRAW_FROM else 0)
    face_up = len(exp_cards) + len(seen_cards)
    if face_up > on_table:
        raise PositionError(
            f"{face_up} cards face up (expedition and seen), but with {deck_left} cards left in "
            f"the deck only {on_table} can have been played ({DECK_SIZE} cards, two hands of "
            f"{HAND_SIZE}, the deck)")
    named = len(hand_cards) + len(exp_cards) + len(seen_cards)
    if named + pool > DECK_SIZE:
        raise PositionError(
            f"{named} cards named plus {deck_left} in the deck and {opponent_hand} in the "
            f"opponent's hand make more than {DECK_SIZE}")
    mine, in_time, theirs = turns_left(deck_left, phase)
    known = Counter(c for c in hand_cards + exp_cards + seen_cards if c.colour == colour)
    unseen = [card for card in sorted(set(full_deck())) if card.colour == colour
              for _ in range((HANDSHAKES_PER_COLOUR if card.is_handshake else 1) - known[card])]
    top = max((c.rank for c in exp_cards), default=-1)
    playable = tuple(sorted(c for c in hand_cards if c.colour == colour
                            and _playable(c.rank, top)))
    base = dict(top=top, handshakes=sum(c.is_handshake for c in exp_cards),
                numbers_sum=sum(c.rank for c in exp_cards), count=len(exp_cards),
                pool=pool, schedule=_schedule(deck_left, phase))
    scores, played = plan_distribution(pending=[c.rank for c in playable],
                                       available=[c.rank for c in unseen], **base)
    missing = []
    for card in sorted(set(unseen)):
        copies = sum(1 for c in unseen if c == card)
        missing.append(CardOdds(
            card, Fraction(in_time, pool), Fraction(opponent_hand, pool),
            Fraction(played.get((card.rank, True), 0)) / copies))
    extra: ScoreDistribution | None = None
    unseen_handshakes = sum(c.is_handshake for c in unseen)
    if top > HANDSHAKE:
        note = "not possible: a number is already on the expedition"
    elif not unseen_handshakes:
        note = "not possible: all three handshakes of this colour are accounted for"
    else:
        note = "as if an unseen handshake were in your hand instead of another colour's card"
        others = [c.rank for c in unseen]
        others.remove(HANDSHAKE)
        extra_scores, _ = plan_distribution(
            pending=[HANDSHAKE] + [c.rank for c in playable], available=others,
            **base)
        extra = ScoreDistribution(tuple(extra_scores.items()))
    return ExpeditionOdds(
        colour=colour, deck_left=deck_left, phase=phase, my_turns=mine, draws_in_time=in_time,
        opponent_turns=theirs, unseen=pool, expedition=exp_cards, playable_in_hand=playable,
        missing=tuple(missing), plan=ScoreDistribution(tuple(scores.items())),
        extra_handshake=extra, extra_handshake_note=note,
        points_so_far=sum(c.rank for c in exp_cards),
        points_in_hand=sum(c.rank for c in playable))


# --------------------------------------------------------------------------------------------
# Command-line answers (``pushluck odds lost-cities ...``, ``pushluck score lost-cities ...``)


def odds_from_flags(variant: Variant, flags: Mapping[str, Any]) -> ExpeditionOdds:
    """The odds report from command-line flags: ``colour``, ``hand``, ``expedition``, ``seen``,
    ``deck_left`` (and ``phase``); a missing or bad flag is a one-line :class:`PositionError`."""
    for needed, flag in (("colour", "--colour"), ("deck_left", "--deck-left")):
        if flags.get(needed) in (None, ""):
            raise PositionError(f"lost-cities odds needs {flag}")
    deck_left = flags["deck_left"]
    if isinstance(deck_left, str):
        deck_left = parse_whole_number(deck_left, "deck count", PositionError)
    return expedition_odds(flags["colour"], hand=flags.get("hand") or "",
                           expedition=flags.get("expedition") or "",
                           seen=flags.get("seen") or "", deck_left=deck_left,
                           phase=flags.get("phase") or PLAY)


def score_from_flags(variant: Variant, flags: Mapping[str, Any]) -> ExpeditionScore:
    """``pushluck score lost-cities "H H 4 5 6 7 8 10"``: the expedition's score."""
    return score_expedition(flags.get("expedition") or "")


ODDS_FLAGS = (
    Flag("colour", "the expedition's colour: Y B W G R", str, "C"),
    Flag("hand", "your cards (R4 GH B10 ...)", str, "CARDS"),
    Flag("expedition", "your expedition of that colour, in the order played", str, "CARDS"),
    Flag("seen", "every other face-up card of that colour (both sides, discard piles)", str,
         "CARDS"),
    Flag("deck_left", "cards left in the deck", str, "N"),
    Flag("phase", "play (start of your turn, default) or draw (after your play)", str, "PHASE"),
)
