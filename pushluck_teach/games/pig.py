r"""Pig: the dice game of probability classes, solved exactly by Neller and Presser (2004).

Rules (docs/rules.md, "Pig"): on your turn roll a die with ``die_sides`` faces as often as you like;
a 1 loses the turn total and ends the turn, any other face adds to it; hold to bank the turn
total.  The first player whose score reaches ``target`` on holding wins at once.  A turn starts
with a roll: holding needs at least one roll (holding with nothing banks nothing and only passes
the turn).

Turn model.  State ``("turn", t)`` with turn total ``t``; terminal ``("end", t, busted)``.  The
turn objective is the points banked this turn, **capped at what the game can still use**: with
``score`` points already banked, a turn is worth ``min(t, target - score)`` (the first to reach
the target wins at once, so points past it are worth nothing).  Rolling from ``t`` gives
``t + k`` for each face ``k ≥ 2`` and a bust on 1, each with weight 1 of ``die_sides``.

Pruning (proved).  Let ``S = 2 + 3 + … + die_sides``.  One more roll from total ``t`` changes
the expected result by ``(S - t) / die_sides``, which is ``≤ 0`` exactly when ``t ≥ S`` (20 for
a six-sided die).  Totals only grow during a turn, so once ``t ≥ S`` every later state also has
``t ≥ S``: the result process is a supermartingale from there under any policy, and by optional
stopping no policy beats holding now.  Hence :meth:`PigTurnModel.stop_is_optimal` at ``t ≥ S``,
and the turn's state space is finite.  (This is "hold at 20" for a six-sided die.)  With the cap,
holding is also optimal once ``t ≥ target - score``: nothing more can be gained, only lost.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from pushluck_teach.games.base import (
    DICE,
    DRAW,
    MAX_DIGITS,
    ROLLS,
    STOP,
    Engine,
    Flag,
    GameSpec,
    IllegalActionError,
    PositionError,
    TableView,
    TurnModel,
    TurnRecord,
    Variant,
    option,
    parse_whole_number,
    register,
    whole_number,
)
from pushluck_teach.quoting import quoted

GAME = "pig"
#: Largest die (a d20; its turn has 210 totals, solved in milliseconds).
MAX_DIE_SIDES = 20
#: Largest target (the whole-game solver's limit: a few seconds and about 200 MB).
MAX_TARGET = 200
PigState = tuple[Any, ...]
SCORE = Flag("score", "your banked score (the turn is worth at most what reaching the target "
             "needs)", whole_number)
OPPONENT = Flag("opponent", "the other player's banked score (for --objective win)",
                whole_number)


@dataclass(frozen=True, kw_only=True)
class PigVariant(Variant):
    """Pig's options: the score to reach and the number of faces on the die."""

    game = GAME
    target: int = option(100, "Target score", "the first player whose score reaches it on "
                         "holding wins", low=1, high=MAX_TARGET)
    die_sides: int = option(6, "Die sides", "faces of the die, numbered 1 to this; a 1 loses the "
                            "turn total", low=2, high=MAX_DIE_SIDES)

    @property
    def hold_threshold(self) -> int:
        """``S = 2 + … + die_sides``: from here on holding is optimal for the turn's points."""
        return self.die_sides * (self.die_sides + 1) // 2 - 1


