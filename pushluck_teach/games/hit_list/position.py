"""A Hit List job read from position flags (``pushluck odds hit-list``: ``drawn``,
``removed``, ``ace_values``, ``hits``) as a turn model and its state."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pushluck_teach.cards import parse_cards
from pushluck_teach.games.base import OptionError, PositionError, comma_list, parse_whole_number
from pushluck_teach.games.hit_list.rules import (
    HITS_TO_WIN,
    HitListVariant,
    card_class,
    card_value,
    deck_counts,
)
from pushluck_teach.games.hit_list.turn import HitListTurnModel, HitState
from pushluck_teach.quoting import quoted

PENDING_ACE = "?"


def parse_ace_values(text: str | Iterable[int | str] | None, aces: int, soft: bool
                     ) -> tuple[int | None, ...]:
    """The value chosen for each ace drawn (``"11,1"``); default 1 each.  ``?`` as the last
    value (``"1,?"``) means the last ace's value is still to be chosen (None here)."""
    if text is None:
        return (1,) * aces
    if soft:
        raise PositionError(
            "--ace-values does not apply with soft_aces (aces count like blackjack)")
    if isinstance(text, str) and "," in text:
        tokens: list[int | str] = list(comma_list(text, "--ace-values", PositionError))
    elif isinstance(text, str):
        tokens = text.split()
    elif isinstance(text, (list, tuple)):
        tokens = list(text)
    else:
        raise PositionError(f"--ace-values {quoted(text)}: give text such as '11,1' or a list "
                            "of 1s and 11s")
    values: list[int | None] = []
    for index, token in enumerate(tokens):
        if str(token).strip() == PENDING_ACE and index == len(tokens) - 1:
            values.append(None)
            continue
        if str(token).strip() not in ("1", "11"):
            raise PositionError(f"bad ace value {quoted(str(token))}: an ace counts 1 or 11 (or ?, "
                                "for the last ace, while its value is still to be chosen)")
        values.append(int(token))
    if len(values) != aces:
        raise PositionError(
            f"--ace-values gives {len(values)} value(s) but the drawn cards hold {aces} ace(s)"
        )
    return tuple(values)


def _check_hits(variant: HitListVariant, hits: int) -> None:
    """Refuse hit counts no game reaches before a job (:class:`PositionError` with the reason).

    Without ``long_haul`` a player with 5 hits never takes another job (the 5th hit ends the
    game or starts the last round, in which only the players after them play).  (Each earlier
    hit also took at least 2 cards out of the deck; that is not required of ``removed``, because
    the solo model deliberately asks for a job with hits from a fresh deck.)
    """
    if not variant.long_haul and hits >= HITS_TO_WIN:
        raise PositionError(f"hits {hits}: a player with {HITS_TO_WIN} hits takes no more jobs "
                            "(only long_haul plays on)")


def hit_list_position(variant: HitListVariant, *, drawn: str | Iterable[Any] | None = None,
                      removed: str | Iterable[Any] | None = None,
                      ace_values: str | Iterable[int | str] | None = None,
                      hits: int | str | None = None) -> tuple[HitListTurnModel, HitState]:
    """A job in progress: ``drawn`` this job's cards in order, ``removed`` every other card out
    of the deck, ``ace_values`` the value chosen for each ace in ``drawn`` (default 1),
    ``hits`` the hits completed before this job (default 0; used by ``one_last_job``)."""
    if not isinstance(variant, HitListVariant):
        raise OptionError(f"not a Hit List variant: {type(variant).__name__}")
    drawn_cards = parse_cards(drawn)
    removed_cards = parse_cards(removed)
    full = variant.full_deck()
    full.remove([*removed_cards, *drawn_cards], what="deck")  # names a card held too few times
    deck0 = full.remove(removed_cards, what="deck")
    if hits is None:
        hits = 0
    elif isinstance(hits, str):
        hits = parse_whole_number(hits, "hits", PositionError)
    if not isinstance(hits, int) or isinstance(hits, bool) or hits < 0:
        raise PositionError(f"bad --hits {hits!r}: the hits completed must be 0 or more")
    _check_hits(variant, hits)
    aces = sum(1 for c in drawn_cards if c.rank == "A")
    chosen = parse_ace_values(ace_values, aces, variant.soft_aces)
    if chosen and chosen[-1] is None and drawn_cards[-1].rank != "A":
        raise PositionError("--ace-values ends with ? (a value still to choose) but the last "
                            "card drawn is not an ace")
    values = iter(chosen)
    opening = tuple(
        (card_class(c), next(values) if c.rank == "A" and not variant.soft_aces else
         card_value(c) if c.rank != "A" else 1)
        for c in drawn_cards
    )
    model = HitListTurnModel(variant, deck_counts(deck0), hits, opening)
    state = model.state_after(opening, names=[c.code for c in drawn_cards])
    if not model.actions(state):
        raise PositionError("the deck is empty and this job may not be executed: the game is over")
    return model, state
