r"""Lost Cities: the two-player expedition card game, with exact expedition odds.

Rules as implemented (the project's reading of the rule sheet; ``docs/lost-cities.md``)
-------------------------------------------------------------------------------------------
* 60 cards: five colours ``Y B W G R`` (yellow, blue, white, green, red), each with the numbers
  2-10 and three identical handshakes ``H``.  Notation: colour + rank, ``R4``, ``GH``, ``B10``
  (case-insensitive; in an expedition string the colour may be left out: ``"H H 4 5 10"``).
* Two players, hands of 8 from a seeded shuffle.  A turn is two actions: first ``play:R4`` (to
  your own expedition of that colour) or ``discard:R4`` (face up on that colour's pile), then
  ``draw:deck`` or ``draw:R`` (the top of a discard pile), never the card you just discarded.
* Within an expedition numbers rise (not necessarily consecutively); handshakes only before
  that colour's first number.
* The match ends as soon as the deck's last card is drawn.  Each expedition with at least one
  card scores ``(sum of numbers - 20) x (1 + handshakes)``, plus 20 (not multiplied) when it has
  8 or more cards; an expedition never started scores 0.
* A game is ``matches`` matches (option, 1-9, default 3); the totals decide.  Player 1 starts
  match 1 and the players take turns starting the next matches (the sheet is silent; a table
  alternating the start is the usual reading).

Exact expedition odds (:func:`expedition_odds`)
-----------------------------------------------
You look at one colour ``c`` at the start of your turn (or after your play, before your draw).
Known: your hand, your expedition of ``c``, every other face-up card of colour ``c`` (the
opponent's expedition, the discard pile) and the number ``N`` of cards left in the deck.  The
*unseen* cards are the deck and the opponent's 8 cards, ``u = N + 8`` of them; by symmetry of
the shuffle every arrangement of them is equally likely, so the opponent's hand is a uniform
8-subset and the deck a uniform random order of the rest.  Only the unseen cards of colour ``c``
(the set ``U_c``) matter; the other ``u - |U_c|`` are interchangeable.

*Model of the draws (stated, not derived from play).*  Both players draw from the deck on every
turn, so the deck loses one card per turn.  At the start of your turn with ``N`` cards you have
``T = ceil(N/2)`` turns left (the opponent ``floor(N/2)``); each of your turns but the last ends
with a draw you can still play, so ``D = T - 1`` of your draws are *in time*.  (After your play,
before your draw: ``D = T = floor((N-1)/2)`` more turns; the opponent ``ceil((N-1)/2)``.)  Your
draws sit at fixed places in a uniformly shuffled deck, so they are a uniform random sequence
drawn without replacement from the ``u`` unseen cards.  Hence, for each unseen card ``x``:

    P(you draw x in time) = D / u,        P(the opponent holds x now) = 8 / u.

*The plan* "open it now and play every card of that colour you get in rising order" means: on
each of your turns you play the lowest card of colour ``c`` you hold that may still be played
(handshakes first), one card a turn; a card drawn when a higher number is already on the
expedition (or a handshake after the first number) can never be played and is dead.  The state
of the plan is ``(top, handshakes, sum, count, pending, available, draws made)`` where
``pending`` are the playable cards held and ``available`` the unseen cards of ``c`` above the
top.  A play moves the lowest pending card to the expedition; a draw takes each available card
(a rank ``r`` held ``k`` times unseen) with probability ``k / (u - draws made)`` and any other
card with the rest.  Forward propagation of these exact probabilities over the ``2T - 1`` steps
gives the distribution of the final ``(handshakes, sum, count)``, hence of the score, and the
chance that each card ends up on the expedition.  "With one more handshake" is the same plan
when an unseen handshake of ``c`` is in your hand in place of a card of another colour (so the
unseen count stays ``u``); it is played first, costs a turn, and needs the expedition to have no
number yet and a handshake of ``c`` still unseen.

The break-even: an expedition pays off once its numbers exceed 20; the report gives the points
already on the expedition, the playable points in your hand and the points still needed to reach
20.  All figures are exact :class:`~fractions.Fraction`\ s (integer masses over a common
denominator while propagating).  The bots use the plan's mean through :class:`PlanMeans`, a
backward recursion in floating point checked against the exact distribution.  The opponent's
later plays and discards of ``c`` are not modelled: a card the opponent holds is simply not
yours.
"""

from __future__ import annotations

import bisect
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pushluck_teach.games.base import (
    CardFace,
    CardZone,
    Engine,
    Flag,
    GameCommand,
    GameSpec,
    IllegalActionError,
    PositionError,
    RulesError,
    TableView,
    Variant,
    option,
    parse_whole_number,
    register,
)
from pushluck_teach.quoting import quoted

