"""Captain Seven's play engine: a game of 1-4 players with every option of docs/rules.md."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pushluck_teach.cards import JOKER_RANK, Card, parse_card
from pushluck_teach.games.base import (
    DRAW,
    STOP,
    Engine,
    OutsideChoice,
    TableView,
    TurnRecord,
)
from pushluck_teach.games.captain_seven.levels import _RELIC_CODES, RELIC_NONE, encode_state
from pushluck_teach.games.captain_seven.rules import (
    _ALL_CARDS,
    CAUGHT,
    GAME,
    JACK,
    KEEP,
    KING,
    NO_QUEEN,
    PASS,
    QUEEN,
    RELIC_RANKS,
    CaptainSevenVariant,
    _class_counts,
    card_value,
    full_deck,
)
from pushluck_teach.games.captain_seven.turn import CaptainSevenTurnModel


class CaptainSevenEngine(Engine):
    """Captain Seven for 1-4 players (1 = solo practice), every option of docs/rules.md."""

    game = GAME

    def __init__(self, variant: CaptainSevenVariant, players: int,
                 rng: random.Random | int | None) -> None:
        super().__init__(variant, players, rng)
        self.variant: CaptainSevenVariant = variant
        self.stashes = [0] * players
        self.relics: list[Card | None] = [None] * players
        self.turns_taken = [0] * players
        self._player = 0
        self._actor = 0
        self.final_round = False
        self._final_queue: list[int] = []
        self._over = False
        self._begin_turn()

    # ---- turn state ---------------------------------------------------------------------
    def _begin_turn(self, out: list[str] | None = None) -> None:
        held = [c for c in self.relics if c is not None]
        self.relics_at_start = tuple(held)
        self._turn_out = tuple(_class_counts(held))
        self.pile = list(full_deck().remove(held).cards()) if held else list(_ALL_CARDS)
        self.rng.shuffle(self.pile)
        self.hand: list[Card] = []
        self.discarded: list[Card] = []
        self.doubled: Card | None = None  # the card the queen relic doubled this turn
        self.drawn_log: list[Card] = []
        self.total = 0
        self.started = False
        self.last: tuple[int, bool] | None = None  # (value, was the first card)
        self.pending: Card | None = None
        self.caught_by: Card | None = None  # the card that caught this turn, once it has
        self.phase = "play"
        self._king_queue: list[int] = []
        self._actor = self._player
        self.turn_relic = self.relics[self._player]
        self.relic_live = self.turn_relic is not None and self.turn_relic.rank in ("A", "J", "Q")
        self._say(f"Player {self._player + 1}'s turn.", [] if out is None else out)

    @property
    def current_player(self) -> int:
        return self._actor

    def scores(self) -> tuple[int, ...]:
        return tuple(self.stashes)

    def _live_rank(self) -> str | None:
        if self.relic_live and self.turn_relic is not None:
            return self.turn_relic.rank
        return None

    def legal_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        if self.phase == "king":
            return (PASS, KING)
        if self.phase == "pending":
            return (CAUGHT, JACK)
        if self.phase == "queen":
            return (NO_QUEEN, QUEEN)
        if not self.started:
            return (DRAW,)
        actions = [DRAW, STOP]
        rank = self._live_rank()
        if rank == "J" and self.last is not None:
            actions.append(JACK)
        if self.variant.relics:
            seen = set()
            for card in self.hand:
                if card.rank in RELIC_RANKS and card.code not in seen:
                    seen.add(card.code)
                    actions.append(KEEP + card.code)
        return tuple(actions)

    def action_label(self, action: str) -> str:
        if action.startswith(KEEP):
            return f"Stash, keep {parse_card(action[len(KEEP):]).label} as relic"
        return {
            DRAW: "Draw", STOP: "Stash", JACK: "Jack relic: discard and redraw",
            QUEEN: "Queen relic: double that card", NO_QUEEN: "Keep the queen",
            CAUGHT: "Accept: caught",
            KING: "King relic: throw it back", PASS: "Pass",
        }.get(action, action)

    def act(self, action: str) -> list[str]:
        self._check_legal(action)
        out: list[str] = []
        me = f"Player {self._player + 1}"
        if action == DRAW:
            self._draw(out)
        elif action == STOP or action.startswith(KEEP):
            keep = None
            if action.startswith(KEEP):
                keep = next(c for c in self.hand if c.code == action[len(KEEP):])
            self._stash(keep, out)
        elif action == CAUGHT:
            assert self.pending is not None
            self._caught(self.total + card_value(self.pending), out)
        elif action == JACK:
            self.relic_live = False
            self.relics[self._player] = None
            if self.phase == "pending":
                assert self.pending is not None
                card = self.pending
                self.pending = None
            else:
                card = self.hand.pop()
                assert self.last is not None
                self.total -= self.last[0]
                if self.last[1]:
                    self.started = False
            self.discarded.append(card)
            self.last = None
            self.phase = "play"
            self._say(f"{me} plays the jack relic: discards {card.label} and draws again.", out)
            self._draw(out)
        elif action == QUEEN:
            assert self.last is not None
            value, first = self.last
            self.relic_live = False
            self.relics[self._player] = None
            self.total += value
            self.doubled = self.hand[-1]
            self.last = None
            self.phase = "play"
            self._say(f"{me} plays the queen relic: the card counts twice, total {self.total}.",
                      out)
            if not first and self.total % 10 == 7:
                self._say(f"{me}'s total ends in 7: caught!", out)
                self._caught(self.total, out)
        elif action == NO_QUEEN:
            self.last = None
            self.phase = "play"
        elif action == PASS:
            self._king_queue.pop(0)
            self._next_king_or_play()
        elif action == KING:
            holder = self._king_queue.pop(0)
            self.relics[holder] = None
            card = self.hand.pop()
            assert self.last is not None
            self.total -= self.last[0]
            if self.last[1]:
                self.started = False
            self.last = None
            self.pile.append(card)
            self.rng.shuffle(self.pile)
            self._say(f"Player {holder + 1} plays the king relic: {me} throws {card.label} back "
                      "and draws again.", out)
            self.phase = "play"
            self._actor = self._player
            self._draw(out)
        return out

    def _draw(self, out: list[str]) -> None:
        card = self.pile.pop()
        self._turned_up(card.code)
        self.drawn_log.append(card)
        value = card_value(card)
        me = f"Player {self._player + 1}"
        first = not self.started
        if not first and (card.rank in ("7", JOKER_RANK) or (self.total + value) % 10 == 7):
            reason = "a seven" if card.rank == "7" else (
                "a joker" if card.is_joker else f"the total {self.total + value} ends in 7")
            self._say(f"{me} draws {card.label}: {reason}, caught!", out)
            if self._live_rank() == "J":
                self.pending = card
                self.last = None
                self.phase = "pending"
                return
            self.caught_by = card
            self._caught(self.total + value, out)
            return
        self.hand.append(card)
        self.total += value
        self.started = True
        self.last = (value, first)
        self._say(f"{me} draws {card.label}: turn total {self.total}.", out)
        self._king_queue = []
        if self.variant.relics:
            for k in range(1, self.players):
                other = (self._player + k) % self.players
                held = self.relics[other]
                if held is not None and held.rank == "K":
                    self._king_queue.append(other)
        self._next_king_or_play()

    def _next_king_or_play(self) -> None:
        if self._king_queue:
            self.phase = "king"
            self._actor = self._king_queue[0]
        else:
            queen = self._live_rank() == "Q" and self.last is not None and self.last[0] > 0
            self.phase = "queen" if queen else "play"
            self._actor = self._player

    def _caught(self, lost: int, out: list[str]) -> None:
        me = f"Player {self._player + 1}"
        saved = 0
        if self._live_rank() == "A" and lost // 3 >= 1:
            saved = lost // 3
            self.relics[self._player] = None
            self.relic_live = False
            self.stashes[self._player] += saved
            self._say(f"{me} plays the ace relic: {saved} of the lost {lost} still go to the "
                      "stash.", out)
        else:
            self._say(f"{me} loses {lost} doubloons.", out)
        self._end_turn(saved, True, out)

    def _stash(self, keep: Card | None, out: list[str]) -> None:
        me = f"Player {self._player + 1}"
        banked = self.total
        self.stashes[self._player] += banked
        shown = "" if self._secret() else f": stash {self.stashes[self._player]}"
        self._say(f"{me} stashes {banked}{shown}.", out)
        if keep is not None:
            old = self.relics[self._player]
            self.relics[self._player] = keep
            swap = f" ({old.label} goes back to the deck)" if old is not None else ""
            self._say(f"{me} keeps {keep.label} as relic{swap}.", out)
        self._end_turn(banked, False, out)

    def _secret(self) -> bool:
        return self.variant.secret_stash and not self.final_round

    def _end_turn(self, result: int, busted: bool, out: list[str]) -> None:
        player = self._player
        cards = tuple(self.drawn_log)
        self.turn_records.append(TurnRecord(player, result, busted, cards,
                                            note=" ".join(c.code for c in cards)))
        self.turns_taken[player] += 1
        target = self.variant.target
        if self.final_round:
            if self._final_queue and self._final_queue[0] == player:
                self._final_queue.pop(0)
        elif self.stashes[player] >= target:
            self.final_round = True
            order = [(player + k) % self.players for k in range(1, self.players)]
            self._final_queue = [q for q in order if self.stashes[q] < target]
            self._say(f"Player {player + 1} reaches {target} with {self.stashes[player]}: "
                      "final round.", out)
        if self.final_round and not self._final_queue:
            self._over = True
            best = max(self.stashes)
            names = " and ".join(f"Player {w + 1}" for w in self.winners())
            verb = "share the win" if len(self.winners()) > 1 else "wins"
            self._say(f"{names} {verb} with {best}.", out)
            return
        self._player = self._final_queue[0] if self.final_round else (player + 1) % self.players
        self._begin_turn(out)

    # ---- views ----------------------------------------------------------------------------
    def view(self, viewer: int | None = None) -> TableView:
        """The table as ``viewer`` (default: the player to move) sees it.  With the secret stash
        option the other players' stashes are ``None`` until someone reaches the target."""
        viewer = self._actor if viewer is None else viewer
        secret = self._secret()
        scores: tuple[Any, ...] = tuple(
            None if secret and i != viewer else s for i, s in enumerate(self.stashes)
        )
        lines = []
        for i in range(self.players):
            row = ["stash hidden" if secret and i != viewer else f"stash {self.stashes[i]}"]
            if self.variant.relics:
                relic = self.relics[i]
                row.append(f"relic {relic.label}" if relic is not None else "no relic")
            lines.append(tuple(row))
        turn_lines = [f"Cards this turn: {' '.join(c.label for c in self.hand) or 'none yet'}"]
        if self.discarded:
            turn_lines.append(f"Discarded: {' '.join(c.label for c in self.discarded)}")
        if self.pending is not None:
            turn_lines.append(f"Caught by {self.pending.label}: accept, or play the jack")
        if self.phase == "king":
            turn_lines.append(f"Player {self._actor + 1} may play the king relic on "
                              f"Player {self._player + 1}'s card")
        finished = ""
        if self._over:
            names = ", ".join(f"Player {w + 1}" for w in self.winners())
            finished = f"{names} {'share the win' if len(self.winners()) > 1 else 'wins'} " \
                       f"with {max(self.stashes)}."
        rounds = f"First to {self.variant.target} triggers the final round"
        if self.final_round:
            rounds = "Final round"
        return TableView(
            scores=scores,
            current_player=self._actor,
            turn_cards=tuple(self.hand),
            turn_total=self.total,
            turn_lines=tuple(turn_lines),
            player_lines=tuple(lines),
            draw_pile=len(self.pile),
            discard_pile=len(self.discarded),
            round_text=rounds,
            finished_text=finished,
        )

    def position_flags(self) -> dict[str, str]:
        """``pushluck odds`` flags for the turn: ``drawn`` (the cards counting now) and, with
        relics, ``relic`` (yours, if unspent) and ``removed`` (the other relics held at the turn
        start, your spent relic, a card a jack discarded) and ``doubled`` (the card your queen
        relic doubled this turn).  A pending queen or jack choice on the last card is shown as
        still open."""
        flags: dict[str, str] = {}
        if self.hand:
            flags["drawn"] = " ".join(c.code for c in self.hand)
        if self.variant.relics:
            own = self.turn_relic
            gone = [c for c in self.relics_at_start if c is not own]
            if own is not None and not self.relic_live:
                gone.append(own)
            gone.extend(self.discarded)
            if self.relic_live and own is not None:
                flags["relic"] = own.rank  # an A, J or Q not spent yet (a king is never live)
            if gone:
                flags["removed"] = " ".join(c.code for c in gone)
            if self.doubled is not None and self.doubled in self.hand:
                flags["doubled"] = self.doubled.code
        return flags

    @property
    def scores_hidden(self) -> bool:
        return bool(self.variant.secret_stash)

    def card_locations(self) -> dict[str, tuple[Card, ...]]:
        """The deck this turn: the draw pile, this turn's cards, a card awaiting a relic choice,
        the cards a jack discarded, the card that caught the turn (seen once the game ends on
        it) and the relics held at the turn start (out all turn)."""
        return {
            "draw pile": tuple(self.pile),
            "this turn": tuple(self.hand),
            "pending": (self.pending,) if self.pending is not None else (),
            "discarded": tuple(self.discarded),
            "caught the turn": (self.caught_by,) if self.caught_by is not None else (),
            "relics held at the turn start": tuple(self.relics_at_start),
        }

    def decision_in_turn_model(self) -> bool:
        """The king window (another player may play a king relic) is outside the turn model."""
        return self.phase != "king"

    @property
    def turn_player(self) -> int:
        """The drawer (in a king window the player to move is a king holder)."""
        return self._player

    def turn_position(self) -> tuple[CaptainSevenTurnModel, int]:
        """The mover's turn as ``(model, state)``.  In a king window this is the drawer's turn
        (the model does not cover king play)."""
        relic_rank = self.turn_relic.rank if self.turn_relic is not None else None
        # Relics held at the turn start stay out of the deck all turn, even once spent.
        model = CaptainSevenTurnModel(self.variant, relic_rank, self._turn_out)
        last, first = self.last if self.last is not None else (None, False)
        state = self._encode(self.hand, self.total, self.started, last, first)
        return model, state

    def _encode(self, hand: Sequence[Card], total: int, started: bool, last: int | None,
                first: bool) -> int:
        relic_rank = self.turn_relic.rank if self.turn_relic is not None else None
        turn = _class_counts([*hand, *self.discarded,
                              *([self.pending] if self.pending is not None else [])])
        out = [a + b for a, b in zip(self._turn_out, turn, strict=True)]
        code = _RELIC_CODES[relic_rank] if self.relic_live else RELIC_NONE
        return encode_state(out, total, started=started, relic=code, last=last,
                            last_first=first, pending=self.pending is not None)

    def outside_choices(self) -> tuple[OutsideChoice, ...]:
        """The king window: ``pass`` leaves the drawer at the position now; ``king`` puts the
        card back (the position before it) and the drawer must draw."""
        if self.phase != "king" or self.last is None:
            return ()
        _model, now = self.turn_position()
        value, first = self.last
        before = self._encode(self.hand[:-1], self.total - value, not first, None, False)
        return (OutsideChoice(PASS, now), OutsideChoice(KING, before, DRAW))