@dataclass(frozen=True)
class PigTurnModel(TurnModel[PigState]):
    """One Pig turn from turn total ``turn_total_start``, by a player who has ``score`` points
    (the turn is worth at most ``target - score``)."""

    game = GAME
    variant: PigVariant
    turn_total_start: int = 0
    score: int = 0

    @property
    def cap(self) -> int:
        """The most this turn can be worth: the points still needed to reach the target."""
        return max(self.variant.target - self.score, 0)

    @property
    def start(self) -> PigState:
        return ("turn", self.turn_total_start)

    def actions(self, state: PigState) -> tuple[str, ...]:
        if state[0] == "end":
            return ()
        return (DRAW, STOP) if state[1] > 0 else (DRAW,)

    def transitions(self, state: PigState, action: str) -> list[tuple[int, PigState]]:
        total = state[1]
        if action == STOP:
            return [(1, ("end", total, False))]
        if action != DRAW:
            raise IllegalActionError(f"unknown Pig action {action!r}")
        outcomes: list[tuple[int, PigState]] = [(1, ("end", 0, True))]
        faces = range(2, self.variant.die_sides + 1)
        outcomes.extend((1, ("turn", total + face)) for face in faces)
        return outcomes

    def payoff(self, terminal: PigState) -> int:
        return min(terminal[1], self.cap)

    def is_bust(self, terminal: PigState) -> bool:
        return bool(terminal[2])

    def turn_total(self, state: PigState) -> int:
        return state[1]

    def stop_is_optimal(self, state: PigState) -> bool:
        """Proved in the module docstring: holding is optimal once ``t ≥ S`` or ``t ≥ cap``."""
        return state[1] >= min(self.variant.hold_threshold, self.cap)

    def estimated_states(self, state: PigState) -> int | None:
        """The solve's work in states-with-one-outcome: every total from ``state`` to the hold
        threshold ``S`` (and a die's reach beyond it) expands ``die_sides`` outcomes."""
        if state[0] == "end":
            return 0
        sides = self.variant.die_sides
        totals = max(0, self.variant.hold_threshold - state[1]) + sides
        return totals * sides

    def describe(self, state: PigState) -> str:
        if state[0] == "end":
            return "rolled a 1: turn lost" if state[2] else f"held {state[1]}"
        return f"turn total {state[1]}"

    def outcome_label(self, state: PigState, next_state: PigState) -> str:
        if next_state[0] == "end":
            return "1 (bust)"
        return str(next_state[1] - state[1])


def parse_rolls(text: str | None, die_sides: int) -> tuple[int, ...]:
    """Parse Pig rolls such as ``"3 5 6"``; a 1 (a bust) or a face off the die is an error."""
    if text is None:
        return ()
    if isinstance(text, str):
        tokens = text.replace(",", " ").split()
    elif isinstance(text, (list, tuple)):
        tokens = [str(t) if isinstance(t, int) and not isinstance(t, bool) else t for t in text]
    else:
        tokens = [text]
    rolls = []
    for token in tokens:
        if not isinstance(token, str):
            raise PositionError(f"bad roll {quoted(token)}: a roll is a whole number "
                                f"1-{die_sides}")
        roll = parse_whole_number(token, "roll", PositionError)
        if not 1 <= roll <= die_sides:
            raise PositionError(f"bad roll {quoted(token)}: a roll is a whole number 1-{die_sides}")
        if roll == 1:
            raise PositionError("roll 1 busts the turn: the position is already over")
        rolls.append(roll)
    return tuple(rolls)


def check_score(value: int | str | None, variant: PigVariant, what: str) -> int:
    """A player's banked score: a whole number from 0 to ``target - 1`` (at the target the game
    is over)."""
    if value is None:
        return 0
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_DIGITS:
        raise PositionError(f"bad {what} {quoted(value)}: a score is a whole number 0-"
                            f"{variant.target - 1}")
    score = int(text)
    if score >= variant.target:
        raise PositionError(f"{what} {score} has reached the target {variant.target}: "
                            "the game is over")
    return score


def pig_position(variant: PigVariant, *, drawn: str | None = None,
                 score: int | str | None = None, opponent: int | str | None = None
                 ) -> tuple[PigTurnModel, PigState]:
    """Pig's position: ``drawn`` holds this turn's rolls (``"3 5 6"``), ``score`` the mover's
    banked score (the turn is worth at most ``target - score``); ``opponent`` (the other
    player's score) only matters for the chance to win, and is checked here."""
    rolls = parse_rolls(drawn, variant.die_sides)
    mine = check_score(score, variant, "score")
    check_score(opponent, variant, "opponent's score")
    model = PigTurnModel(variant, sum(rolls), mine)
    return model, model.start