GAME = "lost-cities"
COLOURS: tuple[str, ...] = ("Y", "B", "W", "G", "R")
COLOUR_NAMES: dict[str, str] = {
    "Y": "yellow", "B": "blue", "W": "white", "G": "green", "R": "red",
}
HANDSHAKE = 0
NUMBERS: tuple[int, ...] = tuple(range(2, 11))
HANDSHAKES_PER_COLOUR = 3
HAND_SIZE = 8
EXPEDITION_COST = 20
BONUS_CARDS = 8
BONUS = 20
MAX_MATCHES = 9
DECK_SIZE = len(COLOURS) * (len(NUMBERS) + HANDSHAKES_PER_COLOUR)
PLAY, DISCARD, DRAW_FROM = "play", "discard", "draw"
DECK = "deck"


# --------------------------------------------------------------------------------------------
# Cards


@dataclass(frozen=True, order=True, slots=True)
class LCCard:
    """One Lost Cities card: a colour (``Y B W G R``) and a rank (0 = handshake, 2-10)."""

    colour_index: int
    rank: int

    def __post_init__(self) -> None:
        if not 0 <= self.colour_index < len(COLOURS):
            raise PositionError(f"not a Lost Cities colour index: {self.colour_index!r}")
        if self.rank != HANDSHAKE and self.rank not in NUMBERS:
            raise PositionError(f"not a Lost Cities rank: {self.rank!r}")

    @classmethod
    def of(cls, colour: str, rank: int) -> LCCard:
        return cls(COLOURS.index(colour), rank)

    @property
    def colour(self) -> str:
        return COLOURS[self.colour_index]

    @property
    def is_handshake(self) -> bool:
        return self.rank == HANDSHAKE

    @property
    def rank_code(self) -> str:
        return "H" if self.rank == HANDSHAKE else str(self.rank)

    @property
    def code(self) -> str:
        """``R4``, ``GH``, ``B10``."""
        return self.colour + self.rank_code

    @property
    def label(self) -> str:
        """A text label for a card face: ``red 4``, ``green handshake``."""
        what = "handshake" if self.is_handshake else str(self.rank)
        return f"{COLOUR_NAMES[self.colour]} {what}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"LCCard({self.code})"


def full_deck() -> tuple[LCCard, ...]:
    """The 60 cards, colour by colour, handshakes first."""
    return tuple(LCCard(c, r) for c in range(len(COLOURS))
                 for r in (HANDSHAKE,) * HANDSHAKES_PER_COLOUR + NUMBERS)


def _parse_rank(text: str, token: str) -> int:
    if text.upper() == "H":
        return HANDSHAKE
    if text.isascii() and text.isdigit() and int(text) in NUMBERS:
        return int(text)
    raise PositionError(f"bad card {quoted(token)}: write colour (Y B W G R) + rank (H, 2-10), "
                        f"e.g. R4, GH, B10 (in an expedition the colour may be left out)")


def parse_card(token: str, colour: str | None = None) -> LCCard:
    """``R4``, ``gh``, ``B10``; with ``colour`` given a bare rank (``4``, ``H``) is allowed."""
    text = token.strip()
    if not text:
        raise PositionError("empty card")
    head = text[0].upper()
    if head in COLOURS and len(text) > 1:
        card = LCCard.of(head, _parse_rank(text[1:], token))
        if colour is not None and card.colour != colour:
            raise PositionError(
                f"card {quoted(token)} is {COLOUR_NAMES[card.colour]}, not {COLOUR_NAMES[colour]}"
            )
        return card
    if colour is not None:
        return LCCard.of(colour, _parse_rank(text, token))
    raise PositionError(
        f"bad card {quoted(token)}: write colour (Y B W G R) + rank (H, 2-10), e.g. R4, GH, B10"
    )


def parse_cards(text: str | Iterable[str | LCCard] | None, colour: str | None = None
                ) -> tuple[LCCard, ...]:
    """A list of cards separated by spaces or commas; ``None`` or ``""`` is no card."""
    if text is None:
        return ()
    tokens: Iterable[str | LCCard] = text.replace(",", " ").split() if isinstance(text, str) \
        else text
    return tuple(t if isinstance(t, LCCard) else parse_card(t, colour) for t in tokens)


def parse_colour(text: str) -> str:
    """``R``, ``red``, ``r`` → ``R``."""
    low = text.strip().lower()
    for code, name in COLOUR_NAMES.items():
        if low in (code.lower(), name):
            return code
    raise PositionError(f"bad colour {quoted(text)}: one of Y B W G R")


def cards_text(cards: Iterable[LCCard]) -> str:
    return " ".join(card.code for card in cards)


def check_card_counts(groups: Mapping[str, Sequence[LCCard]]) -> None:
    """Refuse cards named more often than the deck holds them (numbers once, handshakes 3x)."""
    seen: Counter[LCCard] = Counter()
    where: dict[LCCard, list[str]] = {}
    for name, cards in groups.items():
        for card in cards:
            seen[card] += 1
            where.setdefault(card, []).append(name)
    for card, count in seen.items():
        limit = HANDSHAKES_PER_COLOUR if card.is_handshake else 1
        if count > limit:
            places = ", ".join(sorted(set(where[card])))
            times = "three times" if card.is_handshake else "once"
            raise PositionError(
                f"card {card.code} is named {count} times ({places}); the deck holds it {times}"
            )


