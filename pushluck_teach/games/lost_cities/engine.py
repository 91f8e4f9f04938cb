"""Lost Cities' play engine: two players, ``matches`` seeded deals, and the view a card-play
table shows (part of the Lost Cities game, :mod:`pushluck_teach.games.lost_cities`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pushluck_teach.games.base import (
    CardFace,
    CardZone,
    Engine,
    IllegalActionError,
    PositionError,
    RulesError,
    TableView,
)
from pushluck_teach.games.lost_cities.odds import ExpeditionOdds, expedition_odds
from pushluck_teach.games.lost_cities.rules import (
    COLOUR_NAMES,
    COLOURS,
    DECK,
    DISCARD,
    DRAW_FROM,
    GAME,
    HAND_SIZE,
    PLAY,
    LCCard,
    LostCitiesVariant,
    cards_text,
    full_deck,
    parse_card,
    parse_colour,
    score_expedition,
)

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
