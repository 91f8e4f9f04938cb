"""The play engine: a whole game of High-Stakes Hit List (the rules in
:mod:`~pushluck_teach.games.hit_list.rules`), its table view and the position of the job in
progress as a turn model."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from pushluck_teach.cards import Card, parse_cards, standard_cards
from pushluck_teach.games.base import DRAW, STOP, Engine, RulesError, TableView, TurnRecord
from pushluck_teach.games.hit_list.position import PENDING_ACE
from pushluck_teach.games.hit_list.rules import (
    ACE,
    ACE_ACTIONS,
    ACE_ELEVEN,
    ACE_ONE,
    ACE_VALUE,
    BOTCH_PENALTY,
    BOTCHES_TO_DIE,
    GAME,
    GHOST_BONUS,
    HITS_TO_WIN,
    LIMIT,
    MIN_TO_EXECUTE,
    HitListVariant,
    card_class,
    card_value,
    deck_counts,
    execute_result,
    hit_gain,
    may_execute,
    soft_value,
)
from pushluck_teach.games.hit_list.turn import HitListTurnModel, HitState


class HitListEngine(Engine):
    """A whole game of Hit List for 1-3 players with a seeded shuffle (or a stacked ``deck``:
    the draw pile top card first, any part of the game's deck; for teaching and tests)."""

    game = GAME

    def __init__(self, variant: HitListVariant, players: int, rng: random.Random | int | None,
                 *, deck: str | Sequence[Card] | None = None) -> None:
        super().__init__(variant, players, rng)
        self.variant: HitListVariant = variant
        if not 1 <= players <= 3:
            raise RulesError(f"hit-list takes 1-3 players, not {players}")
        if variant.solo and players != 1:
            raise RulesError(f"solo (Lone Gunman) is for one player, not {players}")
        if deck is None:
            cards = list(standard_cards() * variant.decks)
            self.rng.shuffle(cards)
        else:
            cards = list(parse_cards(deck))
            variant.full_deck().remove(cards, what="deck")
        self._deck: list[Card] = cards[::-1]  # the top card is the last one (pop)
        self._player = 0
        self._job: list[Card] = []
        self._values: list[int] = []  # counted value of each job card (soft aces: 1)
        self._pending_ace = False
        self._job_deck = deck_counts(self._deck)
        self.hits = [0] * players
        self.piles: list[list[list[tuple[Card, int]]]] = [[] for _ in range(players)]
        self.stolen: list[list[tuple[Card, int]]] = [[] for _ in range(players)]
        self.botched: list[list[tuple[Card, ...]]] = [[] for _ in range(players)]
        self.bonus = [0] * players
        self.best_hit = [0] * players
        self.out = [False] * players
        self._final: set[int] | None = None
        #: The cards of a job the end of the deck cut short (neither a hit nor a botch).
        self.unfinished_job: tuple[Card, ...] = ()
        self._over = False
        self.end_reason = ""
        if not self._deck:
            self._finish("the deck is empty", [])

    # ---- read-only facts ------------------------------------------------------------------
    @property
    def deck_left(self) -> int:
        return len(self._deck)

    @property
    def job_cards(self) -> tuple[Card, ...]:
        return tuple(self._job)

    @property
    def pending_ace(self) -> bool:
        return self._pending_ace

    @property
    def last_round(self) -> bool:
        return self._final is not None

    def _hard(self) -> int:
        return sum(self._values)

    def job_value(self) -> int:
        """The job's value now (a pending ace not counted yet)."""
        values = self._values[:-1] if self._pending_ace else self._values
        total = sum(values)
        if self.variant.soft_aces:
            return soft_value(total, any(c.rank == "A" for c in self._job))
        return total

    def _can_execute(self) -> bool:
        return bool(self._job) and not self._pending_ace and may_execute(
            self.variant, self.job_value(), len(self._job), self.hits[self._player])

    def legal_actions(self) -> tuple[str, ...]:
        if self._over:
            return ()
        if self._pending_ace:
            return ACE_ACTIONS
        actions = []
        if self._deck:
            actions.append(DRAW)
        if self._can_execute():
            actions.append(STOP)
        return tuple(actions)

    def card_points(self, player: int) -> int:
        """The value of every card in the player's hit piles (stolen cards included)."""
        return (sum(v for pile in self.piles[player] for _, v in pile)
                + sum(v for _, v in self.stolen[player]))

    def scores(self) -> tuple[int, ...]:
        result = []
        for p in range(self.players):
            if self.out[p]:
                result.append(0)
                continue
            botches = len(self.botched[p])
            score = self.card_points(p) + self.bonus[p] + BOTCH_PENALTY * botches
            if self.variant.ghost and botches == 0:
                score += GHOST_BONUS
            result.append(score)
        return tuple(result)

    def tiebreak_key(self, player: int) -> tuple[int, int, int, int]:
        """Score, then fewest botched jobs, most hits, highest single hit."""
        return (self.scores()[player], -len(self.botched[player]), self.hits[player],
                self.best_hit[player])

    def winners(self) -> tuple[int, ...]:
        if not self._over:
            return ()
        alive = [p for p in range(self.players) if not self.out[p]]
        if not alive:
            return ()
        best = max(self.tiebreak_key(p) for p in alive)
        return tuple(p for p in alive if self.tiebreak_key(p) == best)

    # ---- actions --------------------------------------------------------------------------
    def act(self, action: str) -> list[str]:
        self._check_legal(action)
        out: list[str] = []
        if action == DRAW:
            self._draw(out)
        elif action in ACE_VALUE:
            self._choose_ace(ACE_VALUE[action], out)
        else:
            self._execute(out)
        if not self._over:
            self._check_deck(out)
        return out

    def _draw(self, out: list[str]) -> None:
        p = self._player
        card = self._deck.pop()
        self._turned_up(card.code)
        before = list(self._job)
        self._job.append(card)
        who = f"Player {p + 1}"
        if card.is_face:
            self._values.append(0)
            if any(c.is_face for c in before):
                self._say(f"{who} draws {card.label}: a second face card, security is alerted.",
                          out)
                self._botch(out)
                return
            self._say(f"{who} draws {card.label}: a security threat (worth 0). "
                      f"Job total {self.job_value()}.", out)
            return
        if card.rank == "A":
            if self.variant.soft_aces:
                self._values.append(1)
                if self._hard() > LIMIT:
                    self._say(f"{who} draws {card.label}: the job goes over 21.", out)
                    self._botch(out)
                    return
                self._say(f"{who} draws {card.label}. Job total {self.job_value()}.", out)
                return
            self._values.append(1)
            if sum(self._values) > LIMIT:
                self._say(f"{who} draws {card.label}: even counted 1 it takes the job over 21.",
                          out)
                self._botch(out)
                return
            self._pending_ace = True
            self._say(f"{who} draws {card.label}: count it 1 or 11?", out)
            return
        value = card_value(card)
        self._values.append(value)
        total = self._hard() if self.variant.soft_aces else sum(self._values)
        if total > LIMIT:
            self._say(f"{who} draws {card.label}: the job goes to {total}, over 21.", out)
            self._botch(out)
            return
        self._say(f"{who} draws {card.label}. Job total {self.job_value()}.", out)
        if self.variant.rival_interference and any(c.rank == card.rank for c in before):
            self._steal(out)

    def _choose_ace(self, value: int, out: list[str]) -> None:
        self._pending_ace = False
        self._values[-1] = value
        who = f"Player {self._player + 1}"
        if sum(self._values) > LIMIT:
            self._say(f"{who} counts the ace {value}: the job goes to {sum(self._values)}, "
                      "over 21.", out)
            self._botch(out)
            return
        self._say(f"{who} counts the ace {value}. Job total {self.job_value()}.", out)

    def _steal(self, out: list[str]) -> None:
        p = self._player
        rivals = [q for q in range(self.players)
                  if q != p and not self.out[q] and (any(self.piles[q]) or self.stolen[q])]
        who = f"Player {p + 1}"
        if not rivals:
            self._say(f"{who} drew a pair: rival interference, but no rival has a hit to raid.",
                      out)
            return
        rival = self.rng.choice(rivals)
        spots = [(i, j) for i, pile in enumerate(self.piles[rival]) for j in range(len(pile))]
        spots += [(-1, j) for j in range(len(self.stolen[rival]))]
        i, j = self.rng.choice(spots)
        taken = self.piles[rival][i].pop(j) if i >= 0 else self.stolen[rival].pop(j)
        self.stolen[p].append(taken)
        self._say(f"{who} drew a pair: rival interference takes {taken[0].label} "
                  f"(worth {taken[1]}) from player {rival + 1}.", out)

    def _execute(self, out: list[str]) -> None:
        p = self._player
        value = self.job_value()
        result = execute_result(self.variant, value)
        gain = hit_gain(self.variant, value)
        values = list(self._values)
        if self.variant.soft_aces and value != sum(self._values):
            values[next(i for i, c in enumerate(self._job) if c.rank == "A")] = 11
        self.piles[p].append(list(zip(self._job, values, strict=True)))
        before = self.hits[p]
        self.hits[p] += gain
        if result > value:
            self.bonus[p] += result - value
        self.best_hit[p] = max(self.best_hit[p], result)
        silent = " Silent assassin: 2 hits and +15." if result > value else ""
        self._say(f"Player {p + 1} executes the hit for {value}.{silent} "
                  f"Hits: {self.hits[p]}.", out)
        self.turn_records.append(TurnRecord(p, result, False, tuple(self._job), "hit"))
        self._job, self._values = [], []  # the cards are in the hit pile now
        if before < HITS_TO_WIN <= self.hits[p] and not self.variant.long_haul:
            if self.variant.solo:
                self._finish(f"Player {p + 1} completes {HITS_TO_WIN} hits", out)
                return
            if self._final is None:
                self._final = {q for q in range(p + 1, self.players) if not self.out[q]}
                self._say(f"Player {p + 1} has {HITS_TO_WIN} hits: the last round begins.", out)
        self._next_job(out)

    def _botch(self, out: list[str]) -> None:
        p = self._player
        self._pending_ace = False
        self.botched[p].append(tuple(self._job))
        self.turn_records.append(TurnRecord(p, BOTCH_PENALTY, True, tuple(self._job), "botched"))
        self._job, self._values = [], []  # the cards are in the botched pile now
        self._say(f"Player {p + 1} botches the job (-10). Botched jobs: {len(self.botched[p])}.",
                  out)
        if (self.variant.bad_life or self.variant.solo) and len(self.botched[p]) >= BOTCHES_TO_DIE:
            self.out[p] = True
            self._say(f"Player {p + 1} has botched {BOTCHES_TO_DIE} jobs and is executed "
                      "(scores 0).", out)
            if self.variant.solo or all(self.out):
                self._finish("no assassin is left", out)
                return
        self._next_job(out)

    def _next_job(self, out: list[str]) -> None:
        p = self._player
        self._job, self._values = [], []
        if self._final is not None:
            self._final.discard(p)
            if not self._final:
                self._finish("the last round is over", out)
                return
        nxt = p
        for _ in range(self.players):
            nxt = (nxt + 1) % self.players
            if not self.out[nxt]:
                break
        self._player = nxt
        self._job_deck = deck_counts(self._deck)

    def _check_deck(self, out: list[str]) -> None:
        """The deck has run out when a card is needed and none is left."""
        if self._deck or self._pending_ace:
            return
        if self._job and self._can_execute():
            return  # executing is still legal (and the only action)
        if self._job:
            p = self._player
            self.turn_records.append(TurnRecord(p, 0, False, tuple(self._job), "deck ran out"))
            self._say(f"The deck runs out during player {p + 1}'s job: it counts as neither "
                      "a hit nor a botch.", out)
            self.unfinished_job = tuple(self._job)
            self._job, self._values = [], []
        self._finish("the deck ran out", out)

    def _finish(self, reason: str, out: list[str]) -> None:
        self._over = True
        self.end_reason = reason
        scores = self.scores()
        self._say(f"Game over ({reason}). Scores: "
                  + ", ".join(f"player {i + 1} {s}" for i, s in enumerate(scores)) + ".", out)
        winners = self.winners()
        if winners:
            self._say("Winner: " + ", ".join(f"player {w + 1}" for w in winners) + ".", out)

    # ---- table view -----------------------------------------------------------------------
    def view(self) -> TableView:
        lines: list[str] = []
        if self._job:
            lines.append(f"Job total: {self.job_value()}")
            if self._pending_ace:
                lines.append("Ace drawn: count it 1 or 11")
            elif not self._can_execute():
                if self.job_value() >= MIN_TO_EXECUTE:
                    lines.append("One last job: 3 cards needed to execute")
                else:
                    lines.append(f"Execute from {MIN_TO_EXECUTE}")
            if any(c.is_face for c in self._job):
                lines.append("A face card is in the job: a second one botches it")
        player_lines = []
        for p in range(self.players):
            row = [f"{self.hits[p]} hits", f"{len(self.botched[p])} botched",
                   f"{self.card_points(p)} in hit piles"]
            if self.stolen[p]:
                row.append(f"{len(self.stolen[p])} stolen cards")
            if self.out[p]:
                row.append("executed (out)")
            player_lines.append(tuple(row))
        if self.variant.long_haul:
            round_text = "The Long Haul: the game ends when the deck runs out"
        elif self._final is not None:
            round_text = "Last round"
        else:
            round_text = f"First to {HITS_TO_WIN} hits triggers the last round"
        finished = ""
        if self._over:
            winners = self.winners()
            names = " and ".join(f"Player {w + 1}" for w in winners) or "Nobody"
            finished = f"{names} {'wins' if len(winners) <= 1 else 'share the win'} " \
                       f"({self.end_reason})."
        return TableView(
            scores=self.scores(),
            current_player=self._player,
            turn_cards=tuple(self._job),
            turn_total=self.job_value(),
            turn_lines=tuple(lines),
            player_lines=tuple(player_lines),
            draw_pile=len(self._deck),
            discard_pile=None,
            round_text=round_text,
            finished_text=finished,
        )

    def action_label(self, action: str) -> str:
        return {DRAW: "Draw", STOP: "Execute the hit", ACE_ONE: "Ace = 1",
                ACE_ELEVEN: "Ace = 11"}.get(action, action)

    def position_flags(self) -> dict[str, str]:
        """The job as ``pushluck odds hit-list`` flags: ``drawn`` (this job's cards), ``removed``
        (every other card out of the deck), ``ace_values`` and ``hits`` (with ``one_last_job``).
        While the last ace's value is still to be chosen its value is ``?``."""
        flags: dict[str, str] = {}
        job = [c.code for c in self._job]
        if job:
            flags["drawn"] = " ".join(job)
        remaining = Counter(self._deck)
        remaining.update(self._job)
        out = Counter(self.variant.full_deck().cards())
        out.subtract(remaining)
        removed = sorted(out.elements())
        if removed:
            flags["removed"] = " ".join(c.code for c in removed)
        aces = [PENDING_ACE if self._pending_ace and i == len(self._job) - 1 else v
                for i, (c, v) in enumerate(zip(self._job, self._values, strict=True))
                if c.rank == "A"]
        if aces and not self.variant.soft_aces:
            flags["ace_values"] = ",".join(map(str, aces))
        if self.variant.one_last_job and self.hits[self._player]:
            flags["hits"] = str(self.hits[self._player])
        return flags

    def card_locations(self) -> dict[str, tuple[Card, ...]]:
        """The deck, the job in progress (or the one the deck cut short), the hit piles, the
        stolen hits and the botched jobs."""
        hits = tuple(card for player in range(self.players)
                     for pile in self.piles[player] for card, _ in pile)
        stolen = tuple(card for player in range(self.players)
                       for card, _ in self.stolen[player])
        botched = tuple(card for player in range(self.players)
                        for job in self.botched[player] for card in job)
        return {"deck": tuple(self._deck), "job": self.job_cards,
                "job cut short": tuple(self.unfinished_job), "hits": hits, "stolen": stolen,
                "botched": botched}

    def turn_position(self) -> tuple[HitListTurnModel, HitState]:
        model = HitListTurnModel(self.variant, self._job_deck, self.hits[self._player])
        cards: list[tuple[int, int | None]] = [
            (card_class(c), v) for c, v in zip(self._job, self._values, strict=True)
        ]
        if self._pending_ace:
            cards[-1] = (ACE, None)
        return model, model.state_after(cards)