# --------------------------------------------------------------------------------------------
# Scoring


@dataclass(frozen=True)
class ExpeditionScore:
    """The score of one expedition with its breakdown."""

    cards: tuple[LCCard, ...]
    handshakes: int
    numbers_sum: int
    card_count: int
    multiplier: int
    base: int          # numbers_sum - 20 (0 for an empty expedition)
    multiplied: int    # base x multiplier
    bonus: int         # 20 for 8 or more cards, not multiplied
    total: int

    def as_json(self, exact: bool = False) -> dict[str, Any]:
        return {
            "cards": [card.code for card in self.cards],
            "handshakes": self.handshakes,
            "numbers_sum": self.numbers_sum,
            "card_count": self.card_count,
            "multiplier": self.multiplier,
            "base": self.base,
            "multiplied": self.multiplied,
            "bonus": self.bonus,
            "score": self.total,
        }

    def text_lines(self) -> list[str]:
        if not self.cards:
            return ["0", "an expedition never started scores 0"]
        lines = [str(self.total),
                 f"numbers {self.numbers_sum} - {EXPEDITION_COST} = {self.base}",
                 f"x {self.multiplier} ({self.handshakes} handshake"
                 f"{'' if self.handshakes == 1 else 's'}) = {self.multiplied}"]
        if self.bonus:
            lines.append(f"+ {self.bonus} bonus for {self.card_count} cards = {self.total}")
        return lines


def expedition_problem(cards: Sequence[LCCard]) -> str | None:
    """Why ``cards`` (in the order played) cannot be an expedition, or ``None`` if they can."""
    if not cards:
        return None
    colours = sorted({card.colour for card in cards}, key=COLOURS.index)
    if len(colours) > 1:
        return f"an expedition has one colour, these mix {' and '.join(colours)}"
    counts = Counter(cards)
    for card, count in counts.items():
        if not card.is_handshake and count > 1:
            return f"card {card.code} appears twice"
        if card.is_handshake and count > HANDSHAKES_PER_COLOUR:
            return f"{count} handshakes, but a colour has only {HANDSHAKES_PER_COLOUR}"
    top = -1
    for card in cards:
        if card.is_handshake and top > HANDSHAKE:
            return f"handshake {card.code} after a number (handshakes come first)"
        if not card.is_handshake and card.rank <= top:
            return f"{card.code} after {card.colour}{top}: numbers must rise"
        top = max(top, card.rank)
    return None


def score_expedition(cards: str | Iterable[str | LCCard], colour: str | None = None
                     ) -> ExpeditionScore:
    """Score an expedition given in the order played (``"H H 4 5 6 7 8 10"`` → 80).

    A bare rank (no colour) is read in ``colour`` (red if not given: the colour does not change
    the score).  A bad expedition raises :class:`PositionError` naming the problem.
    """
    parsed = parse_expedition(cards, colour) if isinstance(cards, str) else \
        parse_cards(cards, colour)
    problem = expedition_problem(parsed)
    if problem:
        raise PositionError(f"not an expedition: {problem}")
    if not parsed:
        return ExpeditionScore((), 0, 0, 0, 1, 0, 0, 0, 0)
    handshakes = sum(card.is_handshake for card in parsed)
    numbers = sum(card.rank for card in parsed)
    multiplier = 1 + handshakes
    base = numbers - EXPEDITION_COST
    bonus = BONUS if len(parsed) >= BONUS_CARDS else 0
    return ExpeditionScore(parsed, handshakes, numbers, len(parsed), multiplier, base,
                           base * multiplier, bonus, base * multiplier + bonus)


def parse_expedition(text: str, colour: str | None = None) -> tuple[LCCard, ...]:
    """Cards of an expedition: ``"R4 R6"`` or bare ranks ``"H 4 6"`` (read in ``colour``, or in
    the colour of the other cards, or red).  Colours are not checked here (see
    :func:`expedition_problem`)."""
    tokens = text.replace(",", " ").split()
    coloured = [t for t in tokens if len(t) > 1 and t[0].upper() in COLOURS]
    default = colour or (coloured[0][0].upper() if coloured else "R")
    return tuple(parse_card(t) if t in coloured else parse_card(t, default) for t in tokens)


def score_from_counts(handshakes: int, numbers_sum: int, count: int) -> int:
    """The score of an expedition from its handshakes, sum of numbers and number of cards."""
    if count == 0:
        return 0
    bonus = BONUS if count >= BONUS_CARDS else 0
    return (numbers_sum - EXPEDITION_COST) * (1 + handshakes) + bonus


# --------------------------------------------------------------------------------------------
# Variant


@dataclass(frozen=True, kw_only=True)
class LostCitiesVariant(Variant):
    """Lost Cities' option: the number of matches in a game (1-9, default 3)."""

    game = GAME
    matches: int = option(3, "Matches", "matches in a game; the totals of all matches decide",
                          low=1, high=MAX_MATCHES)


