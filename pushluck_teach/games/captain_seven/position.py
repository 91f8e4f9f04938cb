"""Captain Seven's positions: a turn read from its cards drawn, the relics and the cards out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pushluck_teach.cards import Card, parse_cards
from pushluck_teach.games.base import PositionError
from pushluck_teach.games.captain_seven.levels import encode_state
from pushluck_teach.games.captain_seven.rules import (
    RELIC_RANKS,
    CaptainSevenVariant,
    _class_counts,
    card_class,
    card_value,
    full_deck,
)
from pushluck_teach.games.captain_seven.turn import CaptainSevenTurnModel, _parse_relic
from pushluck_teach.quoting import quoted


def _doubled_index(doubled: str | None, cards: Sequence[Card], gone: Sequence[Card],
                   relic_rank: str | None) -> int | None:
    """The index in ``cards`` of the card a spent queen relic doubled (``None``: none)."""
    if doubled is None or not str(doubled).strip():
        return None
    named = parse_cards(str(doubled))
    if len(named) != 1:
        raise PositionError(f"--doubled names the one card your queen relic doubled, not "
                            f"{len(named)} cards ({quoted(str(doubled))})")
    card = named[0]
    if card not in cards:
        raise PositionError(f"doubled card {card.code} is not among the drawn cards")
    if relic_rank is not None or not any(c.rank == "Q" for c in gone):
        raise PositionError("a doubled card needs your spent queen relic in --removed (and no "
                            "--relic: you hold none after spending it)")
    if card_value(card) == 0:
        raise PositionError(f"the queen doubles a card worth something, not {card.code}")
    return list(cards).index(card)


#: Relics the other players can hold at once (4 players, one relic each).
OTHER_RELICS_MAX = 3


def _check_removed(gone: Sequence[Card], relic_rank: str | None) -> None:
    """Refuse a ``removed`` list no game can produce (:class:`PositionError`, with the reason).

    With relics, a card is out of the deck during a turn only as a relic held by another player
    (at most :data:`OTHER_RELICS_MAX`, each an A, J, Q or K), as your own relic spent this turn
    (then you hold none, so no ``relic``), or as the one card a spent jack discarded this turn.
    """
    if not gone:
        return
    others = [c for c in gone if c.rank not in RELIC_RANKS]
    jack_spent = relic_rank is None and any(c.rank == "J" for c in gone)
    limit = OTHER_RELICS_MAX + (0 if relic_rank is not None else 1 + int(jack_spent))
    if len(gone) > limit:
        why = ("the other players' relics (3 at most)" if relic_rank is not None else
               "the other players' relics (3 at most), your spent relic and one card a jack "
               "discarded")
        raise PositionError(f"{len(gone)} cards removed, but only {why} can be out of the deck "
                            f"(at most {limit} here)")
    if not others:
        return
    listed = " ".join(c.code for c in others)
    if len(others) > 1:
        raise PositionError(f"cards {listed} cannot all be out of the deck: besides relics "
                            "(A, J, Q, K) only the one card a jack discarded is")
    if not jack_spent:
        raise PositionError(f"card {listed} cannot be out of the deck: it is not a relic (A, J, "
                            "Q, K), and only a spent jack relic (listed in --removed, with no "
                            "--relic) discards a card")



def captain_seven_position(variant: CaptainSevenVariant, *, drawn: Any = None,
                           relic: str | None = None, removed: Any = None,
                           doubled: str | None = None,
                           score: int | None = None, opponent: int | None = None,
                           ) -> tuple[CaptainSevenTurnModel, int]:
    """The turn after ``drawn`` (this turn's cards, in order).

    ``relic`` (``A``/``J``/``Q``/``K``, relics option only) is the relic you hold; its card is
    out of the deck, and a jack or queen is still unspent.  ``removed`` (relics option only):
    cards out of the deck for other reasons: relics held by the other players (or your own,
    spent this turn) and a card a jack discarded this turn.  A card the deck does
    not hold is a :class:`CardError`; a position in which you are already caught is a
    :class:`PositionError`.  ``doubled`` (relics only): the card of ``drawn`` that your queen
    relic doubled this turn (the spent queen is then in ``removed``, and you hold no relic).
    """
    for what, stash in (("score", score), ("opponent", opponent)):
        if stash is not None and (isinstance(stash, bool) or not isinstance(stash, int)
                                  or stash < 0):
            raise PositionError(f"bad {what} {quoted(stash)}: a stash is a whole number 0 or "
                                "more")
    cards = parse_cards(drawn)
    gone = parse_cards(removed)
    relic_rank = _parse_relic(relic)
    if (gone or relic_rank) and not variant.relics:
        raise PositionError(
            "--removed and --relic apply to captain-seven only with the relics option "
            "(each turn starts from the full deck)"
        )
    _check_removed(gone, relic_rank)
    deck = full_deck()
    deck = deck.remove(gone, what="deck (54 cards with 2 jokers)")
    deck = deck.remove(cards, what="deck (54 cards with 2 jokers)")
    out = _class_counts(gone)
    if relic_rank is not None:
        own = next((c for c in deck.distinct() if c.rank == relic_rank), None)
        if own is None:
            raise PositionError(f"no {relic_rank} is left for your relic: all are drawn or removed")
        out[card_class(own)] += 1
    model = CaptainSevenTurnModel(variant, relic_rank, tuple(out))
    doubled_at = _doubled_index(doubled, cards, gone, relic_rank)
    total = 0
    for index, card in enumerate(cards):
        value = card_value(card)
        if index > 0:
            if card.is_joker or card.rank == "7":
                raise PositionError(
                    f"card {card.code} catches you (a 7 or joker after the first card): "
                    "the turn is already over"
                )
            if (total + value) % 10 == 7:
                raise PositionError(
                    f"card {card.code} makes the total {total + value}, which ends in 7: "
                    "you are caught, the turn is already over"
                )
        total += value
        out[card_class(card)] += 1
        if index == doubled_at:
            total += value
            if index > 0 and total % 10 == 7:
                raise PositionError(f"the queen doubles {card.code} to a total of {total}, which "
                                    "ends in 7: you are caught, the turn is already over")
    state = encode_state(
        out, total, started=bool(cards), relic=model.relic_code,
        last=card_value(cards[-1]) if cards else None, last_first=len(cards) == 1,
    )
    model = CaptainSevenTurnModel(variant, relic_rank, model.out, state)
    return model, state
