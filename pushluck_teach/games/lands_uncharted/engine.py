"""Lands Uncharted's play engine: a whole game with a real shuffled deck
(:class:`LandsUnchartedEngine`)."""

from __future__ import annotations

import random

from pushluck_teach.cards import Card, standard_cards
from pushluck_teach.games.base import DRAW, STOP, Engine, RulesError, TableView, TurnRecord
from pushluck_teach.games.lands_uncharted.rules import (
    BURIED_BONUS,
    BURIED_TOTAL,
    DECLARE,
    DIAMOND,
    FREE,
    GAME,
    HEART1,
    HEART2,
    SOLO_TURNS,
    START,
    LandsUnchartedVariant,
    card_class,
)
from pushluck_teach.games.lands_uncharted.state import LUState, pack_counts
from pushluck_teach.games.lands_uncharted.turn import LandsUnchartedTurnModel


class LandsUnchartedEngine(Engine):
    """A whole game of Lands Uncharted with a real shuffled deck (rules: :mod:`.rules`).

    Player 1 (index 0) starts every round.  ``turn_records[i].result`` is the change of score of
    the turn: the treasure banked (+5 buried treasure), 0 on a bust, and on a declared
    double-or-nothing turn the bank or the drop to 80.
    """

    game = GAME

    def __init__(self, variant: LandsUnchartedVariant, players: int,
                 rng: random.Random | int | None) -> None:
        super().__init__(variant, players, rng)
        self.variant: LandsUnchartedVariant = variant
        if not 1 <= players <= 4:
            raise RulesError(f"{GAME} takes 1-4 players, not {players}")
        if variant.solo and players != 1:
            raise RulesError(f"solo mode is for exactly 1 player, not {players}")
        self._suits = variant.cursed_suits
        deck = list(standard_cards())
        self.rng.shuffle(deck)
        self.draw_pile: list[Card] = deck  # the top card is the last one
        self.discard_pile: list[Card] = []
        self.allies: list[list[Card]] = [[] for _ in range(players)]
        self._scores = [0] * players
        self.banks = [0] * players
        self.turns_taken = [0] * players
        self.round = 1
        self.final_round_by: int | None = None
        self._player = 0
        self._over = False
        self._winners: tuple[int, ...] = ()
        self._finish_text = ""
        self._new_turn()

    # ---- turn state ------------------------------------------------------------------------
    def _new_turn(self) -> None:
        self.turn_cards: list[Card] = []
        self.haul: list[Card] = []
        self.threat: Card | None = None
        self.phase = START
        self.declared = False
        self._model: LandsUnchartedTurnModel | None = None
        self._turn_start = self._raw_state()
        # What the player knows at the start of the turn, as `pushluck odds` flags.
        self._turn_start_outside = tuple(self.discard_pile) + tuple(
            card for p, area in enumerate(self.allies) if p != self._player for card in area
        )
        self._turn_start_allies = len(self.allies[self._player])
        self._turn_start_elsewhere = len(self._turn_start_outside) - len(self.discard_pile)

    def _raw_state(self) -> LUState:
        mask = 0
        for card in self.haul:
            if not card.is_face:
                mask |= 1 << (card.rank_index - 1)
        threat = card_class(self.threat, self._suits) if self.threat else 0
        pile = pack_counts(self.draw_pile, self._suits)
        return (pile, mask, threat, len(self.allies[self._player]), self.phase,
                int(self.declared))

    @property
    def treasure(self) -> int:
        return sum(c.rank_index for c in self.haul if not c.is_face)

    def winners(self) -> tuple[int, ...]:
        return self._winners

    def legal_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        if self.phase == START:
            if not self.declared and self.variant.may_declare(self._scores[self._player]):
                return (DRAW, DECLARE)
            return (DRAW,)
        if self.phase != FREE:
            return (DRAW,)
        if self.declared and self._scores[self._player] + self.treasure != self.variant.target:
            return (DRAW,)
        return (DRAW, STOP)

    def action_label(self, action: str) -> str:
        return {DRAW: "Draw", STOP: "Bank", DECLARE: "Declare double or nothing"}.get(
            action, action
        )

    # ---- actions ---------------------------------------------------------------------------
    def act(self, action: str) -> list[str]:
        self._check_legal(action)
        out: list[str] = []
        who = f"Player {self._player + 1}"
        if action == DECLARE:
            self.declared = True
            v = self.variant
            self._say(f"{who} declares double or nothing: bank only at exactly {v.target}; "
                      f"a bust sets the score to {v.double_or_nothing_reset}.", out)
        elif action == STOP:
            self._bank(out)
        else:
            self._draw(out)
        return out

    def _draw(self, out: list[str]) -> None:
        who = f"Player {self._player + 1}"
        if not self.draw_pile:
            self.draw_pile = self.discard_pile
            self.discard_pile = []
            self.rng.shuffle(self.draw_pile)
            self._say(f"The draw pile is empty: the discard pile ({len(self.draw_pile)} cards) "
                      "is shuffled into a new draw pile.", out)
        card = self.draw_pile.pop()
        self._turned_up(card.code)
        self.turn_cards.append(card)
        phase_before = self.phase
        if phase_before == HEART2:
            self.phase = HEART1
        elif phase_before == DIAMOND:
            self.phase = FREE if card.rank in ("9", "T") else DIAMOND
        else:
            self.phase = FREE
        cursed = card.rank == "Q" and card.suit in self._suits
        if card.rank == "A":
            self.allies[self._player].append(card)
            self._say(f"{who} draws {card.label}: an ally joins "
                      f"({len(self.allies[self._player])} held).", out)
        elif card.is_face:
            if cursed and card.suit == "c":
                self._bust(card, "the cursed Q♣ strikes", out)
            elif self.threat is not None:
                self._bust(card, f"a second threat after {self.threat.label}", out)
            else:
                self.threat = card
                self.haul.append(card)
                self._say(f"{who} draws {card.label}: a threat.", out)
                if cursed:
                    self._curse(card, out)
        else:
            rank = card.rank_index
            if any(c.rank_index == rank for c in self.haul):
                self._bust(card, f"a second {card.label[:-1]}", out)
            elif (self.declared
                  and self._scores[self._player] + self.treasure + rank > self.variant.target):
                self._bust(card, f"the haul would pass {self.variant.target}", out)
            else:
                self.haul.append(card)
                self._say(f"{who} draws {card.label}: treasure {self.treasure}.", out)

    def _curse(self, queen: Card, out: list[str]) -> None:
        if queen.suit == "s":
            numbers = [c for c in self.haul if not c.is_face]
            if numbers:
                top = max(numbers, key=lambda c: c.rank_index)
                self.haul.remove(top)
                self.discard_pile.append(top)
                self._say(f"The cursed Q♠ discards {top.label}, the highest number in the haul: "
                          f"treasure {self.treasure}.", out)
        elif queen.suit == "h":
            self.phase = HEART2
            self._say("The cursed Q♥ forces two more draws.", out)
        elif queen.suit == "d":
            self.phase = DIAMOND
            self._say("The cursed Q♦ forces draws until a 9 or 10.", out)

    def _bust(self, card: Card, why: str, out: list[str]) -> None:
        who = f"Player {self._player + 1}"
        allies = self.allies[self._player]
        if allies:
            ally = allies.pop()
            self.discard_pile.extend((ally, card))
            self._say(f"{who} draws {card.label}: bust ({why}) — an ally steps in: "
                      f"{ally.label} and {card.label} are discarded and the turn goes on.", out)
            return
        player = self._player
        if self.declared:
            reset = self.variant.double_or_nothing_reset
            change = reset - self._scores[player]
            self._scores[player] = reset
            self._say(f"{who} draws {card.label}: bust ({why})! Double or nothing fails: "
                      f"the score falls to {reset}.", out)
        else:
            change = 0
            self._say(f"{who} draws {card.label}: bust ({why})! "
                      f"The haul of {self.treasure} is lost.", out)
        self.discard_pile.append(card)
        self._end_turn(change, True, out)

    def _bank(self, out: list[str]) -> None:
        player = self._player
        treasure = self.treasure
        gain = treasure
        extra = ""
        if self.variant.buried_treasure and treasure == BURIED_TOTAL:
            gain += BURIED_BONUS
            extra = f" (+{BURIED_BONUS} buried treasure)"
        self._scores[player] += gain
        self.banks[player] += 1
        self._say(f"Player {player + 1} banks {treasure}{extra}: score {self._scores[player]}.",
                  out)
        self._end_turn(gain, False, out)

    def _end_turn(self, change: int, busted: bool, out: list[str]) -> None:
        player = self._player
        self.discard_pile.extend(self.haul)
        if not self.variant.allies_persist and self.allies[player]:
            self.discard_pile.extend(self.allies[player])
            self._say(f"Player {player + 1}'s unused allies leave.", out)
            self.allies[player] = []
        note = "declared double or nothing" if self.declared else ""
        self.turn_records.append(
            TurnRecord(player, change, busted, tuple(self.turn_cards), note)
        )
        self.turns_taken[player] += 1
        v = self.variant
        if v.solo:
            if self.turns_taken[player] >= SOLO_TURNS:
                self._finish(out)
                return
        elif not busted and self._scores[player] >= v.target and self.final_round_by is None:
            self.final_round_by = player
            if player < self.players - 1:
                self._say(f"Player {player + 1} reaches {v.target}: the others finish the "
                          "round.", out)
        if not v.solo and self.final_round_by is not None and player == self.players - 1:
            self._finish(out)
            return
        self._player = (player + 1) % self.players
        if self._player == 0:
            self.round += 1
        self._new_turn()

    def _finish(self, out: list[str]) -> None:
        self._over = True
        self._new_turn()
        scores = self._scores
        if self.variant.solo:
            self._winners = (0,)
            self._finish_text = (f"Solo game over: {scores[0]} in {SOLO_TURNS} turns — "
                                 "the score to beat.")
            self._say(self._finish_text, out)
            return
        best = max(scores)
        top = [p for p in range(self.players) if scores[p] == best]
        fewest = min(self.banks[p] for p in top)
        winners = tuple(p for p in top if self.banks[p] == fewest)
        self._winners = winners
        names = " and ".join(f"Player {p + 1}" for p in winners)
        if len(top) == 1:
            text = f"Player {winners[0] + 1} wins with {best}."
        elif len(winners) == 1:
            others = ", ".join(f"Player {p + 1} ({self.banks[p]} banks)"
                               for p in top if p != winners[0])
            text = (f"Player {winners[0] + 1} wins the tie on {best} by banking fewest times "
                    f"({fewest} banks, against {others}).")
        else:
            text = (f"{names} share the win: {best} each, banked {fewest} times each "
                    "(the tie-break on fewest banks does not separate them).")
        self._finish_text = text
        self._say(text, out)

    # ---- what the table shows, and the turn for the solver ---------------------------------
    def view(self) -> TableView:
        lines = []
        haul = " ".join(c.label for c in self.haul) or "empty"
        lines.append(f"Haul: {haul} (treasure {self.treasure})")
        lines.append(f"Allies held: {len(self.allies[self._player])}")
        if self.phase in (HEART2, HEART1):
            lines.append(f"Q♥: {4 - self.phase} forced draw(s) left")
        elif self.phase == DIAMOND:
            lines.append("Q♦: forced draws until a 9 or 10")
        if self.declared:
            lines.append(f"Double or nothing: bank only at exactly {self.variant.target}")
        if self.variant.solo:
            turn = min(self.turns_taken[0] + 1, SOLO_TURNS)
            round_text = f"Solo: turn {turn} of {SOLO_TURNS}"
        elif self.final_round_by is not None:
            round_text = (f"Final round: Player {self.final_round_by + 1} reached "
                          f"{self.variant.target}")
        else:
            round_text = f"Round {self.round} — first to {self.variant.target} ends the game"
        return TableView(
            scores=self.scores(),
            current_player=self._player,
            turn_cards=tuple(self.turn_cards),
            turn_total=self.treasure,
            turn_lines=tuple(lines),
            player_lines=tuple(
                (f"{len(self.allies[p])} allies held", f"{self.banks[p]} banks")
                for p in range(self.players)
            ),
            draw_pile=len(self.draw_pile),
            discard_pile=len(self.discard_pile),
            round_text=round_text,
            finished_text=self._finish_text,
        )

    def position_flags(self) -> dict[str, str]:
        """This turn as `pushluck odds` flags: the turn's cards, the cards out of the draw pile
        at the turn's start (discard pile and other players' allies), the allies held then, and
        the score on a declared double-or-nothing turn.  The command treats every removed card
        but the ``allies_elsewhere`` aces as the discard pile, as the table does."""
        flags: dict[str, str] = {}
        if self.turn_cards:
            flags["drawn"] = " ".join(card.code for card in self.turn_cards)
        if self._turn_start_outside:
            flags["removed"] = " ".join(card.code for card in self._turn_start_outside)
        if self._turn_start_allies:
            flags["allies"] = str(self._turn_start_allies)
        if self._turn_start_elsewhere:
            flags["allies_elsewhere"] = str(self._turn_start_elsewhere)
        if self.declared:
            flags["score"] = str(self._scores[self._player])
        return flags

    def card_locations(self) -> dict[str, tuple[Card, ...]]:
        """The draw pile, the discard pile, every player's allies and this turn's haul."""
        return {
            "draw pile": tuple(self.draw_pile),
            "discard pile": tuple(self.discard_pile),
            "allies": tuple(card for area in self.allies for card in area),
            "haul": tuple(self.haul),
        }

    def turn_position(self) -> tuple[LandsUnchartedTurnModel, LUState]:
        if self._over:
            raise RulesError("the game is over: there is no turn to analyse")
        if self._model is None:
            score = self._scores[self._player]
            relevant = self.declared or self.variant.may_declare(score)
            elsewhere = sum(len(a) for p, a in enumerate(self.allies) if p != self._player)
            self._model, _ = LandsUnchartedTurnModel.build(
                self.variant, self._turn_start, aces_elsewhere=elsewhere,
                score=score if relevant else None,
            )
        model = self._model
        pile, mask, threat, allies, phase, declared = self._raw_state()
        return model, model.make_state(pile, mask, threat, allies, phase, bool(declared))