# --------------------------------------------------------------------------------------------
# The view a card-play table shows


def card_face(card: LCCard) -> CardFace:
    return CardFace(card.code, card.label, card.colour_index, COLOUR_NAMES[card.colour],
                    rank=card.rank_code)


def _zone(key: str, label: str, owner: int | None, cards: Sequence[LCCard], *,
          hidden: bool = False, colour: str | None = None) -> CardZone:
    shown = () if hidden else tuple(cards)
    return CardZone(key, label, owner, tuple(c.code for c in shown), len(cards), hidden=hidden,
                    colour=colour, faces=tuple(card_face(c) for c in shown),
                    suit=None if colour is None else COLOURS.index(colour),
                    suit_name="" if colour is None else COLOUR_NAMES[colour])


# --------------------------------------------------------------------------------------------
# Engine


@dataclass(frozen=True)
class MatchResult:
    """One finished match: each player's expedition scores and total."""

    number: int
    expedition_scores: tuple[tuple[int, ...], ...]   # [player][colour]
    totals: tuple[int, ...]


class LostCitiesEngine(Engine):
    """A game of Lost Cities for two players (``matches`` matches, seeded deals).

    Actions are strings: ``play:R4``, ``discard:R4`` (first half of a turn), then
    ``draw:deck`` or ``draw:R`` (the top of the red discard pile).
    """

    game = GAME

    def __init__(self, variant: LostCitiesVariant, players: int,
                 rng: random.Random | int | None) -> None:
        if players != 2:
            raise RulesError(f"lost-cities takes 2 players, not {players}")
        super().__init__(variant, players, rng)
        self.variant: LostCitiesVariant = variant
        self._scores = [0, 0]
        self._over = False
        self.match_results: list[MatchResult] = []
        self.match_number = 0          # 0-based index of the match being played
        self.turns_played = 0          # completed turns in this match
        self._deal(starter=0)

    # -- state ---------------------------------------------------------------------------------

    def _deal(self, starter: int) -> None:
        deck = list(full_deck())
        self.rng.shuffle(deck)
        self._deck: list[LCCard] = deck
        dealt = [[self._deck.pop() for _ in range(HAND_SIZE)] for _ in range(2)]
        self._turned_up(*(card.code for hand in dealt for card in hand))
        self._hands: list[list[LCCard]] = [sorted(hand) for hand in dealt]
        self._expeditions: list[list[list[LCCard]]] = [[[] for _ in COLOURS] for _ in range(2)]
        self._discards: list[list[LCCard]] = [[] for _ in COLOURS]
        self._known: list[list[LCCard]] = [[], []]   # taken from a discard pile, still held
        self._player = starter
        self._phase = PLAY
        self._just_discarded: int | None = None
        self.turns_played = 0

    @property
    def phase(self) -> str:
        """``"play"`` (play or discard a card) or ``"draw"``; ``""`` once the game is over."""
        return "" if self._over else self._phase

    @property
    def deck_left(self) -> int:
        return len(self._deck)

    def hand(self, player: int) -> tuple[LCCard, ...]:
        """A player's hand, sorted (a bot may only read its own)."""
        return tuple(self._hands[player])

    def expedition(self, player: int, colour: str) -> tuple[LCCard, ...]:
        return tuple(self._expeditions[player][COLOURS.index(colour)])

    def discard_pile(self, colour: str) -> tuple[LCCard, ...]:
        """A colour's discard pile, bottom first (the top is last)."""
        return tuple(self._discards[COLOURS.index(colour)])

    def known_in_hand(self, player: int) -> tuple[LCCard, ...]:
        """Cards everyone saw the player take from a discard pile and not yet play: public."""
        return tuple(self._known[player])

    @property
    def just_discarded(self) -> str | None:
        """The colour discarded to this turn (its pile cannot be drawn from now)."""
        return None if self._just_discarded is None else COLOURS[self._just_discarded]

    def public_cards(self) -> tuple[LCCard, ...]:
        """Every face-up card: both sides' expeditions and all discard piles."""
        cards: list[LCCard] = []
        for side in self._expeditions:
            for pile in side:
                cards.extend(pile)
        for pile in self._discards:
            cards.extend(pile)
        return tuple(cards)

    def expedition_scores(self, player: int) -> tuple[int, ...]:
        return tuple(score_expedition(pile).total for pile in self._expeditions[player])

    def match_score(self, player: int) -> int:
        """The player's score in the match being played, if it ended now."""
        return sum(self.expedition_scores(player))

    # -- actions -------------------------------------------------------------------------------

    def can_play(self, player: int, card: LCCard) -> str | None:
        """Why ``card`` cannot go on the player's expedition now, or ``None`` if it can."""
        pile = self._expeditions[player][card.colour_index]
        if not pile:
            return None
        top = pile[-1]
        name = COLOUR_NAMES[card.colour]
        if card.is_handshake and not top.is_handshake:
            return f"a handshake cannot follow a number ({top.code} is on your {name} expedition)"
        if not card.is_handshake and card.rank <= top.rank:
            return f"{card.code} cannot follow {top.code} on your {name} expedition: numbers rise"
        return None

    def legal_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        if self._phase == PLAY:
            hand = sorted(set(self._hands[self._player]))
            plays = [f"{PLAY}:{c.code}" for c in hand if self.can_play(self._player, c) is None]
            return tuple(plays + [f"{DISCARD}:{c.code}" for c in hand])
        draws = [f"{DRAW_FROM}:{DECK}"]
        draws += [f"{DRAW_FROM}:{COLOURS[i]}" for i, pile in enumerate(self._discards)
                  if pile and i != self._just_discarded]
        return tuple(draws)

    def act(self, action: str) -> list[str]:
        if self._over:
            raise IllegalActionError("the game is over")
        verb, sep, what = action.partition(":")
        if not sep or verb not in (PLAY, DISCARD, DRAW_FROM):
            raise IllegalActionError(
                f"unknown action {action!r}: write play:R4, discard:R4, draw:deck or draw:R"
            )
        if self._phase == PLAY and verb == DRAW_FROM:
            raise IllegalActionError("play or discard a card before you draw")
        if self._phase != PLAY and verb != DRAW_FROM:
            raise IllegalActionError("you have played this turn: draw a card now")
        out: list[str] = []
        who = f"Player {self._player + 1}"
        if verb == DRAW_FROM:
            self._draw(what, who, out)
            return out
        try:
            card = parse_card(what)
        except PositionError as exc:
            raise IllegalActionError(str(exc)) from None
        hand = self._hands[self._player]
        if card not in hand:
            raise IllegalActionError(f"{card.code} is not in your hand")
        if verb == PLAY:
            problem = self.can_play(self._player, card)
            if problem:
                raise IllegalActionError(problem)
            self._forget(card)
            hand.remove(card)
            self._expeditions[self._player][card.colour_index].append(card)
            self._just_discarded = None
            self._say(f"{who} plays {card.code} to the {COLOUR_NAMES[card.colour]} expedition.",
                      out)
        else:
            self._forget(card)
            hand.remove(card)
            self._discards[card.colour_index].append(card)
            self._just_discarded = card.colour_index
            self._say(f"{who} discards {card.code}.", out)
        self._phase = DRAW_FROM
        return out

    def _forget(self, card: LCCard) -> None:
        known = self._known[self._player]
        if card in known and (not card.is_handshake
                              or self._hands[self._player].count(card) <= known.count(card)):
            known.remove(card)

    def _draw(self, source: str, who: str, out: list[str]) -> None:
        hand = self._hands[self._player]
        if source.lower() == DECK:
            card = self._deck.pop()
            self._turned_up(card.code)
            self._say(f"{who} draws from the deck ({len(self._deck)} left).", out)
        else:
            try:
                colour = parse_colour(source)
            except PositionError as exc:
                raise IllegalActionError(f"{exc} (or draw:deck)") from None
            index = COLOURS.index(colour)
            if index == self._just_discarded:
                raise IllegalActionError(
                    f"you cannot draw the card you just discarded ({self._discards[index][-1]})"
                )
            if not self._discards[index]:
                raise IllegalActionError(f"the {COLOUR_NAMES[colour]} discard pile is empty")
            card = self._discards[index].pop()
            self._known[self._player].append(card)
            self._say(f"{who} takes {card.code} from the {COLOUR_NAMES[colour]} discard pile.",
                      out)
        hand.append(card)
        hand.sort()
        self.turns_played += 1
        self._just_discarded = None
        self._phase = PLAY
        if not self._deck:
            self._end_match(out)
        else:
            self._player = 1 - self._player

    def _end_match(self, out: list[str]) -> None:
        per_colour = tuple(self.expedition_scores(p) for p in range(2))
        totals = tuple(sum(s) for s in per_colour)
        self.match_results.append(MatchResult(self.match_number + 1, per_colour, totals))
        for p in range(2):
            self._scores[p] += totals[p]
        self._say(
            f"The deck is empty: match {self.match_number + 1} ends {totals[0]} to {totals[1]} "
            f"(game {self._scores[0]} to {self._scores[1]}).", out)
        if self.match_number + 1 >= self.variant.matches:
            self._over = True
            winners = self.winners()
            text = "a tie" if len(winners) == 2 else f"Player {winners[0] + 1} wins"
            self._say(f"Game over after {self.variant.matches} matches: {text}.", out)
            return
        self.match_number += 1
        self._deal(starter=self.match_number % 2)
        self._say(f"Match {self.match_number + 1}: Player {self._player + 1} starts.", out)

    # -- what the table shows -------------------------------------------------------------------

    def action_label(self, action: str) -> str:
        verb, _, what = action.partition(":")
        if verb == DRAW_FROM:
            if what == DECK:
                return "Draw from the deck"
            name = COLOUR_NAMES.get(what, what)
            pile = self._discards[COLOURS.index(what)] if what in COLOURS else []
            return f"Take {pile[-1].code} from the {name} pile" if pile else \
                f"Take the top {name} discard"
        return f"{'Play' if verb == PLAY else 'Discard'} {what}"

    def view(self, viewer: int | None = -1) -> TableView:
        """What the table shows; ``viewer`` is whose hand is face up (default: the player to
        move; ``None``: nobody's, as on a hot-seat table between turns)."""
        shown = self._player if viewer == -1 else viewer
        zones: list[CardZone] = []
        for p in range(2):
            zones.append(_zone(f"hand:{p}", f"Player {p + 1}'s hand", p, self._hands[p],
                               hidden=shown != p))
        for p in range(2):
            for i, colour in enumerate(COLOURS):
                zones.append(_zone(f"expedition:{p}:{colour}",
                                   f"Player {p + 1}'s {COLOUR_NAMES[colour]} expedition", p,
                                   self._expeditions[p][i], colour=colour))
        for i, colour in enumerate(COLOURS):
            zones.append(_zone(f"discard:{colour}", f"{COLOUR_NAMES[colour]} discard pile",
                               None, self._discards[i], colour=colour))
        zones.append(_zone(DECK, "deck", None, self._deck, hidden=True))
        match_lines = tuple(
            (str(self.match_score(p)),) for p in range(2))     # the table's "this match"
        finished = ""
        if self._over:
            winners = self.winners()
            finished = ("A tie" if len(winners) == 2 else f"Player {winners[0] + 1} wins") + \
                f" {self._scores[0]} to {self._scores[1]}."
        return TableView(
            scores=self.scores(),
            current_player=self._player,
            turn_lines=(f"{'Play or discard a card' if self._phase == PLAY else 'Draw a card'}",),
            player_lines=match_lines,
            draw_pile=len(self._deck),
            discard_pile=sum(len(p) for p in self._discards),
            round_text=f"Match {self.match_number + 1} of {self.variant.matches}",
            finished_text=finished,
            zones=tuple(zones),
            viewer=shown,
        )

    def analysis_subjects(self) -> tuple[tuple[str, str], ...]:
        """What the analysis panel can be asked about: one expedition colour each."""
        return tuple((COLOUR_NAMES[c], c) for c in COLOURS)

    def analysis(self, subject: str) -> ExpeditionOdds:
        """The exact odds of the mover's expedition of colour ``subject``, from what the
        mover knows: the same numbers as ``pushluck odds lost-cities`` with
        ``position_flags(subject)``."""
        if self._over:
            raise PositionError("the game is over")
        flags = self.position_flags(subject)
        return expedition_odds(flags["colour"], hand=flags["hand"],
                               expedition=flags["expedition"], seen=flags["seen"],
                               deck_left=int(flags["deck_left"]), phase=self._phase)

    def position_flags(self, subject: str | None = None) -> dict[str, str]:
        """The mover's position as ``pushluck odds lost-cities`` flags for colour ``subject``
        (without one: no ``colour``/``expedition``, and ``seen`` leaves out the mover's own
        expeditions)."""
        me = self._player
        colour = parse_colour(subject) if subject else None
        mine = [] if colour is None else self._expeditions[me][COLOURS.index(colour)]
        hidden_from_seen = Counter(c for pile in self._expeditions[me] for c in pile) \
            if colour is None else Counter(mine)
        seen = list((Counter(self.public_cards()) - hidden_from_seen).elements())
        flags = {"hand": cards_text(self._hands[me]), "seen": cards_text(sorted(seen)),
                 "deck_left": str(len(self._deck))}
        if colour is not None:
            flags = {"colour": colour, **flags, "expedition": cards_text(mine)}
        if self._phase == DRAW_FROM:
            flags["phase"] = DRAW_FROM
        return flags


