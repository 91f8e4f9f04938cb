r"""Incan Gold's play engine: a whole game for 1-8 explorers (1 = solo), its table view and
the positions it hands the solver and the bots.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from pushluck_teach.cards import Card
from pushluck_teach.games.base import (
    DRAW,
    STOP,
    Engine,
    PositionError,
    TableView,
    TurnRecord,
)
from pushluck_teach.games.incan_gold.rules import (
    ARTIFACT_VALUES,
    FULL_RING,
    FULL_TREASURES,
    GAME,
    GEMS,
    ROUNDS_MAX,
    IncanGoldVariant,
    RoundDeck,
    artifact_card,
    card_value,
    classify,
    springs,
)
from pushluck_teach.games.incan_gold.turn import IGState, IncanGoldTurnModel


def _names(cards: Iterable[Card]) -> str:
    return " ".join(c.label for c in cards) or "none"


class IncanGoldEngine(Engine):
    """A whole game of Incan Gold for 1-8 explorers (1 = solo).

    ``deck`` is the round's face-down deck, next card first (tests may arrange it).  Phases:
    ``"enter"`` (seat 0 flips the first card with ``draw``), ``"decide"`` (each explorer inside,
    in seat order, chooses ``draw`` = stay or ``stop`` = leave; hidden until all have chosen),
    ``"over"``.
    """

    game = GAME

    def __init__(self, variant: IncanGoldVariant, players: int,
                 rng: random.Random | int | None) -> None:
        super().__init__(variant, players, rng)
        self.variant: IncanGoldVariant = variant
        self.round_no = 0
        self.traps_in_game = FULL_RING
        self.artifacts_in_game: list[int] = []  # indices added to the game and not yet flipped
        self.removed: list[Card] = []
        self.banked = [0] * players
        self.artifacts_taken: list[list[Card]] = [[] for _ in range(players)]
        self.deck: list[Card] = []
        self.flipped: list[Card] = []
        self.inside = [False] * players
        self.carried = [0] * players
        self.path_gems = 0
        self.path_artifacts: list[Card] = []
        self.decisions: dict[int, str] = {}
        self.phase = "enter"
        self.round_deck = RoundDeck()
        self._start_round([])

    # ---- state ------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == "decide":
            return next(p for p in range(self.players)
                        if self.inside[p] and p not in self.decisions)
        return 0

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self) -> tuple[str, ...]:
        if self.phase == "enter":
            return (DRAW,)
        if self.phase == "decide":
            return (DRAW, STOP)
        return ()

    def scores(self) -> tuple[int, ...]:
        return tuple(self.banked[p] + sum(card_value(c) for c in self.artifacts_taken[p])
                     for p in range(self.players))

    def winners(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        scores = self.scores()
        best = max(scores)
        tied = [p for p in range(self.players) if scores[p] == best]
        if self.variant.tie_break == "artifacts" and len(tied) > 1:
            most = max(len(self.artifacts_taken[p]) for p in tied)
            tied = [p for p in tied if len(self.artifacts_taken[p]) == most]
        return tuple(tied)

    # ---- rounds -----------------------------------------------------------------------
    def _start_round(self, out: list[str]) -> None:
        self.round_no += 1
        self.artifacts_in_game.append(self.round_no - 1)
        self.round_deck = RoundDeck(self.traps_in_game, FULL_TREASURES,
                                    tuple(sorted(self.artifacts_in_game)))
        self.deck = list(self.round_deck.cards())
        self.rng.shuffle(self.deck)
        self.flipped = []
        self.inside = [True] * self.players
        self.carried = [0] * self.players
        self.path_gems = 0
        self.path_artifacts = []
        self.decisions = {}
        self.phase = "enter"
        self._say(f"Round {self.round_no} of {self.variant.rounds}: the deck holds "
                  f"{len(self.deck)} cards ({self.round_deck.describe()}).", out)

    def _end_round(self, out: list[str]) -> None:
        for card in self.flipped:
            kind, index = classify(card)
            if kind == "artifact":
                self.artifacts_in_game.remove(index)
                self.removed.append(card)
        self.inside = [False] * self.players
        if self.round_no >= self.variant.rounds:
            self.phase = "over"
            scores = ", ".join(f"Player {p + 1} {s}" for p, s in enumerate(self.scores()))
            self._say(f"Game over: {scores}. {self._winner_text()}", out)
        else:
            self._start_round(out)

    def _winner_text(self) -> str:
        won = self.winners()
        names = " and ".join(f"Player {p + 1}" for p in won)
        return f"{names} {'wins' if len(won) == 1 else 'share the win'}."

    def _record(self, player: int, result: int, busted: bool, note: str) -> None:
        self.turn_records.append(TurnRecord(player, result, busted, tuple(self.flipped), note))

    # ---- actions ----------------------------------------------------------------------
    def act(self, action: str) -> list[str]:
        self._check_legal(action)
        out: list[str] = []
        if self.phase == "enter":
            self._say(f"The explorers enter the temple (round {self.round_no}).", out)
            self._flip(out)
            return out
        player = self.current_player
        self.decisions[player] = action
        self._say(f"Player {player + 1} has decided.", out)
        if all(self.decisions.get(p) for p in range(self.players) if self.inside[p]):
            self._reveal(out)
        return out

    def _reveal(self, out: list[str]) -> None:
        choices = ", ".join(
            f"Player {p + 1} {'stays' if a == DRAW else 'leaves'}"
            for p, a in sorted(self.decisions.items())
        )
        self._say(f"Decisions revealed: {choices}.", out)
        leavers = [p for p, a in sorted(self.decisions.items()) if a == STOP]
        self.decisions = {}
        self._leave(leavers, out)
        if any(self.inside):
            self._flip(out)
        else:
            self._say("Nobody is inside: the round ends.", out)
            self._end_round(out)

    def _leave(self, leavers: list[int], out: list[str]) -> None:
        if not leavers:
            return
        share, self.path_gems = divmod(self.path_gems, len(leavers))
        taken: list[Card] = []
        if len(leavers) == 1 and self.path_artifacts:
            taken, self.path_artifacts = self.path_artifacts, []
        for p in leavers:
            gems = self.carried[p] + share
            self.banked[p] += gems
            self.artifacts_taken[p].extend(taken)
            extra = f" and takes {_names(taken)}" if taken else ""
            self._say(f"Player {p + 1} leaves with {gems} gems ({self.carried[p]} carried + "
                      f"{share} from the path){extra}: banked {self.banked[p]}.", out)
            self.carried[p] = 0
            self.inside[p] = False
            value = gems + sum(card_value(c) for c in taken)
            self._record(p, value, False, f"left with {gems} gems" + extra)

    def _flip(self, out: list[str]) -> None:
        card = self.deck.pop(0)
        self._turned_up(card.code)
        inside = [p for p in range(self.players) if self.inside[p]]
        kind, index = classify(card)
        flipped_traps = [classify(c)[1] for c in self.flipped if classify(c)[0] == "trap"]
        self.flipped.append(card)
        if kind == "treasure":
            share, rem = divmod(GEMS[index], len(inside))
            for p in inside:
                self.carried[p] += share
            self.path_gems += rem
            self._say(f"Flip {card.label}: {GEMS[index]} gems, {share} to each of {len(inside)} "
                      f"inside, {rem} to the path (path {self.path_gems}).", out)
        elif kind == "artifact":
            self.path_artifacts.append(card)
            self._say(f"Flip {card.label}: an artifact worth {ARTIFACT_VALUES[index]} is left "
                      f"on the path.", out)
        elif springs(index, flipped_traps):
            self._say(f"Flip {card.label}: the trap springs! Everyone inside loses what they "
                      f"carry.", out)
            for p in inside:
                self._record(p, 0, True, f"caught by {card.label}, lost {self.carried[p]}")
                self.carried[p] = 0
            if self.variant.remove_sprung_trap:
                self.traps_in_game &= ~(1 << (index - 1))
                self.removed.append(card)
                self._say(f"{card.label} leaves the game.", out)
            self._end_round(out)
            return
        else:
            self._say(f"Flip {card.label}: a trap, but nothing happens yet.", out)
        if not self.deck:
            self._say("The deck is exhausted: everyone inside walks out together.", out)
            self._leave(inside, out)
            self._end_round(out)
            return
        self.phase = "decide"

    # ---- views ------------------------------------------------------------------------
    def take(self, player: int) -> int:
        """What ``player`` would bank leaving alone now."""
        return (self.carried[player] + self.path_gems
                + sum(card_value(c) for c in self.path_artifacts))

    def position_flags(self) -> dict[str, str]:
        """This round as `pushluck odds` flags: the cards flipped, the cards out of the game
        from earlier rounds, the round and, once cards are flipped, the round's state as it is:
        the gems the decider carries, the gems and artifact value left on the path.  Alone (or
        without ``others``) this is :meth:`turn_position`'s solo model; the table adds the
        other explorers still inside (:meth:`others_in_turn`) with their thresholds."""
        flags = {"round": str(self.round_no)}
        if self.flipped:
            flags["drawn"] = " ".join(card.code for card in self.flipped)
        if self.removed:
            flags["removed"] = " ".join(card.code for card in self.removed)
        if self.phase == "decide" and self.flipped:
            flags["carried"] = str(self.carried[self.current_player])
            flags["path"] = str(self.path_gems)
            flags["artifacts"] = str(sum(card_value(c) for c in self.path_artifacts))
        return flags

    def card_locations(self) -> dict[str, tuple[Card, ...]]:
        """The round's deck, the path (cards flipped this round; artifacts still lying there),
        the artifacts taken, the cards out of the game (sprung traps, artifacts lost with a
        round) and the artifacts of rounds to come."""
        taken = tuple(card for cards in self.artifacts_taken for card in cards)
        on_path = tuple(self.path_artifacts)
        path = tuple(c for c in self.flipped
                     if classify(c)[0] != "artifact" and c not in self.removed) + on_path
        out = tuple(c for c in self.removed
                    if classify(c)[0] != "artifact" or (c not in taken and c not in on_path))
        to_come = tuple(artifact_card(i) for i in range(self.round_no, ROUNDS_MAX))
        return {"deck": tuple(self.deck), "path": path, "taken": taken,
                "out of the game": out, "artifacts to come": to_come}

    def others_in_turn(self) -> tuple[int, ...]:
        """The other explorers in this round with the decider (their choices share its gems):
        at a decision those still inside; at the entrance every other explorer (all enter)."""
        if self.phase == "enter":
            return tuple(range(1, self.players))
        if self.phase != "decide":
            return ()
        me = self.current_player
        return tuple(p for p in range(self.players) if self.inside[p] and p != me)

    def turn_position(self) -> tuple[IncanGoldTurnModel, IGState]:
        """The solo model of this round (built at its start, so solvers are reused) at the
        current decider's state: the position of a lone explorer.  With other explorers in the
        round the table analyses the group model instead (:meth:`others_in_turn`,
        :meth:`position_flags` and ``--others``); the bots' own round solve uses this one."""
        model = IncanGoldTurnModel(self.variant, self.round_deck)
        if self.phase == "over":
            raise PositionError("the game is over")
        if self.phase == "enter":
            return model, model.state_for((), 0)
        return model, model.state_for(self.flipped, self.take(self.current_player), check=False)

    def view(self) -> TableView:
        current = self.current_player
        lines = []
        for p in range(self.players):
            if self.phase == "decide" and self.inside[p]:
                status = "decided" if p in self.decisions else "deciding"
                where = f"inside ({status})"
            elif self.phase == "enter":
                where = "at the entrance"
            else:
                where = "left" if self.phase != "over" else "game over"
            arts = _names(self.artifacts_taken[p])
            lines.append((f"carrying {self.carried[p]}", where, f"banked {self.banked[p]} gems",
                          f"artifacts: {arts}"))
        finished = self._winner_text() if self.is_over else ""
        traps = [c.label for c in self.flipped if c.suit == "s"]
        return TableView(
            scores=self.scores(),
            current_player=current,
            turn_cards=tuple(self.flipped),
            turn_total=self.carried[current] if self.phase == "decide" else 0,
            turn_lines=(f"Path: {self.path_gems} gems",
                        f"Artifacts on the path: {_names(self.path_artifacts)}",
                        f"Traps flipped this round: {' '.join(traps) or 'none'}"),
            player_lines=tuple(lines),
            draw_pile=len(self.deck),
            discard_pile=len(self.removed),
            round_text=f"Round {self.round_no} of {self.variant.rounds}",
            finished_text=finished,
        )

    def action_label(self, action: str) -> str:
        if self.phase == "enter" and action == DRAW:
            return "Enter the temple"
        return {DRAW: "Stay", STOP: "Leave"}.get(action, action)