class PigEngine(Engine):
    """A game of Pig for 1-8 players: first to ``target`` on holding wins at once."""

    game = GAME

    def __init__(self, variant: PigVariant, players: int, rng: random.Random | int | None) -> None:
        super().__init__(variant, players, rng)
        self.variant: PigVariant = variant
        self._scores = [0] * players
        self._player = 0
        self.turn_total = 0
        self.rolls: list[int] = []
        self.turns_taken = [0] * players
        self._winner: int | None = None

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    def legal_actions(self) -> tuple[str, ...]:
        if self.is_over:
            return ()
        return (DRAW, STOP) if self.rolls else (DRAW,)

    def winners(self) -> tuple[int, ...]:
        return () if self._winner is None else (self._winner,)

    def act(self, action: str) -> list[str]:
        self._check_legal(action)
        out: list[str] = []
        player = self._player
        if action == DRAW:
            roll = self.rng.randint(1, self.variant.die_sides)
            self._turned_up(str(roll))
            if roll == 1:
                self._say(f"Player {player + 1} rolls 1 and loses {self.turn_total}.", out)
                self._end_turn(0, True)
            else:
                self.rolls.append(roll)
                self.turn_total += roll
                self._say(f"Player {player + 1} rolls {roll}: turn total {self.turn_total}.", out)
            return out
        banked = self.turn_total
        self._scores[player] += banked
        self._say(f"Player {player + 1} holds {banked}: score {self._scores[player]}.", out)
        self._end_turn(banked, False)
        if self._scores[player] >= self.variant.target:
            self._winner = player
            self._say(f"Player {player + 1} reaches {self.variant.target} and wins.", out)
        return out

    def _end_turn(self, result: int, busted: bool) -> None:
        player = self._player
        self.turn_records.append(TurnRecord(player, result, busted, note=str(self.rolls)))
        self.turns_taken[player] += 1
        self.turn_total = 0
        self.rolls = []
        if not (not busted and self._scores[player] >= self.variant.target):
            self._player = (player + 1) % self.players

    def view(self) -> TableView:
        rolls = " ".join(map(str, self.rolls)) or "none yet"
        finished = ""
        if self._winner is not None:
            finished = f"Player {self._winner + 1} wins with {self._scores[self._winner]}."
        return TableView(
            scores=self.scores(),
            current_player=self._player,
            turn_total=self.turn_total,
            turn_lines=(f"Rolls this turn: {rolls}",),
            turn_dice=tuple(self.rolls),
            player_lines=tuple((f"{n} turns",) for n in self.turns_taken),
            round_text=f"First to {self.variant.target} wins",
            finished_text=finished,
        )

    def action_label(self, action: str) -> str:
        return {DRAW: "Roll", STOP: "Hold"}.get(action, action)

    def position_flags(self) -> dict[str, str]:
        flags = {"drawn": " ".join(map(str, self.rolls))} if self.rolls else {}
        score = self._scores[self._player]
        if score:
            flags["score"] = str(score)
        if self.players == 2 and self._scores[1 - self._player]:
            flags["opponent"] = str(self._scores[1 - self._player])
        return flags

    def turn_position(self) -> tuple[PigTurnModel, PigState]:
        model = PigTurnModel(self.variant, 0, self._scores[self._player])
        return model, ("turn", self.turn_total)


SPEC = register(GameSpec(
    name=GAME,
    title="Pig",
    variant_cls=PigVariant,
    engine_cls=PigEngine,
    position=pig_position,
    draws=DICE,
    position_flags=(ROLLS, SCORE, OPPONENT),
    whole_game="pushluck_teach.solve.whole_game.pig",
    example={"drawn": "3 5"},
    sweep="die_sides",
    lab=("sweep",),
    opens_table=True,
    min_players=1,
    max_players=8,
    presets={
        "standard": PigVariant(),
        "piglet": PigVariant(target=4, die_sides=2),  # a coin: heads scores 2 here, so 4 = 2 heads
        "short": PigVariant(target=50),
    },
    blurb="Roll a die; a 1 loses the turn. The classic solved by Neller and Presser.",
))