# --------------------------------------------------------------------------------------------
# Exact expedition odds


def turns_left(deck_left: int, phase: str = PLAY) -> tuple[int, int, int]:
    """``(your turns, your draws in time, the opponent's turns)`` when both draw from the deck.

    At the start of your turn (``phase="play"``) with ``N`` cards: ``ceil(N/2)`` turns for you,
    ``floor(N/2)`` for the opponent, and every draw but your last is in time to be played.
    After your play (``phase="draw"``): your draw now and ``floor((N-1)/2)`` more turns.
    """
    if deck_left < 1:
        raise PositionError("the deck is empty: the match is over")
    if phase == PLAY:
        mine = (deck_left + 1) // 2
        return mine, mine - 1, deck_left // 2
    if phase == DRAW_FROM:
        mine = (deck_left - 1) // 2
        return mine, mine, deck_left // 2
    raise PositionError(f"bad phase {phase!r}: play or draw")


def _schedule(deck_left: int, phase: str) -> str:
    """Your steps left: ``P`` a play, ``D`` a draw in time (the useless last draw left out)."""
    mine, _, _ = turns_left(deck_left, phase)
    return "PD" * (mine - 1) + "P" if phase == PLAY else "DP" * mine


PlanState = tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]]


def _playable(rank: int, top: int) -> bool:
    return rank > top or (rank == HANDSHAKE and top <= HANDSHAKE)


