"""The play engine of a built game (:class:`CustomEngine`): 1-6 players, a real shuffled deck
or a die, each turn following the rule set card by card."""

from __future__ import annotations

import random
from typing import Any

from pushluck_teach.cards import Card
from pushluck_teach.games.base import (
    DRAW,
    STOP,
    Engine,
    IllegalActionError,
    RulesError,
    TableView,
    TurnRecord,
)
from pushluck_teach.games.custom.position import _replay, start_state
from pushluck_teach.games.custom.rules import GAME, RuleSet, compile_rules
from pushluck_teach.games.custom.turn import CustomState, CustomTurnModel

# --------------------------------------------------------------------------------------------
# Engine


class CustomEngine(Engine):
    """A whole built game for 1-6 players with a real shuffled deck or a die.

    A turn follows the rule set card by card (independently of the turn model's classes).  A
    score of ``target`` or more on banking triggers the final round (every player below the
    target gets one more turn); the highest score wins and equal scores share the win."""

    game = GAME

    def __init__(self, variant: RuleSet, players: int, rng: random.Random | int | None) -> None:
        super().__init__(variant, players, rng)
        if not 1 <= players <= 6:
            raise RulesError(f"custom games take 1-6 players, not {players}")
        self.rules: RuleSet = variant
        self._scores = [0] * players
        self._allies: list[list[Card]] = [[] for _ in range(players)]
        self._player = 0
        self._over = False
        self._final: list[int] | None = None
        self.pile: list[Card] = []
        self.discard: list[Card] = []
        if not variant.dice and not variant.reshuffle_each_turn:
            self.pile = list(variant.deck_cards())
            self.rng.shuffle(self.pile)
        self._begin_turn()

    # ---- turn ------------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        rules = self.rules
        self.haul: list[Any] = []  # cards (or die faces) in the haul, in order
        self.cancelled: list[Any] = []
        self.ally_drawn: list[Card] = []
        self.total = 0
        self.started = False
        if rules.dice:
            self.turn_pile: tuple[Card, ...] = ()
            return
        if rules.reshuffle_each_turn:
            held = [c for allies in self._allies for c in allies]
            pile = list(rules.deck_cards())
            for card in held:
                pile.remove(card)
            self.pile, self.discard = pile, []
            self.rng.shuffle(self.pile)
        elif not self.pile:
            self.pile, self.discard = self.discard, []
            self.rng.shuffle(self.pile)
        self.turn_pile = tuple(self.pile)
        self.turn_allies = tuple(self._allies[self._player])  # held when the turn began
        self.allies_at_start = len(self.turn_allies)

    def legal_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        stop = self.started and self.total >= self.rules.bank_minimum
        if not self.rules.dice and not self.pile:
            return (STOP,) if stop else ()
        return (DRAW, STOP) if stop else (DRAW,)

    def _card_busts(self, rank: str, suit: str, value: int) -> str:
        """Why drawing this card busts now (empty: it does not)."""
        rules = self.rules
        if not self.started and rules.first_draw_safe:
            return ""
        kept = [(c.rank, c.suit) if isinstance(c, Card) else (str(c), "") for c in self.haul]
        for rule in rules.bust_counts:
            if not rule.kind.holds(rank, suit):
                continue
            same = [x for x in kept if rule.kind.holds(*x)
                    and (not rule.per_rank or x[0] == rank)]
            if len(same) + 1 >= rule.n:
                return "a bust card" if rule.n == 1 else f"card number {rule.n} of its kind"
        new = self.total + value
        if rules.bust_over is not None and new > rules.bust_over:
            return f"the total {new} goes over {rules.bust_over}"
        if rules.bust_ending is not None and new % 10 == rules.bust_ending:
            return f"the total {new} ends in {rules.bust_ending}"
        return ""

    def act(self, action: str) -> list[str]:
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(
                f"{action!r} is not legal now (legal: {', '.join(legal) or 'none'})")
        out: list[str] = []
        me = f"Player {self._player + 1}"
        rules = self.rules
        if action == STOP:
            banked = self.total + (rules.bonus if self.total == rules.bonus_total else 0)
            self._scores[self._player] += banked
            self._say(f"{me} banks {banked}: score {self._scores[self._player]}.", out)
            self._end_turn(banked, False, out)
            return out
        if rules.dice:
            face = str(self.rng.randint(1, rules.dice))
            self._turned_up(face)
            rank, suit, item, label = face, "", face, f"rolls {face}"
        else:
            card = self.pile.pop()
            self._turned_up(card.code)
            rank, suit, item, label = card.rank, card.suit, card, f"draws {card.label}"
        value = rules.value_of(rank)
        if rules.is_ally(rank, suit):
            self._allies[self._player].append(item)
            self.ally_drawn.append(item)
            self.started = True
            self._say(f"{me} {label}: an ally.", out)
            return self._pile_out(out)
        why = self._card_busts(rank, suit, value)
        if why:
            if self._allies[self._player]:
                ally = self._allies[self._player].pop()
                self.cancelled.append(item)
                self.discard.extend([ally, item])
                self.started = True
                self._say(f"{me} {label}: {why}, but an ally cancels the bust.", out)
                return self._pile_out(out)
            self._say(f"{me} {label}: {why}, bust!", out)
            self.haul.append(item)
            self._scores[self._player] -= rules.bust_penalty
            self._end_turn(-rules.bust_penalty, True, out)
            return out
        self.haul.append(item)
        self.total += value
        self.started = True
        self._say(f"{me} {label}: turn total {self.total}.", out)
        return self._pile_out(out)

    def _pile_out(self, out: list[str]) -> list[str]:
        """The pile ran out and the turn may not bank: it ends with nothing."""
        if not self.rules.dice and not self.pile and not self.legal_actions():
            self._say(f"Player {self._player + 1}: the pile ran out, the turn ends with "
                      "nothing.", out)
            self._end_turn(0, False, out)
        return out

    def _end_turn(self, result: int, busted: bool, out: list[str]) -> None:
        player = self._player
        cards = tuple(c for c in (*self.haul, *self.cancelled) if isinstance(c, Card))
        self.turn_records.append(TurnRecord(player, result, busted, cards,
                                            note=" ".join(str(c) for c in self.haul)))
        if not self.rules.dice:
            self.discard.extend(c for c in self.haul if isinstance(c, Card))
            if not self.rules.allies_persist:
                self.discard.extend(self._allies[player])
                self._allies[player] = []
        target = self.rules.target
        if self._final is None and self._scores[player] >= target:
            order = [(player + k) % self.players for k in range(1, self.players)]
            self._final = [p for p in order if self._scores[p] < target]
            self._say(f"Player {player + 1} reaches {target}: final round.", out)
        elif self._final is not None and self._final and self._final[0] == player:
            self._final.pop(0)
        if self._final is not None and not self._final:
            self._over = True
            names = " and ".join(f"Player {w + 1}" for w in self.winners())
            self._say(f"{names} {'share the win' if len(self.winners()) > 1 else 'wins'}.", out)
            return
        self._player = self._final[0] if self._final else (player + 1) % self.players
        self._begin_turn()

    # ---- accessors ---------------------------------------------------------------------------
    def card_locations(self) -> dict[str, tuple[Card, ...]]:
        """The draw pile, this turn's haul, every player's allies and the discard pile (a dice
        game has no cards)."""
        if self.rules.dice:
            return {}
        return {"draw pile": tuple(self.pile),
                # the last turn's haul went to the discard pile when the game ended
                "haul": () if self._over else tuple(c for c in self.haul if isinstance(c, Card)),
                "allies": tuple(c for allies in self._allies for c in allies),
                "discard pile": tuple(self.discard)}

    def turn_position(self) -> tuple[CustomTurnModel, CustomState]:
        """The mover's turn: the pile at the turn start, the allies held then, this turn's
        draws replayed in order.  The model is the turn's (its ``start`` is the turn start), so
        every decision of a turn shares one model and one cached solver."""
        rules = self.rules
        layout = compile_rules(rules)
        allies0 = 0 if rules.dice else self.allies_at_start
        if rules.dice:
            pile: list[int] = []
        else:
            pile = [0] * len(layout.classes)
            for card in self.turn_pile:
                pile[layout.class_of[card.code]] += 1
        state = start_state(rules, pile, allies0)
        model = CustomTurnModel(rules, state)
        for item in self._draw_order():
            state = _replay(model, state, layout.class_of[str(item)], str(item), ())
        return model, state

    def _draw_order(self) -> list[Any]:
        return list(self._drawn)

    @property
    def _drawn(self) -> list[Any]:
        pile = self.turn_pile
        if self.rules.dice:
            return list(self.haul)
        taken = len(pile) - len(self.pile)
        return list(reversed(pile[len(pile) - taken:]))

    def view(self) -> TableView:
        rules = self.rules
        lines = tuple((f"score {s}",) + ((f"{len(a)} allies",) if rules.allies else ())
                      for s, a in zip(self._scores, self._allies, strict=True))
        finished = ""
        if self._over:
            finished = ", ".join(f"Player {w + 1}" for w in self.winners()) + " won."
        return TableView(
            scores=self.scores(), current_player=self._player,
            turn_cards=tuple(c for c in self.haul if isinstance(c, Card)),
            turn_dice=tuple(int(c) for c in self.haul) if rules.dice else (),
            turn_total=self.total,
            turn_lines=(f"This turn: {' '.join(str(c) for c in self.haul) or 'nothing yet'}",),
            player_lines=lines,
            draw_pile=None if rules.dice else len(self.pile),
            discard_pile=None if rules.dice else len(self.discard),
            round_text=f"First to {rules.target} triggers the final round",
            finished_text=finished,
        )

    def position_flags(self) -> dict[str, str]:
        flags: dict[str, str] = {}
        drawn = self._drawn
        if drawn:
            flags["drawn"] = " ".join(str(c) for c in drawn)
        if not self.rules.dice and not self.rules.reshuffle_each_turn:
            full = list(self.rules.deck_cards())
            for card in self.turn_pile:
                full.remove(card)
            held = list(self.turn_allies)
            for card in held:
                full.remove(card)
            if full:
                flags["removed"] = " ".join(c.code for c in full)
            if held:
                flags["allies"] = str(len(held))
        elif self.rules.allies and self.allies_at_start:
            flags["allies"] = str(self.allies_at_start)
        return flags
