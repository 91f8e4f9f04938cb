"""Card notation and the deck multiset."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pushluck_teach.cards import Card, CardError, Deck, parse_card, parse_cards, standard_cards


@pytest.mark.parametrize(
    ("token", "code"),
    [("Ah", "Ah"), ("td", "Td"), ("10d", "Td"), ("10♦", "Td"), ("7c", "7c"), ("Qs", "Qs"),
     ("q♠", "Qs"), ("JK", "JK"), ("jk", "JK"), ("K♥️", "Kh")],
)
def test_parse_card_accepts_the_notation(token: str, code: str) -> None:
    assert parse_card(token).code == code


@pytest.mark.parametrize(
    ("token", "named"),
    [("1h", "'1h'"), ("Ax", "'Ax'"), ("11s", "'11s'"), ("Z", "'Z'"), ("J", "'J'")],
)
def test_bad_tokens_are_named_in_the_error(token: str, named: str) -> None:
    with pytest.raises(CardError, match=named):
        parse_card(token)


def test_parse_cards_splits_on_spaces_and_commas() -> None:
    assert [c.code for c in parse_cards("5h 9s,Jd ,  10c")] == ["5h", "9s", "Jd", "Tc"]
    assert parse_cards("") == ()
    assert parse_cards(None) == ()


def test_card_names_and_labels() -> None:
    ten = parse_card("Th")
    assert ten.label == "10♥" and ten.name == "Ten of hearts" and ten.is_red
    assert Card("JK").name == "Joker" and Card("JK").rank_index == 0
    assert parse_card("Ks").is_face and parse_card("Ks").rank_index == 13


def test_standard_deck_counts() -> None:
    deck = Deck.standard(jokers=2)
    assert len(deck) == 54
    assert deck.count(Card("JK")) == 2
    assert len(Deck.standard(decks=2)) == 104
    assert len(set(standard_cards())) == 52


def test_deck_remove_errors_name_the_card() -> None:
    deck = Deck.standard()
    smaller = deck.remove(parse_cards("Ah 2s"))
    assert len(smaller) == 50 and parse_card("Ah") not in smaller
    with pytest.raises(CardError, match="Ah appears more often than the deck holds it"):
        deck.remove(parse_cards("Ah 5c Ah"))
    with pytest.raises(CardError, match="Ah is not in"):
        smaller.remove(parse_cards("Ah"))
    with pytest.raises(CardError, match="JK is not in this game's deck"):
        deck.remove([Card("JK")])


def test_deck_is_an_immutable_hashable_value() -> None:
    a = Deck(parse_cards("Ah 2s 2s"))
    b = Deck(parse_cards("2s Ah 2s"))
    assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    a.remove(parse_cards("2s"))
    assert len(a) == 3


@given(st.lists(st.sampled_from(standard_cards(jokers=2)), max_size=30, unique=True))
def test_remove_then_add_round_trips(cards: list[Card]) -> None:
    deck = Deck.standard(jokers=2, decks=2)
    smaller = deck.remove(cards)
    assert len(smaller) == len(deck) - len(cards)
    assert smaller.add(cards) == deck
