"""Every bad input and impossible position of the table (``tests/data/bad_inputs.json``) is
refused cleanly: the command exits with status 2 and one line on stderr, nothing on stdout, no
traceback, quickly; the API raises the recorded error class.  The message names what was wrong
(the case's ``names``), is still the one recorded, and ``docs/bad-inputs.md`` is the table
rendered from the same data (``scripts/bad_inputs.py`` regenerates both)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pushluck_teach import cards
from pushluck_teach.games import base

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "bad_inputs.py"
_spec = importlib.util.spec_from_file_location("bad_inputs", SCRIPT)
assert _spec is not None and _spec.loader is not None
table = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(table)

RECORDS: list[dict[str, Any]] = json.loads(table.DATA.read_text(encoding="utf-8"))
CLI = [r for r in RECORDS if "argv" in r]
API = [r for r in RECORDS if "api" in r]
#: A refusal must come at once: reading input, never solving; within the 10 s every bad
#: input is promised, also on a machine busy with other work.
SECONDS = 10.0
ERRORS = {"OptionError": base.OptionError, "PositionError": base.PositionError,
          "RulesError": base.RulesError, "CardError": cards.CardError}


def test_the_table_is_large_and_covers_every_game() -> None:
    assert len(RECORDS) >= 100
    from pushluck_teach.games import all_games

    for spec in all_games():
        for name in spec.variant_cls.option_names():
            assert any(f"--option {name}=" in " ".join(r.get("argv", [])) for r in RECORDS), name


def test_the_recorded_cases_are_the_cases_the_script_lists() -> None:
    listed = table.cases()
    assert [(c.get("argv"), c.get("api")) for c in listed] == \
        [(r.get("argv"), r.get("api")) for r in RECORDS], "run scripts/bad_inputs.py"


@pytest.mark.parametrize("record", CLI, ids=[f"cli{r['id']}" for r in CLI])
def test_command_refuses_with_one_line(record: dict[str, Any]) -> None:
    result = table.run_cli(record["argv"])
    assert result["code"] == 2, result
    assert result["stdout"] == ""
    err = result["stderr"]
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("pushluck: error: ") and "Traceback" not in err
    assert record["names"] in err, (record["names"], err)
    assert err.strip() == record["message"], "run scripts/bad_inputs.py and review the diff"
    assert result["seconds"] < SECONDS


@pytest.mark.parametrize("record", API, ids=[f"api{r['id']}" for r in API])
def test_api_raises_the_right_error(record: dict[str, Any]) -> None:
    result = table.run_api(record["api"])
    expected = ERRORS[record["error"]]
    assert result["error"] is not None, "accepted"
    assert issubclass(getattr(base, result["error"], getattr(cards, result["error"], None))
                      or Exception, expected), result
    assert "\n" not in result["message"] and record["names"] in result["message"]
    assert f"{result['error']}: {result['message']}" == record["message"]
    assert result["seconds"] < SECONDS


def test_the_document_is_rendered_from_the_data() -> None:
    doc = (ROOT / "docs" / "bad-inputs.md").read_text(encoding="utf-8")
    assert doc == table.render_doc(RECORDS), "run scripts/bad_inputs.py"


@pytest.mark.parametrize("argv", [
    ["odds", "pig", "--drawn", "²"],
    ["odds", "captain-seven", "--option", "relics=true", "--removed", "2s 3s 4s 5s 6s"],
    ["solve", "pig", "--option", "die_sides=100000"],
])
def test_a_real_process_prints_one_line_and_exits_2(argv: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-m", "pushluck_teach.cli", *argv],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("42", 42), (" 7 ", 7), ("-3", -3),
                                             ("+5", 5), ("007", 7)])
def test_whole_numbers_are_read_from_ascii_digits(text: str, value: int) -> None:
    assert base.parse_whole_number(text, "x") == value


@pytest.mark.parametrize("text", ["²", "１２", "٣", "1_000", "1.0", "", "-", "1 2", "९"])
def test_other_digits_are_refused(text: str) -> None:
    with pytest.raises(base.RulesError, match="whole number"):
        base.parse_whole_number(text, "x")


def test_a_closed_pipe_is_quiet() -> None:
    """`pushluck ... | head -c 10`: no traceback, the status of a command cut off by SIGPIPE."""
    script = (f"{sys.executable} -m pushluck_teach.cli solve pig --target 30 --exact --json "
              "| head -c 10 >/dev/null; echo status=${PIPESTATUS[0]}")
    for _ in range(3):
        proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                              timeout=120)
        assert proc.stderr == "", proc.stderr
        assert proc.stdout.strip() in ("status=0", "status=141"), proc.stdout


def test_no_message_repeats_a_long_value_whole() -> None:
    """A value of thousands of characters is shown shortened: every line stays short."""
    for record in RECORDS:
        assert len(record["message"]) < 330, (record["id"], record["message"][:100])


def _limited(gigabytes: float) -> Any:
    """A ``preexec_fn`` capping the child's address space (the issue's 1 GB)."""
    import resource

    def limit() -> None:
        size = int(gigabytes * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    return limit


@pytest.mark.parametrize("argv", [
    ["odds", "custom", "--rules", "/dev/zero"],
    ["odds", "custom", "--rules", "/dev/urandom"],
    ["odds", "custom", "--rules", "tests/data/bad_rules/nested.json"],
    ["sweep", "pig", "--option", "target=1..100000000"],
    ["sweep", "pig", "--option", "target=0..100000000000000000000"],
])
def test_heavy_bad_inputs_are_refused_within_10_s_and_1_gb(argv: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-m", "pushluck_teach.cli", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=10,
                          preexec_fn=_limited(1.0))
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr[-500:]
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_a_pipe_with_no_writer_is_refused_not_waited_on(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "rules.json"
    os.mkfifo(fifo)
    proc = subprocess.run([sys.executable, "-m", "pushluck_teach.cli", "odds", "custom",
                           "--rules", str(fifo)], capture_output=True, text=True, timeout=10)
    assert proc.returncode == 2 and "not a regular file" in proc.stderr
    assert proc.stderr.count("\n") == 1


def test_output_that_cannot_be_written_is_one_line() -> None:
    """``pushluck games > /dev/full``: one line on stderr, status 2, no second complaint when
    Python flushes at exit."""
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "pushluck_teach.cli", "games"],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr == "pushluck: error: cannot write the output: No space left on device\n"


def _solve_pig(cache: str) -> subprocess.CompletedProcess[str]:
    import os

    env = {**os.environ, "PUSHLUCK_CACHE": cache}
    return subprocess.run([sys.executable, "-m", "pushluck_teach.cli", "solve", "pig",
                           "--target", "23", "--json"], capture_output=True, text=True,
                          timeout=120, env=env)


def test_a_cache_path_too_long_is_skipped(tmp_path: Path) -> None:
    """The docs promise an unusable cache is skipped: a path over the system's limit solves
    without a cache and gives the same answer."""
    plain = _solve_pig("off")
    too_long = _solve_pig(str(tmp_path / ("c" * 300)))
    assert plain.returncode == too_long.returncode == 0, too_long.stderr[-400:]
    assert json.loads(too_long.stdout) == json.loads(plain.stdout)


def test_a_truncated_cache_file_is_recomputed(tmp_path: Path) -> None:
    first = _solve_pig(str(tmp_path))
    assert first.returncode == 0
    (saved,) = tmp_path.glob("pig-*.npz")
    whole = saved.read_bytes()
    saved.write_bytes(whole[: len(whole) // 3])  # a copy cut short
    again = _solve_pig(str(tmp_path))
    assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr[-400:]
    assert json.loads(again.stdout) == json.loads(first.stdout)
    assert saved.read_bytes() != whole[: len(whole) // 3]  # written whole again


def test_a_rule_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """Windows Notepad starts a UTF-8 file with a byte-order mark: the file is read as if it
    had none (it was refused as 'not JSON' with Python's advice to decode it otherwise)."""
    from pushluck_teach.games.rules_format import read_rules_file, rules_from_json

    text = '{"format": "pushluck-rules/1", "name": "Notepad game", "bust_over": 21}'
    saved = tmp_path / "notepad.json"
    saved.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    rules = rules_from_json(read_rules_file(saved))
    assert (rules.name, rules.bust_over) == ("Notepad game", 21)
