"""The `pushluck` command: its JSON contract and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pushluck_teach.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "odds", "pig", "--drawn", "4 6", "--json", "--exact")
    assert code == 0 and err == ""
    data = json.loads(out)
    for key in ("p_bust_next", "ev_stop", "ev_draw_once", "ev_optimal", "best_action"):
        assert key in data
    assert data["p_bust_next_exact"] == "1/6"
    assert data["ev_stop"] == 10.0 and data["ev_stop_exact"] == "10/1"
    assert data["best_action"] == "draw"


def test_odds_json_stop_is_null_before_anything_is_drawn(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    code, out, _ = run(capsys, "odds", "pig", "--json")
    assert code == 0 and json.loads(out)["ev_stop"] is None


def test_odds_table_shows_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "pig", "--drawn", "6 6 6 2")
    assert code == 0
    assert "1/6" in out and "Best action" in out and "stop" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["odds", "nosuchgame"], "unknown game 'nosuchgame'"),
        (["odds", "pig", "--drawn", "1"], "roll 1 busts"),
        (["odds", "pig", "--drawn", "9"], "bad roll '9'"),
        (["odds", "pig", "--option", "colour=red"], "unknown option 'colour'"),
        (["odds", "pig", "--option", "target"], "KEY=VALUE"),
        (["odds", "pig", "--option", "die_sides=one"], "die_sides"),
        (["odds", "pig", "--allies", "2"], "--allies does not apply to pig"),
        (["odds", "pig", "--allies", "two"], "--allies"),
        (["odds"], "game"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                          message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_games_lists_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    from pushluck_teach.games import all_games

    code, out, _ = run(capsys, "games")
    assert code == 0
    # The five games of the rules, named independently of the registry.
    for name in ("pig", "captain-seven", "hit-list", "incan-gold", "lands-uncharted"):
        assert name in out, name
    for spec in all_games():
        assert spec.name in out
        for option in spec.variant_cls.option_names():
            assert option in out, (spec.name, option)


def test_console_script_runs_as_a_module() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pushluck_teach.cli", "odds", "pig", "--drawn", "5", "--json"],
        capture_output=True, text=True, check=True,
    )
    assert json.loads(result.stdout)["ev_stop"] == 5.0


def test_incan_gold_others_flag_reaches_the_explorers_model(capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    flips = ["--drawn", "5s Kd 9h 3d", "--json", "--exact"]
    code, solo_out, _ = run(capsys, "odds", "incan-gold", *flips)
    assert code == 0
    code, group_out, _ = run(capsys, "odds", "incan-gold", *flips, "--others", "5")
    assert code == 0
    solo, group = json.loads(solo_out), json.loads(group_out)
    # The bust odds depend only on the cards; what leaving banks depends on who shares it.
    assert group["p_bust_next_exact"] == solo["p_bust_next_exact"] == "1/13"
    assert group["ev_stop_exact"] != solo["ev_stop_exact"]


def test_incan_gold_odds_say_which_round_they_assumed(capsys: pytest.CaptureFixture[str]) -> None:
    # ♥6 is the artifact of round 2, so round 2 is the earliest these cards allow.
    code, out, _ = run(capsys, "odds", "incan-gold", "--drawn", "6h", "--json")
    assert code == 0 and json.loads(out)["assumed"] == {"round": 2}
    code, out, _ = run(capsys, "odds", "incan-gold", "--drawn", "6h")
    assert code == 0 and "Assumed round 2" in out and "--round" in out
    code, out, _ = run(capsys, "odds", "incan-gold", "--drawn", "6h", "--round", "3", "--json")
    assert code == 0 and "assumed" not in json.loads(out)


def test_captain_seven_queen_doubling_is_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    # 5♥ then 3♠ doubled by the spent queen: total 5 + 3 + 3 = 11; the deck lacks 5♥ 3♠ Q♠ (51).
    # Caught next by a 6 (17), a 7 or a joker: by hand 4 + 4 + 2 = 10 of the 51 cards left.
    code, out, _ = run(capsys, "odds", "captain-seven", "--option", "relics=true", "--drawn",
                       "5h 3s", "--removed", "Qs", "--doubled", "3s", "--json", "--exact")
    data = json.loads(out)
    assert code == 0 and data["turn_total"] == 11 and data["p_bust_next_exact"] == "10/51"


def test_a_position_too_large_for_fractions_is_answered_in_decimals(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Round 1 after 9♦ with explorers leaving at 5 and 10 gems: the exact solver refuses it
    (about 1.6 million states), the page answers it in floats; the page's command must too,
    saying so, with the next draw's bust chance still exact (no trap flipped: no trap can
    spring, 0)."""
    argv = ["odds", "incan-gold", "--drawn", "9d", "--others", "5,10"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "Decimals only: exact fractions would need about" in text
    assert "P(next draw busts)               0.000000   = 0/1" in text
    assert main([*argv, "--json", "--exact"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["exact_refused"].startswith("exact fractions would need about")
    assert payload["p_bust_next_exact"] == "0/1" and "ev_optimal_exact" not in payload
    # stopping banks the 9 gems shared among three explorers: 3 each, and drawing is better
    assert payload["ev_stop"] == 3.0 and payload["best_action"] == "draw"
    assert payload["ev_optimal"] > payload["ev_draw_once"] > payload["ev_stop"]


def test_odds_prints_decimals_at_once_where_fractions_take_seconds(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Incan Gold's round 3 start (about 200,000 solver states): decimals without ``--exact``,
    saying so; with ``--exact`` the fractions, whose decimals are the same to 6 places."""
    argv = ["odds", "incan-gold", "--round", "3"]
    assert main(argv) == 0
    decimals = capsys.readouterr().out
    assert "Decimals only: exact fractions need over" in decimals
    assert "EV under optimal play" in decimals and "   = " not in decimals.split("EV if")[1]
    assert main([*argv, "--exact"]) == 0
    exact = capsys.readouterr().out
    assert "Decimals only" not in exact

    def ev_optimal(text: str) -> str:
        return next(line for line in text.splitlines() if "EV under optimal play" in line)

    assert "   = " in ev_optimal(exact)
    assert ev_optimal(exact).split()[4] == ev_optimal(decimals).split()[4]


def test_odds_json_gives_every_fraction_it_has(capsys: pytest.CaptureFixture[str]) -> None:
    """``--json`` without ``--exact`` carries the fractions it found at once: all of them for
    a small turn (Pig after 4 and 6: 1/6 to bust, 10 banked), and only the next card's chance
    where the expected values came out in decimals (Incan Gold's round 3 start: no trap can
    repeat on the first card)."""
    assert main(["odds", "pig", "--drawn", "4 6", "--json"]) == 0
    small = json.loads(capsys.readouterr().out)
    assert small["p_bust_next_exact"] == "1/6" and small["ev_stop_exact"] == "10/1"
    assert "exact_refused" not in small and "ev_optimal_exact" in small
    assert main(["odds", "incan-gold", "--round", "3", "--json"]) == 0
    big = json.loads(capsys.readouterr().out)
    assert big["exact_refused"].startswith("exact fractions need over")
    assert big["p_bust_next_exact"] == "0/1" and "ev_optimal_exact" not in big
    assert big["ev_optimal"] > 0
