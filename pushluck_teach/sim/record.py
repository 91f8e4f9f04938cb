"""Bot games, recorded: ``pushluck record GAME --seed S --seats optimal,threshold:20``."""

from __future__ import annotations

from collections.abc import Sequence

from pushluck_teach.games.base import GameSpec, RulesError, Variant
from pushluck_teach.games.record import GameRecord, RecordBuilder, Seat
from pushluck_teach.sim.bots import make_bot

#: More moves than any game of the app's games takes (a guard against a game that never ends).
MAX_BOT_MOVES = 100_000


def play_recorded_game(spec: GameSpec, variant: Variant | None, seats: Sequence[str],
                       seed: int, *, max_moves: int = MAX_BOT_MOVES) -> GameRecord:
    """Play one game with a bot at every seat (``make_bot`` texts: ``optimal``,
    ``threshold:20``, a game's own bots...) from ``seed``; its record."""
    if not spec.min_players <= len(seats) <= spec.max_players:
        raise RulesError(f"{spec.name} takes {spec.min_players}-{spec.max_players} seats, not "
                         f"{len(seats)}")
    bots = [make_bot(text.strip(), spec) for text in seats]
    builder = RecordBuilder.start(
        spec, variant, seats=[Seat(bot.name, text.strip()) for bot, text in zip(bots, seats,
                                                                                strict=True)],
        seed=seed)
    engine = builder.engine
    for _ in range(max_moves):
        if engine.is_over:
            break
        builder.act(bots[engine.current_player].choose(engine))
    else:
        raise RulesError(f"{spec.name}: the game did not end within {max_moves} moves")
    return builder.to_record()


__all__ = ["MAX_BOT_MOVES", "play_recorded_game"]
