"""Lost Cities' one-colour odds (docs/rules.md, "Lost Cities", "The odds"), computed again from
the rules alone for tests: nothing of :mod:`pushluck_teach` is imported, and nothing of its
scoring or plan.

The model, as the rules state it: the unseen cards are the deck (``N``) and the opponent's 8,
every arrangement equally likely; you have ceil(N/2) turns and ceil(N/2) - 1 draws in time (your
draws are every other card of the deck, so they are a uniformly random sequence of the unseen).
The plan: play every card of the colour you have, lowest first (handshakes first), one a turn;
a card below what is already played (a handshake after a number) is dead.  The walk below goes
turn by turn through every draw, with exact fractions.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

HANDSHAKE = 0  # ranks: 0 for a handshake, 2-10 for numbers
COLOUR_CARDS = Counter({HANDSHAKE: 3, **{n: 1 for n in range(2, 11)}})
OPPONENT_HAND = 8


def expedition_score(cards: list[int]) -> int:
    """(sum of numbers - 20) x (1 + handshakes), + 20 with 8 or more cards; 0 if never started."""
    if not cards:
        return 0
    handshakes = cards.count(HANDSHAKE)
    score = (sum(cards) - 20) * (1 + handshakes)
    return score + (20 if len(cards) >= 8 else 0)


def colour_cards(text: str, colour: str) -> list[int]:
    """The cards of ``colour`` in a list like ``"R4 R6 B2"`` (a bare rank counts as ``colour``)."""
    kept = []
    for token in text.replace(",", " ").split():
        if token[0].isalpha() and token[0].upper() != "H" and len(token) > 1:
            if token[0].upper() != colour:
                continue
            token = token[1:]
        kept.append(HANDSHAKE if token.upper() == "H" else int(token))
    return kept


@dataclass(frozen=True)
class Odds:
    distribution: dict[int, Fraction]

    @property
    def mean(self) -> Fraction:
        return sum((s * p for s, p in self.distribution.items()), Fraction(0))

    @property
    def p_positive(self) -> Fraction:
        return sum((p for s, p in self.distribution.items() if s > 0), Fraction(0))


def odds(hand: list[int], expedition: list[int], seen: list[int], deck_left: int) -> Odds:
    """The final score of the colour's expedition under the plan, from the start of your turn."""
    unseen = COLOUR_CARDS.copy()
    for card in hand + expedition + seen:
        unseen[card] -= 1
        assert unseen[card] >= 0, f"card {card} named too often"
    pool = deck_left + OPPONENT_HAND
    others = pool - sum(unseen.values())
    turns = (deck_left + 1) // 2
    draws = turns - 1

    @cache
    def walk(turn: int, hand: tuple[int, ...], played: tuple[int, ...],
             unseen: tuple[tuple[int, int], ...], others: int, drawn: int
             ) -> tuple[tuple[int, Fraction], ...]:
        if turn == turns:
            return ((expedition_score(list(played)), Fraction(1)),)
        top = max(played) if played else None
        live = [c for c in hand if top is None or (c > top if c else top == HANDSHAKE)]
        if live:  # play the lowest live card
            card = min(live)
            rest = list(hand)
            rest.remove(card)
            hand, played = tuple(sorted(rest)), played + (card,)
        out: Counter = Counter()
        if drawn == draws:  # no more draws in time: the next turns play from the hand
            for score, p in walk(turn + 1, hand, played, unseen, others, drawn):
                out[score] += p
            return tuple(sorted(out.items()))
        left = pool - drawn
        choices = [(count, card) for card, count in unseen] + [(others, None)]
        for count, card in choices:
            if not count:
                continue
            if card is None:
                nxt_hand, nxt_unseen, nxt_others = hand, unseen, others - 1
            else:
                nxt_hand = tuple(sorted(hand + (card,)))
                nxt_unseen = tuple((c, n - 1 if c == card else n) for c, n in unseen)
                nxt_others = others
            for score, p in walk(turn + 1, nxt_hand, played, nxt_unseen, nxt_others,
                                 drawn + 1):
                out[score] += Fraction(count, left) * p
        return tuple(sorted(out.items()))

    result = walk(0, tuple(sorted(hand)), tuple(expedition),
                  tuple(sorted(unseen.items())), others, 0)
    return Odds(dict(result))