def plan_distribution(*, top: int, handshakes: int, numbers_sum: int, count: int,
                      pending: Sequence[int], available: Sequence[int], pool: int,
                      schedule: str
                      ) -> tuple[dict[int, Fraction], dict[tuple[int, bool], Fraction]]:
    """Run the plan of the module docstring exactly.

    ``top`` is the expedition's top rank (-1 empty, 0 handshakes only); ``pending`` the
    playable ranks you hold; ``available`` the unseen ranks of the colour (handshake 0 repeated);
    ``pool`` the number of unseen cards; ``schedule`` a string of ``P`` (play) and ``D`` (draw).
    Returns the exact score distribution and the probability of playing each ``(rank, drawn)``
    (``drawn``: the card came from the unseen ones, not from your hand).  The masses are kept
    as integers over a common denominator (the product of the pools drawn from so far).
    """
    # A pending card is coded 2 * rank + drawn, so sorting keeps the rank order.
    start: PlanState = (top, handshakes, numbers_sum, count,
                        tuple(sorted(2 * r for r in pending)),
                        tuple(sorted(r for r in available if _playable(r, top))))
    states: dict[PlanState, int] = {start: 1}
    denominator = 1
    played: dict[tuple[int, bool], Fraction] = {}
    draws = 0
    for step in schedule:
        nxt: dict[PlanState, int] = {}
        if step == "P":
            this_step: dict[tuple[int, bool], int] = {}
            for state, mass in states.items():
                _, hs, total, n, pend, avail = state
                if pend:
                    rank, drawn = divmod(pend[0], 2)
                    key = (rank, bool(drawn))
                    this_step[key] = this_step.get(key, 0) + mass
                    if rank == HANDSHAKE:
                        state = (HANDSHAKE, hs + 1, total, n + 1, pend[1:], avail)
                    else:
                        state = (rank, hs, total + rank, n + 1, pend[1:],
                                 avail[bisect.bisect_right(avail, rank):])
                nxt[state] = nxt.get(state, 0) + mass
            for key, mass in this_step.items():
                played[key] = played.get(key, Fraction(0)) + Fraction(mass, denominator)
        else:
            remaining = pool - draws
            if remaining <= 0:
                raise PositionError("more draws than unseen cards: check the deck count")
            for state, mass in states.items():
                top_, hs, total, n, pend, avail = state
                other = remaining - len(avail)
                if other:
                    nxt[state] = nxt.get(state, 0) + mass * other
                for rank, k in Counter(avail).items():
                    i = avail.index(rank)
                    new = (top_, hs, total, n, tuple(sorted(pend + (2 * rank + 1,))),
                           avail[:i] + avail[i + 1:])
                    nxt[new] = nxt.get(new, 0) + mass * k
            denominator *= remaining
            draws += 1
        states = nxt
    scores: dict[int, int] = {}
    for (_, hs, total, n, _, _), mass in states.items():
        score = score_from_counts(hs, total, n)
        scores[score] = scores.get(score, 0) + mass
    return {score: Fraction(mass, denominator) for score, mass in sorted(scores.items())}, played


