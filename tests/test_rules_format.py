"""The share format of rule sets: JSON, JSON Schema, ?rules= tokens, bad fields."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pushluck_teach.cards import RANKS, SUITS
from pushluck_teach.games.base import RulesError
from pushluck_teach.games.captain_seven import CaptainSevenVariant
from pushluck_teach.games.custom import BUILT_GAMES, CardSet, CountRule, RuleSet
from pushluck_teach.games.lands_uncharted import LandsUnchartedVariant
from pushluck_teach.games.rules_format import (
    FORMAT,
    RULES_SCHEMA,
    rules_from_json,
    rules_from_token,
    rules_to_json,
    rules_to_token,
    schema_text,
)

DOCS_SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "rules-schema.json"


def test_published_schema_is_the_one_the_code_checks() -> None:
    assert DOCS_SCHEMA.read_text(encoding="utf-8") == schema_text()
    jsonschema.Draft202012Validator.check_schema(json.loads(DOCS_SCHEMA.read_text()))


@pytest.mark.parametrize("rules", [*BUILT_GAMES.values(), CaptainSevenVariant(target=150),
                                   LandsUnchartedVariant(cursed_idol=("spades",), solo=True)])
def test_round_trip_and_the_published_schema_accepts_exports(rules) -> None:
    text = rules_to_json(rules)
    jsonschema.validate(json.loads(text), json.loads(DOCS_SCHEMA.read_text()))
    assert rules_from_json(text) == rules
    token = rules_to_token(rules)
    assert all(c.isalnum() or c in "-_" for c in token)
    assert rules_from_token(token) == rules


def test_exports_are_short() -> None:
    for rules in BUILT_GAMES.values():
        assert len(rules_to_json(rules)) < 300
        assert len(rules_to_token(rules)) < 300


# --------------------------------------------------------------------------------------------
# Hypothesis: import(export(x)) == x

_ranks = st.lists(st.sampled_from([*RANKS, "JK"]), max_size=4, unique=True)
_suits = st.lists(st.sampled_from(SUITS), max_size=2, unique=True)
_codes = st.lists(st.sampled_from(["Qs", "7h", "Td", "Ac", "JK"]), max_size=2, unique=True)


@st.composite
def card_sets(draw: st.DrawFn) -> CardSet:
    ranks, suits, cards = draw(_ranks), draw(_suits), draw(_codes)
    if not (ranks or suits or cards):
        ranks = ["K"]
    return CardSet(ranks=tuple(ranks), suits=tuple(suits), cards=tuple(cards))


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    dice = draw(st.sampled_from([0, 0, 0, 6, 8]))
    common = {
        "name": draw(st.text(alphabet="abc XYZ-'é", min_size=1, max_size=20).filter(
            lambda s: s.strip())),
        "first_draw_safe": draw(st.booleans()),
        "bank_minimum": draw(st.integers(0, 30)),
        "bust_penalty": draw(st.integers(0, 20)),
        "target": draw(st.integers(1, 500)),
        "bust_ending": draw(st.none() | st.integers(0, 9)),
    }
    if draw(st.booleans()):
        common["bonus_total"] = draw(st.integers(0, 40))
        common["bonus"] = draw(st.integers(0, 10))
    if dice:
        face = st.sampled_from([str(i) for i in range(1, dice + 1)])
        rules = [CountRule(kind=CardSet(ranks=(draw(face),)), n=1)]
        values = draw(st.dictionaries(face, st.integers(1, 12), max_size=3))
        return RuleSet(dice=dice, bust_counts=tuple(rules), values=tuple(values.items()),
                       bust_over=draw(st.none() | st.integers(10, 60)), **common)
    rules = tuple(CountRule(kind=draw(card_sets()), n=draw(st.integers(1, 4)),
                            per_rank=draw(st.booleans()))
                  for _ in range(draw(st.integers(0, 3))))
    values = draw(st.dictionaries(st.sampled_from([*RANKS, "JK"]), st.integers(0, 15),
                                  max_size=4))
    return RuleSet(
        decks=draw(st.integers(1, 2)), jokers=draw(st.integers(0, 2)),
        remove_suits=tuple(draw(st.lists(st.sampled_from(SUITS), max_size=2, unique=True))),
        remove_ranks=tuple(draw(st.lists(st.sampled_from(RANKS), max_size=3, unique=True))),
        values=tuple(values.items()), bust_counts=rules,
        bust_over=draw(st.none() | st.integers(0, 60)),
        allies=draw(st.none() | card_sets()), allies_persist=draw(st.booleans()),
        reshuffle_each_turn=draw(st.booleans()), **common)


@settings(max_examples=120, deadline=None)
@given(rule_sets())
def test_import_of_export_is_the_same_rule_set(rules: RuleSet) -> None:
    assert rules_from_json(rules_to_json(rules)) == rules
    assert rules_from_token(rules_to_token(rules)) == rules
    assert rules_from_json(rules_to_json(rules, indent=2)) == rules


# --------------------------------------------------------------------------------------------
# Every bad field is named


def _file(**fields: object) -> str:
    return json.dumps({"format": FORMAT, **fields})


BAD_FILES = [
    ("not json", "{'format': 1}", "not JSON"),
    ("not an object", "[1, 2]", "expected a JSON object"),
    ("no format", json.dumps({"decks": 1}), "'format': missing"),
    ("wrong format", json.dumps({"format": "pushluck-rules/9"}), "'format': must be"),
    ("unknown field", _file(colour="red"), "'colour': unknown field"),
    ("name empty", _file(name=""), "'name'"),
    ("name type", _file(name=3), "'name'"),
    ("decks range", _file(decks=9), "'decks': 9 is greater than the maximum of 4"),
    ("decks type", _file(decks="two"), "'decks'"),
    ("jokers", _file(jokers=3), "'jokers'"),
    ("remove_ranks", _file(remove_ranks=["Z"]), "'remove_ranks[0]': 'Z' is not a rank"),
    ("remove_suits", _file(remove_suits=["x"]), "'remove_suits[0]'"),
    ("remove_cards", _file(remove_cards=["Zz"]), "'remove_cards[0]': 'Zz' is not a card"),
    ("all removed", _file(remove_suits=["s", "h", "d", "c"]), "'remove_ranks'"),
    ("dice too many faces", _file(dice=31), "'dice'"),
    ("dice endless", _file(dice=6, bust_over=None), "'bust_counts'"),
    ("dice face zero", _file(dice=6, values={"1": 0}, bust_over=30), "'values'"),
    ("value negative", _file(values={"J": -1}), "'values.J'"),
    ("value rank", _file(values={"Z": 1}), "'values'"),
    ("bust kind missing", _file(bust_counts=[{"n": 2}]), "'bust_counts[0].kind': missing"),
    ("bust kind empty", _file(bust_counts=[{"kind": {}}]), "'bust_counts[0].kind'"),
    ("bust kind key", _file(bust_counts=[{"kind": {"colour": ["red"]}}]),
     "'bust_counts[0].kind.colour': unknown field"),
    ("bust n", _file(bust_counts=[{"kind": {"ranks": ["K"]}, "n": 0}]), "'bust_counts[0].n'"),
    ("bust per_rank", _file(bust_counts=[{"kind": {"ranks": ["K"]}, "per_rank": "yes"}]),
     "'bust_counts[0].per_rank'"),
    ("bust face off the die", _file(dice=6, bust_counts=[{"kind": {"ranks": ["9"]}, "n": 1}]),
     "'bust_counts[0].kind.ranks'"),
    ("bust_over", _file(bust_over=-1), "'bust_over'"),
    ("bust_ending", _file(bust_ending=10), "'bust_ending'"),
    ("first_draw_safe", _file(first_draw_safe="yes"), "'first_draw_safe'"),
    ("bank_minimum", _file(bank_minimum=-2), "'bank_minimum'"),
    ("bonus total type", _file(bonus_total=[21]), "'bonus_total'"),
    ("bonus_total", _file(bonus_total="21"), "'bonus_total'"),
    ("allies empty", _file(allies={}), "'allies'"),
    ("allies on dice", _file(dice=6, allies={"ranks": ["2"]},
                             bust_counts=[{"kind": {"ranks": ["1"]}, "n": 1}]), "'allies'"),
    ("allies_persist", _file(allies_persist=1), "'allies_persist'"),
    ("bust_penalty negative", _file(bust_penalty=-5), "'bust_penalty'"),
    ("bonus negative", _file(bonus_total=21, bonus=-3), "'bonus'"),
    ("reshuffle_each_turn", _file(reshuffle_each_turn="no"), "'reshuffle_each_turn'"),
    ("target", _file(target=0), "'target'"),
    ("unknown game", json.dumps({"format": FORMAT, "game": "chess"}), "unknown game 'chess'"),
    ("bad game option", json.dumps({"format": FORMAT, "game": "pig",
                                    "options": {"die_sides": 1}}), "'die_sides'"),
    ("unknown game option", json.dumps({"format": FORMAT, "game": "pig",
                                        "options": {"colour": 1}}), "'colour'"),
]


@pytest.mark.parametrize(("text", "expected"), [(t, e) for _, t, e in BAD_FILES],
                         ids=[name for name, _, _ in BAD_FILES])
def test_every_bad_field_is_named(text: str, expected: str) -> None:
    with pytest.raises(RulesError) as caught:
        rules_from_json(text)
    message = str(caught.value)
    assert expected in message
    assert "\n" not in message


@pytest.mark.parametrize("token", ["", "!!!", "eJzLSM3JyQcABiwCFQ", "A" * 30])
def test_damaged_links_are_one_line_errors(token: str) -> None:
    with pytest.raises(RulesError):
        rules_from_token(token)


def test_schema_names_every_rule_set_field() -> None:
    built = RULES_SCHEMA["oneOf"][0]["properties"]
    assert set(built) - {"format"} == set(RuleSet.option_names())


def test_without_jsonschema_the_games_still_load_and_rule_files_are_checked() -> None:
    """The in-browser build has no jsonschema: importing the games must not need it, and a
    rule file is still read (its shape checked here, its fields by the rule set)."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent("""
        import importlib.abc, sys
        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name.split(".")[0] == "jsonschema":
                    raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        sys.meta_path.insert(0, Block())
        from pushluck_teach.games import get_game
        from pushluck_teach.games.base import RulesError
        from pushluck_teach.games.custom import PIG_RULES
        from pushluck_teach.games.rules_format import rules_from_json, rules_to_json
        assert rules_from_json(rules_to_json(PIG_RULES)) == PIG_RULES
        for bad, field in [('{"format": "pushluck-rules/1", "decks": 9}', "'decks'"),
                           ('{"format": "pushluck-rules/1", "colour": 1}', "'colour'"),
                           ('[1]', "JSON object"),
                           ('{"format": "pushluck-rules/1", "bust_counts": [{"n": 2}]}',
                            "bust_counts")]:
            try:
                rules_from_json(bad)
            except RulesError as exc:
                assert field in str(exc), (bad, str(exc))
            else:
                raise AssertionError(bad)
        print("ok", get_game("custom").title)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("ok")
