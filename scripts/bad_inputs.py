#!/usr/bin/env python3
"""The bad-input table: every bad input and impossible position we try, with the message it gets.

One source for three things:

* ``cases()`` lists the inputs: hand-picked ones (each found by trying, most from the issues) and
  generated ones (every option of every game with values outside its allowed range, digits that
  are not 0-9, words it does not take; bad card tokens; cards a game's deck does not hold).
  A case is a command line (``argv`` for ``pushluck``) or an API call (``api``: a variant from
  options, or a position from position flags), with ``names``: a piece of text the message must
  contain (what was wrong).
* ``tests/data/bad_inputs.json`` records each case with the one-line message it gets now.
  ``tests/test_bad_inputs.py`` runs every case and checks the rules of the table (CLI: exit
  status 2, nothing on stdout, one line on stderr, no traceback, quick; API: the right error
  class) and that the message is still the recorded one.
* ``docs/bad-inputs.md`` is rendered from the JSON by :func:`render_doc` (the test checks it is
  up to date, so the document cannot drift).

Usage::

    python scripts/bad_inputs.py            # run every case, rewrite the JSON and the doc
    python scripts/bad_inputs.py --check    # exit 1 if the JSON or the doc is out of date

To add a case, add it to ``LISTED`` (or a generator) and run the script; review the new
messages in the diff.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import time
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "bad_inputs.json"
#: Rule files that cannot be used; cases run in the repository's folder.
BAD_RULES = "tests/data/bad_rules/"
#: A named pipe nobody writes to, made when a case names it.
FIFO = "/tmp/pushluck-bad-inputs.fifo"
DOC = ROOT / "docs" / "bad-inputs.md"

# Hand-picked cases: (what, argv or api call, text the message must contain).
LISTED: list[dict[str, Any]] = [
    # ---- digits that are not 0-9 --------------------------------------------------
    {"what": "a superscript two as a Pig roll", "argv": ["odds", "pig", "--drawn", "²"],
     "names": "'²'"},
    {"what": "full-width digits as a Pig roll", "argv": ["odds", "pig", "--drawn", "１２"],
     "names": "'１２'"},
    {"what": "a superscript two as an Incan Gold threshold",
     "argv": ["odds", "incan-gold", "--drawn", "5h", "--others", "²"], "names": "'²'"},
    {"what": "full-width digits as an Incan Gold threshold",
     "argv": ["odds", "incan-gold", "--others", "５"], "names": "'５'"},
    {"what": "a negative Incan Gold threshold", "argv": ["odds", "incan-gold", "--others", "-3"],
     "names": "-3"},
    {"what": "eight other explorers (the model takes 1-7: a table seats at most 8)",
     "argv": ["odds", "incan-gold", "--others", "1,2,3,4,5,6,7,8"],
     "names": "1-7 other explorers"},
    {"what": "a superscript die size", "argv": ["odds", "pig", "--option", "die_sides=²"],
     "names": "die_sides"},
    {"what": "a number with thousands of digits",
     "argv": ["odds", "pig", "--option", "target=" + "9" * 5000], "names": "far too large"},
    # ---- unbounded options ----------------------------------------------------------
    {"what": "a 100-sided die (a minute to solve before)",
     "argv": ["odds", "pig", "--option", "die_sides=100"], "names": "2-20"},
    {"what": "a 200-sided die (RecursionError before)",
     "argv": ["odds", "pig", "--option", "die_sides=200"], "names": "2-20"},
    {"what": "a 100,000-sided die for the whole game (hung before)",
     "argv": ["solve", "pig", "--option", "die_sides=100000"], "names": "2-20"},
    {"what": "a Pig target beyond the whole-game solver",
     "argv": ["solve", "pig", "--target", "1000"], "names": "1-200"},
    # ---- impossible positions -------------------------------------------------------
    {"what": "Captain Seven: five number cards out of the deck",
     "argv": ["odds", "captain-seven", "--option", "relics=true", "--removed", "2s 3s 4s 5s 6s"],
     "names": "5 cards removed"},
    {"what": "Captain Seven: all 54 cards removed",
     "argv": ["odds", "captain-seven", "--option", "relics=true", "--removed",
              "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh "
              "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc "
              "JK JK"], "names": "54 cards removed"},
    {"what": "Captain Seven: a number card out without a spent jack",
     "argv": ["odds", "captain-seven", "--option", "relics=true", "--removed", "5s"],
     "names": "5s"},
    {"what": "Captain Seven: two discarded cards",
     "argv": ["odds", "captain-seven", "--option", "relics=true", "--removed", "Js 5s 6s"],
     "names": "5s 6s"},
    {"what": "Captain Seven: a discard while the jack is still held",
     "argv": ["odds", "captain-seven", "--option", "relics=true", "--relic", "J", "--removed",
              "5s"], "names": "5s"},
    {"what": "Captain Seven: four relics out besides yours",
     "argv": ["odds", "captain-seven", "--option", "relics=true", "--relic", "A", "--removed",
              "Ks Kh Qd Jc"], "names": "4 cards removed"},
    {"what": "Captain Seven: removed cards without relics",
     "argv": ["odds", "captain-seven", "--removed", "Ks"], "names": "relics"},
    {"what": "Captain Seven: a relic without the relics option",
     "argv": ["odds", "captain-seven", "--relic", "Q"], "names": "relics"},
    {"what": "Captain Seven: an unknown relic",
     "argv": ["odds", "captain-seven", "--option", "relics=true", "--relic", "7"],
     "names": "'7'"},
    {"what": "Captain Seven: a second card that is a seven",
     "argv": ["odds", "captain-seven", "--drawn", "5h 7s"], "names": "7s"},
    {"what": "Captain Seven: a total ending in 7",
     "argv": ["odds", "captain-seven", "--drawn", "5h 2s"], "names": "ends in 7"},
    {"what": "Lands Uncharted: allies from earlier turns without allies_persist",
     "argv": ["odds", "lands-uncharted", "--allies", "2", "--option", "allies_persist=false"],
     "names": "allies_persist"},
    {"what": "Lands Uncharted: five allies", "argv": ["odds", "lands-uncharted", "--allies", "5"],
     "names": "allies 5"},
    {"what": "Lands Uncharted: an ally held and all four aces drawn",
     "argv": ["odds", "lands-uncharted", "--allies", "1", "--drawn", "As Ah Ad Ac"],
     "names": "allies 1"},
    {"what": "Lands Uncharted: other players' allies that are not among the removed cards",
     "argv": ["odds", "lands-uncharted", "--removed", "As 5c", "--allies-elsewhere", "2"],
     "names": "only 1 aces"},
    {"what": "Lands Uncharted: other players' allies without allies_persist",
     "argv": ["odds", "lands-uncharted", "--removed", "As", "--allies-elsewhere", "1",
              "--option", "allies_persist=false"], "names": "allies_persist"},
    {"what": "Lands Uncharted: other players' allies in a solo game",
     "argv": ["odds", "lands-uncharted", "--removed", "As", "--allies-elsewhere", "1",
              "--option", "solo=true"], "names": "solo"},
    {"what": "Lands Uncharted: a negative count of other players' allies",
     "argv": ["odds", "lands-uncharted", "--removed", "As", "--allies-elsewhere=-1"],
     "names": "-1"},
    {"what": "Lands Uncharted: other players' allies as a word",
     "api": {"game": "lands-uncharted", "position": {"removed": "As", "allies_elsewhere": "one"}},
     "error": "PositionError", "names": "'one'"},
    {"what": "Lands Uncharted: a pair in the haul",
     "argv": ["odds", "lands-uncharted", "--drawn", "5s 5h"], "names": "5h"},
    {"what": "Lands Uncharted: a score without double or nothing",
     "argv": ["odds", "lands-uncharted", "--score", "95"], "names": "double_or_nothing"},
    {"what": "Lands Uncharted: a declared turn from a score outside 90-99",
     "argv": ["odds", "lands-uncharted", "--score", "50", "--option", "double_or_nothing=true"],
     "names": "90-99"},
    {"what": "Hit List: a sixth hit without long_haul",
     "argv": ["odds", "hit-list", "--hits", "6"], "names": "hits 6"},
    {"what": "Hit List: a fifth hit without long_haul",
     "argv": ["odds", "hit-list", "--hits", "5", "--option", "one_last_job=true"],
     "names": "hits 5"},
    {"what": "Hit List: a job over 21", "argv": ["odds", "hit-list", "--drawn", "Ts 9h 5c"],
     "names": "5c"},
    {"what": "Hit List: two face cards", "argv": ["odds", "hit-list", "--drawn", "Qs Kh"],
     "names": "second face"},
    {"what": "Hit List: an ace value that is not 1 or 11",
     "argv": ["odds", "hit-list", "--drawn", "Ah", "--ace-values", "5"], "names": "'5'"},
    {"what": "Hit List: more ace values than aces",
     "argv": ["odds", "hit-list", "--drawn", "Ah", "--ace-values", "1,11"], "names": "ace"},
    {"what": "Hit List: ace values with soft aces",
     "argv": ["odds", "hit-list", "--drawn", "Ah", "--ace-values", "11", "--option",
              "soft_aces=true"], "names": "soft_aces"},
    {"what": "Hit List: the deck is gone and the job may not be executed",
     "api": {"game": "hit-list", "position": {
         "drawn": "2s 3s",
         "removed": "As 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh "
                    "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc "
                    "Qc Kc"}}, "error": "PositionError", "names": "deck is empty"},
    {"what": "Incan Gold: a trap that springs",
     "argv": ["odds", "incan-gold", "--drawn", "5s 6s"], "names": "6s"},
    {"what": "Incan Gold: a card not in the game",
     "argv": ["odds", "incan-gold", "--drawn", "2c"], "names": "2c"},
    {"what": "Incan Gold: a round after the last",
     "argv": ["odds", "incan-gold", "--round", "6"], "names": "1-5"},
    {"what": "Incan Gold: round 4 in a three-round game",
     "argv": ["odds", "incan-gold", "--round", "4", "--option", "rounds=3"], "names": "1-3"},
    {"what": "Incan Gold: an artifact flipped before its round",
     "argv": ["odds", "incan-gold", "--drawn", "Qh", "--round", "2"], "names": "Qh"},
    {"what": "Incan Gold: a treasure out of the game",
     "argv": ["odds", "incan-gold", "--removed", "Kd"], "names": "Kd"},
    {"what": "Incan Gold: three traps gone before round 2",
     "argv": ["odds", "incan-gold", "--removed", "As 5s 9s", "--round", "2"],
     "names": "3 traps removed"},
    {"what": "Incan Gold: a trap gone with remove_sprung_trap off",
     "argv": ["odds", "incan-gold", "--removed", "As", "--round", "2", "--option",
              "remove_sprung_trap=false"], "names": "remove_sprung_trap"},
    {"what": "Pig: a roll of 1 (the turn is over)", "argv": ["odds", "pig", "--drawn", "3 1"],
     "names": "roll 1"},
    {"what": "Pig: a face the die does not have",
     "argv": ["odds", "pig", "--drawn", "7"], "names": "'7'"},
    {"what": "Pig: a face beyond a four-sided die",
     "argv": ["odds", "pig", "--drawn", "5", "--option", "die_sides=4"], "names": "1-4"},
    # ---- command-line numbers and pipes (phase B) ------------------------------------------
    {"what": "a superscript round", "argv": ["odds", "incan-gold", "--round", "²"],
     "names": "'²'"},
    {"what": "a full-width round", "argv": ["odds", "incan-gold", "--round", "１２"],
     "names": "'１２'"},
    {"what": "a round written as a word", "argv": ["odds", "incan-gold", "--round", "two"],
     "names": "'two'"},
    {"what": "a superscript hit count", "argv": ["odds", "hit-list", "--hits", "²"],
     "names": "'²'"},
    {"what": "full-width allies", "argv": ["odds", "lands-uncharted", "--allies", "１"],
     "names": "'１'"},
    {"what": "a score written as a fraction",
     "argv": ["odds", "lands-uncharted", "--score", "92.5", "--option",
              "double_or_nothing=true"], "names": "'92.5'"},
    {"what": "a superscript hold policy",
     "argv": ["solve", "pig", "--policy", "hold:²", "--policy", "hold:20"], "names": "hold:²"},
    {"what": "a full-width hold policy",
     "argv": ["solve", "pig", "--policy", "hold:２０", "--policy", "hold:20"],
     "names": "hold:２０"},
    {"what": "a hold policy of zero", "argv": ["solve", "pig", "--policy", "hold:0",
                                               "--policy", "hold:20"], "names": "hold:0"},
    {"what": "a full-width target for the whole game",
     "argv": ["solve", "pig", "--target", "１００"], "names": "'１００'"},
    {"what": "a superscript player count", "argv": ["solve", "pig", "--players", "²"],
     "names": "'²'"},
    {"what": "Captain Seven: a doubled card that was not drawn",
     "argv": ["odds", "captain-seven", "--option", "relics=true", "--drawn", "5h",
              "--removed", "Qs", "--doubled", "9h"], "names": "9h"},
    {"what": "Captain Seven: a doubled card without a spent queen",
     "argv": ["odds", "captain-seven", "--option", "relics=true", "--drawn", "5h",
              "--doubled", "5h"], "names": "queen"},
    {"what": "Captain Seven: a doubling that makes a total ending in 7",
     "argv": ["odds", "captain-seven", "--option", "relics=true", "--drawn", "5h 6s",
              "--removed", "Qs", "--doubled", "6s"], "names": "ends in 7"},
    {"what": "Captain Seven: the queen doubling a joker",
     "argv": ["odds", "captain-seven", "--option", "relics=true", "--drawn", "JK",
              "--removed", "Qs", "--doubled", "JK"], "names": "JK"},
    # ---- flags and games ----------------------------------------------------------------------
    {"what": "an unknown game", "argv": ["odds", "poker"], "names": "'poker'"},
    {"what": "a flag another game takes", "argv": ["odds", "pig", "--allies", "1"],
     "names": "--allies"},
    {"what": "an option without a value", "argv": ["odds", "pig", "--option", "target"],
     "names": "KEY=VALUE"},
    {"what": "an option of another game", "argv": ["odds", "pig", "--option", "relics=true"],
     "names": "'relics'"},
    # ---- the API ------------------------------------------------------------------------------
    {"what": "API: allies as a fraction",
     "api": {"game": "lands-uncharted", "position": {"allies": 1.5}},
     "error": "PositionError", "names": "1.5"},
    {"what": "API: allies as a word", "api": {"game": "lands-uncharted",
                                              "position": {"allies": "two"}},
     "error": "PositionError", "names": "'two'"},
    {"what": "API: a round given as True", "api": {"game": "incan-gold",
                                                   "position": {"round": True}},
     "error": "PositionError", "names": "True"},
    {"what": "API: a round as full-width digits",
     "api": {"game": "incan-gold", "position": {"round": "２"}}, "error": "PositionError",
     "names": "'２'"},
    {"what": "API: hits as a superscript",
     "api": {"game": "hit-list", "position": {"hits": "²"}}, "error": "PositionError",
     "names": "'²'"},
    {"what": "API: a negative hit count", "api": {"game": "hit-list", "position": {"hits": -1}},
     "error": "PositionError", "names": "-1"},
    {"what": "API: thresholds as fractions",
     "api": {"game": "incan-gold", "position": {"others": [2.5]}}, "error": "PositionError",
     "names": "2.5"},
    {"what": "API: a target given as True",
     "api": {"game": "pig", "options": {"target": True}}, "error": "OptionError",
     "names": "target"},
    {"what": "API: a boolean option given as 1",
     "api": {"game": "hit-list", "options": {"ghost": 1}}, "error": "OptionError",
     "names": "ghost"},
    {"what": "API: a cursed queen that does not exist",
     "api": {"game": "lands-uncharted", "options": {"cursed_idol": ["hearts", "stars"]}},
     "error": "OptionError", "names": "'stars'"},
    # ---- built games: the options a generator cannot reach ----------------------
    {"what": "custom: a total limit that is not a number",
     "argv": ["odds", "custom", "--option", "bust_over=x"], "names": "bust_over"},
    {"what": "custom: a last digit that is not a digit",
     "argv": ["odds", "custom", "--option", "bust_ending=10"], "names": "bust_ending"},
    {"what": "custom: a negative bonus total",
     "argv": ["odds", "custom", "--option", "bonus_total=-1"], "names": "bonus_total"},
    {"what": "custom: allies given as text",
     "argv": ["odds", "custom", "--option", "allies=aces"], "names": "allies"},
    {"what": "custom: an empty name", "argv": ["odds", "custom", "--option", "name="],
     "names": "name"},
    {"what": "custom: a game too large to solve",
     "argv": ["odds", "custom", "--option", "bust_over=none"], "names": "too large"},
    {"what": "custom: a bust rule given as text",
     "argv": ["odds", "custom", "--option", "bust_counts=K"], "names": "bust_counts"},
    {"what": "custom: a die face that is not on the die",
     "argv": ["odds", "custom", "--option", "dice=6", "--drawn", "7"], "names": "'7'"},
    {"what": "custom: removed cards when every turn reshuffles",
     "argv": ["odds", "custom", "--removed", "Kh"], "names": "removed"},
    {"what": "custom: allies in a game without ally cards",
     "argv": ["odds", "custom", "--allies", "1"], "names": "allies"},
    {"what": "custom: --rules given to a game without rule files",
     "argv": ["odds", "pig", "--rules", "rules.json"], "names": "--rules"},
    {"what": "custom: a rule file that does not exist",
     "argv": ["odds", "custom", "--rules", "no-such-rules.json"], "names": "no-such-rules.json"},
    # ---- Lost Cities: cards are colour + rank ---------------------------------------
    {"what": "Lost Cities: a rank above 10", "argv": ["score", "lost-cities", "R11"],
     "names": "'R11'"},
    {"what": "Lost Cities: an unknown colour", "argv": ["score", "lost-cities", "X4"],
     "names": "'X4'"},
    {"what": "Lost Cities: a superscript rank", "argv": ["score", "lost-cities", "R²"],
     "names": "'R²'"},
    {"what": "Lost Cities: numbers going down", "argv": ["score", "lost-cities", "5 4"],
     "names": "must rise"},
    {"what": "Lost Cities: a handshake after a number", "argv": ["score", "lost-cities", "4 H"],
     "names": "handshake"},
    {"what": "Lost Cities: a card twice", "argv": ["score", "lost-cities", "R4 R4"],
     "names": "R4"},
    {"what": "Lost Cities: two colours in one expedition",
     "argv": ["score", "lost-cities", "R4 B5"], "names": "mix"},
    {"what": "Lost Cities: four handshakes", "argv": ["score", "lost-cities", "H H H H"],
     "names": "handshakes"},
    {"what": "Lost Cities odds without a colour",
     "argv": ["odds", "lost-cities", "--hand", "R4", "--deck-left", "20"], "names": "--colour"},
    {"what": "Lost Cities odds without the deck count",
     "argv": ["odds", "lost-cities", "--colour", "R"], "names": "--deck-left"},
    {"what": "Lost Cities odds with an empty deck",
     "argv": ["odds", "lost-cities", "--colour", "R", "--deck-left", "0"], "names": "0"},
    {"what": "Lost Cities odds with a superscript deck count",
     "argv": ["odds", "lost-cities", "--colour", "R", "--deck-left", "²"], "names": "'²'"},
    {"what": "Lost Cities odds: a card in the hand and on a discard pile",
     "argv": ["odds", "lost-cities", "--colour", "R", "--hand", "R4", "--seen", "R4",
              "--deck-left", "20"], "names": "R4"},
    {"what": "Lost Cities odds: a colour that is not one",
     "argv": ["odds", "lost-cities", "--colour", "purple", "--deck-left", "20"],
     "names": "'purple'"},
    {"what": "Lost Cities odds: an expedition of another colour",
     "argv": ["odds", "lost-cities", "--colour", "R", "--expedition", "B4", "--deck-left", "20"],
     "names": "red"},
    {"what": "Lost Cities odds: a phase that is not one",
     "argv": ["odds", "lost-cities", "--colour", "R", "--deck-left", "20", "--phase", "later"],
     "names": "'later'"},
    {"what": "Lost Cities odds: more cards than the game has",
     "argv": ["odds", "lost-cities", "--colour", "R", "--deck-left", "50"], "names": "50"},
    {"what": "a Lost Cities flag given to Pig", "argv": ["odds", "pig", "--colour", "R"],
     "names": "--colour"},
    {"what": "score for a game without it", "argv": ["score", "pig", "3 5"], "names": "pig"},
    # ---- input oddities: long, repeated or misplaced values ------------------------------------
    {"what": "Incan Gold: 56 copies of one trap removed (said 'round must be 1-5, not 57')",
     "argv": ["odds", "incan-gold", "--removed", " ".join(["5s"] * 56)], "names": "5s"},
    {"what": "Captain Seven: five cards as the one doubled card",
     "argv": ["odds", "captain-seven", "--option", "relics=true", "--drawn", "5h", "--removed",
              "Qs", "--doubled", "7h 7h 7h 7h 7h"], "names": "not 5 cards"},
    {"what": "Pig: a target written as 1e9",
     "argv": ["solve", "pig", "--target", "1e9"], "names": "'1e9'"},
    {"what": "a card of 5,000 characters (the message repeats 60)",
     "argv": ["odds", "hit-list", "--drawn", "x" * 5000], "names": "(5,000 characters)"},
    {"what": "a game name of 5,000 characters",
     "argv": ["odds", "g" * 5000], "names": "(5,000 characters)"},
    {"what": "an option name of 5,000 characters",
     "argv": ["odds", "pig", "--option", "k" * 5000 + "=1"], "names": "(5,000 characters)"},
    {"what": "a yes/no option given 5,000 characters",
     "argv": ["odds", "captain-seven", "--option", "relics=" + "y" * 5000],
     "names": "(5,000 characters)"},
    {"what": "a Pig roll of 5,000 characters",
     "argv": ["odds", "pig", "--drawn", "x" * 5000], "names": "(5,000 characters)"},
    {"what": "Incan Gold: a threshold list of 5,000 characters",
     "argv": ["odds", "incan-gold", "--others", "x" * 5000], "names": "(5,000 characters)"},
    {"what": "Hit List: an ace value of 5,000 characters",
     "argv": ["odds", "hit-list", "--drawn", "Ah", "--ace-values", "1" * 5000],
     "names": "(5,000 characters)"},
    {"what": "Captain Seven: a relic of 5,000 characters",
     "argv": ["odds", "captain-seven", "--option", "relics=true", "--relic", "Q" * 5000],
     "names": "(5,000 characters)"},
    {"what": "Pig: a banked score of 5,000 digits, through the API",
     "api": {"game": "pig", "position": {"score": "9" * 5000}}, "error": "PositionError",
     "names": "(5,000 characters)"},
    {"what": "a rule file path of 5,000 characters",
     "argv": ["odds", "custom", "--rules", "r" * 5000], "names": "(5,000 characters)"},
    {"what": "a rule file path with a newline (split the message over two lines)",
     "argv": ["odds", "custom", "--rules", "my\nrules.json"], "names": "'my\\nrules.json'"},
    {"what": "built game: five 7♥ removed from one deck (was 'a valid game')",
     "api": {"game": "custom", "options": {"remove_cards": ["7h", "7h", "7h", "7h", "7h"]}},
     "error": "OptionError", "names": "7h named twice"},
    {"what": "built game: 167 removed cards",
     "api": {"game": "custom", "options": {"remove_cards": ["Ks"] * 167}},
     "error": "OptionError", "names": "Ks named twice"},
    {"what": "built game: a joker named as a card to remove (it removed nothing)",
     "api": {"game": "custom", "options": {"remove_cards": ["JK"]}},
     "error": "OptionError", "names": "JK"},
    {"what": "built game: allies from earlier turns when allies are discarded each turn",
     "api": {"game": "custom", "options": {"allies": {"ranks": ["A"]}, "allies_persist": False,
                                           "reshuffle_each_turn": False},
             "position": {"allies": 1}}, "error": "PositionError", "names": "allies_persist"},
    # ---- rule files that cannot be read safely --------------------------------------------------
    {"what": "a rule file nested 5,000 deep (RecursionError before)",
     "argv": ["odds", "custom", "--rules", BAD_RULES + "nested.json"], "names": "nested"},
    {"what": "--rules /dev/zero (read gigabytes before)",
     "argv": ["odds", "custom", "--rules", "/dev/zero"], "names": "'/dev/zero'"},
    {"what": "--rules /dev/urandom",
     "argv": ["odds", "custom", "--rules", "/dev/urandom"], "names": "'/dev/urandom'"},
    {"what": "--rules a pipe nobody writes to (blocked for ever before)",
     "argv": ["odds", "custom", "--rules", FIFO], "names": "not a regular file"},
    {"what": "--rules a directory",
     "argv": ["odds", "custom", "--rules", "tests/data/bad_rules"], "names": "a directory"},
    {"what": "a rule file over 20,000 characters",
     "argv": ["odds", "custom", "--rules", BAD_RULES + "too_long.json"], "names": "20,000"},
    {"what": "a rule file giving bust_over twice (solved with the second before)",
     "argv": ["odds", "custom", "--rules", BAD_RULES + "duplicate_keys.json"],
     "names": "'bust_over': given twice"},
    {"what": "a variant's rule file giving an option twice",
     "argv": ["odds", "custom", "--rules", BAD_RULES + "duplicate_option.json"],
     "names": "'target': given twice"},
    {"what": "a rule file giving a field twice, through the API",
     "api": {"game": "custom", "rules": BAD_RULES + "duplicate_keys.json"},
     "error": "RulesError", "names": "'bust_over': given twice"},
    {"what": "a rule file with NaN", "argv": ["odds", "custom", "--rules", BAD_RULES + "nan.json"],
     "names": "NaN"},
    {"what": "a rule file with a number of 5,000 digits",
     "argv": ["odds", "custom", "--rules", BAD_RULES + "huge_number.json"],
     "names": "far too large"},
    {"what": "a rule file with a name of 5,000 characters",
     "argv": ["odds", "custom", "--rules", BAD_RULES + "long_name.json"],
     "names": "(5,000 characters)"},
    {"what": "a rule file that is not UTF-8",
     "argv": ["odds", "custom", "--rules", "tests/data/bad_rules/not_utf8.json"], "names": "UTF-8"},
    # ---- sweeps checked before they are built ----------------------------------------------------
    {"what": "a sweep to 10^20 (OverflowError before)",
     "argv": ["sweep", "pig", "--option", "target=0..100000000000000000000"],
     "names": "far too large"},
    {"what": "a sweep of 10^8 points (17 s and 4 GB before the refusal)",
     "argv": ["sweep", "pig", "--option", "target=1..100000000"], "names": "100,000,000 points"},
    {"what": "a sweep of a yes/no option (every point an error before)",
     "argv": ["sweep", "captain-seven", "--option", "relics=0..1"],
     "names": "not a whole number"},
    {"what": "a sweep of a word option",
     "argv": ["sweep", "incan-gold", "--option", "tie_break=1..2"],
     "names": "not a whole number"},
    {"what": "a sweep of a free-text option",
     "argv": ["sweep", "custom", "--option", "name=1..3"], "names": "not a whole number"},
    {"what": "a sweep leaving the option's range",
     "argv": ["sweep", "pig", "--option", "die_sides=15..30"], "names": "2-20"},
    {"what": "a sweep range in full-width digits",
     "argv": ["sweep", "pig", "--option", "target=１..５"], "names": "'１'"},
    {"what": "a swept option also given fixed",
     "argv": ["sweep", "pig", "--option", "target=10..30:10", "--option", "target=50"],
     "names": "give the swept option once"},
    {"what": "a sweep on a million local processes",
     "argv": ["sweep", "pig", "--option", "target=10..30:10", "--workers", "1000000"],
     "names": "--workers must be 1-64"},
    # ---- contradictions: a value given twice -----------------------------------------------------
    {"what": "--drawn given twice (the second won before)",
     "argv": ["odds", "pig", "--drawn", "3", "--drawn", "4"], "names": "--drawn given twice"},
    {"what": "--round given twice",
     "argv": ["odds", "incan-gold", "--round", "1", "--round", "2"],
     "names": "--round given twice"},
    {"what": "--players given twice",
     "argv": ["solve", "pig", "--target", "20", "--players", "2", "--players", "3"],
     "names": "--players given twice"},
    {"what": "--rules given twice",
     "argv": ["odds", "custom", "--rules", "a.json", "--rules", "b.json"],
     "names": "--rules given twice"},
    {"what": "--option target given twice",
     "argv": ["odds", "pig", "--option", "target=30", "--option", "target=40"],
     "names": "'target' given twice"},
    {"what": "an option given twice through the API",
     "api": {"game": "pig", "options": ["target=30", "target=40"]},
     "error": "OptionError", "names": "given twice"},
    {"what": "Incan Gold: empty --others (played alone before)",
     "argv": ["odds", "incan-gold", "--others", ""], "names": "others is empty"},
    {"what": "Incan Gold: --others ','",
     "argv": ["odds", "incan-gold", "--others", ","], "names": "empty threshold"},
    {"what": "Incan Gold: --others '5,,10' (read as 5,10 before)",
     "argv": ["odds", "incan-gold", "--others", "5,,10"], "names": "empty threshold"},
    # ---- impossible positions --------------------------------------------------------------------
    {"what": "Lost Cities: an expedition while the deck is full (nothing can have been played)",
     "argv": ["odds", "lost-cities", "--colour", "R", "--deck-left", "44", "--expedition",
              "3 4"], "names": "only 0 can have been played"},
    {"what": "Lost Cities: seven cards face up after one draw",
     "argv": ["odds", "lost-cities", "--colour", "R", "--deck-left", "43", "--seen",
              "R3 R4 R5 R6 R7 R8 R9"], "names": "only 1 can have been played"},
    {"what": "Incan Gold: artifacts worth 13 on the path (no such sum; round 1's artifact "
             "unflipped)",
     "argv": ["odds", "incan-gold", "--drawn", "5h", "--carried", "5", "--artifacts", "13"],
     "names": "--artifacts 13"},
    {"what": "Incan Gold: carrying 4 after a 5 with nobody else inside",
     "argv": ["odds", "incan-gold", "--drawn", "5h", "--carried", "4"],
     "names": "--carried 4"},
    {"what": "Incan Gold: a split that two explorers inside cannot leave",
     "argv": ["odds", "incan-gold", "--drawn", "5h", "--carried", "2", "--path", "1",
              "--others", "5,6"], "names": "3 explorers inside"},
    {"what": "Pig: --allies (a card-game flag)", "argv": ["odds", "pig", "--allies", "1"],
     "names": "--allies"},
    # ---- lists with an entry left out, addresses, long values in the lab's boxes ---------------
    {"what": "Lands Uncharted: cursed queens with an empty entry (read as two before)",
     "argv": ["odds", "lands-uncharted", "--option", "cursed_idol=hearts,,spades"],
     "names": "empty entry"},
    {"what": "Lands Uncharted: cursed queens given as a lone comma (read as off before)",
     "argv": ["odds", "lands-uncharted", "--option", "cursed_idol=,"], "names": "empty entry"},
    {"what": "Lands Uncharted: cursed queens with an empty entry, through the API",
     "api": {"game": "lands-uncharted", "options": {"cursed_idol": "spades,"}},
     "error": "OptionError", "names": "empty entry"},
    {"what": "custom: ranks to remove with an empty entry (read as K,Q before)",
     "argv": ["odds", "custom", "--option", "remove_ranks=K,,Q"], "names": "empty entry"},
    {"what": "Hit List: ace values with an empty entry (read as 11,1 before)",
     "argv": ["odds", "hit-list", "--drawn", "Ah Ad", "--ace-values", "11,,1"],
     "names": "empty entry"},
    {"what": "custom: an ally rank of 5,000 characters (repeated whole before)",
     "api": {"game": "custom", "options": {"allies": {"ranks": ["x" * 5000]}}},
     "error": "OptionError", "names": "(5,000 characters)"},
    {"what": "custom: a suit to remove of 5,000 characters",
     "argv": ["odds", "custom", "--option", "remove_suits=" + "s" * 5000],
     "names": "(5,000 characters)"},
    {"what": "a policy of 5,000 characters",
     "argv": ["solve", "pig", "--policy", ":" + "9" * 4999, "--policy", "hold:20"],
     "names": "(5,000 characters)"},
    {"what": "Lost Cities: a colour of 5,000 characters",
     "argv": ["odds", "lost-cities", "--colour", "R" * 5000, "--deck-left", "20"],
     "names": "(5,000 characters)"},
    {"what": "a sweep on a scheduler address without a port (waited 10 s before)",
     "argv": ["sweep", "pig", "--option", "target=10..20:10", "--scheduler", "x"],
     "names": "bad scheduler address 'x'"},
    {"what": "a sweep on a scheduler port out of range (waited 10 s before)",
     "argv": ["sweep", "pig", "--option", "target=10..20:10", "--scheduler",
              "localhost:99999"], "names": "'localhost:99999'"},
    {"what": "a sweep on an empty scheduler address",
     "argv": ["sweep", "pig", "--option", "target=10..20:10", "--scheduler", ""],
     "names": "bad scheduler address ''"},
    {"what": "a rule file naming its game with a NUL character (accepted before)",
     "argv": ["odds", "custom", "--rules", BAD_RULES + "control_in_name.json"],
     "names": "control character"},
    {"what": "a rule file naming its game with half a character pair (accepted; a page "
             "cannot send it)",
     "argv": ["odds", "custom", "--rules", BAD_RULES + "half_pair_name.json"],
     "names": "'\\ud83c'"},
    {"what": "a built game's name with a tab, on the command line",
     "argv": ["odds", "custom", "--option", "name=My\tgame"], "names": "'My\\tgame'"},
    {"what": "a rule file with a number overflowing to infinity (said 'inf is not of type' "
             "before)",
     "argv": ["odds", "custom", "--rules", BAD_RULES + "overflow_number.json"],
     "names": "'1e999'"},
    # ---- the API given values of the wrong kind (TypeError or AttributeError before) ---------
    {"what": "API: cards given as a number",
     "api": {"game": "hit-list", "position": {"drawn": 3.0}}, "error": "CardError",
     "names": "3.0"},
    {"what": "API: a list of cards holding a number",
     "api": {"game": "captain-seven", "position": {"removed": ["Ah", 7]}}, "error": "CardError",
     "names": "bad card 7"},
    {"what": "API: Pig rolls given as a number",
     "api": {"game": "pig", "position": {"drawn": 1e308}}, "error": "PositionError",
     "names": "1e+308"},
    {"what": "API: Incan Gold thresholds given as one number",
     "api": {"game": "incan-gold", "position": {"others": 5}}, "error": "PositionError",
     "names": "others 5"},
    {"what": "API: Hit List ace values given as infinity",
     "api": {"game": "hit-list", "position": {"drawn": "Ah", "ace_values": float("inf")}},
     "error": "PositionError", "names": "inf"},
]

# Values an option refuses, by the option's type; ranges add low-1 and high+1.
BAD_NUMBERS = ("x", "1.5", "²", "１２", "", "0x10", "3e2")
BAD_BOOLEANS = ("maybe", "2", "²", "")
BAD_WORDS = ("nope",)
BAD_CARDS = ("Zz", "1h", "Ahh", "11s", "♠A")


def generated() -> Iterator[dict[str, Any]]:
    """Every option of every game with values it refuses; bad cards for every card game."""
    from pushluck_teach.games import all_games

    for spec in all_games():
        cls = spec.variant_cls
        hints = typing.get_type_hints(cls)
        for name in cls.option_names():
            info = cls.option_info(name)
            hint = hints[name]
            values: list[str] = []
            if hint is int:
                values = list(BAD_NUMBERS)
                if info.low is not None:
                    values.append(str(info.low - 1))
                if info.high is not None:
                    values.append(str(info.high + 1))
            elif hint is bool:
                values = list(BAD_BOOLEANS)
            elif (hint is str and info.choices) or typing.get_origin(hint) is tuple:
                values = list(BAD_WORDS)  # (free text, such as a built game's name, has none)
            for value in values:
                yield {"what": f"{spec.name}: option {name}={value!r}",
                       "argv": ["odds", spec.name, "--option", f"{name}={value}"],
                       "names": name}
        yield {"what": f"{spec.name}: an unknown option",
               "argv": ["odds", spec.name, "--option", "colour=red"], "names": "'colour'"}
        if spec.name == "pig" or "drawn" not in {f.name for f in spec.position_flags}:
            continue   # dice, or a game whose position is not this turn's cards
        for token in BAD_CARDS:
            yield {"what": f"{spec.name}: bad card {token!r}",
                   "argv": ["odds", spec.name, "--drawn", token], "names": repr(token)}
        # Every card game's default deck holds A♠ (Incan Gold: K♠, a trap) exactly once.
        twice = "Ks Ks" if spec.name == "incan-gold" else "As As"
        yield {"what": f"{spec.name}: the same card drawn twice",
               "argv": ["odds", spec.name, "--drawn", twice], "names": twice.split()[0]}


def cases() -> list[dict[str, Any]]:
    """All cases, listed first, each with a unique ``id``."""
    out = []
    seen = set()
    for case in [*LISTED, *generated()]:
        key = json.dumps(case.get("argv") or case.get("api"), ensure_ascii=False, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        out.append({"id": len(out) + 1, **case})
    return out


# ---- running a case ---------------------------------------------------------------------------


def run_cli(argv: list[str]) -> dict[str, Any]:
    """Run ``pushluck ARGV`` in this process: exit code, stdout, stderr and seconds."""
    from pushluck_teach.cli import main

    if FIFO in argv and not os.path.exists(FIFO):
        os.mkfifo(FIFO)
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.chdir(ROOT), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException as exc:  # noqa: BLE001 - a case must never crash the table
            code = f"raised {type(exc).__name__}: {exc}"
    return {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue(),
            "seconds": time.perf_counter() - start}


def run_api(call: dict[str, Any]) -> dict[str, Any]:
    """Build the variant (and the position) of an API case: the error class and its message."""
    from pushluck_teach.games import get_game
    from pushluck_teach.games.rules_format import read_rules_file

    spec = get_game(call["game"])
    start = time.perf_counter()
    try:
        rules = read_rules_file(ROOT / call["rules"]) if "rules" in call else None
        variant = spec.variant(call.get("options", {}), rules=rules)
        if "position" in call:
            spec.position(variant, **call["position"])
    except Exception as exc:  # noqa: BLE001 - recorded and checked by the test
        return {"error": type(exc).__name__, "message": str(exc),
                "seconds": time.perf_counter() - start}
    return {"error": None, "message": "", "seconds": time.perf_counter() - start}


def message_of(case: dict[str, Any]) -> str:
    """The one-line message a case gets now (CLI: stderr; API: ``Error: message``)."""
    if "argv" in case:
        return run_cli(case["argv"])["stderr"].strip()
    result = run_api(case["api"])
    return f"{result['error']}: {result['message']}"


# ---- the document ---------------------------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _shell(argv: list[str]) -> str:
    import shlex

    shown = [a if len(a) <= 60 else a[:40] + "…" for a in argv]
    return "pushluck " + " ".join(shlex.quote(a) for a in shown)


def render_doc(records: list[dict[str, Any]]) -> str:
    """``docs/bad-inputs.md`` from the recorded cases."""
    lines = [
        "# Bad inputs and impossible positions",
        "",
        "Every input below is refused with one line naming what was wrong: the `pushluck`",
        "command exits with status 2 and prints the line on stderr (no traceback), the Python",
        "API raises `OptionError`, `PositionError` (both `RulesError`) or `CardError`.",
        f"{len(records)} cases, generated by `scripts/bad_inputs.py` from the data in",
        "`tests/data/bad_inputs.json`, which `tests/test_bad_inputs.py` runs in full.",
        "",
        "Numbers are read one way everywhere: an optional sign and the digits 0-9. Other Unicode",
        "digits (`²`, full-width `１２`) are refused, so a value means the same wherever it is",
        "typed. Every option's allowed values are in `pushluck list` and the rules document.",
        "",
        "| # | What | Input | Message |",
        "|---|---|---|---|",
    ]
    for record in records:
        if "argv" in record:
            shown = f"`{_cell(_shell(record['argv']))}`"
        else:
            call = record["api"]
            parts = [f"game={call['game']!r}"]
            if call.get("options"):
                options = repr(call["options"])
                parts.append(f"options={options if len(options) <= 80 else options[:60] + '…'}")
            if call.get("rules"):
                parts.append(f"rules=read_rules_file({call['rules']!r})")
            if call.get("position"):
                short = {k: (v if not isinstance(v, str) or len(v) <= 40 else v[:30] + "…")
                         for k, v in call["position"].items()}
                parts.append(f"position={short!r}")
            shown = "API `" + _cell(", ".join(parts)) + "`"
        lines.append(f"| {record['id']} | {_cell(record['what'])} | {shown} | "
                     f"{_cell(record['message'])} |")
    return "\n".join(lines) + "\n"


def record_all() -> list[dict[str, Any]]:
    return [{**case, "message": message_of(case)} for case in cases()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the recorded messages or the document are out of date")
    args = parser.parse_args(argv)
    records = record_all()
    data = json.dumps(records, ensure_ascii=False, indent=1) + "\n"
    doc = render_doc(records)
    if args.check:
        stale = [p for p, text in ((DATA, data), (DOC, doc))
                 if not p.exists() or p.read_text(encoding="utf-8") != text]
        for path in stale:
            print(f"{path.relative_to(ROOT)} is out of date: run scripts/bad_inputs.py",
                  file=sys.stderr)
        return 1 if stale else 0
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(data, encoding="utf-8")
    DOC.write_text(doc, encoding="utf-8")
    print(f"{len(records)} cases: {DATA.relative_to(ROOT)}, {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
