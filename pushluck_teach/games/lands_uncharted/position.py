"""A Lands Uncharted position from what the player knows (the `pushluck odds` flags):
:func:`lands_uncharted_position`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pushluck_teach.cards import Card, CardError, Deck, parse_cards, standard_cards
from pushluck_teach.games.base import PositionError, parse_whole_number
from pushluck_teach.games.lands_uncharted.rules import START, LandsUnchartedVariant, card_class
from pushluck_teach.games.lands_uncharted.state import LUState, pack_counts
from pushluck_teach.games.lands_uncharted.turn import LandsUnchartedTurnModel


def lands_uncharted_position(
    variant: LandsUnchartedVariant, *, drawn: str | Iterable[str | Card] | None = None,
    removed: str | Iterable[str | Card] | None = None, allies: int | None = None,
    score: int | None = None, symmetric: bool = True, allies_elsewhere: int | None = None,
) -> tuple[LandsUnchartedTurnModel, LUState]:
    """A turn model and state from what the player knows.

    ``drawn``: this turn's cards in order (an ace is an ally; a bust is allowed only when an
    ally held at that moment stops it); ``removed``: cards out of the draw pile (treated as the
    discard pile, :mod:`.turn`'s docstring); ``allies``: allies held from earlier turns (aces
    out of the draw pile besides ``removed``); ``score``: the player's score on a *declared*
    double-or-nothing turn (needs the option and a score in the declare window);
    ``allies_elsewhere``: how many of the removed aces other players hold as allies (out of the
    draw pile and never reshuffled into it); ``symmetric=False`` gives the raw, unmerged
    model of the same position (for checks).
    """
    drawn_cards = parse_cards(drawn)
    removed_cards = parse_cards(removed)
    Deck.standard().remove(removed_cards, what="52-card deck")
    Deck.standard().remove(dict.fromkeys(drawn_cards), what="52-card deck")
    held = 0 if allies is None else allies
    if isinstance(held, str):
        held = parse_whole_number(held, "allies", PositionError)
    if isinstance(score, str):
        score = parse_whole_number(score, "score", PositionError)
    if isinstance(held, bool) or not isinstance(held, int) or held < 0:
        raise PositionError(f"allies must be a whole number of at least 0, not {allies!r}")
    if held and not variant.allies_persist:
        raise PositionError(f"allies {held}: with allies_persist off unused allies are discarded "
                            "at the end of every turn, so none are held from earlier turns")
    elsewhere = _allies_elsewhere(variant, allies_elsewhere, removed_cards)
    aces_out = sum(1 for c in {*removed_cards, *drawn_cards} if c.rank == "A")
    if held > 4 - aces_out:
        raise PositionError(
            f"allies {held}: only {4 - aces_out} aces are left outside the removed and drawn "
            "cards"
        )
    if score is not None:
        if not variant.double_or_nothing:
            raise PositionError("score applies to a declared double-or-nothing turn: "
                                "switch the option double_or_nothing on")
        if isinstance(score, bool) or not isinstance(score, int) or not variant.may_declare(score):
            low, high = variant.declare_window
            raise PositionError(
                f"score {score!r}: double or nothing is declared from a score of {low}-{high}"
            )
    suits = variant.cursed_suits
    pile = pack_counts(standard_cards(), suits) - pack_counts(removed_cards, suits) - held
    raw_state: LUState = (pile, 0, 0, held, START, int(score is not None))
    raw = LandsUnchartedTurnModel(variant, raw_state, elsewhere, score=score, symmetric=False)
    # A card may be out (removed) and then drawn, or drawn twice, only after the draw pile ran
    # out and the discard pile became the new draw pile during this turn.
    seen = Counter(removed_cards)
    reshuffled = False
    for i, card in enumerate(drawn_cards):
        reshuffled = reshuffled or not LandsUnchartedTurnModel.pile_size(raw_state[0])
        if seen[card] and not reshuffled:
            raise CardError(f"card {card.code} appears more often than the 52-card deck holds "
                            "it (1 copy), and the draw pile has not run out this turn")
        seen[card] += 1
        outcomes = raw._draw(raw_state, only=card_class(card, suits))
        if not outcomes or len(outcomes[0][1]) == 2:
            raise PositionError(_bust_reason(card, drawn_cards[:i], raw_state, variant))
        raw_state = outcomes[0][1]
    return LandsUnchartedTurnModel.build(variant, raw_state, aces_elsewhere=elsewhere,
                                         score=score, symmetric=symmetric)


def _allies_elsewhere(variant: LandsUnchartedVariant, given: int | str | None,
                      removed: tuple[Card, ...]) -> int:
    """The ``allies_elsewhere`` flag checked: other players' allies are among the removed
    aces, and exist only when allies stay between turns in a game of several players."""
    if given is None:
        return 0
    count = parse_whole_number(given, "allies_elsewhere", PositionError) if isinstance(
        given, str) else given
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise PositionError(
            f"allies_elsewhere must be a whole number of at least 0, not {given!r}")
    if count and variant.solo:
        raise PositionError(f"allies_elsewhere {count}: a solo game has no other players")
    if count and not variant.allies_persist:
        raise PositionError(f"allies_elsewhere {count}: with allies_persist off every player's "
                            "unused allies are discarded at the end of their turn")
    removed_aces = sum(1 for card in set(removed) if card.rank == "A")
    if count > removed_aces:
        raise PositionError(
            f"allies_elsewhere {count}: only {removed_aces} aces are among the removed cards "
            "(list other players' allies in --removed too)")
    return count


def _bust_reason(card: Card, before: tuple[Card, ...], state: LUState,
                 variant: LandsUnchartedVariant) -> str:
    shown = " ".join(c.code for c in before) or "nothing"
    if card.is_face and card.rank == "Q" and card.suit == "c" and "c" in variant.cursed_suits:
        why = "the cursed Q♣ busts at once"
    elif card.is_face:
        why = "a second threat"
    elif state[1] >> card_class(card) & 1:
        why = f"a second {card.rank if card.rank != 'T' else '10'} in the haul"
    else:
        why = f"score + haul passes {variant.target} on a double-or-nothing turn"
    return (f"card {card.code} busts the turn ({why}, no ally left after {shown}): "
            "the position is already over")