Moments = tuple[float, float, float, float, float]
_OUT_OF_REACH = 99


class PlanMeans:
    """The plan's *expected* final score, fast, for the bots (floating point).

    The plan's moves depend only on ``(steps left, unseen cards left, top, pending,
    available)``, not on the points already scored, so a backward recursion over those states
    gives the future's added sum ``s``, added handshakes ``h`` and added cards ``c`` through
    ``E[s]``, ``E[h]``, ``E[s h]``, ``P(c = 0)`` and ``P(c >= k)``; the mean score of an
    expedition with ``S, H, C`` already on it is then
    ``E[(S + s - 20)(1 + H + h); C + c > 0] + 20 P(C + c >= 8)`` with ``k = 8 - C``.  Schedules
    alternate and end with a play, so the steps left fix the rest of the schedule: one instance
    remembers its states across positions.
    """

    def __init__(self, max_states: int = 400_000) -> None:
        self.max_states = max_states
        self._memo: dict[tuple[Any, ...], Moments] = {}

    def mean(self, *, top: int, handshakes: int, numbers_sum: int, count: int,
             pending: Sequence[int], available: Sequence[int], pool: int,
             schedule: str) -> float:
        if schedule and (schedule[-1] != "P" or "PP" in schedule or "DD" in schedule):
            raise PositionError(f"a schedule alternates plays and draws and ends with a play: "
                                f"{schedule!r}")
        if len(self._memo) > self.max_states:
            self._memo.clear()
        avail = tuple(sorted(r for r in available if _playable(r, top)))
        es, eh, esh, p_none, p_bonus = self._future(
            max(0, BONUS_CARDS - count), len(schedule), pool, top, tuple(sorted(pending)), avail)
        base = numbers_sum - EXPEDITION_COST
        product = base * (1 + handshakes) + base * eh + (1 + handshakes) * es + esh
        if count == 0:
            product -= p_none * base * (1 + handshakes)
        return product + BONUS * p_bonus

    def _future(self, need: int, steps: int, pool: int, top: int, pend: tuple[int, ...],
                avail: tuple[int, ...]) -> Moments:
        if need > min(len(pend) + len(avail), (steps + 1) // 2):
            need = _OUT_OF_REACH     # the bonus can no longer be reached: merge these states
        key = (need, steps, pool, top, pend, avail)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        result: Moments
        if steps == 0:
            result = (0.0, 0.0, 0.0, 1.0, 1.0 if need <= 0 else 0.0)
        elif steps % 2:                      # a play (odd steps left: P, then D P D ... P)
            if not pend:
                result = self._future(need, steps - 1, pool, top, pend, avail)
            else:
                rank = pend[0]
                if rank == HANDSHAKE:
                    es, eh, esh, _, pb = self._future(max(need - 1, 0), steps - 1, pool,
                                                      HANDSHAKE, pend[1:], avail)
                    result = (es, eh + 1, esh + es, 0.0, pb)
                else:
                    es, eh, esh, _, pb = self._future(
                        max(need - 1, 0), steps - 1, pool, rank, pend[1:],
                        avail[bisect.bisect_right(avail, rank):])
                    result = (es + rank, eh, esh + rank * eh, 0.0, pb)
        else:                                # a draw
            if pool <= 0:
                raise PositionError("more draws than unseen cards: check the deck count")
            es = eh = esh = p_none = p_bonus = 0.0
            other = pool - len(avail)
            if other:
                ps, ph, psh, pn, pb = self._future(need, steps - 1, pool - 1, top, pend, avail)
                w = other / pool
                es, eh, esh, p_none, p_bonus = w * ps, w * ph, w * psh, w * pn, w * pb
            previous = None
            for j, rank in enumerate(avail):
                if rank == previous:
                    continue
                previous = rank
                w = avail.count(rank) / pool
                i = bisect.bisect_right(pend, rank)
                ps, ph, psh, pn, pb = self._future(
                    need, steps - 1, pool - 1, top, pend[:i] + (rank,) + pend[i:],
                    avail[:j] + avail[j + 1:])
                es += w * ps
                eh += w * ph
                esh += w * psh
                p_none += w * pn
                p_bonus += w * pb
            result = (es, eh, esh, p_none, p_bonus)
        self._memo[key] = result
        return result


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
    """The exact odds of one colour's expedition (see the module docstring for the model)."""

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
    """The exact odds of the ``colour`` expedition (module docstring).

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


def _no_turn_model(variant: Variant, **flags: Any) -> Any:
    raise PositionError("lost-cities has no draw/stop turn: its odds are per expedition")


def _plan_values(engine: Engine) -> Mapping[str, float]:
    from pushluck_teach.games import lost_cities_bots  # the bots build on this module

    return lost_cities_bots.plan_values(engine)  # type: ignore[arg-type]


def _bot_factory(name: str) -> Any:
    def make() -> Any:
        from pushluck_teach.games import lost_cities_bots  # the bots build on this module

        return lost_cities_bots.make_bot(name, 0)
    return make


ODDS_FLAGS = (
    Flag("colour", "the expedition's colour: Y B W G R", str, "C"),
    Flag("hand", "your cards (R4 GH B10 ...)", str, "CARDS"),
    Flag("expedition", "your expedition of that colour, in the order played", str, "CARDS"),
    Flag("seen", "every other face-up card of that colour (both sides, discard piles)", str,
         "CARDS"),
    Flag("deck_left", "cards left in the deck", str, "N"),
    Flag("phase", "play (start of your turn, default) or draw (after your play)", str, "PHASE"),
)

SPEC = register(GameSpec(
    name=GAME,
    title="Lost Cities",
    variant_cls=LostCitiesVariant,
    engine_cls=LostCitiesEngine,
    position=_no_turn_model,
    min_players=2,
    max_players=2,
    presets={"standard": LostCitiesVariant(), "one match": LostCitiesVariant(matches=1)},
    blurb="Two players open expeditions: each is a bet of 20 points against the deck's clock.",
    position_flags=ODDS_FLAGS,
    odds=odds_from_flags,
    commands=(GameCommand(
        "score", "score an expedition (Lost Cities): cards in the order played",
        (Flag("expedition", "the expedition's cards, e.g. \"H H 4 5 6 7 8 10\"", str,
              "EXPEDITION", positional=True),),
        score_from_flags),),
    bots={name: _bot_factory(name) for name in ("simple", "odds", "search")},
    example={"colour": "R", "hand": "RH R3 R5 R8 B2 G4 W7 Y9", "deck_left": "30"},
    decision_values=_plan_values,
    decision_model="the odds bot's stated plan model: each colour played in rising order from "
                   "the cards you may still draw, the opponent's plays not modelled",
))
